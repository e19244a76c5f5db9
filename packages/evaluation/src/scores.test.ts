import { describe, expect, it } from "vitest";
import { bagScores, wordScores } from "./scores.js";
import { wordTokens } from "./tokens.js";

describe("wordScores", () => {
  it("is perfect on identical text regardless of case and punctuation", () => {
    expect(wordScores("Hello, WORLD!", "hello world")).toEqual({ precision: 1, recall: 1, f1: 1 });
  });

  it("uses multiset overlap", () => {
    // overlap = min(2,1) [a] + min(1,2) [b] = 2 of 4 words on each side.
    expect(wordScores("a a b c", "a b b d")).toEqual({ precision: 0.5, recall: 0.5, f1: 0.5 });
  });

  it("computes precision, recall and F1 for a partial extraction", () => {
    const s = wordScores("the cat sat", "the cat sat on the mat");
    expect(s.precision).toBe(1);
    expect(s.recall).toBe(0.5);
    expect(s.f1).toBeCloseTo(2 / 3, 15);
  });

  it("penalises extra words in precision only", () => {
    const s = wordScores("menu home the cat", "the cat");
    expect(s).toEqual({ precision: 0.5, recall: 1, f1: 2 / 3 });
  });

  it("scores two texts without words as perfect and one-sided emptiness as 0", () => {
    expect(wordScores("", "!!")).toEqual({ precision: 1, recall: 1, f1: 1 });
    expect(wordScores("", "some gold")).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(wordScores("some text", "")).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(wordScores("x", "y")).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  it("bagScores agrees with wordScores on tokenised input", () => {
    const e = "Share this: the quick brown fox";
    const g = "The quick brown fox jumps";
    expect(bagScores(wordTokens(e), wordTokens(g))).toEqual(wordScores(e, g));
  });
});
