// Links and emphasis inside blocks (issue 25, Markdown with --links): ranges of the folded text,
// only when asked for, the same blocks either way, and on real pages every range inside its block.
import { readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { segmentHtml } from "./index.js";
import type { Block } from "./types.js";

/** Each block's inline ranges as [kind, the text they cover, href]. */
const ranges = (block: Block) => (block.layout?.inline ?? []).map((s) => [s.kind, block.text.slice(s.start, s.end), s.href]);

describe("inline markup", () => {
  it("gives links with their href and emphasis as ranges of the block's text", () => {
    const html = `<body><p>Read <a href="/budget.pdf">the  budget</a> and <em>its <strong>annex</strong></em>, or run <code>make</code>.</p>
      <p>No markup here.</p></body>`;
    const [first, second] = segmentHtml(html, { inline: true }).blocks;
    expect(first.text).toBe("Read the budget and its annex, or run make.");
    expect(ranges(first)).toEqual([
      ["link", "the budget", "/budget.pdf"],
      ["strong", "annex", undefined],
      ["em", "its annex", undefined],
      ["code", "make", undefined],
    ]);
    expect(second.layout).toBeUndefined();
  });

  it("is off unless asked for, and never changes the blocks", () => {
    const html = `<div><p>A <a href="x">link</a> and <b>bold</b> text.</p><ul><li><i>one</i></li></ul></div>`;
    const plain = segmentHtml(html).blocks;
    const withInline = segmentHtml(html, { inline: true }).blocks;
    expect(plain.every((b) => b.layout?.inline === undefined)).toBe(true);
    expect(withInline.map((b) => b.text)).toEqual(plain.map((b) => b.text));
    expect(withInline[1].layout?.list).toEqual(plain[1].layout?.list);
    expect(ranges(withInline[1])).toEqual([["em", "one", undefined]]);
  });

  it("carries an element that spans a block boundary into the next block, and skips hidden text", () => {
    const html = `<b>Bold start<p>bold paragraph</p></b><p>x <span hidden><a href="h">hidden</a></span>y</p>`;
    const blocks = segmentHtml(html, { inline: true }).blocks;
    expect(blocks.map((b) => b.text)).toEqual(["Bold start", "bold paragraph", "x y"]);
    expect(ranges(blocks[0])).toEqual([["strong", "Bold start", undefined]]);
    expect(ranges(blocks[1])).toEqual([["strong", "bold paragraph", undefined]]);
    expect(blocks[2].layout).toBeUndefined();
  });

  it("keeps every range inside its block on real pages", () => {
    const dir = new URL("../../../fixtures/wcxb-sample/html/", import.meta.url);
    let links = 0;
    for (const name of readdirSync(dir)) {
      const html = gunzipSync(readFileSync(new URL(name, dir))).toString("utf8");
      const blocks = segmentHtml(html, { inline: true }).blocks;
      expect(blocks.map((b) => b.text)).toEqual(segmentHtml(html).blocks.map((b) => b.text));
      for (const block of blocks) {
        for (const span of block.layout?.inline ?? []) {
          expect(span.start).toBeGreaterThanOrEqual(0);
          expect(span.end).toBeLessThanOrEqual(block.text.length);
          expect(span.end).toBeGreaterThan(span.start);
          if (span.kind === "link" && span.href !== undefined) links++;
        }
      }
    }
    expect(links).toBeGreaterThan(100);
  });
});
