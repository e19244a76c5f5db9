// Public API of @winnow/models: block classifiers as a run uses them (what --model names, the
// shipped models, per-host folders), the model files' metadata and errors, and the trainers'
// building blocks (MLP and BiLSTM training, TypeScript inference, ONNX export).

// Classifiers as a run sees them, and comment markup (also @winnow/models/classifiers, which a
// run's threads import without the trainers below).
export * from "./classifiers.js";

// Model files: metadata and the reasons one is refused.
export type { MlpWeights, TrainOptions } from "./types.js";
export { appendModelMetadata, COMMENT_FIELD_THRESHOLD_KEY, readModelInfo } from "./onnx/metadata.js";
export { decodeModelMetadata } from "./onnx/metadata-props.js";
export { ModelLoadError, ModelMismatchError } from "./onnx/errors.js";
export { OnnxBlockScorer } from "./onnx/scorer.js";

// MLP: training, TypeScript inference, threshold choice, ONNX export.
export { MLP_TRAIN_DEFAULTS, trainMlp } from "./mlp/train.js";
export { predictMlp, predictMlpEnsemble } from "./mlp/predict.js";
export { mlpToOnnx } from "./mlp/export.js";
export { computeInputScaling } from "./mlp/scaling.js";

// BiLSTM (BoilerNet): vocabulary, training, ONNX export and reading a file back into weights.
export { BlockEncoder, buildVocabulary, type VocabularyOptions } from "./bilstm/vocabulary.js";
export { biLstmLayout, type BiLstmShape, type BlockSequence, predictMembers, predictSequence } from "./bilstm/network.js";
export { type TrainingSequence, trainBiLstm } from "./bilstm/train.js";
export { type BiLstmModel, biLstmToOnnx } from "./bilstm/export.js";
export { biLstmMetadata } from "./bilstm/classifier.js";
export { blockSequence } from "./bilstm/sequence.js";
export { biLstmFromOnnx } from "./bilstm/import.js";
