import { describe, expect, it } from "vitest";
import { alignTokens, type TokenAlignment } from "./lcs.js";

/** CPU milliseconds of this process: unlike wall time, not stretched when other jobs share the cores. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function randomSeq(n: number, vocab: number, random: () => number): Int32Array {
  // Skewed toward small ids, like word frequencies.
  return Int32Array.from({ length: n }, () => Math.floor(vocab * random() ** 2));
}

/** Reference LCS length, O(n·m) time, O(m) space. */
function lcsLength(a: Int32Array, b: Int32Array): number {
  let prev = new Int32Array(b.length + 1);
  let cur = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** The matched tokens, read in order on each side, must be the same sequence. */
function expectCommonSubsequence(a: Int32Array, b: Int32Array, r: TokenAlignment): void {
  const sa = a.filter((_, i) => r.matchedA[i] === 1);
  const sb = b.filter((_, j) => r.matchedB[j] === 1);
  expect(sa.length).toBe(r.matches);
  expect(Array.from(sa)).toEqual(Array.from(sb));
}

describe("alignTokens", () => {
  it("handles empty inputs", () => {
    const r = alignTokens(new Int32Array(0), Int32Array.of(1, 2), 3);
    expect(r.matches).toBe(0);
    expect(r.matchedB).toEqual(new Uint8Array(2));
  });

  it("finds an optimal LCS on small random inputs", () => {
    const random = rng(42);
    for (let t = 0; t < 200; t++) {
      const a = randomSeq(1 + Math.floor(random() * 60), 8, random);
      const b = randomSeq(1 + Math.floor(random() * 60), 8, random);
      const r = alignTokens(a, b, 8);
      expectCommonSubsequence(a, b, r);
      expect(r.matches).toBe(lcsLength(a, b));
      expect(r.approximate).toBe(false);
    }
  });

  it("stays valid and near-optimal when ranges are large enough to anchor", () => {
    const random = rng(7);
    for (let t = 0; t < 3; t++) {
      // Gold-like b embedded with edits in a longer page-like a (la·lb well above DP_CELLS).
      const b = randomSeq(800, 1000, random);
      const parts: number[] = [];
      for (const x of randomSeq(800, 1000, random)) parts.push(x);
      for (const x of b) if (random() > 0.05) parts.push(x, ...(random() < 0.05 ? [7, 8] : []));
      for (const x of randomSeq(800, 1000, random)) parts.push(x);
      const a = Int32Array.from(parts);
      const r = alignTokens(a, b, 1000);
      expectCommonSubsequence(a, b, r);
      expect(r.approximate).toBe(false);
      expect(r.matches).toBeGreaterThanOrEqual(0.99 * lcsLength(a, b));
    }
  });

  it("recovers an embedded gold sequence in a 25k-token page quickly", () => {
    const random = rng(3);
    const gold = randomSeq(5000, 3000, random);
    const page = Int32Array.from([...randomSeq(10000, 3000, random), ...gold, ...randomSeq(10000, 3000, random)]);
    const t0 = cpuMs();
    const r = alignTokens(page, gold, 3000);
    const ms = cpuMs() - t0;
    expect(r.matches).toBe(5000);
    expect(r.matchedA.subarray(10000, 15000).every((x) => x === 1)).toBe(true);
    expect(ms).toBeLessThan(2000);
  });

  it("falls back to a bounded approximation when nothing is cheap to anchor on", () => {
    // Two alternating tokens: every pair count is ~n², far above the pair budget.
    const n = 4000;
    const a = Int32Array.from({ length: n }, (_, i) => i % 2);
    const b = Int32Array.from({ length: n }, (_, i) => (i + 1) % 2);
    const t0 = cpuMs();
    const r = alignTokens(a, b, 2);
    expect(cpuMs() - t0).toBeLessThan(1000);
    expect(r.approximate).toBe(true);
    expect(r.matches).toBe(n); // the bag approximation pairs every token
  });

  it("reports an exact empty alignment when the inputs share no token", () => {
    const a = Int32Array.from({ length: 3000 }, (_, i) => i % 5);
    const b = Int32Array.from({ length: 3000 }, (_, i) => 5 + (i % 5));
    const r = alignTokens(a, b, 10);
    expect(r.matches).toBe(0);
    expect(r.approximate).toBe(false);
  });
});
