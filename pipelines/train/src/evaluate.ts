/**
 * Scoring extractions against gold text, WCXB-style: word precision, recall and F1 per page, then
 * the mean, overall and per page type; plus block decisions against the alignment labels.
 *
 * Two ways: a fixed classifier over every page (the heuristic, a model file, or "all text"), or
 * K-fold cross-validation that trains on K-1 folds and scores the held-out fold, folds split by
 * domain so that no site is on both sides. Nothing is ever scored by a model trained on it.
 */
import { domainFolds, snippetRates, summarise, wordScores, type Summary, keptText } from "@winnow/evaluation";
import { type BlockClassifier, inCommentsField, NO_COMMENTS } from "@winnow/models";
import { commentsKnown, type Dataset } from "./dataset.js";
import {
  chooseCommentThreshold,
  DEFAULT_SOURCE_BALANCE,
  fitMlp,
  type MlpFitOptions,
  decideMlpComments,
  scoreMlpPages,
  type FittedMlp,
  withFallback,
  withWeakPageRule,
} from "./mlp-fit.js";
import { type OperatingPoints, operatingPoints, THRESHOLD_CANDIDATES, type ThresholdCurve, thresholdCurves } from "./operating-points.js";
import { UsageError } from "@winnow/errors";

export interface PageScore {
  source: string;
  id: string;
  url: string;
  pageType: string;
  domain: string;
  /** The gold's language as the data set guessed it ("" when unknown). */
  language: string;
  fold: number;
  precision: number;
  recall: number;
  f1: number;
  /** Share of the page's `with` snippets (text the gold says must be kept) found in the kept text; NaN when it has none. */
  withRate: number;
  /** Share of the page's `without` snippets (boilerplate the gold says must go) absent from it; NaN when it has none. */
  withoutRate: number;
  blocksKept: number;
  blocksTotal: number;
  /**
   * Pages with comment gold only: words of the blocks that align with the user comments, and how
   * many of them were kept as main text.
   */
  commentWords?: number;
  commentWordsKept?: number;
  /**
   * Pages whose comments are known (a set with comment gold, or a hand comment label file), scored
   * by a model with a comment head as `winnow clean --comments` decides (see CommentDecisionScore).
   */
  commentDecision?: CommentDecisionScore;
}

/**
 * One page under the comment decision `winnow clean --comments` makes (the head's veto at the
 * comment threshold, then the markup's settling: decideComments), against the page's comment
 * gold ("gold": the set's own) or its hand comment labels ("hand", whose comment blocks are the
 * gold). Pages with comments have `fieldF1`, pages without have `fieldEmpty`.
 */
export interface CommentDecisionScore {
  from: "gold" | "hand";
  /** Words of the blocks that are comments by the gold, and how many of them the main text keeps. */
  words: number;
  wordsInMain: number;
  /** Word F1 of the `comments` field against the comment gold's text (pages with comments), and its precision and recall. */
  fieldF1?: number;
  fieldPrecision?: number;
  fieldRecall?: number;
  /** Whether the `comments` field is empty (pages without comments). */
  fieldEmpty?: boolean;
}

/** Block decisions against the alignment labels (the texrex paper's Table 2 measure). */
export interface BlockCounts {
  truePositive: number;
  falsePositive: number;
  falseNegative: number;
  trueNegative: number;
}

export interface EvaluationReport {
  method: string;
  /** Folds of a cross-validation (0 for a fixed classifier); with leaveOneSourceOut, one per source. */
  folds: number;
  leaveOneSourceOut?: boolean;
  pages: PageScore[];
  summary: Summary;
  blocks: BlockCounts & { precision: number; recall: number; f1: number; accuracy: number };
  /** Per fold: the threshold chosen on its own validation pages. */
  thresholds: number[];
  /**
   * With a comment head, per fold: the comment threshold its pages were decided at (2: never),
   * chosen on its own validation pages, or with commentThresholdsOutOfFold on the other folds'
   * held-out scores pooled (crossValidateMlp).
   */
  commentThresholds?: number[];
  commentThresholdsOutOfFold?: boolean;
  /**
   * Mean precision, recall and F1 of all scored pages at every candidate threshold (held-out
   * scores of every fold, pooled), and the operating points they give. Absent for "all text".
   * With commentThresholdsOutOfFold, of the scores at each fold's own comment threshold.
   */
  curve?: ThresholdCurve;
  operatingPoints?: OperatingPoints;
  /** With several sources: each source's own curve (the plain mean over its pages), in the data's source order. */
  sourceCurves?: Array<{ source: string; curve: ThresholdCurve }>;
  /**
   * MLP with a comment head: the comment threshold chosen on the held-out scores of every fold,
   * pooled (each page scored by the fold that did not train on it), and the head's block F1
   * against the comment labels there: what the final model's comment threshold is set to. The
   * report's scores stay under each fold's own threshold.
   */
  commentHead?: { threshold: number; commentF1: number; fieldThreshold?: number };
  /** With commentThresholdsOutOfFold: each fold's `comments` field threshold, chosen likewise (chooseCommentFieldThreshold). */
  commentFieldThresholds?: number[];
}

/**
 * One held-out page's figures from its final block scores (after any comment decision and the
 * empty-page fallback) at `threshold`; with `decision`, its comment figures too.
 */
export function scorePage(
  data: Dataset,
  p: number,
  scores: ArrayLike<number>,
  threshold: number,
  fold: number,
  decision?: CommentDecision,
): PageScore {
  const page = data.pages[p];
  const text = keptText(page.doc, scores, threshold);
  const { precision, recall, f1 } = wordScores(text, page.gold);
  const snippets = snippetRates(text, page.withSnippets, page.withoutSnippets);
  let kept = 0;
  let commentWords = 0,
    commentWordsKept = 0;
  for (let b = 0; b < page.doc.blocks.length; b++) {
    if (scores[b] >= threshold) kept++;
    const row = data.firstRow[p] + b;
    if (data.comments[row] === 1) {
      commentWords += data.words[row];
      if (scores[b] >= threshold) commentWordsKept += data.words[row];
    }
  }
  const comments = page.comments === "" ? {} : { commentWords, commentWordsKept };
  const commentDecision = decision === undefined ? undefined : commentDecisionScore(data, p, scores, threshold, decision);
  return {
    ...comments,
    source: page.source,
    id: page.id,
    url: page.url,
    pageType: page.pageType,
    domain: page.domain,
    language: page.language,
    fold,
    precision,
    recall,
    f1,
    // NaN where the page has no such snippets: means leave it out, and a set without any shows no column.
    withRate: snippets.withTotal === 0 ? Number.NaN : snippets.withRate,
    withoutRate: snippets.withoutTotal === 0 ? Number.NaN : snippets.withoutRate,
    blocksKept: kept,
    blocksTotal: page.doc.blocks.length,
    ...(commentDecision === undefined ? {} : { commentDecision }),
  };
}

/**
 * A page's comment scores after the comment decision, the comment threshold it was made at (the
 * veto), and the `comments` field's threshold (the model's commentFieldThreshold; absent: the veto's).
 */
export interface CommentDecision {
  comments: ArrayLike<number>;
  threshold: number;
  fieldThreshold?: number;
}

/** See CommentDecisionScore; undefined for a page whose comments nobody labelled. */
function commentDecisionScore(
  data: Dataset,
  p: number,
  scores: ArrayLike<number>,
  threshold: number,
  decision: CommentDecision,
): CommentDecisionScore | undefined {
  const page = data.pages[p];
  if (!commentsKnown(data, p)) return undefined;
  const hand = data.commentHand?.pages[p] === 1 ? data.commentHand : undefined;
  const from = data.firstRow[p];
  const labels = (hand?.comments ?? data.comments).subarray(from, data.firstRow[p + 1]);
  const blocks = page.doc.blocks;
  const fieldText: string[] = [];
  const handGold: string[] = [];
  const fieldThreshold = decision.fieldThreshold ?? decision.threshold;
  let words = 0,
    wordsInMain = 0;
  for (let b = 0; b < blocks.length; b++) {
    if (labels[b] === 1) {
      words += data.words[from + b];
      if (scores[b] >= threshold) wordsInMain += data.words[from + b];
      handGold.push(blocks[b].text);
    }
    if (inCommentsField(scores[b], decision.comments[b], threshold, fieldThreshold)) fieldText.push(blocks[b].text);
  }
  const gold = hand === undefined ? page.comments : handGold.join("\n\n");
  const out: CommentDecisionScore = { from: hand === undefined ? "gold" : "hand", words, wordsInMain };
  if (gold === "") out.fieldEmpty = fieldText.length === 0;
  else {
    const field = wordScores(fieldText.join("\n\n"), gold);
    out.fieldF1 = field.f1;
    out.fieldPrecision = field.precision;
    out.fieldRecall = field.recall;
  }
  return out;
}

/** Pages decided as `winnow clean --comments` decides them: final content scores, keep threshold, decided comment scores. */
export interface DecidedPages {
  pages: readonly number[];
  scores: readonly ArrayLike<number>[];
  keep: readonly number[];
  comments: readonly ArrayLike<number>[];
}

/**
 * The `comments` field's threshold, chosen on pages already decided at the veto threshold
 * `commentThreshold` (held-out pages, each scored by a model that never saw it): the one whose
 * field has the best word F1 against the comment gold (mean over the pages with comments, as the
 * reports give it), among those whose field stays as often empty on the pages without comments,
 * in each set, as the veto threshold's own field, less FIELD_EMPTY_SLACK (pooled, one set's loss
 * hides behind another's pages: L3S-GN1's head is surer than GoogleTrends-2017's). Among equals the one met first from
 * below (more recall). The veto threshold is chosen to cost the main text nothing, so it keeps
 * only the surest comments; the field, which the main text does not read, wants recall
 * (experiments/results/2026-11-27-comment-field.md). Pages without known comments (no comment gold
 * in their set, no hand labels) do not count; with none that have comments, the veto threshold.
 */
export function chooseCommentFieldThreshold(
  data: Dataset,
  decided: DecidedPages,
  commentThreshold: number,
): { threshold: number; fieldF1: number; fieldEmpty: number } {
  const at = (fieldThreshold: number) => {
    let f1 = 0,
      withComments = 0,
      empty = 0,
      without = 0;
    // Per source, pages without comments and how many of them have an empty field.
    const bySource = new Map<string, [number, number]>();
    decided.pages.forEach((p, i) => {
      const score = commentDecisionScore(data, p, decided.scores[i], decided.keep[i], {
        comments: decided.comments[i],
        threshold: commentThreshold,
        fieldThreshold,
      });
      if (score?.fieldF1 !== undefined) {
        f1 += score.fieldF1;
        withComments++;
      } else if (score?.fieldEmpty !== undefined) {
        without++;
        if (score.fieldEmpty) empty++;
        const counts = bySource.get(data.pages[p].source) ?? [0, 0];
        counts[0]++;
        if (score.fieldEmpty) counts[1]++;
        bySource.set(data.pages[p].source, counts);
      }
    });
    return {
      threshold: fieldThreshold,
      fieldF1: withComments === 0 ? 0 : f1 / withComments,
      fieldEmpty: without === 0 ? 1 : empty / without,
      emptyBySource: new Map([...bySource].map(([source, [n, e]]) => [source, e / n])),
      withComments,
    };
  };
  const veto = at(commentThreshold);
  if (veto.withComments === 0) return { threshold: veto.threshold, fieldF1: veto.fieldF1, fieldEmpty: veto.fieldEmpty };
  const keepsEmpty = (candidate: typeof veto) =>
    [...veto.emptyBySource].every(([source, share]) => (candidate.emptyBySource.get(source) ?? 1) >= share - FIELD_EMPTY_SLACK);
  let chosen = veto;
  for (const threshold of THRESHOLD_CANDIDATES) {
    const candidate = at(threshold);
    if (candidate.fieldF1 < chosen.fieldF1 + 1e-4 || !keepsEmpty(candidate)) continue;
    chosen = candidate;
  }
  return { threshold: chosen.threshold, fieldF1: chosen.fieldF1, fieldEmpty: chosen.fieldEmpty };
}

/** How much of the share of empty fields on pages without comments the field's threshold may cost (see chooseCommentFieldThreshold). */
const FIELD_EMPTY_SLACK = 0.01;

function countBlocks(counts: BlockCounts, labels: Uint8Array, scores: ArrayLike<number>, threshold: number): void {
  for (let b = 0; b < labels.length; b++) {
    const kept = scores[b] >= threshold;
    if (labels[b] === 1) kept ? counts.truePositive++ : counts.falseNegative++;
    else kept ? counts.falsePositive++ : counts.trueNegative++;
  }
}

/** The pooled curve of pages scored by `scores` (in page order), with its operating points. */
function pooledCurve(
  data: Dataset,
  scored: ReadonlyMap<number, ArrayLike<number>>,
  sourceBalance: number,
): Pick<EvaluationReport, "curve" | "operatingPoints" | "sourceCurves"> {
  const pages = [...scored.keys()].sort((a, b) => a - b);
  const { pooled, bySource } = thresholdCurves(
    data,
    pages,
    pages.map((p) => scored.get(p)!),
    sourceBalance,
  );
  const sourceCurves =
    bySource.size > 1
      ? data.sources.flatMap((source) => (bySource.has(source) ? [{ source, curve: bySource.get(source)! }] : []))
      : undefined;
  return { curve: pooled, operatingPoints: operatingPoints(pooled), ...(sourceCurves ? { sourceCurves } : {}) };
}

function report(method: string, folds: number, pages: PageScore[], counts: BlockCounts, thresholds: number[]): EvaluationReport {
  const { truePositive: tp, falsePositive: fp, falseNegative: fn, trueNegative: tn } = counts;
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  return {
    method,
    folds,
    pages,
    thresholds,
    summary: summarise(pages.map((p) => ({ ...p }))),
    blocks: {
      ...counts,
      precision,
      recall,
      f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
      accuracy: (tp + tn) / Math.max(1, tp + fp + fn + tn),
    },
  };
}

function emptyCounts(): BlockCounts {
  return { truePositive: 0, falsePositive: 0, falseNegative: 0, trueNegative: 0 };
}

function pageLabels(data: Dataset, p: number): Uint8Array {
  return data.labels.subarray(data.firstRow[p], data.firstRow[p + 1]);
}

/** Every page scored by a classifier that was not trained on any of them. */
export async function evaluateClassifier(
  data: Dataset,
  classifier: BlockClassifier,
  method = classifier.name,
  sourceBalance = DEFAULT_SOURCE_BALANCE,
): Promise<EvaluationReport> {
  const pages: PageScore[] = [];
  const counts = emptyCounts();
  const scored = new Map<number, Float32Array>();
  const BATCH = 16;
  for (let start = 0; start < data.pages.length; start += BATCH) {
    const batch = data.pages.slice(start, start + BATCH);
    const scores = await classifier.score(batch.map((p) => p.doc));
    batch.forEach((_, i) => {
      pages.push(scorePage(data, start + i, scores[i], classifier.threshold, -1));
      countBlocks(counts, pageLabels(data, start + i), scores[i], classifier.threshold);
      scored.set(start + i, scores[i]);
    });
  }
  return { ...report(method, 0, pages, counts, [classifier.threshold]), ...pooledCurve(data, scored, sourceBalance) };
}

/**
 * Keep every block: the recall ceiling and precision floor any extractor is measured against.
 * `sources`: only the pages of these sources (the sets a run scores), default every page.
 */
export function evaluateAllText(data: Dataset, sources?: readonly string[]): EvaluationReport {
  const counts = emptyCounts();
  const chosen = data.pages.flatMap((page, p) => (sources === undefined || sources.includes(page.source) ? [p] : []));
  const pages = chosen.map((p) => {
    const ones = new Float32Array(data.pages[p].doc.blocks.length).fill(1);
    countBlocks(counts, pageLabels(data, p), ones, 0.5);
    return scorePage(data, p, ones, 0.5, -1);
  });
  return report("all text", 0, pages, counts, [0.5]);
}

export interface CrossValidationOptions extends MlpFitOptions {
  /** K domain folds; ignored with `bySource`. */
  folds: number;
  /** Leave one source out: each source is a fold (trained on all the others). */
  bySource?: boolean;
  /**
   * With bySource: hold out only these sources (each still scored by a model trained on all the
   * others), for a quicker look at some sets; the report covers their pages alone.
   */
  heldOut?: readonly string[];
  /** Called when a fold is done, for progress. */
  onFold?: (fold: number, folds: number, validationF1: number) => void;
}

/**
 * Train on K-1 domain folds, score the held-out one, K times. With a comment head, each fold's
 * held-out pages are decided at a comment threshold chosen on the other folds' held-out scores,
 * pooled (each page scored by a head that never saw it), as the shipped model's is chosen on
 * every fold's (EvaluationReport.commentHead); the figures then tell what that choice gives on a
 * set it never saw. (With one fold, its fit's own threshold, chosen on its validation pages.) The
 * pooled curve and the operating points, which the shipped keep thresholds come from, are those
 * of each fold's own comment threshold. `fitFold` replaces the fitting of each fold (see FitFold).
 */
export function crossValidateMlp(data: Dataset, options: CrossValidationOptions, fitFold?: FitFold): EvaluationReport {
  const held = new Map<number, HeldOutScores & { test: number[] }>();
  const fit: FitFold =
    fitFold ??
    ((train, test) => {
      const fitted = fitMlp(data, train, options);
      const head = fitted.commentHead;
      return {
        fitted,
        content: scoreMlpPages(data, test, fitted.members),
        comments: head ? scoreMlpPages(data, test, head.members) : undefined,
      };
    });
  const folds = options.bySource ? "sources" : options.folds;
  const method = `mlp ${data.featureSet.name}`;
  const heldOut = options.bySource ? options.heldOut : undefined;
  const decide = (f: number, commentThreshold: number): FoldResult => {
    const { test, content, comments, fitted } = held.get(f)!;
    // The held-out pages decided as `winnow clean` decides them with this fold's model: the
    // comments, the empty-page fallback, then the weak-page rule (whose scores only hold at this
    // threshold, so the pooled curve reads the scores before it).
    const decided =
      comments === undefined ? undefined : decideMlpComments(data, test, content, comments, commentThreshold, fitted.threshold);
    const kept = withFallback(decided?.content ?? content, fitted.threshold, fitted.emptyPageFallback);
    const scores = withWeakPageRule(data, test, kept, fitted.threshold);
    if (decided === undefined) return { ...fitted, scores, curveScores: kept };
    return {
      ...fitted,
      scores,
      curveScores: kept,
      comments: decided.comments,
      commentThreshold,
    };
  };
  // Each fold decided at a veto threshold once: the field's thresholds are chosen on every other
  // fold at each fold's veto threshold, and the folds' veto thresholds are often the same.
  const decidedAt = new Map<string, FoldResult>();
  const decideOnce = (f: number, commentThreshold: number): FoldResult => {
    const key = `${f}:${commentThreshold}`;
    let result = decidedAt.get(key);
    if (result === undefined) decidedAt.set(key, (result = decide(f, commentThreshold)));
    return result;
  };
  // The field's threshold for a veto threshold, chosen on `folds`' held-out pages decided at it.
  const fieldThreshold = (folds: readonly number[], commentThreshold: number): number => {
    const results = folds.map((g) => [held.get(g)!.test, decideOnce(g, commentThreshold)] as const);
    return chooseCommentFieldThreshold(
      data,
      {
        pages: results.flatMap(([test]) => test),
        scores: results.flatMap(([, r]) => r.scores),
        keep: results.flatMap(([test, r]) => test.map(() => r.threshold)),
        comments: results.flatMap(([, r]) => r.comments!),
      },
      commentThreshold,
    ).threshold;
  };
  const first = crossValidate(
    data,
    folds,
    method,
    (train, test, f) => {
      const scores = fit(train, test, f);
      held.set(f, { ...scores, test });
      return decide(f, scores.fitted.commentHead?.threshold ?? NO_COMMENTS);
    },
    options.onFold,
    options.sourceBalance,
    heldOut,
  );
  const all = [...held.values()];
  if (all.some((f) => f.comments === undefined)) return first;
  const pooled = (from: typeof all) =>
    chooseCommentThreshold(
      data,
      from.flatMap((f) => f.test),
      from.flatMap((f) => f.content),
      from.flatMap((f) => f.comments!),
      options.sourceBalance,
    );
  const chosen = pooled(all);
  const commentHead = {
    threshold: chosen.threshold,
    commentF1: chosen.commentF1,
    fieldThreshold: fieldThreshold([...held.keys()], chosen.threshold),
  };
  if (held.size < 2) return { ...first, commentHead };
  const outOfFold = new Map([...held.keys()].map((f) => [f, pooled(all.filter((g) => g !== held.get(f))).threshold]));
  const fieldOutOfFold = new Map(
    [...held.keys()].map((f) => [
      f,
      fieldThreshold(
        [...held.keys()].filter((g) => g !== f),
        outOfFold.get(f)!,
      ),
    ]),
  );
  const second = crossValidate(
    data,
    folds,
    method,
    (_train, _test, f) => ({ ...decideOnce(f, outOfFold.get(f)!), commentFieldThreshold: fieldOutOfFold.get(f)! }),
    undefined,
    options.sourceBalance,
    heldOut,
  );
  // The keep threshold's curve and operating points stay those of each fold's own comment
  // threshold (the first pass), as they were chosen before the figures were taken out of fold.
  const { curve, operatingPoints, sourceCurves } = first;
  const commentFieldThresholds = heldOutFolds(data, folds, heldOut).map((f) => fieldOutOfFold.get(f)!);
  return { ...second, curve, operatingPoints, sourceCurves, commentThresholdsOutOfFold: true, commentHead, commentFieldThresholds };
}

/**
 * One fold's model as the MLP's cross-validation reads it: the thresholds its fit chose and its
 * held-out pages' raw scores (content, and the comment head's when it has one), before any
 * comment decision.
 */
export interface HeldOutScores {
  fitted: Pick<FittedMlp, "threshold" | "validationF1" | "emptyPageFallback"> & { commentHead?: { threshold: number } };
  content: Float32Array[];
  comments?: Float32Array[];
}

/**
 * Fits one fold on the `train` pages and scores the `test` pages (crossValidateMlp's default), or
 * reads back a fold a run already fitted (experiments/loso-replay.js), so that what is chosen
 * after the folds can be studied without training them again.
 */
export type FitFold = (train: number[], test: number[], fold: number) => HeldOutScores;

/** What one fold of a cross-validation returns: the held-out pages' scores and its threshold. */
export interface FoldResult {
  scores: ArrayLike<number>[];
  /**
   * The same pages' scores before any rule that holds at `threshold` only (the weak-page rule),
   * for the pooled curve over every threshold; absent: `scores`.
   */
  curveScores?: ArrayLike<number>[];
  threshold: number;
  validationF1: number;
  /** With a comment head: the held-out pages' comment scores after the comment decision, and its threshold. */
  comments?: ArrayLike<number>[];
  commentThreshold?: number;
  /** The `comments` field's threshold (absent: commentThreshold's). */
  commentFieldThreshold?: number;
}

/**
 * Cross-validation for any model kind: `fitFold` trains on the `train` pages and scores the
 * `test` pages, which it must not have seen. Folds are K groups of whole domains (no site on both
 * sides), or with "sources" the data sets themselves: leave one source out, the measure of how a
 * model does on pages unlike any it was trained on. `heldOut` (with "sources") runs only the folds
 * of those sources: each is trained on every other source, as in the full run, so its figures are
 * the full run's for that source, at a fraction of the cost.
 */
export function crossValidate(
  data: Dataset,
  folds: number | "sources",
  method: string,
  fitFold: (train: number[], test: number[], fold: number) => FoldResult,
  onFold?: (fold: number, folds: number, validationF1: number) => void,
  sourceBalance = DEFAULT_SOURCE_BALANCE,
  heldOut?: readonly string[],
): EvaluationReport {
  if (folds === "sources" && data.sources.length < 2) throw new UsageError("leaving one source out needs at least two data sets");
  const k = folds === "sources" ? data.sources.length : folds;
  const runs = heldOutFolds(data, folds, heldOut);
  const fold =
    folds === "sources"
      ? Array.from(data.sourceOf)
      : domainFolds(
          data.pages.map((p) => ({ id: `${p.source}/${p.id}`, domain: p.domain })),
          k,
          1,
        );
  const pages: PageScore[] = [];
  const counts = emptyCounts();
  const thresholds: number[] = [];
  const commentThresholds: number[] = [];
  const scored = new Map<number, ArrayLike<number>>();
  for (const f of runs) {
    const train: number[] = [];
    const test: number[] = [];
    fold.forEach((g, p) => (g === f ? test : train).push(p));
    const fitted = fitFold(train, test, f);
    thresholds.push(fitted.threshold);
    if (fitted.commentThreshold !== undefined) commentThresholds.push(fitted.commentThreshold);
    test.forEach((p, i) => {
      const decision =
        fitted.comments === undefined || fitted.commentThreshold === undefined
          ? undefined
          : { comments: fitted.comments[i], threshold: fitted.commentThreshold, fieldThreshold: fitted.commentFieldThreshold };
      pages.push(scorePage(data, p, fitted.scores[i], fitted.threshold, f, decision));
      countBlocks(counts, pageLabels(data, p), fitted.scores[i], fitted.threshold);
      scored.set(p, (fitted.curveScores ?? fitted.scores)[i]);
    });
    onFold?.(f, k, fitted.validationF1);
  }
  // Back in the data's own order: sources as given, pages as loaded.
  const order = new Map<PageScore, number>();
  let at = 0;
  for (const f of runs) fold.forEach((g, p) => g === f && order.set(pages[at++], p));
  pages.sort((a, b) => order.get(a)! - order.get(b)!);
  return {
    ...report(method, thresholds.length, pages, counts, thresholds),
    ...(commentThresholds.length === thresholds.length ? { commentThresholds } : {}),
    leaveOneSourceOut: folds === "sources",
    ...pooledCurve(data, scored, sourceBalance),
  };
}

/** The folds to run, in order: every one, or with `heldOut` the folds of those sources. */
function heldOutFolds(data: Dataset, folds: number | "sources", heldOut: readonly string[] | undefined): number[] {
  const k = folds === "sources" ? data.sources.length : folds;
  if (heldOut === undefined) return Array.from({ length: k }, (_, f) => f);
  if (folds !== "sources") throw new UsageError("only leave-one-source-out can score some sets only");
  const unknown = heldOut.filter((name) => !data.sources.includes(name));
  if (unknown.length > 0)
    throw new UsageError(`no data set is named ${unknown.map((n) => `"${n}"`).join(", ")} (the sets: ${data.sources.join(", ")})`);
  return data.sources.flatMap((source, f) => (heldOut.includes(source) ? [f] : []));
}
