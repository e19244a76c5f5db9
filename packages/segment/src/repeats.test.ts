import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RepeatIndex } from "./repeats.js";

describe("RepeatIndex", () => {
  it("finds the first block of a text among texts of the same length, and nothing for a new one", () => {
    const index = new RepeatIndex();
    for (const [block, key] of ["abc def", "abc deg", "xyz", "abd def"].entries()) {
      expect(index.firstOf(key)).toBe(-1);
      index.add(key, block);
    }
    expect(index.firstOf("abc def")).toBe(0);
    expect(index.firstOf("abd def")).toBe(3);
    expect(index.firstOf("xyz")).toBe(2);
    expect(index.firstOf("abc dez")).toBe(-1);
    index.clear();
    expect(index.firstOf("abc def")).toBe(-1);
  });

  it("forgets a text only for the block that was its first, wherever it sits in its length's chain", () => {
    const index = new RepeatIndex();
    index.add("aaaa", 0);
    index.add("bbbb", 1);
    index.add("cccc", 2);
    index.forget("bbbb", 7); // not its first block
    expect(index.firstOf("bbbb")).toBe(1);
    index.forget("bbbb", 1); // the middle of the chain
    expect([index.firstOf("aaaa"), index.firstOf("bbbb"), index.firstOf("cccc")]).toEqual([0, -1, 2]);
    index.forget("cccc", 2); // the newest
    index.forget("aaaa", 0); // the last one left
    expect([index.firstOf("aaaa"), index.firstOf("cccc")]).toEqual([-1, -1]);
    index.add("dddd", 3);
    expect(index.firstOf("dddd")).toBe(3);
  });

  it("answers as a Map from text to first block does, through adds and forgets in any order", () => {
    const op = fc.record({ forget: fc.boolean(), key: fc.constantFrom("ab", "ba", "aa", "abc", "cba", "x", "") });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const index = new RepeatIndex();
        const map = new Map<string, number>();
        for (const [block, { forget, key }] of ops.entries()) {
          if (forget) {
            const target = map.get(key) ?? block;
            index.forget(key, target);
            if (map.get(key) === target) map.delete(key);
          } else if (index.firstOf(key) < 0) {
            index.add(key, block);
            if (!map.has(key)) map.set(key, block);
          }
          for (const k of ["ab", "ba", "aa", "abc", "cba", "x", ""]) if (index.firstOf(k) !== (map.get(k) ?? -1)) return false;
        }
        return true;
      }),
      { numRuns: 500 },
    );
  });

  it("answers the same past a crowded length's switch to a Map: many texts of one length, forgets before and after it", () => {
    const index = new RepeatIndex();
    const map = new Map<string, number>();
    const key = (i: number) => `row ${String(1000 + (i % 150))} of the table`;
    for (let block = 0; block < 400; block++) {
      const k = key(block * 7);
      if (block % 11 === 10) {
        const target = map.get(k) ?? block;
        index.forget(k, target);
        if (map.get(k) === target) map.delete(k);
      } else if (index.firstOf(k) < 0) {
        index.add(k, block);
        map.set(k, block);
      }
      for (let i = 0; i < 150; i++) expect(index.firstOf(key(i))).toBe(map.get(key(i)) ?? -1);
    }
    index.clear();
    expect(index.firstOf(key(0))).toBe(-1);
  });
});
