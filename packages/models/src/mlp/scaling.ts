/** Per-input standardisation learned from training data: x' = (x - shift) * factor. */
export interface InputScaling {
  shift: Float32Array;
  factor: Float32Array;
}

/** Below this standard deviation a feature is treated as constant. */
const MIN_STD = 1e-8;

/**
 * Mean/std per column of row-major X (n x dims). Constant columns get factor 1
 * so they map to 0 instead of blowing up; two passes in float64 for accuracy.
 */
export function computeInputScaling(X: Float32Array, n: number, dims: number): InputScaling {
  const mean = new Float64Array(dims);
  const sq = new Float64Array(dims);
  for (let i = 0, r = 0; i < n; i++, r += dims) {
    for (let k = 0; k < dims; k++) mean[k] += X[r + k];
  }
  for (let k = 0; k < dims; k++) mean[k] = n > 0 ? mean[k] / n : 0;
  for (let i = 0, r = 0; i < n; i++, r += dims) {
    for (let k = 0; k < dims; k++) {
      const d = X[r + k] - mean[k];
      sq[k] += d * d;
    }
  }
  const shift = new Float32Array(dims);
  const factor = new Float32Array(dims);
  for (let k = 0; k < dims; k++) {
    const std = n > 0 ? Math.sqrt(sq[k] / n) : 0;
    shift[k] = mean[k];
    factor[k] = std > MIN_STD && Number.isFinite(std) ? 1 / std : 1;
  }
  return { shift, factor };
}
