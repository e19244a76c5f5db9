import type { MlpWeights } from "../types.js";

/**
 * TypeScript forward pass: sigmoid probability per row of row-major X (n x inputSize).
 * Mirrors the exported ONNX graph so the two can be checked against each other.
 */
export function predictMlp(weights: MlpWeights, X: Float32Array, n: number, out?: Float32Array): Float32Array {
  const { inputSize: D, hiddenSize: H, inputShift, inputFactor, w1, b1, w2, b2 } = weights;
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`predictMlp: n must be a non-negative integer, got ${n}`);
  if (X.length < n * D) throw new RangeError(`predictMlp: X holds ${X.length} values, need ${n} x ${D}`);
  const result = out ?? new Float32Array(n);
  if (result.length < n) throw new RangeError(`predictMlp: out holds ${result.length} values, need ${n}`);
  const relu = weights.activation === "relu";
  // One scaled row, reused for every row: scaling is applied once, not per hidden unit.
  const xs = new Float64Array(D);
  for (let i = 0, r = 0; i < n; i++, r += D) {
    for (let k = 0; k < D; k++) xs[k] = (X[r + k] - inputShift[k]) * inputFactor[k];
    let o = b2;
    // Hidden units in pairs: each scaled input loaded serves two dot products.
    for (let j = 0; j < H; j += 2) {
      const paired = j + 1 < H;
      const baseA = j * D;
      const baseB = paired ? baseA + D : baseA;
      let za = b1[j];
      let zb = paired ? b1[j + 1] : 0;
      for (let k = 0; k < D; k++) {
        const x = xs[k];
        za += w1[baseA + k] * x;
        zb += w1[baseB + k] * x;
      }
      o += w2[j] * (relu ? (za > 0 ? za : 0) : Math.tanh(za));
      if (paired) o += w2[j + 1] * (relu ? (zb > 0 ? zb : 0) : Math.tanh(zb));
    }
    result[i] = 1 / (1 + Math.exp(-o));
  }
  return result;
}

/** Mean of the members' probabilities: the TypeScript twin of an exported ensemble. */
export function predictMlpEnsemble(members: readonly MlpWeights[], X: Float32Array, n: number): Float32Array {
  if (members.length === 1) return predictMlp(members[0], X, n);
  const mean = new Float32Array(n);
  const scratch = new Float32Array(n);
  for (const m of members) {
    predictMlp(m, X, n, scratch);
    for (let i = 0; i < n; i++) mean[i] += scratch[i] / members.length;
  }
  return mean;
}
