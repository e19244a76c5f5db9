/**
 * How well label propagation recovers the alignment labels of a dataset: per page, seed some
 * blocks (a random share of the gold labels, or the markup heuristic), propagate over the page's
 * block graph and score the blocks that were not seeds.
 */
import { heuristicSeeds, propagateLabels, type PropagationOptions } from "@winnow/labels";
import { mulberry32 } from "@winnow/random";
import type { Dataset } from "./dataset.js";

export type PropagationEvalOptions =
  | { reveal: number; seed?: number; propagation?: PropagationOptions }
  | { heuristicSeeds: true; propagation?: PropagationOptions };

export interface PropagationReport {
  /** Over unlabelled (non-seed) blocks, against data.labels. */
  accuracy: number;
  precision: number;
  recall: number;
  f1: number;
  /** Accuracy of always answering the majority class of those same blocks: the bar to beat. */
  majorityAccuracy: number;
  /** Share of seeds that agree with data.labels (1 for revealed gold labels). */
  seedAccuracy: number;
  seedsPerPage: number;
  /** Unlabelled blocks scored. */
  blocks: number;
  pages: number;
}

/** Content when the harmonic score is strictly above 0.5: a tie means no evidence either way. */
export const PROPAGATION_THRESHOLD = 0.5;

/** Exactly round(reveal·n) gold labels of a page, drawn without replacement (partial Fisher–Yates). */
export function revealSeeds(labels: Uint8Array, reveal: number, random: () => number): Int8Array {
  const n = labels.length;
  const seeds = new Int8Array(n).fill(-1);
  const count = Math.min(n, Math.round(reveal * n));
  const order = Int32Array.from({ length: n }, (_, i) => i);
  for (let s = 0; s < count; s++) {
    const pick = s + Math.floor(random() * (n - s));
    const chosen = order[pick];
    order[pick] = order[s];
    order[s] = chosen;
    seeds[chosen] = labels[chosen];
  }
  return seeds;
}

export function evaluatePropagation(data: Dataset, options: PropagationEvalOptions): PropagationReport {
  const dims = data.featureSet.size;
  const random = "reveal" in options ? mulberry32(options.seed ?? 1) : undefined;
  if ("reveal" in options && !(options.reveal >= 0 && options.reveal <= 1))
    throw new RangeError(`reveal must be in [0, 1], got ${options.reveal}`);
  let tp = 0,
    fp = 0,
    fn = 0,
    tn = 0,
    seeds = 0,
    seedsRight = 0;
  for (let p = 0; p < data.pages.length; p++) {
    const from = data.firstRow[p],
      to = data.firstRow[p + 1];
    const gold = data.labels.subarray(from, to);
    const doc = data.pages[p].doc;
    const pageSeeds = random && "reveal" in options ? revealSeeds(gold, options.reveal, random) : heuristicSeeds(doc);
    const scores = propagateLabels(doc, data.rows.subarray(from * dims, to * dims), dims, pageSeeds, options.propagation);
    for (let b = 0; b < gold.length; b++) {
      if (pageSeeds[b] >= 0) {
        seeds++;
        if (pageSeeds[b] === gold[b]) seedsRight++;
        continue;
      }
      const predicted = scores[b] > PROPAGATION_THRESHOLD;
      if (predicted && gold[b] === 1) tp++;
      else if (predicted) fp++;
      else if (gold[b] === 1) fn++;
      else tn++;
    }
  }
  const blocks = tp + fp + fn + tn;
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  return {
    accuracy: blocks > 0 ? (tp + tn) / blocks : 0,
    precision,
    recall,
    f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0,
    majorityAccuracy: blocks > 0 ? Math.max(tp + fn, fp + tn) / blocks : 0,
    seedAccuracy: seeds > 0 ? seedsRight / seeds : 0,
    seedsPerPage: data.pages.length > 0 ? seeds / data.pages.length : 0,
    blocks,
    pages: data.pages.length,
  };
}
