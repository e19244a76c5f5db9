import { readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { segmentHtml, type SegmentedDocument } from "@winnow/segment";
import { BlockEncoder, buildVocabulary, forEachTag, forEachWord, type BlockVocabulary } from "./vocabulary.js";

const HTML_DIR = new URL("../../../../fixtures/wcxb-sample/html/", import.meta.url);
const docs: SegmentedDocument[] = readdirSync(HTML_DIR)
  .sort()
  .map((name) => segmentHtml(gunzipSync(readFileSync(new URL(name, HTML_DIR))).toString("utf8")));

/** The counts by the definition: forEachTag and forEachWord, looked up in Maps. */
function reference(doc: SegmentedDocument, vocabulary: BlockVocabulary): Array<Array<[number, number]>> {
  const tags = new Map(vocabulary.tags.map((t, i) => [t, i]));
  const words = new Map(vocabulary.words.map((w, i) => [w, vocabulary.tags.length + 1 + i]));
  const wordOov = vocabulary.tags.length + 1 + vocabulary.words.length;
  return doc.blocks.map((block) => {
    const counts = new Map<number, number>();
    const add = (slot: number) => counts.set(slot, (counts.get(slot) ?? 0) + 1);
    forEachTag(block.tagPath, (tag) => add(tags.get(tag) ?? vocabulary.tags.length));
    forEachWord(block.text, (word) => add(words.get(word) ?? wordOov));
    return [...counts].sort((a, b) => a[0] - b[0]).map(([slot, n]) => [slot, Math.log1p(n)]);
  });
}

function encoded(encoder: BlockEncoder, doc: SegmentedDocument): Array<Array<[number, number]>> {
  const rows: Array<Array<[number, number]>> = doc.blocks.map(() => []);
  encoder.encode(doc, (b, slot, value) => rows[b].push([slot, value]));
  return rows;
}

describe("BlockEncoder", () => {
  it("counts the same slots as forEachTag and forEachWord on real pages", () => {
    const vocabulary = buildVocabulary(docs, { tags: 30, words: 400 });
    const encoder = new BlockEncoder(vocabulary);
    let slots = 0;
    for (const doc of docs) {
      const want = reference(doc, vocabulary);
      expect(encoded(encoder, doc)).toEqual(want);
      for (const row of want) slots += row.length;
    }
    expect(slots).toBeGreaterThan(5000);
  });

  it("lower-cases as String#toLowerCase does, non-ASCII words included", () => {
    const html =
      `<html><body><div><p>Straße STRASSE İstanbul ΟΔΟΣ οδος Ünïcode ünïcode THE The the 東京 x×y</p>` +
      `<p>ΟΔΟΣ'Α and Σ. W3C w3c ZOO Zoo zoo AZ az</p></div></body></html>`;
    const doc = segmentHtml(html);
    const vocabulary: BlockVocabulary = {
      tags: ["p", "div"],
      words: ["the", "straße", "i̇stanbul", "οδος", "ünïcode", "東京", "x", "w3c", "σ", "and", "zoo", "az"],
    };
    const rows = encoded(new BlockEncoder(vocabulary), doc);
    expect(rows).toEqual(reference(doc, vocabulary));
    // Not vacuous: "the" three times, "οδος" twice (ΟΔΟΣ lower-cases with a final ς, so once in slot), İstanbul found.
    const slotOf = (w: string) => vocabulary.tags.length + 1 + vocabulary.words.indexOf(w);
    const first = new Map(rows[0]);
    expect(first.get(slotOf("the"))).toBeCloseTo(Math.log1p(3), 12);
    expect(first.get(slotOf("i̇stanbul"))).toBeCloseTo(Math.log1p(1), 12);
    expect(new Map(rows[1]).get(slotOf("zoo"))).toBeCloseTo(Math.log1p(3), 12);
  });

  it("gives log(1 + count) for counts below, at and above its table's 64, as Math.log1p does", () => {
    const counts = [1, 2, 62, 63, 64, 65, 200];
    const html = `<html><body>${counts.map((n) => `<p>${"word ".repeat(n)}other</p>`).join("")}</body></html>`;
    const doc = segmentHtml(html);
    const vocabulary: BlockVocabulary = { tags: ["p"], words: ["word"] };
    const rows = encoded(new BlockEncoder(vocabulary), doc);
    expect(rows).toEqual(reference(doc, vocabulary));
    const wordSlot = vocabulary.tags.length + 1;
    expect(rows.map((row) => new Map(row).get(wordSlot))).toEqual(counts.map((n) => Math.log1p(n)));
  });

  it("splits words where isWordUnit does, at each edge of the ranges it tests", () => {
    // Each unit next to a range's edge, between two letters: the word unit joins them, the other splits them.
    const edges = [0x2f, 0x30, 0x39, 0x3a, 0x40, 0x41, 0x5a, 0x5b, 0x60, 0x61, 0x7a, 0x7b, 0xbf, 0xc0, 0xd6, 0xd7, 0xd8, 0xf6, 0xf7];
    const more = [0xf8, 0x1fff, 0x2000, 0x206f, 0x2070, 0x2fff, 0x3000, 0x303f, 0x3040, 0xfffd];
    const text = [...edges, ...more].map((c) => `q${String.fromCharCode(c)}q`).join(" ");
    const doc = segmentHtml(`<html><body><p>${text}</p></body></html>`);
    const vocabulary: BlockVocabulary = { tags: ["p"], words: ["q", "q0q", "qaq", "q\u00c0q".toLowerCase(), "q\u2070q", "q\u3040q"] };
    const rows = encoded(new BlockEncoder(vocabulary), doc);
    expect(rows).toEqual(reference(doc, vocabulary));
    const slotOf = (w: string) => vocabulary.tags.length + 1 + vocabulary.words.indexOf(w);
    // Not vacuous: "q" alone comes from the split ones, and the joined ones are found.
    const row = new Map(rows[0]);
    expect(row.get(slotOf("q"))).toBeGreaterThan(Math.log1p(10));
    for (const w of ["q0q", "q\u00e0q", "q\u2070q", "q\u3040q"]) expect(row.get(slotOf(w))).toBe(Math.log1p(1));
    expect(row.get(slotOf("qaq"))).toBe(Math.log1p(2)); // qAq and qaq
  });

  it("gives sparse rows that mark where each block's slots start, and dense rows with the same values", () => {
    const vocabulary = buildVocabulary(docs, { tags: 20, words: 100 });
    const encoder = new BlockEncoder(vocabulary);
    const doc = docs[0];
    const { start, index, value } = encoder.sparse(doc);
    const dense = new Float32Array(doc.blocks.length * encoder.slots);
    encoder.dense(doc, dense);
    const want = reference(doc, vocabulary);
    expect(start.length).toBe(doc.blocks.length + 1);
    for (let b = 0; b < doc.blocks.length; b++) {
      const row: Array<[number, number]> = [];
      for (let k = start[b]; k < start[b + 1]; k++) row.push([index[k], value[k]]);
      expect(row).toEqual(want[b]);
      for (const [slot, v] of want[b]) expect(dense[b * encoder.slots + slot]).toBeCloseTo(v, 6);
    }
  });
});
