/**
 * `winnow train`: fit the MLP on all given pages, pick its threshold on held-out domains, and
 * write an ONNX model file that records its feature set, threshold and training fingerprint.
 * Optionally cross-validates first (domain folds, or leaving one source out), so the figures
 * printed are those of this recipe on unseen sites and the operating points come from held-out scores.
 */
import { createHash } from "node:crypto";
import { fingerprint, type LabelledPage } from "@winnow/evaluation";
import type { FeatureSet } from "@winnow/features";
import { MLP_TRAIN_DEFAULTS, mlpToOnnx, type ModelInfo } from "@winnow/models";
import { type OutputRole, writeOutputFile } from "@winnow/writers";
import { buildDataset, type Dataset, type DatasetOptions, DEFAULT_HEADLINE_RULE, type HeadlineRule, LABEL_THRESHOLD } from "./dataset.js";
import { crossValidateMlp, type EvaluationReport } from "./evaluate.js";
import { labelledText, withTrainingLabels, type PageLabels } from "./training-labels.js";
import { DEFAULT_BLOCK_WEIGHTING, DEFAULT_SOURCE_BALANCE, fitMlp, type FittedMlp, type MlpFitOptions } from "./mlp-fit.js";

/** How messages name a model file: given by -o, never standard output (a binary file). */
export const MODEL_FILE_ROLE: OutputRole = { what: "model file", flag: "-o" };

export interface TrainModelOptions extends MlpFitOptions {
  pages: LabelledPage[];
  featureSet: FeatureSet;
  output: string;
  /**
   * Per page, in the order of `pages`: block labels to train on instead of the alignment's (from
   * label files). Null labels weigh nothing.
   */
  labels?: readonly PageLabels[];
  /**
   * Cross-validate with this many domain folds before the final fit (0: skip). The model's
   * operating points are then chosen on all the folds' held-out scores, pooled, rather than on the
   * final fit's own validation pages.
   */
  folds?: number;
  /**
   * Leave one source out instead of domain folds (needs two or more sources; `folds` is then
   * ignored): the operating points and the comment threshold are chosen on every source's scores
   * from a model trained on the other sources, pooled. Why: domain folds score pages of the same
   * sets the model trains on, and reward the recall that suits those sets; pages of a set the model
   * never saw are what a crawl brings, and they want a higher threshold (issue 35).
   */
  leaveOneSourceOut?: boolean;
  headline?: HeadlineRule;
  /**
   * Per page, in the order of `pages`: hand comment labels, which decide the comment head's
   * positives and negatives on that page (see DatasetOptions.commentLabels).
   */
  commentLabels?: DatasetOptions["commentLabels"];
  /** Whether commentLabels train the comment head (default) or only score it held out (DatasetOptions.commentLabelsTrain). */
  commentLabelsTrain?: boolean;
  onFold?: (fold: number, folds: number) => void;
}

export interface TrainModelResult {
  info: ModelInfo;
  crossValidation?: EvaluationReport;
  trainPages: number;
  validationPages: number;
  validationF1: number;
  blocks: number;
}

/**
 * The dataset training reads. With label files, a page without gold text (a plain HTML folder)
 * gets the text of its label-1 blocks as gold: the threshold is chosen against it, and --folds
 * scores against it, since the labels are the only statement of its main text there is.
 */
export function trainingDataset(
  pages: readonly LabelledPage[],
  featureSet: FeatureSet,
  labels?: readonly PageLabels[],
  options: DatasetOptions = {},
): Dataset {
  if (labels === undefined) return buildDataset([...pages], featureSet, options);
  if (labels.length !== pages.length) throw new RangeError(`labels for ${labels.length} pages, ${pages.length} pages given`);
  const withGold = pages.map((page, p) => (page.gold.length > 0 ? page : { ...page, gold: labelledText(page, labels[p]) }));
  return withTrainingLabels(buildDataset(withGold, featureSet, options), labels, "gold-or-labels");
}

/**
 * The training fingerprint a model file records: its pages, its labels, and what the model reads
 * (the MLP's feature set; the BiLSTM's input and feature set). The writers and `winnow eval`'s
 * "trained on these pages" check both call this, so they cannot drift apart.
 */
export function trainingFingerprint(
  ids: readonly string[],
  rule: string,
  info: Pick<ModelInfo, "kind" | "featureSet" | "featureSetVersion" | "inputSize" | "notes">,
): string {
  const features = `${info.featureSet}@${info.featureSetVersion}`;
  const reads =
    info.kind === "bilstm"
      ? `bilstm:${(JSON.parse(info.notes || "{}") as { input?: string }).input}@${info.inputSize > 0 ? features : "none"}`
      : `features:${features}`;
  return fingerprint(ids, `${rule};${reads}`);
}

/** Whether a model was trained on exactly these pages, labelled by alignment: its figure on them is training fit. */
export function trainedOnPages(info: ModelInfo, pages: readonly LabelledPage[]): boolean {
  return (
    trainingFingerprint(
      pages.map((p) => p.id),
      labelRule(undefined),
      info,
    ) === info.trainingFingerprint
  );
}

/** What the fingerprint says the labels were: the alignment rule, or a hash of the label files' labels. */
export function labelRule(labels: readonly PageLabels[] | undefined): string {
  if (labels === undefined) return `labels:align>=${LABEL_THRESHOLD}`;
  return `labels:files#${createHash("sha256").update(JSON.stringify(labels)).digest("hex").slice(0, 16)}`;
}

export async function trainModel(options: TrainModelOptions): Promise<TrainModelResult> {
  const { pages, featureSet } = options;
  const data = trainingDataset(pages, featureSet, options.labels, {
    headline: options.headline,
    commentLabels: options.commentLabels,
    commentLabelsTrain: options.commentLabelsTrain,
  });
  // A comment head whenever the pages label any comments, in the folds as in the final fit, so
  // the cross-validated figures and operating points describe the model that ships.
  const commentHead = options.commentHead ?? true;
  let crossValidation: EvaluationReport | undefined;
  const onFold = (f: number, k: number) => options.onFold?.(f, k);
  if (options.leaveOneSourceOut) {
    crossValidation = crossValidateMlp(data, { ...options, commentHead, folds: data.sources.length, bySource: true, onFold });
  } else if (options.folds && options.folds > 1) {
    crossValidation = crossValidateMlp(data, { ...options, commentHead, folds: options.folds, onFold });
  }
  const heldOutScores = options.leaveOneSourceOut
    ? "leave one source out, held-out scores pooled"
    : "cross-validation, held-out scores pooled";
  const fitted = fitMlp(
    data,
    pages.map((_, i) => i),
    { ...options, commentHead },
  );
  const cv = crossValidation?.summary.overall;
  const points = crossValidation?.operatingPoints;
  if (points !== undefined) {
    fitted.operatingPoints = points;
    fitted.threshold = points.balanced;
  }
  // The comment threshold too comes from the folds' held-out scores when there are folds, not
  // from the final fit's own validation pages (a few pages of the sets it was trained on).
  const pooledHead = crossValidation?.commentHead;
  if (pooledHead !== undefined && fitted.commentHead !== undefined) {
    fitted.commentHead.threshold = pooledHead.threshold;
    fitted.commentHead.validationF1 = pooledHead.commentF1;
    fitted.commentHead.fieldThreshold = pooledHead.fieldThreshold;
  }
  const info = await writeMlpModel(fitted, options.output, {
    featureSet,
    options,
    ids: pages.map((p) => p.id),
    labelRule: labelRule(options.labels),
    notes: {
      pages: pages.length,
      cvWordF1: cv ? Number(cv.f1.toFixed(4)) : undefined,
      cvFolds: crossValidation && !options.leaveOneSourceOut ? options.folds : undefined,
      cvLeaveOneSourceOut: options.leaveOneSourceOut ? true : undefined,
      sources: data.sources,
      commentLabelPages: data.commentHand?.trains ? data.commentHand.pages.reduce((n, v) => n + v, 0) : undefined,
      sourceBalance: options.sourceBalance ?? DEFAULT_SOURCE_BALANCE,
      headline: options.headline ?? DEFAULT_HEADLINE_RULE,
      operatingPointsFrom: points !== undefined ? heldOutScores : "validation pages of the final fit",
      commentHeadValidationF1: fitted.commentHead ? Number(fitted.commentHead.validationF1.toFixed(4)) : undefined,
      commentFieldThresholdFrom: fitted.commentHead?.fieldThreshold !== undefined ? heldOutScores : undefined,
      commentThresholdFrom: fitted.commentHead
        ? pooledHead !== undefined
          ? heldOutScores
          : "validation pages of the final fit"
        : undefined,
    },
  });
  return {
    info,
    crossValidation,
    trainPages: fitted.trainPages,
    validationPages: fitted.validationPages,
    validationF1: fitted.validationF1,
    blocks: data.labels.length,
  };
}

/** Exports a fitted MLP as an ONNX file with its ModelInfo, written as every output is (writeOutputFile: atomically, folders created). */
export async function writeMlpModel(
  fitted: FittedMlp,
  output: string,
  about: { featureSet: FeatureSet; options: MlpFitOptions; ids: readonly string[]; labelRule: string; notes: Record<string, unknown> },
): Promise<ModelInfo> {
  const { featureSet, options } = about;
  const info: ModelInfo = {
    kind: "mlp",
    featureSet: featureSet.name,
    featureSetVersion: featureSet.version,
    inputSize: featureSet.size,
    threshold: fitted.threshold,
    operatingPoints: fitted.operatingPoints,
    commentThreshold: fitted.commentHead?.threshold,
    commentFieldThreshold: fitted.commentHead?.fieldThreshold,
    emptyPageFallback: fitted.emptyPageFallback,
    trainingFingerprint: "",
    notes: JSON.stringify({
      trainer: options.optimizer ?? "adam",
      blockWeighting: options.blockWeighting ?? DEFAULT_BLOCK_WEIGHTING,
      hidden: fitted.members[0].hiddenSize,
      ensemble: fitted.members.length,
      epochs: options.epochs ?? (options.optimizer === "rprop" ? MLP_TRAIN_DEFAULTS.rpropEpochs : MLP_TRAIN_DEFAULTS.adamEpochs),
      equalPages: options.equalPages ?? true,
      ...about.notes,
    }),
  };
  info.trainingFingerprint = trainingFingerprint(about.ids, about.labelRule, info);
  await writeOutputFile(output, mlpToOnnx(fitted.members, info, fitted.commentHead?.members), MODEL_FILE_ROLE);
  return info;
}
