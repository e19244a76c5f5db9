import { describe, expect, it } from "vitest";
import { createPrng } from "../mlp/prng.js";
import { backward, biLstmLayout, forward, weightedLogLoss, type BiLstmShape, type BlockSequence } from "./network.js";
import { initialParameters } from "./train.js";

/** A small random page: sparse tokens and dense features, labels and weights. */
function randomPage(shape: BiLstmShape, T: number, seed: number) {
  const rng = createPrng(seed);
  const start = new Int32Array(T + 1);
  const index: number[] = [];
  const value: number[] = [];
  for (let t = 0; t < T; t++) {
    const used = new Set<number>();
    for (let k = 0; k < 3; k++) used.add(rng.nextInt(shape.tokenSlots));
    for (const slot of [...used].sort((a, b) => a - b)) {
      index.push(slot);
      value.push(Math.log1p(1 + rng.nextInt(3)));
    }
    start[t + 1] = index.length;
  }
  const features = Float64Array.from({ length: T * shape.featureSize }, () => rng.nextGaussian());
  const sequence: BlockSequence = {
    length: T,
    tokens: { start, index: Int32Array.from(index), value: Float64Array.from(value) },
    features,
  };
  const labels = Uint8Array.from({ length: T }, () => (rng.next() < 0.4 ? 1 : 0));
  const weights = Float32Array.from({ length: T }, () => 0.5 + rng.next());
  return { sequence, labels, weights };
}

function loss(params: Float64Array, shape: BiLstmShape, page: ReturnType<typeof randomPage>, dropoutSeed?: number): number {
  const layout = biLstmLayout(shape);
  const dropout = dropoutSeed === undefined ? undefined : { rate: 0.5, random: createPrng(dropoutSeed).next };
  const cache = forward(params, layout, page.sequence, dropout);
  return weightedLogLoss(cache.logits, page.labels, page.weights, new Float64Array(page.sequence.length));
}

describe("BiLSTM backward pass", () => {
  // Two layers, so gradients flow through a stacked layer, both directions and the projection;
  // the skip path adds a second route from the projection to the logit.
  const shape: BiLstmShape = { tokenSlots: 9, featureSize: 4, projectionSize: 5, hiddenSize: 3, layers: 2 };

  for (const [dropoutSeed, skip] of [
    [undefined, false],
    [11, false],
    [undefined, true],
    [11, true],
  ] as const) {
    it(`matches central finite differences on every parameter${dropoutSeed ? " (with a fixed dropout mask)" : ""}${skip ? " (skip path)" : ""}`, () => {
      const netShape: BiLstmShape = { ...shape, skip };
      const layout = biLstmLayout(netShape);
      const params = initialParameters(layout, 3);
      // Larger than initial weights, so gates leave their linear range and errors would show.
      for (let i = 0; i < params.length; i++) params[i] *= 2;
      const page = randomPage(netShape, 7, 5);
      const dropout = dropoutSeed === undefined ? undefined : { rate: 0.5, random: createPrng(dropoutSeed).next };
      const cache = forward(params, layout, page.sequence, dropout);
      const dLogits = new Float64Array(7);
      weightedLogLoss(cache.logits, page.labels, page.weights, dLogits);
      const grad = new Float64Array(layout.size);
      backward(params, layout, cache, dLogits, grad);

      const h = 1e-5;
      let worst = 0;
      for (let i = 0; i < params.length; i++) {
        const keep = params[i];
        params[i] = keep + h;
        const up = loss(params, netShape, page, dropoutSeed);
        params[i] = keep - h;
        const down = loss(params, netShape, page, dropoutSeed);
        params[i] = keep;
        const numeric = (up - down) / (2 * h);
        worst = Math.max(worst, Math.abs(numeric - grad[i]) / Math.max(1e-3, Math.abs(numeric) + Math.abs(grad[i])));
      }
      expect(worst).toBeLessThan(1e-5);
      // Not vacuous: most parameters get a gradient.
      expect(grad.filter((g) => g !== 0).length).toBeGreaterThan(layout.size * 0.5);
    });
  }

  it("reads the page in both directions: the first block's score depends on the last block", () => {
    const one: BiLstmShape = { ...shape, layers: 1 };
    const layout = biLstmLayout(one);
    const params = initialParameters(layout, 4);
    const page = randomPage(one, 6, 8);
    const before = forward(params, layout, page.sequence).logits[0];
    page.sequence.features![5 * one.featureSize] += 3;
    expect(forward(params, layout, page.sequence).logits[0]).not.toBeCloseTo(before, 8);
  });
});
