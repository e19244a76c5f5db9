// Public API of @winnow/train: labelled pages to models (MLP, BiLSTM, per host), their
// evaluation and cross-validation, and block labels by propagation.

export { type BiLstmFitOptions, type BiLstmInput, BILSTM_DEFAULTS, fitBiLstm, scoreBiLstmPages } from "./bilstm-fit.js";
export {
  buildDataset,
  type Dataset,
  type DatasetOptions,
  DEFAULT_HEADLINE_RULE,
  type HeadlineRule,
  LABEL_THRESHOLD,
  type PageCommentLabels,
} from "./dataset.js";
export {
  chooseCommentFieldThreshold,
  crossValidate,
  crossValidateMlp,
  type EvaluationReport,
  evaluateAllText,
  evaluateClassifier,
  type DecidedPages,
  type FitFold,
  type FoldResult,
  type HeldOutScores,
  type PageScore,
} from "./evaluate.js";
export { propagateDatasetLabels, parseSeedSource, type SeedSource, SeedSourceError, writePropagatedLabels } from "./label-pages.js";
export { chooseThreshold, DEFAULT_SOURCE_BALANCE, fitMlp, type MlpFitOptions, scoreMlpPages, splitValidation } from "./mlp-fit.js";
export { type Favor, type OperatingPoints, operatingPoints, type ThresholdCurve, THRESHOLD_CANDIDATES } from "./operating-points.js";
export { DEFAULT_MIN_HELD_OUT, type HostModelResult, trainPerHost } from "./per-host.js";
export { evaluatePropagation } from "./propagation-eval.js";
export { crossValidateBiLstm, trainBiLstmModel } from "./train-bilstm-model.js";
export { MODEL_FILE_ROLE, trainedOnPages, trainModel } from "./train-mlp-model.js";
export {
  commentLabelsFromFiles,
  type LabelFilesBySource,
  LabelMismatchError,
  labelsFromFiles,
  type PageLabels,
  pagesWithLabelFiles,
  readLabelDirsBySource,
  withTrainingLabels,
} from "./training-labels.js";
export { DEFAULT_FEATURE_SETS, SMALL_TRAINING_SET, smallTrainingSetWarning } from "./recipe.js";
