/**
 * Parameter-update rules over flat float64 buffers. `scale` turns the accumulated
 * gradient sum into a mean; L2 (`l2 * w`) is added for indices below `decayEnd`.
 */
export interface Optimizer {
  step(params: Float64Array, grad: Float64Array, scale: number, l2: number, decayEnd: number): void;
}

/** Adam (Kingma & Ba) with classic L2 folded into the gradient. */
export class Adam implements Optimizer {
  readonly #m: Float64Array;
  readonly #v: Float64Array;
  #t = 0;

  constructor(
    size: number,
    private readonly lr: number,
    private readonly beta1 = 0.9,
    private readonly beta2 = 0.999,
    private readonly eps = 1e-8,
  ) {
    this.#m = new Float64Array(size);
    this.#v = new Float64Array(size);
  }

  step(params: Float64Array, grad: Float64Array, scale: number, l2: number, decayEnd: number): void {
    const m = this.#m;
    const v = this.#v;
    const b1 = this.beta1;
    const b2 = this.beta2;
    this.#t++;
    // Bias corrections folded into the step size once per step.
    const c1 = 1 / (1 - b1 ** this.#t);
    const c2 = 1 / (1 - b2 ** this.#t);
    const lr = this.lr;
    const eps = this.eps;
    for (let i = 0; i < params.length; i++) {
      const gi = grad[i] * scale + (i < decayEnd ? l2 * params[i] : 0);
      const mi = (m[i] = b1 * m[i] + (1 - b1) * gi);
      const vi = (v[i] = b2 * v[i] + (1 - b2) * gi * gi);
      params[i] -= (lr * (mi * c1)) / (Math.sqrt(vi * c2) + eps);
    }
  }
}

/**
 * iRprop− (Igel & Hüsken): sign-based full-batch steps with per-weight step sizes;
 * on a sign flip the step shrinks and that weight's gradient is forgotten.
 */
export class IRpropMinus implements Optimizer {
  readonly #delta: Float64Array;
  readonly #prev: Float64Array;

  constructor(
    size: number,
    delta0 = 0.1,
    private readonly etaPlus = 1.2,
    private readonly etaMinus = 0.5,
    private readonly deltaMax = 50,
    private readonly deltaMin = 1e-6,
  ) {
    this.#delta = new Float64Array(size).fill(delta0);
    this.#prev = new Float64Array(size);
  }

  step(params: Float64Array, grad: Float64Array, scale: number, l2: number, decayEnd: number): void {
    const delta = this.#delta;
    const prev = this.#prev;
    for (let i = 0; i < params.length; i++) {
      let gi = grad[i] * scale + (i < decayEnd ? l2 * params[i] : 0);
      const sign = gi * prev[i];
      if (sign > 0) {
        delta[i] = Math.min(delta[i] * this.etaPlus, this.deltaMax);
      } else if (sign < 0) {
        delta[i] = Math.max(delta[i] * this.etaMinus, this.deltaMin);
        gi = 0;
      }
      if (gi > 0) params[i] -= delta[i];
      else if (gi < 0) params[i] += delta[i];
      prev[i] = gi;
    }
  }
}
