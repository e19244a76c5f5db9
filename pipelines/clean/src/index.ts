export { cleanPages, scorePages, type PageInput, type PageOutput, type ScoredPage } from "./page.js";
export { buildDataset, labelPage, selectPages, keptText, LABEL_THRESHOLD, type Dataset, type LabelledPage } from "./dataset.js";
export {
  fitMlp,
  scoreMlpPages,
  splitValidation,
  chooseThreshold,
  trainingWeights,
  DEFAULT_BLOCK_WEIGHTING,
  DEFAULT_ENSEMBLE,
  WINNOW_MLP_DEFAULTS,
  type FittedMlp,
  type MlpFitOptions,
  type BlockWeighting,
} from "./training.js";
export {
  evaluateClassifier,
  evaluateAllText,
  crossValidateMlp,
  crossValidate,
  type FoldResult,
  type EvaluationReport,
  type PageScore,
  type BlockCounts,
  type CrossValidationOptions,
} from "./evaluate.js";
export * from "./run.js";
export { loadLabelledPages, LabelledDataError, type LoadLabelledOptions } from "./labelled-data.js";
export {
  trainModel,
  trainingDataset,
  trainingFingerprint,
  labelRule,
  type TrainModelOptions,
  type TrainModelResult,
} from "./train-model.js";
export {
  withTrainingLabels,
  labelsFromFiles,
  pagesWithLabelFiles,
  labelledText,
  LabelMismatchError,
  type PageLabels,
  type ValidationGold,
} from "./training-labels.js";
export {
  propagateDatasetLabels,
  parseSeedSource,
  snippetSeeds,
  writePropagatedLabels,
  SeedSourceError,
  type SeedSource,
  type LabelSummary,
  type PropagatedLabels,
} from "./label-pages.js";
export { readLabelDir, LabelFileError, type BlockLabelFile } from "@winnow/labels";
export { trainPerHost, hostsWithPages, GENERAL_MODEL_FILE, type PerHostOptions, type HostModelResult } from "./per-host.js";
export { HostRoutedClassifier, hostKey, readModelIndex, MODEL_INDEX, type ModelIndex } from "./host-models.js";
export { evaluatePropagation, type PropagationReport } from "./propagation-eval.js";
export { loadClassifier, modelProblem, type ModelSpec } from "./worker.js";
export {
  fitBiLstm,
  scoreBiLstmPages,
  BILSTM_DEFAULTS,
  type BiLstmFitOptions,
  type BiLstmInput,
  type FittedBiLstm,
} from "./bilstm-training.js";
export { crossValidateBiLstm, trainBiLstmModel, type TrainBiLstmModelOptions, type TrainBiLstmModelResult } from "./train-bilstm-model.js";
export {
  DEFAULT_TEMPLATE_KEEP_SCORE,
  SITE_TEMPLATE_MODES,
  type SiteTemplateMode,
  type SiteTemplateRunOptions,
  type SiteTemplateSummary,
} from "./site-templates.js";
