import { describe, expect, it } from "vitest";
import { CHAR_BUCKETS, CorpusSummary, codePoints, WORD_BUCKETS } from "./index.js";

describe("CorpusSummary", () => {
  it("counts documents, words, languages, failed and dropped rules, and buckets lengths", () => {
    const s = new CorpusSummary();
    s.addDocument({ text: "one two three", lang: "en", filter_failed: [] });
    s.addDocument({ text: "东京 tower", lang: "zh", filter_failed: [{ rule: "c4.sentences", value: 0 }] });
    s.addDocument({ text: "x", stats: { words: 120 } });
    s.addReject({ reason: "filter", rule: "c4.sentences", value: 1 });
    s.addReject({ reason: "filter", rule: "gopher_quality.word_count", value: 3 });
    s.addReject({ reason: "not-html" });
    const j = s.toJSON();
    expect(j).toMatchObject({ documents: 3, words: 3 + 3 + 120, chars: 13 + 8 + 1, documentsFailing: 1 });
    expect(j.languages).toEqual({ en: 1, none: 1, zh: 1 });
    expect(j.failedByRule).toEqual({ "c4.sentences": 1 });
    expect(j.rejected).toEqual({ filter: 2, "not-html": 1 });
    expect(j.droppedByRule).toEqual({ "c4.sentences": 1, "gopher_quality.word_count": 1 });
    expect(j.wordsHistogram.from).toEqual([...WORD_BUCKETS]);
    expect(j.wordsHistogram.count[0]).toBe(2);
    expect(j.wordsHistogram.count[WORD_BUCKETS.indexOf(100)]).toBe(1);
  });

  it("counts characters in code points: an emoji or a supplementary Han character is one", () => {
    // 😀 and 𠮷 are two UTF-16 units each; a lone surrogate (a broken pair) still counts as one.
    const text = "a😀b𠮷\ud800";
    expect(text.length).toBe(7);
    expect(codePoints(text)).toBe(5);
    expect([...text].length).toBe(5);
    const s = new CorpusSummary();
    s.addDocument({ text: "😀".repeat(60) });
    const j = s.toJSON();
    expect(j.chars).toBe(60);
    // 60 characters, not 120, in the histogram too.
    const bucket = j.charsHistogram.count.findIndex((c) => c > 0);
    expect(CHAR_BUCKETS[bucket]).toBeLessThanOrEqual(60);
    expect(bucket + 1 === CHAR_BUCKETS.length || CHAR_BUCKETS[bucket + 1] > 60).toBe(true);
  });
});
