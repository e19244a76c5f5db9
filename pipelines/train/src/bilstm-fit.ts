/**
 * Fitting the BiLSTM on some pages of a dataset, the way `winnow train --model bilstm` and each
 * fold of `winnow eval --model bilstm --folds K` do it: the same validation domains, block
 * weights and threshold choice as the MLP (training.ts), so the two are compared on equal terms.
 * The vocabulary is learnt from the training pages only.
 */
import {
  BlockEncoder,
  biLstmLayout,
  blockSequence,
  buildVocabulary,
  computeInputScaling,
  predictMembers,
  predictSequence,
  trainBiLstm,
  type BiLstmModel,
  type BiLstmShape,
  type BlockSequence,
  type TrainingSequence,
  type VocabularyOptions,
} from "@winnow/models";
import { selectPages, type Dataset } from "./dataset.js";
import { chooseThreshold, splitValidation, trainingWeights, type BlockWeighting } from "./mlp-fit.js";
import type { OperatingPoints } from "./operating-points.js";

/**
 * "tags-words" is BoilerNet's input: ancestor tags and words only. "tags-words-features" also
 * reads the dataset's feature rows (the texrex features), which the issue asks to measure.
 */
export type BiLstmInput = "tags-words" | "tags-words-features";

export interface BiLstmFitOptions {
  input?: BiLstmInput;
  projectionSize?: number;
  hiddenSize?: number;
  layers?: number;
  /** The output layer also reads each block's projection (BiLstmShape.skip). */
  skip?: boolean;
  epochs?: number;
  learningRate?: number;
  dropout?: number;
  /** Moving average of the weights (trainBiLstm's `averaging`); 0 for the raw weights. */
  averaging?: number;
  seed?: number;
  /**
   * Members of the ensemble: each trained alike from its own seed (seed, seed+1, ...) on the same
   * pages, vocabulary and scaling, keeping its own best epoch; the model scores their mean.
   */
  ensemble?: number;
  vocabulary?: VocabularyOptions;
  blockWeighting?: BlockWeighting;
  equalPages?: boolean;
  /** Called after each epoch of each member (0-based) with the mean training loss and the validation word F1. */
  onEpoch?: (epoch: number, loss: number, validationF1: number, member: number) => void;
}

/** The compact default: small enough for CPU speed, as the issue asks (the paper uses 256/256/2). */
export const BILSTM_DEFAULTS: Readonly<Required<Pick<BiLstmFitOptions, DefaultedOption>>> = {
  input: "tags-words-features",
  projectionSize: 32,
  hiddenSize: 32,
  layers: 1,
  skip: false,
  epochs: 8,
  learningRate: 0.003,
  dropout: 0.5,
  // Three members, as the MLP: 5-fold domain CV 0.846 against 0.842-0.846 for single nets (docs/quality.md).
  ensemble: 3,
};

type DefaultedOption = "input" | "projectionSize" | "hiddenSize" | "layers" | "skip" | "epochs" | "learningRate" | "dropout" | "ensemble";

export interface FittedBiLstm {
  model: BiLstmModel;
  threshold: number;
  /** The balanced, precision and recall thresholds on the validation pages' scores (none without validation pages). */
  operatingPoints?: OperatingPoints;
  validationF1: number;
  /** Per member, the epoch whose weights were kept (its best validation word F1). */
  bestEpochs: number[];
  trainPages: number;
  validationPages: number;
}

/** Options with every unset (or undefined) one at its default: flags pass undefined for "not given". */
export function withDefaults(options: BiLstmFitOptions): BiLstmFitOptions & Required<Pick<BiLstmFitOptions, DefaultedOption>> {
  const out: Record<string, unknown> = { ...BILSTM_DEFAULTS };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) out[key] = value;
  return out as unknown as BiLstmFitOptions & Required<Pick<BiLstmFitOptions, DefaultedOption>>;
}

/** Builds the per-page sequences of a model's inputs for the listed pages. */
function sequencesOf(data: Dataset, pageIndexes: readonly number[], model: Omit<BiLstmModel, "members">): BlockSequence[] {
  const encoder = model.layout.shape.tokenSlots > 0 ? new BlockEncoder(model.vocabulary) : undefined;
  const size = data.featureSet.size;
  return pageIndexes.map((p) => {
    const from = data.firstRow[p],
      to = data.firstRow[p + 1];
    const features = model.scaling
      ? { set: data.featureSet, scaling: model.scaling, rawFeatures: data.rows.subarray(from * size, to * size) }
      : undefined;
    return blockSequence(data.pages[p].doc, encoder, features);
  });
}

export function fitBiLstm(data: Dataset, pageIndexes: readonly number[], options: BiLstmFitOptions = {}): FittedBiLstm {
  const o = withDefaults(options);
  const { train, validation } = splitValidation(data, pageIndexes);
  const vocabulary = buildVocabulary(
    train.map((p) => data.pages[p].doc),
    o.vocabulary,
  );
  const subset = selectPages(data, train);
  const useFeatures = o.input === "tags-words-features";
  const scaling = useFeatures ? computeInputScaling(subset.rows, subset.count, data.featureSet.size) : undefined;
  const shape: BiLstmShape = {
    tokenSlots: vocabulary.tags.length + vocabulary.words.length + 2,
    featureSize: useFeatures ? data.featureSet.size : 0,
    projectionSize: o.projectionSize,
    hiddenSize: o.hiddenSize,
    layers: o.layers,
    ...(o.skip ? { skip: true } : {}),
  };
  const layout = biLstmLayout(shape);
  const skeleton = { layout, vocabulary, scaling };
  const weights = trainingWeights(data, train, subset, options) ?? new Float32Array(subset.count).fill(1);
  const trainSequences = sequencesOf(data, train, skeleton);
  const pages: TrainingSequence[] = [];
  let at = 0;
  train.forEach((p, i) => {
    const n = data.firstRow[p + 1] - data.firstRow[p];
    pages.push({ sequence: trainSequences[i], labels: subset.labels.subarray(at, at + n), weights: weights.subarray(at, at + n) });
    at += n;
  });
  const validationSequences = sequencesOf(data, validation, skeleton);
  const members: Float64Array[] = [];
  const bestEpochs: number[] = [];
  for (let m = 0; m < o.ensemble; m++) {
    const trained = trainBiLstm(pages, shape, {
      epochs: o.epochs,
      learningRate: o.learningRate,
      dropout: o.dropout,
      seed: (o.seed ?? 1) + m,
      averaging: o.averaging,
      onEpoch: (epoch, loss, params) => {
        // Without validation pages there is nothing to choose by: the last epoch is kept.
        const f1 =
          validation.length > 0
            ? chooseThreshold(
                data,
                validation,
                validationSequences.map((seq) => predictSequence(params, layout, seq)),
              ).f1
            : undefined;
        options.onEpoch?.(epoch, loss, f1 ?? 0, m);
        return f1;
      },
    });
    members.push(trained.params);
    bestEpochs.push(trained.bestEpoch);
  }
  // The threshold is the ensemble's own: chosen on the mean of the members' validation scores.
  const choice =
    validation.length > 0
      ? chooseThreshold(
          data,
          validation,
          validationSequences.map((seq) => predictMembers(members, layout, seq)),
        )
      : { threshold: 0.5, f1: 0, operatingPoints: undefined };
  return {
    model: { layout, members, vocabulary, scaling },
    threshold: choice.threshold,
    operatingPoints: choice.operatingPoints,
    validationF1: choice.f1,
    bestEpochs,
    trainPages: train.length,
    validationPages: validation.length,
  };
}

/** Block scores of each listed page under a fitted BiLSTM (the TypeScript forward pass, equal to ONNX's). */
export function scoreBiLstmPages(data: Dataset, pageIndexes: readonly number[], model: BiLstmModel): Float32Array[] {
  return sequencesOf(data, pageIndexes, model).map((seq) => predictMembers(model.members, model.layout, seq));
}
