export type ThresholdMetric = "f1" | "accuracy";

export interface ThresholdChoice {
  /** Keep a block when score >= threshold. Infinity means "keep nothing" was best. */
  threshold: number;
  /** The metric's value on the given data at that threshold. */
  value: number;
}

/**
 * Picks the decision threshold maximising F1 (of the positive class) or accuracy.
 * Scores of each class are sorted natively (no comparator, no index objects) and
 * swept from the top; the threshold lands midway between adjacent distinct scores
 * so it does not sit exactly on a validation example. Ties keep the higher threshold.
 */
export function chooseThreshold(scores: Float32Array, labels: Uint8Array, metric: ThresholdMetric = "f1"): ThresholdChoice {
  const n = scores.length;
  if (labels.length !== n) throw new RangeError(`chooseThreshold: ${n} scores but ${labels.length} labels`);
  if (n === 0) throw new RangeError("chooseThreshold: no scores");
  if (metric !== "accuracy" && metric !== "f1") throw new RangeError(`chooseThreshold: unknown metric ${metric}`);
  let nPos = 0;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(scores[i])) throw new RangeError(`chooseThreshold: score ${i} is NaN`);
    if (labels[i]) nPos++;
  }
  const pos = new Float32Array(nPos);
  const neg = new Float32Array(n - nPos);
  for (let i = 0, a = 0, b = 0; i < n; i++) {
    if (labels[i]) pos[a++] = scores[i];
    else neg[b++] = scores[i];
  }
  pos.sort();
  neg.sort();

  const evaluate =
    metric === "accuracy"
      ? (tp: number, fp: number) => (tp + (neg.length - fp)) / n
      : (tp: number, fp: number) => (tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + (nPos - tp)));

  // Start from "keep nothing".
  let best = evaluate(0, 0);
  let bestThreshold = Infinity;
  let i = pos.length - 1;
  let j = neg.length - 1;
  let tp = 0;
  let fp = 0;
  while (i >= 0 || j >= 0) {
    const v = i < 0 ? neg[j] : j < 0 ? pos[i] : Math.max(pos[i], neg[j]);
    while (i >= 0 && pos[i] === v) {
      tp++;
      i--;
    }
    while (j >= 0 && neg[j] === v) {
      fp++;
      j--;
    }
    const value = evaluate(tp, fp);
    if (value > best) {
      best = value;
      const next = i < 0 && j < 0 ? -Infinity : i < 0 ? neg[j] : j < 0 ? pos[i] : Math.max(pos[i], neg[j]);
      // Float32 neighbours always have a float64 midpoint strictly between them.
      bestThreshold = next === -Infinity ? v : (v + next) / 2;
    }
  }
  return { threshold: bestThreshold, value: best };
}
