// The report in a real headless browser: kept and dropped blocks shown as such, and page text
// that looks like markup shown as text, never run.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { heuristicClassifier } from "@winnow/models";
import { launchChromium, noteIfSkipped, SKIP_BROWSER_TESTS } from "../test/chromium.js";
import { hostileSite, IMG_TEXT, SAMPLE_WARC, SCRIPT_TEXT } from "../test/fixtures.js";
import { buildReportData, type ReportData } from "./report-data.js";
import { writeInspectReport } from "./inspect.js";

noteIfSkipped("report browser tests");

describe.skipIf(SKIP_BROWSER_TESTS)("inspect report in Chromium", () => {
  let site: string;
  let dir: string;
  let report: string;
  let data: ReportData;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    site = hostileSite();
    dir = mkdtempSync(join(tmpdir(), "winnow-report-"));
    report = join(dir, "report.html");
    // The hostile pages first, then the sample WARC's first pages, cut by the limit.
    await writeInspectReport({ inputs: [site, SAMPLE_WARC], output: report, model: "heuristic", limit: 4 });
    data = await buildReportData([site, SAMPLE_WARC], { classifier: heuristicClassifier(), limit: 4 });
    browser = await launchChromium();
    page = await browser.newPage();
    page.setDefaultTimeout(5_000);
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (site) rmSync(join(site, ".."), { recursive: true, force: true });
  });

  it("shows each block of a real page as content or boilerplate, with its score, as decided", async () => {
    await page.goto(`${pathToFileURL(report).href}#doc-2`);
    const doc = data.documents[2];
    expect(doc.url).toBe("https://www.coryd.dev/posts/2021/a-brief-intro-to-git");
    const blocks = page.locator("main .block");
    await expect.poll(() => blocks.count()).toBe(doc.blocksTotal);
    const shown = await blocks.evaluateAll((nodes) =>
      nodes.map((n) => ({
        kept: n.classList.contains("kept") ? 1 : n.classList.contains("dropped") ? 0 : -1,
        verdict: n.querySelector(".verdict")!.textContent,
        score: n.querySelector(".score")!.textContent,
        text: n.querySelector(".text")!.textContent,
      })),
    );
    expect(shown).toEqual(
      doc.blocks.map((b) => ({ kept: b.kept, verdict: b.kept ? "content" : "boilerplate", score: b.score.toFixed(3), text: b.text })),
    );
    expect(await page.locator("main .counts").textContent()).toContain(`kept ${doc.blocksKept} of ${doc.blocksTotal} blocks`);
    // The document list shows every document with its counts, and the report says it was limited.
    expect(await page.locator("#document-list .doc-counts").allTextContents()).toEqual(
      data.documents.map((d) => `${d.blocksKept}/${d.blocksTotal}`),
    );
    expect(await page.locator("#limited").textContent()).toMatch(/only the first 4 documents/);
  });

  it("expands a block's features and filters to content only", async () => {
    await page.goto(`${pathToFileURL(report).href}#doc-2`);
    const first = page.locator("main .block").first();
    await expect.poll(() => first.locator("dl.features").isVisible()).toBe(false);
    await first.locator("button.more").click();
    expect(await first.locator("dl.features").textContent()).toContain("link density");
    await page.getByRole("button", { name: "content only" }).click();
    const visible = await page
      .locator("main .block")
      .evaluateAll((nodes) => nodes.filter((n) => (n as HTMLElement).offsetParent !== null).map((n) => n.classList.contains("kept")));
    expect(visible).toEqual(new Array(data.documents[2].blocksKept).fill(true));
  });

  it("shows markup in page text as text and runs none of it", async () => {
    await page.goto(`${pathToFileURL(report).href}#doc-0`);
    await page.locator("main .block").first().waitFor({ state: "attached" });
    const texts = await page.locator("main .block .text").allTextContents();
    expect(texts.some((t) => t.includes(SCRIPT_TEXT))).toBe(true);
    expect(texts.some((t) => t.includes(IMG_TEXT))).toBe(true);
    expect(await page.locator("main h2").textContent()).toBe("Markup <b>as</b> text");
    expect(
      await page.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: string }).__pwned,
        scripts: document.querySelectorAll("script").length,
        images: document.querySelectorAll("img").length,
        bold: document.querySelectorAll("main b").length,
      })),
    ).toEqual({ pwned: undefined, scripts: 2, images: 0, bold: 0 });
  });
});
