/**
 * Scoring extractions against gold text, WCXB-style: word precision, recall and F1 per page, then
 * the mean, overall and per page type; plus block decisions against the alignment labels.
 *
 * Two ways: a fixed classifier over every page (the heuristic, a model file, or "all text"), or
 * K-fold cross-validation that trains on K-1 folds and scores the held-out fold, folds split by
 * domain so that no site is on both sides. Nothing is ever scored by a model trained on it.
 */
import { domainFolds, snippetRates, summarise, wordScores, type Summary, keptText, type LabelledPage } from "@winnow/evaluation";
import type { BlockClassifier } from "@winnow/models";
import type { Dataset } from "./dataset.js";
import { fitMlp, scoreMlpPages, type MlpFitOptions } from "./mlp-fit.js";

export interface PageScore {
  id: string;
  url: string;
  pageType: string;
  domain: string;
  fold: number;
  precision: number;
  recall: number;
  f1: number;
  withRate: number;
  withoutRate: number;
  blocksKept: number;
  blocksTotal: number;
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
  folds: number;
  pages: PageScore[];
  summary: Summary;
  blocks: BlockCounts & { precision: number; recall: number; f1: number; accuracy: number };
  /** Per fold: the threshold chosen on its own validation pages. */
  thresholds: number[];
}

function scorePage(page: LabelledPage, scores: ArrayLike<number>, threshold: number, fold: number): PageScore {
  const text = keptText(page.doc, scores, threshold);
  const { precision, recall, f1 } = wordScores(text, page.gold);
  const snippets = snippetRates(text, page.withSnippets, page.withoutSnippets);
  let kept = 0;
  for (let b = 0; b < page.doc.blocks.length; b++) if (scores[b] >= threshold) kept++;
  return {
    id: page.id,
    url: page.url,
    pageType: page.pageType,
    domain: page.domain,
    fold,
    precision,
    recall,
    f1,
    withRate: snippets.withRate,
    withoutRate: snippets.withoutRate,
    blocksKept: kept,
    blocksTotal: page.doc.blocks.length,
  };
}

function countBlocks(counts: BlockCounts, labels: Uint8Array, scores: ArrayLike<number>, threshold: number): void {
  for (let b = 0; b < labels.length; b++) {
    const kept = scores[b] >= threshold;
    if (labels[b] === 1) kept ? counts.truePositive++ : counts.falseNegative++;
    else kept ? counts.falsePositive++ : counts.trueNegative++;
  }
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
export async function evaluateClassifier(data: Dataset, classifier: BlockClassifier, method = classifier.name): Promise<EvaluationReport> {
  const pages: PageScore[] = [];
  const counts = emptyCounts();
  const BATCH = 16;
  for (let start = 0; start < data.pages.length; start += BATCH) {
    const batch = data.pages.slice(start, start + BATCH);
    const scores = await classifier.score(batch.map((p) => p.doc));
    batch.forEach((page, i) => {
      pages.push(scorePage(page, scores[i], classifier.threshold, -1));
      countBlocks(counts, pageLabels(data, start + i), scores[i], classifier.threshold);
    });
  }
  return report(method, 0, pages, counts, [classifier.threshold]);
}

/** Keep every block: the recall ceiling and precision floor any extractor is measured against. */
export function evaluateAllText(data: Dataset): EvaluationReport {
  const counts = emptyCounts();
  const pages = data.pages.map((page, p) => {
    const ones = new Float32Array(page.doc.blocks.length).fill(1);
    countBlocks(counts, pageLabels(data, p), ones, 0.5);
    return scorePage(page, ones, 0.5, -1);
  });
  return report("all text", 0, pages, counts, [0.5]);
}

export interface CrossValidationOptions extends MlpFitOptions {
  folds: number;
  /** Called when a fold is done, for progress. */
  onFold?: (fold: number, folds: number, validationF1: number) => void;
}

/** Train on K-1 domain folds, score the held-out one, K times. */
export function crossValidateMlp(data: Dataset, options: CrossValidationOptions): EvaluationReport {
  return crossValidate(
    data,
    options.folds,
    `mlp ${data.featureSet.name}`,
    (train, test) => {
      const fitted = fitMlp(data, train, options);
      return { ...fitted, scores: scoreMlpPages(data, test, fitted.members) };
    },
    options.onFold,
  );
}

/** What one fold of a cross-validation returns: the held-out pages' scores and its threshold. */
export interface FoldResult {
  scores: ArrayLike<number>[];
  threshold: number;
  validationF1: number;
}

/**
 * K-fold cross-validation with folds split by domain, for any model kind: `fitFold` trains on
 * the `train` pages and scores the `test` pages, which it must not have seen.
 */
export function crossValidate(
  data: Dataset,
  k: number,
  method: string,
  fitFold: (train: number[], test: number[], fold: number) => FoldResult,
  onFold?: (fold: number, folds: number, validationF1: number) => void,
): EvaluationReport {
  const fold = domainFolds(
    data.pages.map((p) => ({ id: p.id, domain: p.domain })),
    k,
    1,
  );
  const pages: PageScore[] = [];
  const counts = emptyCounts();
  const thresholds: number[] = [];
  for (let f = 0; f < k; f++) {
    const train: number[] = [];
    const test: number[] = [];
    fold.forEach((g, p) => (g === f ? test : train).push(p));
    const fitted = fitFold(train, test, f);
    thresholds.push(fitted.threshold);
    test.forEach((p, i) => {
      pages.push(scorePage(data.pages[p], fitted.scores[i], fitted.threshold, f));
      countBlocks(counts, pageLabels(data, p), fitted.scores[i], fitted.threshold);
    });
    onFold?.(f, k, fitted.validationF1);
  }
  pages.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return report(method, k, pages, counts, thresholds);
}
