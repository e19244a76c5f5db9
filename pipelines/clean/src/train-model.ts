/**
 * `winnow train`: fit the MLP on all given pages, pick its threshold on held-out domains, and
 * write an ONNX model file that records its feature set, threshold and training fingerprint.
 * Optionally cross-validates first, so the figures printed are those of this recipe on unseen sites.
 */
import { writeFile, rename } from "node:fs/promises";
import { fingerprint } from "@winnow/evaluation";
import type { FeatureSet } from "@winnow/features";
import { mlpToOnnx, type ModelInfo } from "@winnow/models";
import { LABEL_THRESHOLD, buildDataset, type LabelledPage } from "./dataset.js";
import { crossValidateMlp, type EvaluationReport } from "./evaluate.js";
import { DEFAULT_BLOCK_WEIGHTING, WINNOW_MLP_DEFAULTS, fitMlp, type MlpFitOptions } from "./training.js";

export interface TrainModelOptions extends MlpFitOptions {
  pages: LabelledPage[];
  featureSet: FeatureSet;
  output: string;
  /** Cross-validate with this many domain folds before the final fit (0: skip). */
  folds?: number;
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

export async function trainModel(options: TrainModelOptions): Promise<TrainModelResult> {
  const { pages, featureSet } = options;
  const data = buildDataset(pages, featureSet);
  let crossValidation: EvaluationReport | undefined;
  if (options.folds && options.folds > 1) {
    crossValidation = crossValidateMlp(data, { ...options, folds: options.folds, onFold: (f, k) => options.onFold?.(f, k) });
  }
  const fitted = fitMlp(data, pages.map((_, i) => i), options);
  const cv = crossValidation?.summary.overall;
  const info: ModelInfo = {
    kind: "mlp",
    featureSet: featureSet.name,
    featureSetVersion: featureSet.version,
    inputSize: featureSet.size,
    threshold: fitted.threshold,
    trainingFingerprint: fingerprint(pages.map((p) => p.id), `labels:align>=${LABEL_THRESHOLD};features:${featureSet.name}@${featureSet.version}`),
    notes: JSON.stringify({
      trainer: options.optimizer ?? "adam",
      blockWeighting: options.blockWeighting ?? DEFAULT_BLOCK_WEIGHTING,
      hidden: fitted.members[0].hiddenSize,
      ensemble: fitted.members.length,
      epochs: options.epochs ?? WINNOW_MLP_DEFAULTS.epochs,
      equalPages: options.equalPages ?? true,
      pages: pages.length,
      cvWordF1: cv ? Number(cv.f1.toFixed(4)) : undefined,
      cvFolds: crossValidation ? options.folds : undefined,
    }),
  };
  const bytes = mlpToOnnx(fitted.members, info);
  const temporary = `${options.output}.tmp-${process.pid}`;
  await writeFile(temporary, bytes);
  await rename(temporary, options.output);
  return {
    info, crossValidation,
    trainPages: fitted.trainPages, validationPages: fitted.validationPages, validationF1: fitted.validationF1,
    blocks: data.labels.length,
  };
}
