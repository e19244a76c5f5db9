/**
 * Fitting an MLP on some pages of a dataset and choosing its threshold, the way both
 * `winnow train` and each fold of `winnow eval --folds` do it, so the figures describe the model
 * that ships.
 *
 * The threshold is picked on validation pages held out of the training pages by domain: the one
 * that maximises the mean word F1 of those pages, the measure users judge by.
 */
import { domainFolds, wordScores, keptText } from "@winnow/evaluation";
import { predictMlpEnsemble, trainMlp, type MlpWeights, type TrainOptions } from "@winnow/models";
import { selectPages, type Dataset } from "./dataset.js";

/** One in this many training domains validates the threshold instead of training. */
const VALIDATION_FOLDS = 8;
/**
 * Keep thresholds tried on the validation pages: evenly spaced in logit, sigmoid(-4) to
 * sigmoid(3) in steps of 0.25 (0.018 to 0.953). Why logit: models trained on weighted blocks are
 * not centred on 0.5, and the BiLSTM's best thresholds lie near 0.1-0.2, where a step of 0.05 is
 * a large change in what is kept; the earlier grid (0.10 to 0.90 by 0.05) stopped at 0.10, which
 * every BiLSTM chose in one fold of five (experiments/results/2026-11-24-bilstm-ensemble-cv.md).
 */
const THRESHOLD_CANDIDATES: readonly number[] = Array.from({ length: 29 }, (_, i) => Number((1 / (1 + Math.exp(4 - i * 0.25))).toFixed(4)));

/**
 * How much each training block counts. Word F1 is computed over words, so a 200-word paragraph
 * matters far more than a 2-word menu entry; "sqrt-words" leans that way without letting a few
 * huge blocks drown the rest.
 */
export type BlockWeighting = "uniform" | "sqrt-words" | "log-words";

export interface MlpFitOptions extends TrainOptions {
  blockWeighting?: BlockWeighting;
  /**
   * Give every page the same total weight, as the benchmark's mean over pages does, instead of
   * letting pages with thousands of blocks dominate (default true: +0.6 points of CV word F1).
   */
  equalPages?: boolean;
  /**
   * Members of the ensemble, each trained with its own seed on the same rows; their scores are
   * averaged (and exported as one graph). Default DEFAULT_ENSEMBLE.
   */
  ensemble?: number;
}

export const DEFAULT_BLOCK_WEIGHTING: BlockWeighting = "sqrt-words";

/**
 * Optimiser settings winnow trains with unless told otherwise: Adam, 12 epochs of 128-block
 * batches. On the WCXB dev pages (5 domain folds) this matched 30 epochs of 64 (word F1 0.827 vs
 * 0.825) and a 48-unit hidden layer (0.823) at a third of the time.
 */
/** Three members: 10-fold domain CV word F1 0.833 -> 0.839, thresholds steadier across folds. */
const DEFAULT_ENSEMBLE = 3;

/** known: 0 for blocks without a label, which then weigh nothing (and don't count in their page's total). */
function blockWeights(
  words: Float32Array,
  weighting: BlockWeighting,
  pageEnds: Int32Array | undefined,
  known?: Uint8Array,
): Float32Array | undefined {
  if (weighting === "uniform" && !pageEnds && !known) return undefined;
  const weights = new Float32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    weights[i] = weighting === "uniform" ? 1 : weighting === "sqrt-words" ? Math.sqrt(1 + words[i]) : Math.log2(2 + words[i]);
    if (known && known[i] === 0) weights[i] = 0;
  }
  if (pageEnds) {
    // Each page's weights sum to its mean block count, so the overall scale stays as before.
    const meanBlocks = words.length / Math.max(1, pageEnds.length);
    let from = 0;
    for (const to of pageEnds) {
      let sum = 0;
      for (let i = from; i < to; i++) sum += weights[i];
      // sum is 0 only for a page whose blocks are all unlabelled: it stays at weight 0.
      if (sum > 0) for (let i = from; i < to; i++) weights[i] *= meanBlocks / sum;
      from = to;
    }
  }
  return weights;
}

/**
 * Negatives per positive among labelled blocks only: the trainer's own class balance would count
 * unlabelled blocks (stored as 0) as negatives.
 */
function knownClassRatio(labels: Uint8Array, known: Uint8Array): number | undefined {
  let positives = 0,
    negatives = 0;
  for (let i = 0; i < labels.length; i++) if (known[i] === 1) labels[i] === 1 ? positives++ : negatives++;
  return positives > 0 && negatives > 0 ? negatives / positives : undefined;
}

export interface FittedMlp {
  /** One or more members; scores are their mean. */
  members: MlpWeights[];
  threshold: number;
  /** Mean word F1 of the validation pages at that threshold. */
  validationF1: number;
  trainPages: number;
  validationPages: number;
}

export function fitMlp(data: Dataset, pageIndexes: readonly number[], options: MlpFitOptions = {}): FittedMlp {
  const { train, validation } = splitValidation(data, pageIndexes);
  const subset = selectPages(data, train);
  const sampleWeight = trainingWeights(data, train, subset, options);
  const settings = {
    ...options,
    sampleWeight,
    positiveWeight: options.positiveWeight ?? (subset.known ? knownClassRatio(subset.labels, subset.known) : undefined),
  };
  const seed = options.seed ?? 1;
  const members: MlpWeights[] = [];
  for (let k = 0; k < (options.ensemble ?? DEFAULT_ENSEMBLE); k++) {
    members.push(trainMlp(subset.rows, subset.labels, subset.count, data.featureSet.size, { ...settings, seed: seed + k }));
  }
  const best = chooseThreshold(data, validation, scoreMlpPages(data, validation, members));
  return { members, threshold: best.threshold, validationF1: best.f1, trainPages: train.length, validationPages: validation.length };
}

/**
 * Training and validation pages out of `pageIndexes`: one in VALIDATION_FOLDS domains validates.
 * Shared by every model kind, so their thresholds are chosen the same way.
 */
export function splitValidation(data: Dataset, pageIndexes: readonly number[]): { train: number[]; validation: number[] } {
  const folds = domainFolds(
    pageIndexes.map((p) => ({ id: data.pages[p].id, domain: data.pages[p].domain })),
    VALIDATION_FOLDS,
    7,
  );
  const train: number[] = [];
  const validation: number[] = [];
  pageIndexes.forEach((p, i) => (folds[i] === 0 ? validation : train).push(p));
  if (train.length === 0 || validation.length === 0) {
    // All pages in one domain (one site's pages, or a per-host model): a domain split leaves one
    // side empty, so validate on every VALIDATION_FOLDS-th page instead. The model is then used
    // on that same site, which is what a page split measures.
    train.length = validation.length = 0;
    pageIndexes.forEach((p, i) => (i % VALIDATION_FOLDS === VALIDATION_FOLDS - 1 ? validation : train).push(p));
  }
  return { train, validation };
}

/** Per-block training weights of the `train` pages (`subset` is selectPages(data, train)). */
export function trainingWeights(
  data: Dataset,
  train: readonly number[],
  subset: { words: Float32Array; known?: Uint8Array },
  options: Pick<MlpFitOptions, "equalPages" | "blockWeighting">,
): Float32Array | undefined {
  let pageEnds: Int32Array | undefined;
  if (options.equalPages ?? true) {
    pageEnds = new Int32Array(train.length);
    let end = 0;
    train.forEach((p, i) => (pageEnds![i] = end += data.firstRow[p + 1] - data.firstRow[p]));
  }
  return blockWeights(subset.words, options.blockWeighting ?? DEFAULT_BLOCK_WEIGHTING, pageEnds, subset.known);
}

/**
 * The keep threshold that maximises the mean word F1 of the validation pages, the measure users
 * judge by; `scores[i]` are the block scores of page `validation[i]`.
 */
export function chooseThreshold(
  data: Dataset,
  validation: readonly number[],
  scores: readonly ArrayLike<number>[],
): { threshold: number; f1: number } {
  const gold = (p: number): string => data.training?.validationGold[p] ?? data.pages[p].gold;
  const f1s = THRESHOLD_CANDIDATES.map((threshold) => {
    let sum = 0;
    validation.forEach((p, i) => (sum += wordScores(keptText(data.pages[p].doc, scores[i], threshold), gold(p)).f1));
    return validation.length === 0 ? 0 : sum / validation.length;
  });
  // The validation pages are few; a plateau of good thresholds generalises better than a spike.
  let best = { threshold: 0.5, f1: -1, smoothed: -1 };
  f1s.forEach((f1, i) => {
    const window = f1s.slice(Math.max(0, i - 1), i + 2);
    const smoothed = window.reduce((a, b) => a + b, 0) / window.length;
    if (smoothed > best.smoothed) best = { threshold: THRESHOLD_CANDIDATES[i], f1, smoothed };
  });
  return { threshold: best.threshold, f1: best.f1 };
}

/** Block scores of each listed page under an MLP (the TypeScript forward pass, equal to ONNX's). */
export function scoreMlpPages(data: Dataset, pageIndexes: readonly number[], members: readonly MlpWeights[]): Float32Array[] {
  const size = data.featureSet.size;
  return pageIndexes.map((p) => {
    const from = data.firstRow[p],
      to = data.firstRow[p + 1];
    return predictMlpEnsemble(members, data.rows.subarray(from * size, to * size), to - from);
  });
}
