/**
 * The BiLSTM block labeller (BoilerNet, Leonhardt et al. 2020) as plain arrays: a ReLU projection
 * of each block's input, bidirectional LSTM layers over the page's blocks in reading order, and a
 * per-block logit. Forward and backward (backpropagation through time) are written out by hand
 * because no training library installs offline here; the layout follows ONNX's LSTM operator
 * (gate order i, o, f, c; W is 4H x input, R is 4H x H) so the export is a copy.
 *
 * All parameters live in one Float64Array, so the optimiser, gradient clipping and the gradient
 * check see a single vector; `BiLstmLayout` says where each tensor starts.
 */
import type { SparseBlocks } from "./vocabulary.js";

export interface BiLstmShape {
  /** Token slots per block (tags + words + 2), 0 for a features-only model. */
  tokenSlots: number;
  /** Dense features per block (a feature set's size), 0 for BoilerNet's tags-and-words input. */
  featureSize: number;
  /** Width of the projection ("embedding") layer. */
  projectionSize: number;
  /** Units per direction in each LSTM layer. */
  hiddenSize: number;
  /** Stacked bidirectional layers. */
  layers: number;
  /**
   * The output layer also reads each block's own projection, not only the BiLSTM states: a
   * per-block path beside the sequence path, so the net starts from what a per-block model sees
   * and the LSTM only has to add context. Absent in models from before it existed.
   */
  skip?: boolean;
}

interface LstmOffsets {
  w: number; // 4H x input
  r: number; // 4H x H
  b: number; // 4H
  input: number;
}

export interface BiLstmLayout {
  shape: BiLstmShape;
  tokenWeights: number; // tokenSlots x D
  featureWeights: number; // featureSize x D
  projectionBias: number; // D
  /** [layer][direction] */
  lstm: LstmOffsets[][];
  outputWeights: number; // 2H
  /** D, or -1 without the skip path. */
  skipWeights: number;
  outputBias: number; // 1
  size: number;
}

export function biLstmLayout(shape: BiLstmShape): BiLstmLayout {
  const { tokenSlots: V, featureSize: F, projectionSize: D, hiddenSize: H, layers } = shape;
  let at = 0;
  const take = (n: number): number => ((at += n), at - n);
  const tokenWeights = take(V * D);
  const featureWeights = take(F * D);
  const projectionBias = take(D);
  const lstm: LstmOffsets[][] = [];
  for (let l = 0; l < layers; l++) {
    const input = l === 0 ? D : 2 * H;
    lstm.push([0, 1].map(() => ({ w: take(4 * H * input), r: take(4 * H * H), b: take(4 * H), input })));
  }
  const outputWeights = take(2 * H);
  const skipWeights = shape.skip ? take(D) : -1;
  const outputBias = take(1);
  return { shape, tokenWeights, featureWeights, projectionBias, lstm, outputWeights, skipWeights, outputBias, size: at };
}

/** One page as the network reads it. `features` are already standardised (T x featureSize). */
export interface BlockSequence {
  length: number;
  tokens?: SparseBlocks;
  features?: Float64Array;
}

/** What backward() needs from forward(). */
export interface ForwardCache {
  sequence: BlockSequence;
  /** T x D, after ReLU. */
  projection: Float64Array;
  /** Per layer: input (T x in), and per direction gate activations (T x 4H), cells, tanh(cells). */
  layers: Array<{ input: Float64Array; gates: Float64Array[]; cells: Float64Array[]; cellTanh: Float64Array[]; output: Float64Array }>;
  /** Last layer output after dropout (T x 2H). */
  top: Float64Array;
  /** Dropout multipliers (T x 2H), or undefined at inference. */
  dropout?: Float64Array;
  logits: Float64Array;
}

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/**
 * Logits for every block of one page. With `dropout`, a fresh inverted-dropout mask (drawn with
 * `random`) is applied to the last layer's output, as in training.
 */
export function forward(
  params: Float64Array,
  layout: BiLstmLayout,
  seq: BlockSequence,
  dropout?: { rate: number; random: () => number },
): ForwardCache {
  const { projectionSize: D, hiddenSize: H, featureSize: F } = layout.shape;
  const T = seq.length;
  const projection = new Float64Array(T * D);
  for (let t = 0; t < T; t++) {
    const row = t * D;
    for (let d = 0; d < D; d++) projection[row + d] = params[layout.projectionBias + d];
    if (seq.tokens) {
      const { start, index, value } = seq.tokens;
      for (let k = start[t]; k < start[t + 1]; k++) {
        const w = layout.tokenWeights + index[k] * D;
        const v = value[k];
        for (let d = 0; d < D; d++) projection[row + d] += v * params[w + d];
      }
    }
    if (seq.features) {
      for (let k = 0; k < F; k++) {
        const v = seq.features[t * F + k];
        if (v === 0) continue;
        const w = layout.featureWeights + k * D;
        for (let d = 0; d < D; d++) projection[row + d] += v * params[w + d];
      }
    }
    for (let d = 0; d < D; d++) if (projection[row + d] < 0) projection[row + d] = 0;
  }

  const layers: ForwardCache["layers"] = [];
  let input = projection;
  for (const directions of layout.lstm) {
    const output = new Float64Array(T * 2 * H);
    const gates: Float64Array[] = [];
    const cells: Float64Array[] = [];
    const cellTanh: Float64Array[] = [];
    directions.forEach((offsets, dir) => {
      const g = new Float64Array(T * 4 * H);
      const c = new Float64Array(T * H);
      const tc = new Float64Array(T * H);
      lstmForward(params, offsets, H, input, T, dir === 1, g, c, tc, output, dir * H);
      gates.push(g);
      cells.push(c);
      cellTanh.push(tc);
    });
    layers.push({ input, gates, cells, cellTanh, output });
    input = output;
  }

  let top = input;
  let mask: Float64Array | undefined;
  if (dropout && dropout.rate > 0) {
    mask = new Float64Array(top.length);
    top = new Float64Array(input.length);
    const keep = 1 - dropout.rate;
    for (let i = 0; i < mask.length; i++) {
      mask[i] = dropout.random() < keep ? 1 / keep : 0;
      top[i] = input[i] * mask[i];
    }
  }
  const logits = new Float64Array(T);
  const wo = layout.outputWeights;
  const ws = layout.skipWeights;
  for (let t = 0; t < T; t++) {
    let z = params[layout.outputBias];
    for (let k = 0; k < 2 * H; k++) z += params[wo + k] * top[t * 2 * H + k];
    if (ws >= 0) for (let d = 0; d < D; d++) z += params[ws + d] * projection[t * D + d];
    logits[t] = z;
  }
  return { sequence: seq, projection, layers, top, dropout: mask, logits };
}

/**
 * One direction of one layer. Writes gate activations (i, o, f as sigmoids, c as tanh), cells
 * and tanh(cells) at each block's own position, and h into `output` (T x 2H) at column `column`.
 */
function lstmForward(
  params: Float64Array,
  o: LstmOffsets,
  H: number,
  input: Float64Array,
  T: number,
  reverse: boolean,
  gates: Float64Array,
  cells: Float64Array,
  cellTanh: Float64Array,
  output: Float64Array,
  column: number,
): void {
  const In = o.input;
  const G = 4 * H;
  for (let s = 0; s < T; s++) {
    const t = reverse ? T - 1 - s : s;
    const prev = s === 0 ? -1 : reverse ? t + 1 : t - 1;
    const g = t * G;
    const x = t * In;
    for (let j = 0; j < G; j++) {
      let sum = params[o.b + j];
      const w = o.w + j * In;
      for (let k = 0; k < In; k++) sum += params[w + k] * input[x + k];
      if (prev >= 0) {
        const r = o.r + j * H;
        const h = prev * 2 * H + column;
        for (let k = 0; k < H; k++) sum += params[r + k] * output[h + k];
      }
      gates[g + j] = sum;
    }
    for (let k = 0; k < H; k++) {
      const i = sigmoid(gates[g + k]);
      const og = sigmoid(gates[g + H + k]);
      const f = sigmoid(gates[g + 2 * H + k]);
      const cc = Math.tanh(gates[g + 3 * H + k]);
      gates[g + k] = i;
      gates[g + H + k] = og;
      gates[g + 2 * H + k] = f;
      gates[g + 3 * H + k] = cc;
      const c = f * (prev >= 0 ? cells[prev * H + k] : 0) + i * cc;
      cells[t * H + k] = c;
      const tc = Math.tanh(c);
      cellTanh[t * H + k] = tc;
      output[t * 2 * H + column + k] = og * tc;
    }
  }
}

/**
 * Adds the gradient of the loss to `grad`, given dLoss/dLogit per block (`dLogits`). Returns
 * nothing: gradients of several pages accumulate in one buffer before an optimiser step.
 */
export function backward(params: Float64Array, layout: BiLstmLayout, cache: ForwardCache, dLogits: Float64Array, grad: Float64Array): void {
  const { projectionSize: D, hiddenSize: H, featureSize: F } = layout.shape;
  const T = cache.sequence.length;
  const H2 = 2 * H;
  let dOut = new Float64Array(T * H2);
  const wo = layout.outputWeights;
  for (let t = 0; t < T; t++) {
    const dz = dLogits[t];
    if (dz === 0) continue;
    grad[layout.outputBias] += dz;
    for (let k = 0; k < H2; k++) {
      grad[wo + k] += dz * cache.top[t * H2 + k];
      dOut[t * H2 + k] = dz * params[wo + k];
    }
  }
  if (cache.dropout) for (let i = 0; i < dOut.length; i++) dOut[i] *= cache.dropout[i];

  for (let l = layout.lstm.length - 1; l >= 0; l--) {
    const layer = cache.layers[l];
    const In = layout.lstm[l][0].input;
    const dInput = new Float64Array(T * In);
    layout.lstm[l].forEach((offsets, dir) => {
      lstmBackward(params, offsets, H, layer, dir, T, dOut, dInput, grad);
    });
    dOut = dInput;
  }

  // dOut is now dLoss/dProjection through the LSTM; add the skip path's share.
  const ws = layout.skipWeights;
  if (ws >= 0) {
    for (let t = 0; t < T; t++) {
      const dz = dLogits[t];
      if (dz === 0) continue;
      for (let d = 0; d < D; d++) {
        grad[ws + d] += dz * cache.projection[t * D + d];
        dOut[t * D + d] += dz * params[ws + d];
      }
    }
  }
  // Through the ReLU into the projection weights.
  const seq = cache.sequence;
  for (let t = 0; t < T; t++) {
    const row = t * D;
    for (let d = 0; d < D; d++) if (cache.projection[row + d] <= 0) dOut[row + d] = 0;
    for (let d = 0; d < D; d++) grad[layout.projectionBias + d] += dOut[row + d];
    if (seq.tokens) {
      const { start, index, value } = seq.tokens;
      for (let k = start[t]; k < start[t + 1]; k++) {
        const w = layout.tokenWeights + index[k] * D;
        const v = value[k];
        for (let d = 0; d < D; d++) grad[w + d] += v * dOut[row + d];
      }
    }
    if (seq.features) {
      for (let k = 0; k < F; k++) {
        const v = seq.features[t * F + k];
        if (v === 0) continue;
        const w = layout.featureWeights + k * D;
        for (let d = 0; d < D; d++) grad[w + d] += v * dOut[row + d];
      }
    }
  }
}

/** Backpropagation through time for one direction of one layer. */
function lstmBackward(
  params: Float64Array,
  o: LstmOffsets,
  H: number,
  layer: ForwardCache["layers"][number],
  dir: number,
  T: number,
  dOut: Float64Array,
  dInput: Float64Array,
  grad: Float64Array,
): void {
  const reverse = dir === 1;
  const In = o.input;
  const G = 4 * H;
  const column = dir * H;
  const gates = layer.gates[dir];
  const cells = layer.cells[dir];
  const cellTanh = layer.cellTanh[dir];
  const dh = new Float64Array(H);
  const dcNext = new Float64Array(H);
  const dg = new Float64Array(G);
  for (let s = T - 1; s >= 0; s--) {
    const t = reverse ? T - 1 - s : s;
    const prev = s === 0 ? -1 : reverse ? t + 1 : t - 1;
    const g = t * G;
    for (let k = 0; k < H; k++) {
      const dhk = dh[k] + dOut[t * 2 * H + column + k];
      const i = gates[g + k],
        og = gates[g + H + k],
        f = gates[g + 2 * H + k],
        cc = gates[g + 3 * H + k];
      const tc = cellTanh[t * H + k];
      const dc = dhk * og * (1 - tc * tc) + dcNext[k];
      const cPrev = prev >= 0 ? cells[prev * H + k] : 0;
      dg[k] = dc * cc * i * (1 - i);
      dg[H + k] = dhk * tc * og * (1 - og);
      dg[2 * H + k] = dc * cPrev * f * (1 - f);
      dg[3 * H + k] = dc * i * (1 - cc * cc);
      dcNext[k] = dc * f;
    }
    // Weights: dW += dg x input_t, dR += dg x h_prev, db += dg; and dInput_t += W^T dg, dh_prev = R^T dg.
    const x = t * In;
    dh.fill(0);
    for (let j = 0; j < G; j++) {
      const d = dg[j];
      if (d === 0) continue;
      grad[o.b + j] += d;
      const w = o.w + j * In;
      for (let k = 0; k < In; k++) {
        grad[w + k] += d * layer.input[x + k];
        dInput[x + k] += d * params[w + k];
      }
      if (prev >= 0) {
        const r = o.r + j * H;
        const h = prev * 2 * H + column;
        for (let k = 0; k < H; k++) {
          grad[r + k] += d * layer.output[h + k];
          dh[k] += d * params[r + k];
        }
      }
    }
  }
}

/**
 * Weighted binary cross-entropy over one page's logits: adds the loss to the return value and
 * writes dLoss/dLogit into `dLogits`. Computed from logits (softplus) to stay finite.
 */
export function weightedLogLoss(
  logits: Float64Array,
  labels: Uint8Array,
  weights: Float32Array | Float64Array,
  dLogits: Float64Array,
): number {
  let loss = 0;
  for (let t = 0; t < logits.length; t++) {
    const z = logits[t];
    const y = labels[t];
    const w = weights[t];
    // log(1 + e^z) without overflow.
    const softplus = z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
    loss += w * (softplus - y * z);
    dLogits[t] = w * (sigmoid(z) - y);
  }
  return loss;
}

/** Scores (sigmoid of the logits) of every block of one page, no dropout. */
export function predictSequence(params: Float64Array, layout: BiLstmLayout, seq: BlockSequence): Float32Array {
  const { logits } = forward(params, layout, seq);
  const out = new Float32Array(logits.length);
  for (let t = 0; t < logits.length; t++) out[t] = sigmoid(logits[t]);
  return out;
}

/** Scores of an ensemble: the mean of each member's scores, as the exported graph computes them. */
export function predictMembers(members: readonly Float64Array[], layout: BiLstmLayout, seq: BlockSequence): Float32Array {
  if (members.length === 1) return predictSequence(members[0], layout, seq);
  const sum = new Float64Array(seq.length);
  for (const params of members) {
    const { logits } = forward(params, layout, seq);
    for (let t = 0; t < logits.length; t++) sum[t] += sigmoid(logits[t]);
  }
  const out = new Float32Array(seq.length);
  for (let t = 0; t < out.length; t++) out[t] = sum[t] / members.length;
  return out;
}
