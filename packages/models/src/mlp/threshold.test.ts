import { describe, expect, it } from "vitest";
import { chooseThreshold } from "./threshold.js";

describe("chooseThreshold", () => {
  it("separates perfectly separable scores midway between the classes", () => {
    const scores = Float32Array.of(0.1, 0.2, 0.3, 0.7, 0.8, 0.9);
    const labels = Uint8Array.of(0, 0, 0, 1, 1, 1);
    const f1 = chooseThreshold(scores, labels);
    expect(f1.value).toBe(1);
    expect(f1.threshold).toBeCloseTo(0.5, 6);
    const acc = chooseThreshold(scores, labels, "accuracy");
    expect(acc).toEqual(f1);
  });

  it("maximises F1 and accuracy separately", () => {
    // Sorted by score: 1 1 0 1 0 0 0 0. F1 is best keeping the top 4 (tp 3, fp 1): 6/7.
    // Accuracy is best keeping the top 2 or top 4 (7/8 each); ties keep the higher threshold.
    const scores = Float32Array.of(0.95, 0.9, 0.8, 0.7, 0.4, 0.3, 0.2, 0.1);
    const labels = Uint8Array.of(1, 1, 0, 1, 0, 0, 0, 0);
    const f1 = chooseThreshold(scores, labels, "f1");
    expect(f1.value).toBeCloseTo(6 / 7, 12);
    expect(f1.threshold).toBeCloseTo(0.55, 6);
    const acc = chooseThreshold(scores, labels, "accuracy");
    expect(acc.value).toBe(7 / 8);
    expect(acc.threshold).toBeCloseTo(0.85, 6);
  });

  it("treats tied scores as one decision and handles degenerate label sets", () => {
    const tied = chooseThreshold(Float32Array.of(0.5, 0.5, 0.5), Uint8Array.of(1, 0, 1));
    expect(tied).toEqual({ threshold: 0.5, value: 0.8 });
    const allNeg = chooseThreshold(Float32Array.of(0.2, 0.6), Uint8Array.of(0, 0), "accuracy");
    expect(allNeg).toEqual({ threshold: Infinity, value: 1 });
    expect(() => chooseThreshold(new Float32Array(0), new Uint8Array(0))).toThrow(RangeError);
    expect(() => chooseThreshold(Float32Array.of(NaN), Uint8Array.of(1))).toThrow(/NaN/);
  });

  it("agrees with a brute-force search on random data", () => {
    let s = 7;
    const rand = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
    const n = 500;
    const scores = new Float32Array(n);
    const labels = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      labels[i] = rand() < 0.3 ? 1 : 0;
      scores[i] = Math.round((rand() + labels[i] * 0.4) * 50) / 50; // coarse, so ties occur
    }
    for (const metric of ["f1", "accuracy"] as const) {
      const got = chooseThreshold(scores, labels, metric);
      let best = -1;
      for (const t of [...new Set(scores)]) {
        let tp = 0,
          fp = 0,
          fn = 0,
          tn = 0;
        for (let i = 0; i < n; i++) {
          const keep = scores[i] >= t;
          if (keep && labels[i]) tp++;
          else if (keep) fp++;
          else if (labels[i]) fn++;
          else tn++;
        }
        best = Math.max(best, metric === "f1" ? (2 * tp) / (2 * tp + fp + fn) : (tp + tn) / n);
      }
      expect(got.value).toBeCloseTo(best, 12);
    }
  });
});
