/** Weights of a one-hidden-layer perceptron, input scaling included. Row-major matrices. */
export interface MlpWeights {
  inputSize: number;
  hiddenSize: number;
  /** Per-input shift and factor applied first: x' = (x - shift) * factor. */
  inputShift: Float32Array;
  inputFactor: Float32Array;
  /** hiddenSize x inputSize */
  w1: Float32Array;
  b1: Float32Array;
  /** hiddenSize */
  w2: Float32Array;
  b2: number;
  activation: "tanh" | "relu";
}

/** What a model file says about itself (stored in ONNX metadata_props under "winnow.*" keys). */
export interface ModelInfo {
  /** "mlp" | "bilstm" */
  kind: string;
  /** Name of the feature set the model reads, e.g. "texrex37" or "texrex37+ext". */
  featureSet: string;
  /** Version of that feature set's table; a mismatch is refused. */
  featureSetVersion: number;
  /** Number of inputs per block. */
  inputSize: number;
  /** Score at or above which a block is kept. */
  threshold: number;
  /** Hash of the training data (sorted page ids + label rule), for provenance. */
  trainingFingerprint: string;
  /** Free-form notes: trainer, epochs, CV figures. */
  notes: string;
  /**
   * Thresholds for `--favor precision | balanced | recall`, chosen on held-out pages; `threshold`
   * is the balanced one. Absent in files written before they existed: then every favor is `threshold`.
   */
  operatingPoints?: { precision: number; balanced: number; recall: number };
  /**
   * Models with a comment head: the comment score at or above which a block is a user comment,
   * never main text (the head's veto: chosen so that it costs the main text nothing).
   */
  commentThreshold?: number;
  /**
   * Models with a comment head: the comment score at or above which a block not kept as main text
   * goes to the `comments` field, chosen for the field's word F1 on held-out pages (usually lower
   * than commentThreshold: the field wants recall, the veto certainty). Absent in files written
   * before it existed: then the field uses commentThreshold, as it did.
   */
  commentFieldThreshold?: number;
  /** The empty-page fallback's factor (see fallback.ts); absent: pages may come out empty. */
  emptyPageFallback?: number;
}

/** Which operating point a run keeps blocks at. */
export type Favor = "precision" | "balanced" | "recall";

/** The keep threshold of a model for a favor. */
export function thresholdFor(info: Pick<ModelInfo, "threshold" | "operatingPoints">, favor: Favor = "balanced"): number {
  return info.operatingPoints?.[favor] ?? info.threshold;
}

export interface TrainOptions {
  hiddenSize?: number; // default MLP_TRAIN_DEFAULTS.hiddenSize (32)
  activation?: "tanh" | "relu"; // default tanh
  optimizer?: "adam" | "rprop"; // default adam
  epochs?: number;
  batchSize?: number; // adam only
  learningRate?: number; // adam only
  l2?: number;
  seed?: number; // default 1
  /** Weight of positive examples relative to negatives; default balances the classes. */
  positiveWeight?: number;
  /** Called after every epoch with the mean training loss. */
  onEpoch?: (epoch: number, loss: number) => void;
}
