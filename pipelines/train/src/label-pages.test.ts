import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { makeLabelFile, readLabelDir } from "@winnow/labels";
import { segmentHtml } from "@winnow/segment";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE, loadSample } from "../test/sample.js";
import type { Dataset } from "./dataset.js";
import { propagateDatasetLabels, parseSeedSource, snippetSeeds, writePropagatedLabels } from "./label-pages.js";
import { LabelMismatchError, labelsFromFiles } from "./training-labels.js";
import { type LabelledPage, loadLabelledPages } from "@winnow/evaluation";

let pages: LabelledPage[];
let data: Dataset;
let dir: string;
beforeAll(async () => {
  ({ pages, data, dir } = await loadSample("winnow-label-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const blockTexts = (page: LabelledPage): string[] => page.doc.blocks.map((b) => b.text);

describe("seed sources", () => {
  it("parses every --seeds form and refuses the rest with the accepted forms", () => {
    expect(parseSeedSource("heuristic")).toEqual({ kind: "heuristic" });
    expect(parseSeedSource("snippets")).toEqual({ kind: "snippets" });
    expect(parseSeedSource("reveal:0.2", 5)).toEqual({ kind: "reveal", fraction: 0.2, seed: 5 });
    expect(parseSeedSource("hand:some/dir")).toEqual({ kind: "hand", dir: "some/dir" });
    expect(() => parseSeedSource("reveal:0")).toThrow(/0 < F <= 1/);
    expect(() => parseSeedSource("reveal:1.5")).toThrow(/0 < F <= 1/);
    expect(() => parseSeedSource("hand:")).toThrow(/heuristic, snippets, reveal:F or hand:DIR/);
  });

  it("seeds blocks holding a with snippet as content and a without snippet as boilerplate, ignoring case and spacing", () => {
    const page: LabelledPage = {
      ...pages[0],
      doc: segmentHtml(
        "<nav><p>Submit  correction</p></nav><p>Indexes are a COMMON way to enhance\ndatabase performance. More text.</p><p>Both: submit correction. Indexes are a common way</p><p>Other</p>",
      ),
      withSnippets: ["Indexes are a common way"],
      withoutSnippets: ["Submit correction", "  "],
    };
    expect([...snippetSeeds(page)]).toEqual([0, 1, -1, -1]);
  });
});

describe("propagateDatasetLabels", () => {
  it("with every alignment label revealed returns exactly the alignment labels", () => {
    const { labels, summary } = propagateDatasetLabels(data, { kind: "reveal", fraction: 1, seed: 1 });
    labels.forEach((pageLabels, p) => expect(pageLabels).toEqual([...data.labels.subarray(data.firstRow[p], data.firstRow[p + 1])]));
    expect(summary).toMatchObject({
      pages: 14,
      pagesLabelled: 14,
      blocks: data.labels.length,
      seeds: data.labels.length,
      seededFraction: 1,
    });
    expect(summary.check?.accuracy).toBe(1);
  });

  it("with 20% revealed labels the rest far better than the majority class, and keeps the seeds", () => {
    const { labels, summary } = propagateDatasetLabels(data, { kind: "reveal", fraction: 0.2, seed: 3 });
    const ones = data.labels.reduce((a, b) => a + b, 0);
    const majority = Math.max(ones, data.labels.length - ones) / data.labels.length;
    expect(summary.check!.seedAccuracy).toBe(1);
    expect(summary.check!.propagatedAccuracy).toBeGreaterThan(majority + 0.1);
    expect(labels.every((l) => l?.every((v) => v === 0 || v === 1))).toBe(true);
  });

  it("with reveal:F leaves pages without gold text unlabelled, and refuses when no page has any", () => {
    const oneWithout = { ...data, pages: data.pages.map((p, i) => (i === 2 ? { ...p, gold: "" } : p)) };
    const { labels, summary } = propagateDatasetLabels(oneWithout, { kind: "reveal", fraction: 0.2, seed: 1 });
    expect(labels[2]).toBeUndefined();
    expect(summary.pagesLabelled).toBe(13);
    const none = { ...data, pages: data.pages.map((p) => ({ ...p, gold: "" })) };
    expect(() => propagateDatasetLabels(none, { kind: "reveal", fraction: 0.2, seed: 1 })).toThrow(/no page has any/);
  });

  it("spreads hand labels, keeps their values, and gives pages without any hand label no labels", () => {
    const p = 0;
    const hand = Array.from({ length: pages[p].doc.blocks.length }, (_, b) => (b % 4 === 0 ? data.labels[data.firstRow[p] + b] : null)) as (
      | 0
      | 1
      | null
    )[];
    hand[1] = hand[1] === null ? ((1 - data.labels[data.firstRow[p] + 1]) as 0 | 1) : hand[1]; // a hand label that disagrees with the alignment
    const files = new Map([
      [pages[p].id, makeLabelFile({ id: pages[p].id, url: pages[p].url, blockTexts: blockTexts(pages[p]) }, hand, "hand")],
    ]);
    const { labels, summary } = propagateDatasetLabels(data, { kind: "hand", files });
    expect(summary.pagesLabelled).toBe(1);
    expect(labels.slice(1).every((l) => l === undefined)).toBe(true);
    hand.forEach((h, b) => {
      if (h !== null) expect(labels[p]![b]).toBe(h);
    });
  });

  it("refuses hand labels made for other blocks, naming the page", () => {
    const texts = blockTexts(pages[1]);
    const stale = makeLabelFile(
      { id: pages[1].id, url: "", blockTexts: [...texts.slice(0, -1), `${texts.at(-1)} changed`] },
      texts.map(() => 1),
      "hand",
    );
    expect(() => propagateDatasetLabels(data, { kind: "hand", files: new Map([[pages[1].id, stale]]) })).toThrow(LabelMismatchError);
    expect(() => propagateDatasetLabels(data, { kind: "hand", files: new Map([[pages[1].id, stale]]) })).toThrow(`page ${pages[1].id}`);
  });

  it("writes propagated label files that read back for the same pages", async () => {
    const { labels } = propagateDatasetLabels(data, { kind: "heuristic" });
    const out = join(dir, "heuristic");
    const written = await writePropagatedLabels(out, pages, labels);
    expect(written).toBe(labels.filter((l) => l !== undefined).length);
    const files = await readLabelDir(out);
    expect([...files.values()].every((f) => f.source === "propagated")).toBe(true);
    expect(labelsFromFiles(pages, files)).toEqual(labels);
  });
});

describe("a folder of plain HTML files", () => {
  it("loads as pages without gold text, ids being paths relative to the folder", async () => {
    const html = join(dir, "site");
    mkdirSync(join(html, "news"), { recursive: true });
    writeFileSync(join(html, "news", "a.html"), gunzipSync(readFileSync(join(SAMPLE, "html", `${pages[0].id}.html.gz`))));
    writeFileSync(join(html, "b.htm"), "<html><body><nav>Home</nav><p>Some text of the page.</p></body></html>");
    writeFileSync(join(html, "notes.txt"), "not a page");
    const loaded = await loadLabelledPages(html);
    expect(loaded.map((p) => [p.id, p.gold, p.domain])).toEqual([
      ["b.htm", "", ""],
      ["news/a.html", "", ""],
    ]);
    expect(blockTexts(loaded[1])).toEqual(blockTexts(pages[0]));
    await expect(loadLabelledPages(join(html, "news", "nothing"))).rejects.toThrow(/not found/);
  });
});
