import { readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { Segmenter, type SegmentedDocument } from "./index.js";

const SAMPLE_DIR = new URL("../../../fixtures/wcxb-sample/html/", import.meta.url);
const samples = readdirSync(SAMPLE_DIR).map((name) => gunzipSync(readFileSync(new URL(name, SAMPLE_DIR))).toString("utf8"));

const plain = new Segmenter();
const withSubtrees = new Segmenter({ subtrees: true });

/** The fingerprint of each block's innermost candidate subtree. */
function blockFingerprints(doc: SegmentedDocument): number[] {
  const s = doc.subtrees!;
  return Array.from(s.blockSubtrees, (c) => (c < 0 ? -1 : s.fingerprints[c]));
}

describe("segmenting with subtree fingerprints", () => {
  it("leaves every other output of the segmenter exactly as it is", () => {
    for (const html of samples) {
      const a = plain.segment(html);
      const { subtrees, ...b } = withSubtrees.segment(html);
      expect(b).toEqual(a);
      expect(a.subtrees).toBeUndefined();
      expect(subtrees!.blockSubtrees.length).toBe(a.blocks.length);
    }
  });

  it("ignores attributes, whitespace, letter case and digits, but not words or structure", () => {
    const fp = (html: string) => withSubtrees.segment(html).subtrees!.fingerprints[0];
    const base = fp(`<nav><ul><li><a href="/">Home</a></li><li>News 2024</li></ul></nav>`);
    expect(fp(`<nav class="x" id=top><ul data-s="9"><li><a href="/?s=1">home</a></li><li>News   1999</li></ul></nav>`)).toBe(base);
    expect(fp(`<nav><ul><li><a href="/">Home</a></li><li>Sport 2024</li></ul></nav>`)).not.toBe(base);
    expect(fp(`<nav><ul><li><b>Home</b></li><li>News 2024</li></ul></nav>`)).not.toBe(base);
    expect(fp(`<nav><ol><li><a href="/">Home</a></li><li>News 2024</li></ol></nav>`)).not.toBe(base);
    expect(base).toBeGreaterThan(0);
    expect(Number.isSafeInteger(base)).toBe(true);
  });

  it("keeps fingerprints of text-bearing candidates only and links each to its enclosing one", () => {
    const doc = withSubtrees.segment(
      `<body><div><p>intro</p><nav><ul><li>a</li></ul></nav><div class=clear></div></div><p>tail</p></body>`,
    );
    const s = doc.subtrees!;
    // div, nav, ul, div.clear in start-tag order
    expect(Array.from(s.parents)).toEqual([-1, 0, 1, 0]);
    expect(s.fingerprints[3]).toBe(0);
    expect(s.fingerprints.slice(0, 3).every((f) => f > 0)).toBe(true);
    // intro -> outer div, a -> ul, tail -> none
    expect(doc.blocks.map((b) => b.text)).toEqual(["intro", "a", "tail"]);
    expect(Array.from(s.blockSubtrees)).toEqual([0, 2, -1]);
  });

  it("gives the same subtree the same fingerprint on two pages around different content", () => {
    const header = `<header><a href="/">Site</a><nav><ul><li>One</li><li>Two</li></ul></nav></header>`;
    const a = withSubtrees.segment(`<body>${header}<div><p>First article</p></div></body>`);
    const b = withSubtrees.segment(`<body><div class=wrap>${header}<section><p>Second</p><p>story</p></section></div></body>`);
    expect(blockFingerprints(a)[0]).toBe(blockFingerprints(b)[0]); // "Site"
    expect(blockFingerprints(a)[1]).toBe(blockFingerprints(b)[1]); // "One"
    expect(blockFingerprints(a)[3]).not.toBe(blockFingerprints(b)[3]); // the articles
  });

  it("leaves text in scripts, styles and hidden elements out of the fingerprint", () => {
    const fp = (html: string) => withSubtrees.segment(html).subtrees!.fingerprints[0];
    expect(fp(`<div><p>x</p><script>var t=1</script><span hidden>a</span></div>`)).toBe(
      fp(`<div><p>x</p><script>var t=2</script><span hidden>b</span></div>`),
    );
  });
});
