// The labelling page in a real headless browser: pre-labels shown, blocks toggled by click,
// shift-click and keys, saved, and shown again after a reload; page text never run.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLabelDir } from "@winnow/labels";
import { heuristicClassifier } from "@winnow/models";
import { launchChromium, noteIfSkipped, SKIP_BROWSER_TESTS } from "../test/chromium.js";
import { hostileSite, IMG_TEXT, SCRIPT_TEXT } from "../test/fixtures.js";
import { loadLabelPages } from "./label-data.js";
import { startLabelServer, type RunningLabelServer } from "./label-server.js";
import { LabelStore } from "./label-store.js";

noteIfSkipped("label-ui browser tests");

/** The labels the page shows, 1 content, 0 boilerplate and "comment", in block order. */
function shownLabels(page: Page): Promise<Array<number | string>> {
  return page
    .locator("main .block")
    .evaluateAll((nodes) =>
      nodes.map((n) => ((n as HTMLElement).dataset.label === "comment" ? "comment" : Number((n as HTMLElement).dataset.label))),
    );
}

/** The colour of a block's left border, which says its label at a glance. */
function borderColour(page: Page, index: number): Promise<string> {
  return page
    .locator("main .block")
    .nth(index)
    .evaluate((n) => getComputedStyle(n).borderLeftColor);
}

describe.skipIf(SKIP_BROWSER_TESTS)("label-ui in Chromium", () => {
  let site: string;
  let labelsDir: string;
  let server: RunningLabelServer;
  let browser: Browser;
  let page: Page;
  let preLabels: number[];

  beforeAll(async () => {
    site = hostileSite();
    labelsDir = mkdtempSync(join(tmpdir(), "winnow-label-ui-"));
    const pages = await loadLabelPages([site]);
    server = await startLabelServer({ pages, store: await LabelStore.open(labelsDir), classifier: heuristicClassifier(), port: 0 });
    const detail = (await (await fetch(`${server.url}api/page?id=markup.html`)).json()) as { labels: number[] };
    preLabels = detail.labels;
    browser = await launchChromium();
    page = await browser.newPage();
    page.setDefaultTimeout(5_000);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (labelsDir) rmSync(labelsDir, { recursive: true, force: true });
    if (site) rmSync(join(site, ".."), { recursive: true, force: true });
  });

  it("toggles blocks, saves, and shows the saved labels after a reload", async () => {
    await page.goto(server.url);
    await expect.poll(() => shownLabels(page)).toEqual(preLabels);
    expect(preLabels.length).toBeGreaterThanOrEqual(5);
    const want = [...preLabels];
    const blocks = page.locator("main .block");

    await blocks.nth(0).click(); // a click toggles
    want[0] = 1 - want[0];
    await page.keyboard.press("j"); // the cursor moves to block 1
    await page.keyboard.press("c");
    want[1] = 1;
    await page.keyboard.press("j");
    await page.keyboard.press(" "); // space toggles block 2
    want[2] = 1 - want[2];
    await blocks.nth(3).click(); // toggles 3 and anchors the selection there
    want[3] = 1 - want[3];
    await blocks.nth(4).click({ modifiers: ["Shift"] }); // selects 3..4 without toggling
    await page.keyboard.press("b");
    want[3] = 0;
    want[4] = 0;
    expect(await shownLabels(page)).toEqual(want);
    expect(want).not.toEqual(preLabels);

    await page.keyboard.press("s");
    await expect.poll(() => page.locator("#status").textContent()).toBe("saved");
    const saved = (await readLabelDir(labelsDir)).get("markup.html");
    expect(saved).toMatchObject({ source: "hand", labels: want });

    await page.reload();
    await expect.poll(() => shownLabels(page)).toEqual(want);
    expect(await page.locator(".page-head .meta").textContent()).toContain("saved (hand)");
    expect(await page.locator("#page-list .page-state").first().textContent()).toBe("hand");
  });

  it("marks a run of blocks as user comments with m, in a colour of their own, saved and shown again after a reload", async () => {
    await page.goto(server.url);
    await expect.poll(() => shownLabels(page)).toHaveLength(preLabels.length);
    const want = await shownLabels(page);
    const blocks = page.locator("main .block");
    await blocks.nth(1).click(); // toggles 1 and anchors the selection there
    want[1] = want[1] === 1 ? 0 : 1;
    await blocks.nth(3).click({ modifiers: ["Shift"] }); // selects 1..3
    await page.keyboard.press("m");
    want[1] = want[2] = want[3] = "comment";
    await page.keyboard.press("j"); // the cursor to 4, alone selected
    await page.keyboard.press("c");
    want[4] = 1;
    await page.keyboard.press("j");
    await page.keyboard.press("b");
    want[5] = 0;
    expect(await shownLabels(page)).toEqual(want);
    expect(await blocks.nth(2).locator(".label").textContent()).toBe("comment");
    expect(await page.locator("#counts").textContent()).toContain("3 comments");
    const comment = await borderColour(page, 2);
    expect(comment).not.toBe(await borderColour(page, 4)); // content
    expect(comment).not.toBe(await borderColour(page, 5)); // boilerplate

    await page.keyboard.press("s");
    await expect.poll(() => page.locator("#status").textContent()).toBe("saved");
    const saved = (await readLabelDir(labelsDir)).get("markup.html");
    expect(saved).toMatchObject({ version: 2, source: "hand", labels: want });

    await page.reload();
    await expect.poll(() => shownLabels(page)).toEqual(want);
    expect(await borderColour(page, 2)).toBe(comment);
    // A click on a comment makes it content again, as on boilerplate.
    await blocks.nth(2).click();
    want[2] = 1;
    expect(await shownLabels(page)).toEqual(want);
  });

  it("shows markup in page text as text and runs none of it", async () => {
    await page.goto(server.url);
    await page.locator("main .block").first().waitFor({ state: "attached" });
    const texts = await page.locator("main .block .text").allTextContents();
    expect(texts.some((t) => t.includes(SCRIPT_TEXT))).toBe(true);
    expect(texts.some((t) => t.includes(IMG_TEXT))).toBe(true);
    expect(
      await page.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: string }).__pwned,
        scripts: document.querySelectorAll("script").length,
        images: document.querySelectorAll("img").length,
      })),
    ).toEqual({ pwned: undefined, scripts: 1, images: 0 });
  });
});
