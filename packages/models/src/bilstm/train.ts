/**
 * Training the BiLSTM: Adam over whole pages (a page is one sequence), weighted binary
 * cross-entropy, inverted dropout after the last layer, gradients clipped by global norm, and
 * the best epoch kept by the caller's validation score (BoilerNet keeps the best checkpoint by
 * validation F1). Long pages are cut into windows of at most `window` blocks for training only;
 * inference always reads the whole page, so a window's edges are the only context lost.
 */
import { Adam } from "../mlp/optimizers.js";
import { createPrng, shuffleInPlace } from "../mlp/prng.js";
import { backward, biLstmLayout, forward, weightedLogLoss, type BiLstmLayout, type BiLstmShape, type BlockSequence } from "./network.js";

export interface TrainingSequence {
  sequence: BlockSequence;
  labels: Uint8Array;
  /** Per block; 0 leaves a block out of the loss. */
  weights: Float32Array;
}

export interface BiLstmTrainOptions {
  epochs?: number;
  learningRate?: number;
  /** Pages whose gradients are summed before each optimiser step. */
  pagesPerStep?: number;
  dropout?: number;
  /** Longest run of blocks trained on at once (longer pages are split). */
  window?: number;
  /** Global gradient-norm cap per step. */
  clipNorm?: number;
  seed?: number;
  /**
   * Decay of an exponential moving average of the parameters, updated after every step; the
   * average is what each epoch is scored on and what is kept. 0 keeps the raw parameters.
   * Why: a step is a few whole pages, so the raw weights jump from step to step; their
   * average is a cheap stand-in for an ensemble, at no cost when scoring.
   */
  averaging?: number;
  /** After each epoch: mean training loss; return a validation score to keep the best epoch. */
  onEpoch?: (epoch: number, loss: number, params: Float64Array, layout: BiLstmLayout) => number | undefined;
}

const BILSTM_TRAIN_DEFAULTS = {
  epochs: 10,
  learningRate: 0.003,
  pagesPerStep: 8,
  dropout: 0.5,
  window: 1024,
  clipNorm: 5,
  seed: 1,
  averaging: 0,
} as const;

export interface TrainedBiLstm {
  layout: BiLstmLayout;
  params: Float64Array;
  /** Epoch (1-based) whose parameters were kept. */
  bestEpoch: number;
  bestScore: number;
  losses: number[];
}

/** Fresh parameters: PyTorch-style uniform LSTM weights, forget-gate bias 1, Glorot projections. */
export function initialParameters(layout: BiLstmLayout, seed: number): Float64Array {
  const { tokenSlots: V, featureSize: F, projectionSize: D, hiddenSize: H } = layout.shape;
  const rng = createPrng(seed);
  const params = new Float64Array(layout.size);
  const uniform = (from: number, count: number, limit: number): void => {
    for (let i = 0; i < count; i++) params[from + i] = (rng.next() * 2 - 1) * limit;
  };
  // A block has a dozen or so non-zero token slots, not V: scale for those.
  uniform(layout.tokenWeights, V * D, Math.sqrt(6 / (16 + D)));
  uniform(layout.featureWeights, F * D, Math.sqrt(6 / (F + D)));
  const k = 1 / Math.sqrt(H);
  for (const directions of layout.lstm) {
    for (const o of directions) {
      uniform(o.w, 4 * H * o.input, k);
      uniform(o.r, 4 * H * H, k);
      for (let j = 0; j < H; j++) params[o.b + 2 * H + j] = 1; // forget gate: remember by default
    }
  }
  uniform(layout.outputWeights, 2 * H, 1 / Math.sqrt(2 * H));
  if (layout.skipWeights >= 0) uniform(layout.skipWeights, D, 1 / Math.sqrt(D));
  return params;
}

/** Blocks from..to of a sequence (for training windows). */
function sliceSequence(seq: BlockSequence, from: number, to: number, featureSize: number): BlockSequence {
  const out: BlockSequence = { length: to - from };
  if (seq.tokens) {
    const { start, index, value } = seq.tokens;
    const a = start[from],
      b = start[to];
    const s = new Int32Array(to - from + 1);
    for (let t = from; t <= to; t++) s[t - from] = start[t] - a;
    out.tokens = { start: s, index: index.subarray(a, b), value: value.subarray(a, b) };
  }
  if (seq.features) out.features = seq.features.subarray(from * featureSize, to * featureSize);
  return out;
}

function windows(pages: readonly TrainingSequence[], size: number, featureSize: number): TrainingSequence[] {
  const out: TrainingSequence[] = [];
  for (const page of pages) {
    const T = page.sequence.length;
    if (T === 0) continue;
    // Equal windows rather than size, size, ..., remainder: no tiny tail window.
    const count = Math.ceil(T / size);
    for (let w = 0; w < count; w++) {
      const from = Math.floor((w * T) / count),
        to = Math.floor(((w + 1) * T) / count);
      out.push(
        count === 1
          ? page
          : {
              sequence: sliceSequence(page.sequence, from, to, featureSize),
              labels: page.labels.subarray(from, to),
              weights: page.weights.subarray(from, to),
            },
      );
    }
  }
  return out;
}

export function trainBiLstm(pages: readonly TrainingSequence[], shape: BiLstmShape, options: BiLstmTrainOptions = {}): TrainedBiLstm {
  const o: Required<Omit<BiLstmTrainOptions, "onEpoch">> = { ...BILSTM_TRAIN_DEFAULTS };
  // Spread would let an explicit undefined override a default.
  for (const key of Object.keys(o) as Array<keyof typeof o>) if (options[key] !== undefined) o[key] = options[key]!;
  const layout = biLstmLayout(shape);
  const params = initialParameters(layout, o.seed);
  const grad = new Float64Array(layout.size);
  const adam = new Adam(layout.size, o.learningRate);
  const rng = createPrng(o.seed + 7919);
  const dropout = { rate: o.dropout, random: rng.next };
  const pieces = windows(pages, o.window, shape.featureSize);
  const order = new Uint32Array(pieces.length).map((_, i) => i);
  // With averaging, `kept` is the moving average that epochs are scored on; otherwise the raw parameters.
  const kept = o.averaging > 0 ? params.slice() : params;
  let best = { epoch: 0, score: -Infinity, params: params.slice() };
  const losses: number[] = [];
  for (let epoch = 1; epoch <= o.epochs; epoch++) {
    shuffleInPlace(order, rng);
    let lossSum = 0,
      weightSum = 0;
    for (let start = 0; start < order.length; start += o.pagesPerStep) {
      grad.fill(0);
      let stepWeight = 0;
      for (let i = start; i < Math.min(order.length, start + o.pagesPerStep); i++) {
        const piece = pieces[order[i]];
        const cache = forward(params, layout, piece.sequence, dropout);
        const dLogits = new Float64Array(piece.sequence.length);
        lossSum += weightedLogLoss(cache.logits, piece.labels, piece.weights, dLogits);
        for (let t = 0; t < piece.weights.length; t++) stepWeight += piece.weights[t];
        backward(params, layout, cache, dLogits, grad);
      }
      weightSum += stepWeight;
      if (stepWeight === 0) continue;
      let scale = 1 / stepWeight;
      let norm = 0;
      for (let i = 0; i < grad.length; i++) norm += grad[i] * grad[i];
      norm = Math.sqrt(norm) * scale;
      if (norm > o.clipNorm) scale *= o.clipNorm / norm;
      adam.step(params, grad, scale, 0, 0);
      if (kept !== params) {
        const a = o.averaging;
        for (let i = 0; i < params.length; i++) kept[i] = a * kept[i] + (1 - a) * params[i];
      }
    }
    const loss = lossSum / Math.max(1e-12, weightSum);
    losses.push(loss);
    const score = options.onEpoch?.(epoch, loss, kept, layout);
    // Without a validation score the last epoch is kept.
    const value = typeof score === "number" ? score : epoch;
    if (value > best.score) best = { epoch, score: value, params: kept.slice() };
  }
  return { layout, params: best.params, bestEpoch: best.epoch, bestScore: best.score, losses };
}
