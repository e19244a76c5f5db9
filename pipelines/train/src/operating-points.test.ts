// The operating points' choice on hand-made curves: the plateau's smoothing, ties and near-ties
// of the balanced point going to the higher threshold, and the precision and recall points
// taking no tolerance.
import { describe, expect, it } from "vitest";
import { BALANCED_TOLERANCE, operatingPoints, THRESHOLD_CANDIDATES, type ThresholdCurve } from "./operating-points.js";

/** A curve whose F1, F0.5 and F2 are all `f1(k)` at the k-th candidate. */
function curve(f1: (k: number) => number): ThresholdCurve {
  const values = Float64Array.from(THRESHOLD_CANDIDATES, (_, k) => f1(k));
  const zeros = new Float64Array(THRESHOLD_CANDIDATES.length);
  return { thresholds: THRESHOLD_CANDIDATES, precision: zeros, recall: zeros, f1: values, f05: values, f2: Float64Array.from(values) };
}

/** A broad hill with its top at candidate `top`: falls by `slope` per step each side. */
const hill = (top: number, slope: number) => (k: number) => 0.9 - slope * Math.abs(k - top);

describe("operating points", () => {
  const top = Math.floor(THRESHOLD_CANDIDATES.length / 2);

  it("take a curve's top where it stands out of the tolerance", () => {
    const points = operatingPoints(curve(hill(top, 0.01)));
    expect(points.balanced).toBe(THRESHOLD_CANDIDATES[top]);
    expect(points.precision).toBe(THRESHOLD_CANDIDATES[top]);
    expect(points.recall).toBe(THRESHOLD_CANDIDATES[top]);
  });

  it("move the balanced point to the highest threshold within the tolerance of the best, and only it", () => {
    // Falls by s, a third of the tolerance, a step; smoothed over three: the top 0.9 - 2s/3, k steps
    // above it 0.9 - ks: three steps up lose 7/9 of the tolerance, four 10/9.
    const points = operatingPoints(curve(hill(top, BALANCED_TOLERANCE / 3)));
    expect(points.balanced).toBe(THRESHOLD_CANDIDATES[top + 3]);
    expect(points.precision).toBe(THRESHOLD_CANDIDATES[top]);
    expect(points.recall).toBe(THRESHOLD_CANDIDATES[top]);
  });

  it("give exact ties to the higher threshold, and a lone spike no more weight than its neighbours", () => {
    const flat = operatingPoints(curve(() => 0.8));
    expect(flat.precision).toBe(THRESHOLD_CANDIDATES[THRESHOLD_CANDIDATES.length - 1]);
    // A spike of one candidate among low values loses to a lower plateau of three.
    const spike = operatingPoints(curve((k) => (k === 3 ? 0.95 : k >= top - 1 && k <= top + 1 ? 0.7 : 0.4)));
    expect(spike.recall).toBe(THRESHOLD_CANDIDATES[top]);
  });
});
