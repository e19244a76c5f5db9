import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldWhitespace } from "./whitespace.js";

const regexFold = (s: string) => s.replace(/\s+/g, " ");

describe("foldWhitespace", () => {
  it("agrees with /\\s/ on every UTF-16 code unit, alone, doubled and beside a space", () => {
    const wrong: string[] = [];
    for (let c = 0; c < 65536; c++) {
      const ch = String.fromCharCode(c);
      for (const s of [`a${ch}b`, `a${ch}${ch}b`, `a ${ch}b`, ch])
        if (foldWhitespace(s) !== regexFold(s)) wrong.push(`U+${c.toString(16)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("folds like replace(/\\s+/g, ' ') on the shapes text nodes take", () => {
    for (const s of ["", " ", "  ", "\n    ", "word", " word ", "a  b", "a\tb", "a\u00a0b", "\u00a0", "x \n y", "\ufeffx", "a b c"]) {
      expect(foldWhitespace(s)).toBe(regexFold(s));
    }
  });

  it("folds runs at the edges, runs of lone non-space whitespace, and a space beside another", () => {
    for (const s of ["\n", "\na", "a\n", " \n", "\n ", "a \u00a0b", "a\u00a0 b", "a \u2028 b", " a ", "\u3000\u3000", "a \tb  c\n"]) {
      expect(foldWhitespace(s)).toBe(regexFold(s));
    }
  });

  it("folds a node of whitespace only to one space, ASCII or not, and leaves the empty string empty", () => {
    for (const s of [
      "\t",
      "\v",
      "\f",
      "\r\n",
      " \t\n\v\f\r ",
      "\n".repeat(40),
      "\n  \u00a0",
      "\u00a0\n",
      "\n\u2028\n",
      "\n\x08",
      "\n\x0e",
      "",
    ]) {
      expect(foldWhitespace(s)).toBe(regexFold(s));
    }
  });

  it("a huge text node (a megabyte of words, single spaces and line breaks) folds like the regex", () => {
    const huge = Array.from({ length: 100_000 }, (_, i) => (i % 7 === 0 ? "word\n  " : "word ")).join("");
    expect(huge.length).toBeGreaterThan(500_000);
    expect(foldWhitespace(huge)).toBe(regexFold(huge));
    const spaced = "word ".repeat(200_000);
    expect(foldWhitespace(spaced)).toBe(spaced);
  });

  it("folds like replace(/\\s+/g, ' ') on any string", () => {
    const unit = fc.constantFrom(" ", "\n", "\t", "\u00a0", "\u2003", "\u3000", "\ufeff", "\u200b", "a", "é", "語");
    const pieces = fc.array(fc.oneof(unit, fc.string({ unit: "binary", maxLength: 4 })), { maxLength: 30 }).map((p) => p.join(""));
    fc.assert(
      fc.property(pieces, (s) => foldWhitespace(s) === regexFold(s)),
      { numRuns: 1000 },
    );
  });
});
