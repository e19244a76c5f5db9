import { describe, expect, it } from "vitest";
import { mulberry32 } from "./index.js";

describe("mulberry32", () => {
  it("draws what the four copies it replaces drew for seed 1, so seeded folds, models and samples stay the same", () => {
    const random = mulberry32(1);
    // Taken from the copies in @winnow/evaluation, @winnow/labels, @winnow/models and @winnow/dedup before the merge.
    const first = [random(), random(), random()].map((x) => x * 4294967296);
    expect(first).toEqual([2693262067, 11749833, 2265367787]);
  });

  it("is the same for a seed, differs across seeds, and stays in [0, 1)", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(c()).not.toBe(xs[0]);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    // Roughly uniform: each tenth holds 100 ± 40 of 1000 draws.
    const tenths = new Array(10).fill(0);
    for (const x of xs) tenths[Math.floor(x * 10)]++;
    for (const n of tenths) expect(Math.abs(n - 100)).toBeLessThan(40);
  });
});
