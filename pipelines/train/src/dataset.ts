/**
 * Labelled pages to training rows: segment each page, label its blocks by aligning them with the
 * page's gold text, and stack every block's feature row into one matrix.
 */
import { alignBlockLabels, type LabelledPage } from "@winnow/evaluation";
import type { FeatureSet } from "@winnow/features";

export interface Dataset {
  pages: LabelledPage[];
  featureSet: FeatureSet;
  /** Row-major blocks x featureSet.size. */
  rows: Float32Array;
  labels: Uint8Array;
  /** Word tokens per block: word F1 counts words, so training can weight blocks by them. */
  words: Float32Array;
  /** Block rows of page p are firstRow[p] .. firstRow[p+1]-1. */
  firstRow: Int32Array;
  /** When set, training uses these labels instead of the alignment's `labels` (see withTrainingLabels). */
  training?: TrainingLabels;
}

/**
 * Labels to train on that did not come from the alignment (label files: hand-made or
 * propagated). `labels` and `known` are per block like Dataset.labels; a block with known 0 has
 * no label and weighs nothing in training. `validationGold` is, per page, the text the keep
 * threshold is chosen against. Scoring (eval) always uses the pages' own gold text.
 */
export interface TrainingLabels {
  labels: Uint8Array;
  known: Uint8Array;
  validationGold: readonly string[];
}

/** Alignment threshold: a block is content when at least half its words align with the gold text. */
export const LABEL_THRESHOLD = 0.5;

export function buildDataset(pages: LabelledPage[], featureSet: FeatureSet): Dataset {
  const firstRow = new Int32Array(pages.length + 1);
  for (let p = 0; p < pages.length; p++) firstRow[p + 1] = firstRow[p] + pages[p].doc.blocks.length;
  const total = firstRow[pages.length];
  const rows = new Float32Array(total * featureSet.size);
  const labels = new Uint8Array(total);
  const words = new Float32Array(total);
  for (let p = 0; p < pages.length; p++) {
    const { doc, gold } = pages[p];
    featureSet.extract(doc, rows, firstRow[p] * featureSet.size);
    const aligned = alignBlockLabels(
      doc.blocks.map((b) => b.text),
      gold,
      { threshold: LABEL_THRESHOLD },
    );
    labels.set(aligned.labels, firstRow[p]);
    words.set(aligned.tokens, firstRow[p]);
  }
  return { pages, featureSet, rows, labels, words, firstRow };
}

/** The rows and labels of a subset of pages, copied into fresh arrays. */
export function selectPages(
  data: Dataset,
  pageIndexes: readonly number[],
): { rows: Float32Array; labels: Uint8Array; words: Float32Array; count: number; known?: Uint8Array } {
  const size = data.featureSet.size;
  let count = 0;
  for (const p of pageIndexes) count += data.firstRow[p + 1] - data.firstRow[p];
  const rows = new Float32Array(count * size);
  const labels = new Uint8Array(count);
  const words = new Float32Array(count);
  const known = data.training ? new Uint8Array(count) : undefined;
  const source = data.training?.labels ?? data.labels;
  let at = 0;
  for (const p of pageIndexes) {
    const from = data.firstRow[p],
      to = data.firstRow[p + 1];
    rows.set(data.rows.subarray(from * size, to * size), at * size);
    labels.set(source.subarray(from, to), at);
    words.set(data.words.subarray(from, to), at);
    known?.set(data.training!.known.subarray(from, to), at);
    at += to - from;
  }
  return { rows, labels, words, count, known };
}
