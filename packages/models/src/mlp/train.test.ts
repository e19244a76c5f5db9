import { describe, expect, it } from "vitest";
import { predictMlp } from "./predict.js";
import { createPrng } from "./prng.js";
import { trainMlp, type MlpTrainOptions } from "./train.js";

/** Two interleaved half-moons, deliberately badly scaled so the input scaling matters. */
function twoMoons(n: number, seed: number): { X: Float32Array; y: Uint8Array } {
  const rng = createPrng(seed);
  const X = new Float32Array(n * 2);
  const y = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const c = i & 1;
    const t = Math.PI * rng.next();
    const a = c ? 1 - Math.cos(t) : Math.cos(t);
    const b = c ? 0.5 - Math.sin(t) : Math.sin(t);
    X[2 * i] = 10 * (a + 0.1 * rng.nextGaussian()) + 3;
    X[2 * i + 1] = 100 * (b + 0.1 * rng.nextGaussian()) - 7;
    y[i] = c;
  }
  return { X, y };
}

/** XOR of signs in the first two inputs, plus a constant and a noise column. */
function xorLike(n: number, seed: number): { X: Float32Array; y: Uint8Array } {
  const rng = createPrng(seed);
  const X = new Float32Array(n * 4);
  const y = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const a = 2 * rng.next() - 1;
    const b = 2 * rng.next() - 1;
    X.set([a, b, 5, rng.nextGaussian()], 4 * i);
    y[i] = a * b > 0 ? 1 : 0;
  }
  return { X, y };
}

function accuracy(p: Float32Array, y: Uint8Array): number {
  let ok = 0;
  for (let i = 0; i < y.length; i++) if (p[i] >= 0.5 === (y[i] === 1)) ok++;
  return ok / y.length;
}

const N = 2000;
const moonsTrain = twoMoons(N, 1);
const moonsTest = twoMoons(N, 2);
const xorTrain = xorLike(N, 3);
const xorTest = xorLike(N, 4);

describe("trainMlp", () => {
  // The toy sets are small, so Adam gets the steps a crawl's millions of blocks give it in 12 epochs.
  const setups: [string, MlpTrainOptions][] = [
    ["adam tanh", { learningRate: 0.01, epochs: 30, batchSize: 64 }],
    ["adam relu", { learningRate: 0.01, epochs: 30, batchSize: 64, activation: "relu" }],
    ["rprop tanh", { optimizer: "rprop" }],
    ["rprop relu", { optimizer: "rprop", activation: "relu" }],
  ];
  for (const [label, options] of setups) {
    it(`learns two moons (${label})`, () => {
      const w = trainMlp(moonsTrain.X, moonsTrain.y, N, 2, options);
      expect(accuracy(predictMlp(w, moonsTest.X, N), moonsTest.y)).toBeGreaterThan(0.97);
    });
    it(`learns XOR with a constant and a noise input (${label})`, () => {
      const w = trainMlp(xorTrain.X, xorTrain.y, N, 4, options);
      expect(accuracy(predictMlp(w, xorTest.X, N), xorTest.y)).toBeGreaterThan(0.95);
    });
  }

  it("stores the input scaling and guards constant inputs", () => {
    const w = trainMlp(xorTrain.X, xorTrain.y, N, 4, { epochs: 1 });
    expect(w.inputShift[2]).toBe(5);
    expect(w.inputFactor[2]).toBe(1);
    expect(Math.abs(w.inputShift[0])).toBeLessThan(0.1);
    expect(w.inputFactor[0]).toBeGreaterThan(1.5); // 1/std of U(-1,1) is about 1.73
    expect(w.w1.length).toBe(32 * 4);
    expect(w.hiddenSize).toBe(32);
  });

  it("is deterministic for a seed and differs across seeds", () => {
    for (const optimizer of ["adam", "rprop"] as const) {
      const opts = { optimizer, epochs: 5, seed: 42 };
      const a = trainMlp(moonsTrain.X, moonsTrain.y, N, 2, opts);
      const b = trainMlp(moonsTrain.X, moonsTrain.y, N, 2, opts);
      expect(Buffer.from(b.w1.buffer)).toEqual(Buffer.from(a.w1.buffer));
      expect(Buffer.from(b.w2.buffer)).toEqual(Buffer.from(a.w2.buffer));
      expect(Buffer.from(b.b1.buffer)).toEqual(Buffer.from(a.b1.buffer));
      expect(Object.is(a.b2, b.b2)).toBe(true);
      const c = trainMlp(moonsTrain.X, moonsTrain.y, N, 2, { ...opts, seed: 43 });
      expect(Buffer.from(c.w1.buffer)).not.toEqual(Buffer.from(a.w1.buffer));
    }
  });

  it("reports a falling loss every epoch", () => {
    const losses: number[] = [];
    trainMlp(moonsTrain.X, moonsTrain.y, N, 2, { epochs: 10, learningRate: 0.01, onEpoch: (_e, l) => losses.push(l) });
    expect(losses).toHaveLength(10);
    expect(losses[9]).toBeLessThan(losses[0]);
  });

  it("balances classes by default and honours positiveWeight", () => {
    // 10% positives that overlap the negatives: balancing pushes many more blocks above 0.5.
    const rng = createPrng(9);
    const n = 3000;
    const X = new Float32Array(n);
    const y = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      y[i] = i % 10 === 0 ? 1 : 0;
      X[i] = rng.nextGaussian() + (y[i] ? 1 : 0);
    }
    const kept = (w: ReturnType<typeof trainMlp>): number => predictMlp(w, X, n).filter((p) => p >= 0.5).length;
    const balanced = kept(trainMlp(X, y, n, 1, { epochs: 10 }));
    const unweighted = kept(trainMlp(X, y, n, 1, { epochs: 10, positiveWeight: 1 }));
    expect(balanced).toBeGreaterThan(n * 0.2);
    expect(unweighted).toBeLessThan(n * 0.05);
    // Zero sample weight on every positive leaves nothing to learn them from.
    const sampleWeight = Float32Array.from(y, (v) => (v ? 0 : 1));
    expect(kept(trainMlp(X, y, n, 1, { epochs: 10, sampleWeight }))).toBe(0);
  });

  it("rejects malformed input", () => {
    expect(() => trainMlp(new Float32Array(3), new Uint8Array(2), 2, 2)).toThrow(RangeError);
    expect(() => trainMlp(new Float32Array(4), Uint8Array.of(0, 2), 2, 2)).toThrow(/not 0 or 1/);
    expect(() => trainMlp(new Float32Array(4), Uint8Array.of(0, 1), 2, 2, { hiddenSize: 0 })).toThrow(/hiddenSize/);
    expect(() => trainMlp(Float32Array.of(0, NaN, 1, 2), Uint8Array.of(0, 1), 2, 2)).toThrow(/column 1/);
    const sampleWeight = Float32Array.of(1, -1);
    expect(() => trainMlp(new Float32Array(4), Uint8Array.of(0, 1), 2, 2, { sampleWeight })).toThrow(/sampleWeight/);
  });
});

describe("predictMlp", () => {
  it("writes into a caller's buffer and matches a hand computation", () => {
    const w = {
      inputSize: 2,
      hiddenSize: 1,
      inputShift: Float32Array.of(1, 0),
      inputFactor: Float32Array.of(2, 1),
      w1: Float32Array.of(0.5, -1),
      b1: Float32Array.of(0.25),
      w2: Float32Array.of(2),
      b2: -0.5,
      activation: "tanh" as const,
    };
    const out = new Float32Array(3).fill(-1);
    const X = Float32Array.of(3, 1, 0, 0);
    expect(predictMlp(w, X, 2, out)).toBe(out);
    const logit = (x0: number, x1: number) => 2 * Math.tanh(0.25 + 0.5 * 2 * (x0 - 1) - x1) - 0.5;
    expect(out[0]).toBeCloseTo(1 / (1 + Math.exp(-logit(3, 1))), 6);
    expect(out[1]).toBeCloseTo(1 / (1 + Math.exp(-logit(0, 0))), 6);
    expect(out[2]).toBe(-1);
  });
});
