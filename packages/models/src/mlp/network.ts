import type { Prng } from "./prng.js";

/** Examples processed together: each weight is loaded once per tile instead of once per example. */
const TILE = 4;

/**
 * Trainable one-hidden-layer net over flat float64 buffers. Layout of params/grad:
 * [ w1 (H x D, row-major) | w2 (H) | b1 (H) | b2 ]. Weights come first so L2 applies
 * to the prefix [0, decayEnd) and the optimisers stay one simple loop.
 */
export class MlpNetwork {
  readonly inputSize: number;
  readonly hiddenSize: number;
  readonly relu: boolean;
  readonly params: Float64Array;
  readonly grad: Float64Array;
  /** Parameters below this index are weights (L2-regularised); the rest are biases. */
  readonly decayEnd: number;
  readonly offW2: number;
  readonly offB1: number;
  readonly offB2: number;
  readonly #shift: Float64Array;
  readonly #factor: Float64Array;
  // Scratch for one tile, allocated once: scaled inputs (TILE x D) and activations (TILE x H).
  readonly #xs: Float64Array;
  readonly #h: Float64Array;

  constructor(inputSize: number, hiddenSize: number, relu: boolean, shift: Float32Array, factor: Float32Array) {
    this.inputSize = inputSize;
    this.hiddenSize = hiddenSize;
    this.relu = relu;
    this.offW2 = hiddenSize * inputSize;
    this.offB1 = this.offW2 + hiddenSize;
    this.offB2 = this.offB1 + hiddenSize;
    this.decayEnd = this.offB1;
    this.params = new Float64Array(this.offB2 + 1);
    this.grad = new Float64Array(this.offB2 + 1);
    this.#shift = Float64Array.from(shift);
    this.#factor = Float64Array.from(factor);
    this.#xs = new Float64Array(TILE * inputSize);
    this.#h = new Float64Array(TILE * hiddenSize);
  }

  /** Glorot-uniform (tanh) or He-uniform (relu) weights, zero biases. */
  initialise(rng: Prng): void {
    const D = this.inputSize;
    const H = this.hiddenSize;
    const p = this.params;
    const a1 = this.relu ? Math.sqrt(6 / D) : Math.sqrt(6 / (D + H));
    for (let i = 0; i < this.offW2; i++) p[i] = (2 * rng.next() - 1) * a1;
    const a2 = Math.sqrt(6 / (H + 1));
    for (let j = 0; j < H; j++) p[this.offW2 + j] = (2 * rng.next() - 1) * a2;
    p.fill(0, this.offB1);
  }

  zeroGrad(): void {
    this.grad.fill(0);
  }

  /**
   * Adds sum_i weight[i] * d(BCE_i)/d(params) to grad for the examples order[start..end)
   * (rows start..end when order is null). Returns their summed weighted loss when
   * `wantLoss`, else 0 (saves a log/exp per example).
   */
  accumulate(
    X: Float32Array,
    y: Uint8Array,
    weight: Float64Array,
    order: Uint32Array | null,
    start: number,
    end: number,
    wantLoss: boolean,
  ): number {
    const D = this.inputSize;
    let loss = 0;
    for (let t = start; t < end; t += TILE) {
      const i0 = order ? order[t] : t;
      // A short last tile repeats its first example with weight 0, which adds exactly nothing.
      const i1 = t + 1 < end ? (order ? order[t + 1] : t + 1) : i0;
      const i2 = t + 2 < end ? (order ? order[t + 2] : t + 2) : i0;
      const i3 = t + 3 < end ? (order ? order[t + 3] : t + 3) : i0;
      loss += this.#tile(
        X,
        i0 * D,
        i1 * D,
        i2 * D,
        i3 * D,
        y[i0],
        y[i1],
        y[i2],
        y[i3],
        weight[i0],
        t + 1 < end ? weight[i1] : 0,
        t + 2 < end ? weight[i2] : 0,
        t + 3 < end ? weight[i3] : 0,
        wantLoss,
      );
    }
    return loss;
  }

  /**
   * Forward and backward pass for four examples at once (rows start at r0..r3).
   * Hidden units go in pairs, so each scaled input loaded feeds eight multiply-adds:
   * V8 re-checks every typed-array access, so fewer loads per FLOP is what makes this fast.
   * With odd H the last unit is paired with itself; its duplicate adds exactly zero.
   */
  #tile(
    X: Float32Array,
    r0: number,
    r1: number,
    r2: number,
    r3: number,
    y0: number,
    y1: number,
    y2: number,
    y3: number,
    w0: number,
    w1: number,
    w2: number,
    w3: number,
    wantLoss: boolean,
  ): number {
    const D = this.inputSize;
    const H = this.hiddenSize;
    const D2 = 2 * D;
    const D3 = 3 * D;
    const H2 = 2 * H;
    const H3 = 3 * H;
    const p = this.params;
    const g = this.grad;
    const xs = this.#xs;
    const h = this.#h;
    const shift = this.#shift;
    const factor = this.#factor;
    const relu = this.relu;
    const offW2 = this.offW2;
    const offB1 = this.offB1;

    for (let k = 0; k < D; k++) {
      const s = shift[k];
      const f = factor[k];
      xs[k] = (X[r0 + k] - s) * f;
      xs[D + k] = (X[r1 + k] - s) * f;
      xs[D2 + k] = (X[r2 + k] - s) * f;
      xs[D3 + k] = (X[r3 + k] - s) * f;
    }

    // Hidden pre-activations, then activations, into h (example-major: h[s * H + j]).
    for (let j = 0; j < H; j += 2) {
      const jb = j + 1 < H ? j + 1 : j;
      const baseA = j * D;
      const baseB = jb * D;
      const ba = p[offB1 + j];
      const bb = p[offB1 + jb];
      let a0 = ba;
      let a1 = ba;
      let a2 = ba;
      let a3 = ba;
      let c0 = bb;
      let c1 = bb;
      let c2 = bb;
      let c3 = bb;
      for (let k = 0; k < D; k++) {
        const u = p[baseA + k];
        const v = p[baseB + k];
        const x0 = xs[k];
        const x1 = xs[D + k];
        const x2 = xs[D2 + k];
        const x3 = xs[D3 + k];
        a0 += u * x0;
        a1 += u * x1;
        a2 += u * x2;
        a3 += u * x3;
        c0 += v * x0;
        c1 += v * x1;
        c2 += v * x2;
        c3 += v * x3;
      }
      h[j] = relu ? (a0 > 0 ? a0 : 0) : Math.tanh(a0);
      h[H + j] = relu ? (a1 > 0 ? a1 : 0) : Math.tanh(a1);
      h[H2 + j] = relu ? (a2 > 0 ? a2 : 0) : Math.tanh(a2);
      h[H3 + j] = relu ? (a3 > 0 ? a3 : 0) : Math.tanh(a3);
      h[jb] = relu ? (c0 > 0 ? c0 : 0) : Math.tanh(c0);
      h[H + jb] = relu ? (c1 > 0 ? c1 : 0) : Math.tanh(c1);
      h[H2 + jb] = relu ? (c2 > 0 ? c2 : 0) : Math.tanh(c2);
      h[H3 + jb] = relu ? (c3 > 0 ? c3 : 0) : Math.tanh(c3);
    }

    const b2 = p[this.offB2];
    let o0 = b2;
    let o1 = b2;
    let o2 = b2;
    let o3 = b2;
    for (let j = 0; j < H; j++) {
      const v = p[offW2 + j];
      o0 += v * h[j];
      o1 += v * h[H + j];
      o2 += v * h[H2 + j];
      o3 += v * h[H3 + j];
    }

    // d(BCE)/d(logit) = sigmoid(o) - y, scaled by the example weight.
    const d0 = w0 * (1 / (1 + Math.exp(-o0)) - y0);
    const d1 = w1 * (1 / (1 + Math.exp(-o1)) - y1);
    const d2 = w2 * (1 / (1 + Math.exp(-o2)) - y2);
    const d3 = w3 * (1 / (1 + Math.exp(-o3)) - y3);
    g[this.offB2] += d0 + d1 + d2 + d3;

    // Output-layer gradients; h is overwritten with the hidden deltas it is no longer needed for.
    for (let j = 0; j < H; j++) {
      const a0 = h[j];
      const a1 = h[H + j];
      const a2 = h[H2 + j];
      const a3 = h[H3 + j];
      g[offW2 + j] += d0 * a0 + d1 * a1 + d2 * a2 + d3 * a3;
      const v = p[offW2 + j];
      // Activation derivative from the activation itself: tanh' = 1 - a^2, relu' = [a > 0].
      const e0 = d0 * v * (relu ? (a0 > 0 ? 1 : 0) : 1 - a0 * a0);
      const e1 = d1 * v * (relu ? (a1 > 0 ? 1 : 0) : 1 - a1 * a1);
      const e2 = d2 * v * (relu ? (a2 > 0 ? 1 : 0) : 1 - a2 * a2);
      const e3 = d3 * v * (relu ? (a3 > 0 ? 1 : 0) : 1 - a3 * a3);
      g[offB1 + j] += e0 + e1 + e2 + e3;
      h[j] = e0;
      h[H + j] = e1;
      h[H2 + j] = e2;
      h[H3 + j] = e3;
    }

    // First-layer gradients, two hidden units per pass over the inputs.
    for (let j = 0; j < H; j += 2) {
      const paired = j + 1 < H;
      const jb = paired ? j + 1 : j;
      const baseA = j * D;
      const baseB = jb * D;
      const ea0 = h[j];
      const ea1 = h[H + j];
      const ea2 = h[H2 + j];
      const ea3 = h[H3 + j];
      const eb0 = paired ? h[jb] : 0;
      const eb1 = paired ? h[H + jb] : 0;
      const eb2 = paired ? h[H2 + jb] : 0;
      const eb3 = paired ? h[H3 + jb] : 0;
      for (let k = 0; k < D; k++) {
        const x0 = xs[k];
        const x1 = xs[D + k];
        const x2 = xs[D2 + k];
        const x3 = xs[D3 + k];
        g[baseA + k] += ea0 * x0 + ea1 * x1 + ea2 * x2 + ea3 * x3;
        g[baseB + k] += eb0 * x0 + eb1 * x1 + eb2 * x2 + eb3 * x3;
      }
    }

    if (!wantLoss) return 0;
    return w0 * bce(o0, y0) + w1 * bce(o1, y1) + w2 * bce(o2, y2) + w3 * bce(o3, y3);
  }
}

/** Binary cross-entropy on a logit, stable for large |o|: softplus(o) - y * o. */
function bce(o: number, y: number): number {
  return (o > 0 ? o : 0) + Math.log1p(Math.exp(-Math.abs(o))) - y * o;
}
