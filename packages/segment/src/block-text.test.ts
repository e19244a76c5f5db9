import { describe, expect, it } from "vitest";
import { BlockText } from "./block-text.js";
import { segmentHtml } from "./segmenter.js";

describe("BlockText", () => {
  it("gives back what was appended, short pieces and long, Latin-1 or not, lone surrogates included", () => {
    const t = new BlockText();
    const pieces = ["a", " ", "café", "x".repeat(40), " “quoted” ", "語".repeat(50), "\ud800", "z\udc00", ""];
    for (const p of pieces) t.append(p);
    expect(t.text()).toBe(pieces.join(""));
    expect(t.length).toBe(pieces.join("").length);
    expect(t.text(3)).toBe("a c");
  });

  it("skips a piece's first units when asked, short pieces and long", () => {
    const t = new BlockText();
    t.append(" short", 1);
    t.append(` ${"long ".repeat(20)}`, 1);
    t.append(" ", 1);
    t.append("", 0);
    expect(t.text()).toBe(`short${"long ".repeat(20)}`);
  });

  it("grows past its initial size for a huge text, and is empty and reusable after reset", () => {
    const t = new BlockText();
    const huge = "word ".repeat(300_000); // 1.5 M units, 3 MB of UTF-16
    t.append("start ");
    t.append(huge);
    expect(t.text()).toBe(`start ${huge}`);
    t.reset();
    expect(t.length).toBe(0);
    expect(t.text()).toBe("");
    t.append("again");
    expect(t.text()).toBe("again");
  });

  it("set replaces the text; clear empties it", () => {
    const t = new BlockText();
    t.append("first block text");
    t.set("other");
    expect(t.text()).toBe("other");
    t.clear();
    t.append("x");
    expect(t.text()).toBe("x");
  });
});

describe("the segmenter's block texts", () => {
  it("a text node of several megabytes is one block, whole", () => {
    const words = "lorem ipsum dolor ".repeat(200_000).trim();
    const doc = segmentHtml(`<html><body><p>${words}</p><p>next</p></body></html>`);
    expect(doc.blocks.map((b) => b.text)).toEqual([words, "next"]);
  });

  it("a page after a huge one reads as it does alone", () => {
    const page = "<p>First  block\n of text</p><div>Second <b>block</b>, “quoted”</div>";
    const alone = segmentHtml(page).blocks.map((b) => b.text);
    segmentHtml(`<p>${"x ".repeat(1_000_000)}</p>`);
    expect(segmentHtml(page).blocks.map((b) => b.text)).toEqual(alone);
    expect(alone).toEqual(["First block of text", "Second block, “quoted”"]);
  });

  it("an empty page and a page of whitespace have no blocks", () => {
    expect(segmentHtml("").blocks).toEqual([]);
    expect(segmentHtml("<html><body> \n\t </body></html>").blocks).toEqual([]);
  });
});
