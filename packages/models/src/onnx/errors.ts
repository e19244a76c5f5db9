import { ModelError } from "@winnow/errors";

/** The model file is missing, unreadable, not ONNX, or lacks winnow metadata. */
export class ModelLoadError extends ModelError {
  override readonly name: string = "ModelLoadError";
  constructor(
    /** Path (or "<in-memory model>") of the model that failed. */
    readonly source: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`cannot load model: ${reason}`, source, options);
  }
}

/** What a model reads, or what this build computes. */
export interface FeatureSetRef {
  featureSet: string;
  featureSetVersion: number;
  inputSize?: number;
}

export interface ModelMismatchDetails {
  source: string;
  model: FeatureSetRef;
  expected: FeatureSetRef;
}

/** The model was trained on different features than this build computes. */
export class ModelMismatchError extends ModelError {
  override readonly name: string = "ModelMismatchError";
  /** Structured form of the mismatch when it came from a feature-set comparison. */
  readonly details?: ModelMismatchDetails;

  constructor(message: string, details?: ModelMismatchDetails) {
    super(message);
    this.details = details;
  }

  /** The standard refusal: names the model, both feature sets, and what to do about it. */
  static forFeatureSets(source: string, model: FeatureSetRef, expected: FeatureSetRef): ModelMismatchError {
    return new ModelMismatchError(mismatchMessage(source, model, expected), { source, model, expected });
  }
}

function mismatchMessage(source: string, model: FeatureSetRef, expected: FeatureSetRef): string {
  const advice = 'retrain it with "winnow train" or pick another --model';
  const sameSet = model.featureSet === expected.featureSet && model.featureSetVersion === expected.featureSetVersion;
  if (sameSet) {
    return (
      `model "${source}" reads ${model.inputSize} inputs per block but this winnow computes ` +
      `${expected.inputSize} for ${expected.featureSet} v${expected.featureSetVersion}; ${advice}`
    );
  }
  return (
    `model "${source}" expects feature set ${model.featureSet} v${model.featureSetVersion} ` +
    `but this winnow computes ${expected.featureSet} v${expected.featureSetVersion}; ${advice}`
  );
}
