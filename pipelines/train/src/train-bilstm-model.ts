/**
 * `winnow train --model bilstm` and `winnow eval --model bilstm --folds K`: the BiLSTM counterpart
 * of train-model.ts, on the same datasets, labels and domain folds.
 */
import type { FeatureSet } from "@winnow/features";
import { biLstmToOnnx, type ModelInfo } from "@winnow/models";
import { writeOutputFile } from "@winnow/writers";
import { BILSTM_DEFAULTS, fitBiLstm, scoreBiLstmPages, withDefaults, type BiLstmFitOptions } from "./bilstm-fit.js";
import type { Dataset } from "./dataset.js";
import { crossValidate, type EvaluationReport } from "./evaluate.js";
import { labelRule, MODEL_FILE_ROLE, trainingDataset, trainingFingerprint } from "./train-mlp-model.js";
import type { PageLabels } from "./training-labels.js";
import type { LabelledPage } from "@winnow/evaluation";

/** K-fold cross-validation of the BiLSTM recipe, folds split by domain. */
export function crossValidateBiLstm(
  data: Dataset,
  options: BiLstmFitOptions & {
    folds: number;
    bySource?: boolean;
    /** With `bySource`: leave out and score only these sources; default every one. */
    heldOut?: readonly string[];
    onFold?: (fold: number, folds: number, validationF1: number) => void;
  },
): EvaluationReport {
  const input = options.input ?? BILSTM_DEFAULTS.input;
  return crossValidate(
    data,
    options.bySource ? "sources" : options.folds,
    `bilstm ${input}`,
    (train, test) => {
      const fitted = fitBiLstm(data, train, options);
      return { ...fitted, scores: scoreBiLstmPages(data, test, fitted.model) };
    },
    options.onFold,
    undefined,
    options.heldOut,
  );
}

export interface TrainBiLstmModelOptions extends BiLstmFitOptions {
  pages: LabelledPage[];
  /** The feature set read by the "tags-words-features" input (and by nothing otherwise). */
  featureSet: FeatureSet;
  output: string;
  labels?: readonly PageLabels[];
  folds?: number;
  /** Leave each source of the pages out in turn (instead of --folds): the operating points come from those held-out scores. */
  leaveOneSourceOut?: boolean;
  onFold?: (fold: number, folds: number) => void;
}

export interface TrainBiLstmModelResult {
  info: ModelInfo;
  crossValidation?: EvaluationReport;
  trainPages: number;
  validationPages: number;
  validationF1: number;
  /** Per ensemble member, the epoch kept. */
  bestEpochs: number[];
  blocks: number;
}

export async function trainBiLstmModel(options: TrainBiLstmModelOptions): Promise<TrainBiLstmModelResult> {
  const { pages, featureSet } = options;
  const data = trainingDataset(pages, featureSet, options.labels);
  const onFold = (f: number, k: number) => options.onFold?.(f, k);
  const crossValidation = options.leaveOneSourceOut
    ? crossValidateBiLstm(data, { ...options, folds: data.sources.length, bySource: true, onFold })
    : options.folds && options.folds > 1
      ? crossValidateBiLstm(data, { ...options, folds: options.folds, onFold })
      : undefined;
  const fitted = fitBiLstm(
    data,
    pages.map((_, i) => i),
    options,
  );
  const { shape } = fitted.model.layout;
  const usesFeatures = shape.featureSize > 0;
  const cv = crossValidation?.summary.overall;
  // As the MLP's: the operating points of the folds' held-out scores where there are folds, else
  // of the final fit's validation pages.
  const points = crossValidation?.operatingPoints ?? fitted.operatingPoints;
  const o = withDefaults(options);
  const info: ModelInfo = {
    kind: "bilstm",
    featureSet: usesFeatures ? featureSet.name : "none",
    featureSetVersion: usesFeatures ? featureSet.version : 0,
    inputSize: shape.featureSize,
    threshold: points?.balanced ?? fitted.threshold,
    operatingPoints: points,
    trainingFingerprint: "",
    notes: JSON.stringify({
      input: o.input,
      projection: shape.projectionSize,
      hidden: shape.hiddenSize,
      layers: shape.layers,
      skip: shape.skip === true,
      members: fitted.model.members.length,
      seed: o.seed ?? 1,
      tags: fitted.model.vocabulary.tags.length,
      words: fitted.model.vocabulary.words.length,
      epochs: o.epochs,
      bestEpochs: fitted.bestEpochs,
      dropout: o.dropout,
      pages: pages.length,
      cvWordF1: cv ? Number(cv.f1.toFixed(4)) : undefined,
      cvFolds: crossValidation && !options.leaveOneSourceOut ? options.folds : undefined,
      cvLeaveOneSourceOut: options.leaveOneSourceOut ? true : undefined,
      sources: data.sources,
      operatingPointsFrom: crossValidation?.operatingPoints
        ? options.leaveOneSourceOut
          ? "leave one source out, held-out scores pooled"
          : "cross-validation, held-out scores pooled"
        : points !== undefined
          ? "validation pages of the final fit"
          : undefined,
    }),
  };
  info.trainingFingerprint = trainingFingerprint(
    pages.map((p) => p.id),
    labelRule(options.labels),
    info,
  );
  await writeOutputFile(options.output, biLstmToOnnx(fitted.model, info), MODEL_FILE_ROLE);
  return {
    info,
    crossValidation,
    trainPages: fitted.trainPages,
    validationPages: fitted.validationPages,
    validationF1: fitted.validationF1,
    bestEpochs: fitted.bestEpochs,
    blocks: data.labels.length,
  };
}
