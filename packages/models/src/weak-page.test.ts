import { describe, expect, it } from "vitest";
import { COMMENT_DISCUSSION, COMMENT_THREAD, COMMENT_UNKNOWN } from "./comment-markup.js";
import { applyWeakPageRule, WEAK_PAGE_RULE } from "./weak-page.js";

const charsOf = (chars: number[]) => Int32Array.from(chars);
const kept = (scores: Float32Array, threshold: number) => [...scores].map((s) => s >= threshold);

describe("applyWeakPageRule", () => {
  it("keeps a listing's items when the kept text is unsure and twice as much scores just under the bar", () => {
    // A heading kept at 0.6, twelve card teasers at 0.15-0.45 (the threshold 0.5: the bar 0.1), a
    // menu at 0.02.
    const scores = Float32Array.from([0.6, 0.45, 0.3, 0.15, 0.2, 0.25, 0.4, 0.35, 0.3, 0.2, 0.15, 0.12, 0.18, 0.02]);
    const blocks = charsOf([40, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 200]);
    expect(applyWeakPageRule(scores, blocks, 0.5)).toBe(true);
    expect(kept(scores, 0.5)).toEqual([...Array(13).fill(true), false]);
  });

  it("leaves an article alone: most of what it keeps the model is sure of", () => {
    const before = Float32Array.from([0.95, 0.9, 0.92, 0.55, 0.3, 0.3, 0.3, 0.3]);
    const scores = Float32Array.from(before);
    expect(applyWeakPageRule(scores, charsOf([500, 500, 500, 100, 400, 400, 400, 400]), 0.5)).toBe(false);
    expect(scores).toEqual(before);
  });

  it("leaves a short page alone when lowering the bar would not at least triple its text", () => {
    const before = Float32Array.from([0.6, 0.3, 0.05]);
    const scores = Float32Array.from(before);
    // 195 characters kept, 300 more in the band: under twice the kept text.
    expect(applyWeakPageRule(scores, charsOf([195, 300, 2000]), 0.5)).toBe(false);
    expect(scores).toEqual(before);
  });

  it("does nothing on a page where nothing is kept (the empty-page fallback's case)", () => {
    const before = Float32Array.from([0.3, 0.2, 0.1]);
    const scores = Float32Array.from(before);
    expect(applyWeakPageRule(scores, charsOf([100, 100, 100]), 0.5)).toBe(false);
    expect(scores).toEqual(before);
  });

  it("keeps the order of the scores, lifts exactly the blocks at or above the bar, and leaves a vetoed comment (0) out", () => {
    const threshold = 0.3775; // a fold's threshold, not a float32
    const low = threshold * WEAK_PAGE_RULE.lowFactor;
    const justAbove = Math.fround(low) >= low ? Math.fround(low) : Math.fround(low + 1e-9);
    const justBelow = Math.fround(low) < low ? Math.fround(low) : Math.fround(low - 1e-9);
    const scores = Float32Array.from([0.4, 0.38, justAbove, justBelow, 0, 0.2, 0.1, 1]);
    expect(justAbove).toBeGreaterThanOrEqual(low);
    expect(justBelow).toBeLessThan(low);
    const before = [...scores];
    expect(applyWeakPageRule(scores, charsOf([10, 10, 100, 100, 500, 100, 100, 0]), threshold)).toBe(true);
    expect(kept(scores, threshold)).toEqual(before.map((s) => s >= low));
    expect(scores[4]).toBe(0);
    expect(scores[7]).toBe(1);
    for (let a = 0; a < before.length; a++)
      for (let b = 0; b < before.length; b++) if (before[a] < before[b]) expect(scores[a]).toBeLessThan(scores[b]);
  });

  it("never lifts a comment thread the markup did not settle, and does not count it; a forum's posts it may lift", () => {
    // A short kept article (0.6), then a thread of readers' comments at 0.3: without the markup
    // the rule would fire and take the thread into the main text.
    const scores = Float32Array.from([0.6, 0.3, 0.3, 0.3, 0.3]);
    const blocks = charsOf([300, 300, 300, 300, 300]);
    const thread = Uint8Array.from([COMMENT_UNKNOWN, COMMENT_THREAD, COMMENT_THREAD, COMMENT_THREAD, COMMENT_THREAD]);
    expect(applyWeakPageRule(Float32Array.from(scores), blocks, 0.5)).toBe(true);
    const decided = Float32Array.from(scores);
    expect(applyWeakPageRule(decided, blocks, 0.5, thread)).toBe(false);
    expect(decided).toEqual(scores);
    // With enough other text to fire, the thread's blocks keep their scores (dropped, as the comments field reads them).
    const page = Float32Array.from([0.6, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3]);
    const roles = Uint8Array.from([
      COMMENT_UNKNOWN,
      COMMENT_UNKNOWN,
      COMMENT_UNKNOWN,
      COMMENT_DISCUSSION,
      COMMENT_THREAD,
      COMMENT_THREAD,
      COMMENT_UNKNOWN,
    ]);
    expect(applyWeakPageRule(page, charsOf([300, 300, 300, 300, 300, 300, 300]), 0.5, roles)).toBe(true);
    expect(kept(page, 0.5)).toEqual([true, true, true, true, false, false, true]);
    expect(page[4]).toBeCloseTo(0.3, 6);
  });
});
