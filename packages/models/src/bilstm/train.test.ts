import { describe, expect, it } from "vitest";
import { createPrng } from "../mlp/prng.js";
import type { BiLstmShape, BlockSequence } from "./network.js";
import { trainBiLstm, type TrainingSequence } from "./train.js";

/** Pages whose label is whether the block's first feature is positive: learnable from one block alone. */
function pages(shape: BiLstmShape, count: number): TrainingSequence[] {
  const rng = createPrng(7);
  return Array.from({ length: count }, () => {
    const T = 12;
    const features = Float64Array.from({ length: T * shape.featureSize }, () => rng.nextGaussian());
    const sequence: BlockSequence = { length: T, features };
    const labels = Uint8Array.from({ length: T }, (_, t) => (features[t * shape.featureSize] > 0 ? 1 : 0));
    return { sequence, labels, weights: new Float32Array(T).fill(1) };
  });
}

describe("trainBiLstm", () => {
  const shape: BiLstmShape = { tokenSlots: 0, featureSize: 3, projectionSize: 4, hiddenSize: 3, layers: 1, skip: true };
  const data = pages(shape, 16);

  it("learns, and keeps the epoch its validation score picks", () => {
    const scores = [0.1, 0.9, 0.2];
    const seen: number[] = [];
    const trained = trainBiLstm(data, shape, { epochs: 3, pagesPerStep: 2, onEpoch: (epoch) => (seen.push(epoch), scores[epoch - 1]) });
    expect(seen).toEqual([1, 2, 3]);
    expect(trained.bestEpoch).toBe(2);
    expect(trained.losses[2]).toBeLessThan(trained.losses[0]);
  });

  it("with averaging, scores and keeps a moving average of the weights, not the last step's", () => {
    const raw: Float64Array[] = [];
    const averaged: Float64Array[] = [];
    const plain = trainBiLstm(data, shape, { epochs: 2, pagesPerStep: 2, onEpoch: (_, __, params) => void raw.push(params.slice()) });
    const smooth = trainBiLstm(data, shape, {
      epochs: 2,
      pagesPerStep: 2,
      averaging: 0.9,
      onEpoch: (_, __, params) => void averaged.push(params.slice()),
    });
    // Same seed and data, so the raw trajectories agree; the average lags behind them.
    expect(plain.losses).toEqual(smooth.losses);
    let differ = 0;
    for (let i = 0; i < raw[1].length; i++) if (Math.abs(raw[1][i] - averaged[1][i]) > 1e-9) differ++;
    expect(differ).toBeGreaterThan(raw[1].length / 2);
    expect(Array.from(smooth.params)).toEqual(Array.from(averaged[1]));
    // averaging 0 is the raw weights exactly.
    const zero = trainBiLstm(data, shape, { epochs: 2, pagesPerStep: 2, averaging: 0 });
    expect(Array.from(zero.params)).toEqual(Array.from(plain.params));
  });
});
