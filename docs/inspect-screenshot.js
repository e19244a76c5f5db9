// Regenerates docs/inspect-report.png, docs/inspect.md's picture of a `winnow inspect` report:
// the bundled sample WARC scored by the default model, opened in headless Chromium.
//
//   npx tsc -b && node docs/inspect-screenshot.js        (WINNOW_CHROMIUM=/path/to/chromium to choose the browser)
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { writeInspectReport } from "@winnow/inspect";

const root = fileURLToPath(new URL("..", import.meta.url));
const output = join(root, "docs", "inspect-report.png");
const dir = mkdtempSync(join(tmpdir(), "winnow-screenshot-"));
try {
  const report = join(dir, "report.html");
  process.chdir(root); // the report names its input as given: fixtures/sample.warc.gz
  await writeInspectReport({ inputs: ["fixtures/sample.warc.gz"], output: report, model: "mlp" });
  const browser = await chromium.launch({
    executablePath: process.env.WINNOW_CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
    // The first sample page: an article whose navigation and body are told apart.
    await page.goto(`${pathToFileURL(report).href}#doc-0`);
    await page.locator(".block").first().waitFor();
    // One block's features opened, to show what "expand" looks like.
    await page.locator(".block.kept button.more").first().click();
    await page.locator("main").evaluate((main) => main.scrollTo(0, 0));
    await page.screenshot({ path: output, type: "png" });
  } finally {
    await browser.close();
  }
  console.log(`wrote ${output} (${Math.round(statSync(output).size / 1024)} KB)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
