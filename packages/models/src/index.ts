export type { MlpWeights, ModelInfo, TrainOptions } from "./types.js";

// MLP: training, TypeScript inference, threshold choice, ONNX export.
export { trainMlp, MLP_TRAIN_DEFAULTS, type MlpTrainOptions } from "./mlp/train.js";
export { predictMlp, predictMlpEnsemble } from "./mlp/predict.js";
export { chooseThreshold, type ThresholdChoice, type ThresholdMetric } from "./mlp/threshold.js";
export { mlpToOnnx } from "./mlp/export.js";
export { computeInputScaling, type InputScaling } from "./mlp/scaling.js";
export { createPrng, shuffleInPlace, type Prng } from "./mlp/prng.js";
export { Adam, IRpropMinus, type Optimizer } from "./mlp/optimizers.js";

// ONNX: inference, model metadata, errors, and the reusable graph builder.
export { OnnxBlockScorer, type ScorerLoadOptions } from "./onnx/scorer.js";
export {
  readModelInfo,
  decodeModelInfo,
  modelInfoToMetadata,
  modelInfoFromMetadata,
  MODEL_INFO_KEYS,
} from "./onnx/metadata.js";
export { ModelLoadError, ModelMismatchError, type FeatureSetRef, type ModelMismatchDetails } from "./onnx/errors.js";
export { FEATURES_INPUT, SCORES_OUTPUT, BATCH_DIM } from "./onnx/contract.js";
export * from "./onnx/graph.js";

// Classifiers as the pipeline sees them, and the shipped default model.
export {
  heuristicClassifier,
  loadMlpClassifier,
  loadModelClassifier,
  FeatureBatch,
  scoreBatch,
  type BlockClassifier,
  type ScoreBatch,
} from "./classifier.js";
export { heuristicScores } from "./heuristic.js";
export { DEFAULT_MODEL_PATH, DEFAULT_BILSTM_PATH, hasDefaultModel, builtinModelPath } from "./default-model.js";

// BiLSTM (BoilerNet): vocabulary, hand-written training, ONNX export and the classifier.
export {
  buildVocabulary,
  BlockEncoder,
  type SlotSink,
  forEachWord,
  forEachTag,
  vocabularySlots,
  VOCABULARY_DEFAULTS,
  type BlockVocabulary,
  type VocabularyOptions,
  type SparseBlocks,
} from "./bilstm/vocabulary.js";
export {
  biLstmLayout,
  forward as biLstmForward,
  backward as biLstmBackward,
  predictSequence,
  predictMembers,
  weightedLogLoss,
  type BiLstmShape,
  type BiLstmLayout,
  type BlockSequence,
} from "./bilstm/network.js";
export {
  trainBiLstm,
  initialParameters,
  sliceSequence,
  BILSTM_TRAIN_DEFAULTS,
  type BiLstmTrainOptions,
  type TrainingSequence,
  type TrainedBiLstm,
} from "./bilstm/train.js";
export {
  biLstmToOnnx,
  TOKEN_INPUTS,
  DENSE_TOKENS_INPUT,
  BILSTM_METADATA_KEY,
  type BiLstmModel,
  type BiLstmMetadata,
} from "./bilstm/export.js";
export { loadBiLstmClassifier, biLstmMetadata } from "./bilstm/classifier.js";
export { blockSequence } from "./bilstm/sequence.js";
export { biLstmFromOnnx } from "./bilstm/import.js";
