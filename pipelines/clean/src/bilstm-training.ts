/**
 * Fitting the BiLSTM on some pages of a dataset, the way `winnow train --model bilstm` and each
 * fold of `winnow eval --model bilstm --folds K` do it: the same validation domains, block
 * weights and threshold choice as the MLP (training.ts), so the two are compared on equal terms.
 * The vocabulary is learnt from the training pages only.
 */
import {
  BlockEncoder, blockSequence, buildVocabulary, computeInputScaling, predictSequence, trainBiLstm,
  type BiLstmModel, type BiLstmShape, type BlockSequence, type TrainingSequence, type VocabularyOptions,
} from "@winnow/models";
import { selectPages, type Dataset } from "./dataset.js";
import { chooseThreshold, splitValidation, trainingWeights, type BlockWeighting } from "./training.js";

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
  vocabulary?: VocabularyOptions;
  blockWeighting?: BlockWeighting;
  equalPages?: boolean;
  /** Called after each epoch with the mean training loss and the validation word F1. */
  onEpoch?: (epoch: number, loss: number, validationF1: number) => void;
}

/** The compact default: small enough for CPU speed, as the issue asks (the paper uses 256/256/2). */
export const BILSTM_DEFAULTS: Readonly<Required<Pick<BiLstmFitOptions, DefaultedOption>>> = {
  input: "tags-words-features", projectionSize: 32, hiddenSize: 32, layers: 1, skip: false, epochs: 8, learningRate: 0.003, dropout: 0.5,
};

type DefaultedOption = "input" | "projectionSize" | "hiddenSize" | "layers" | "skip" | "epochs" | "learningRate" | "dropout";

export interface FittedBiLstm {
  model: BiLstmModel;
  threshold: number;
  validationF1: number;
  /** Epoch whose weights were kept (best validation word F1). */
  bestEpoch: number;
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
function sequencesOf(data: Dataset, pageIndexes: readonly number[], model: Omit<BiLstmModel, "params">): BlockSequence[] {
  const encoder = model.layout.shape.tokenSlots > 0 ? new BlockEncoder(model.vocabulary) : undefined;
  const size = data.featureSet.size;
  return pageIndexes.map((p) => {
    const from = data.firstRow[p], to = data.firstRow[p + 1];
    const features = model.scaling ? { set: data.featureSet, scaling: model.scaling, rawFeatures: data.rows.subarray(from * size, to * size) } : undefined;
    return blockSequence(data.pages[p].doc, encoder, features);
  });
}

export function fitBiLstm(data: Dataset, pageIndexes: readonly number[], options: BiLstmFitOptions = {}): FittedBiLstm {
  const o = withDefaults(options);
  const { train, validation } = splitValidation(data, pageIndexes);
  const vocabulary = buildVocabulary(train.map((p) => data.pages[p].doc), o.vocabulary);
  const subset = selectPages(data, train);
  const useFeatures = o.input === "tags-words-features";
  const scaling = useFeatures ? computeInputScaling(subset.rows, subset.count, data.featureSet.size) : undefined;
  const shape: BiLstmShape = {
    tokenSlots: vocabulary.tags.length + vocabulary.words.length + 2,
    featureSize: useFeatures ? data.featureSet.size : 0,
    projectionSize: o.projectionSize, hiddenSize: o.hiddenSize, layers: o.layers, ...(o.skip ? { skip: true } : {}),
  };
  const skeleton = { layout: { shape } as BiLstmModel["layout"], vocabulary, scaling };
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
  let lastChoice = { threshold: 0.5, f1: 0 };
  const choices: Array<{ threshold: number; f1: number }> = [];
  const trained = trainBiLstm(pages, shape, {
    epochs: o.epochs, learningRate: o.learningRate, dropout: o.dropout, seed: o.seed, averaging: o.averaging,
    onEpoch: (epoch, loss, params, layout) => {
      const scores = validationSequences.map((seq) => predictSequence(params, layout, seq));
      lastChoice = validation.length > 0 ? chooseThreshold(data, validation, scores) : { threshold: 0.5, f1: 0 };
      choices.push(lastChoice);
      options.onEpoch?.(epoch, loss, lastChoice.f1);
      return lastChoice.f1;
    },
  });
  const kept = choices[trained.bestEpoch - 1] ?? lastChoice;
  return {
    model: { layout: trained.layout, params: trained.params, vocabulary, scaling },
    threshold: kept.threshold, validationF1: kept.f1, bestEpoch: trained.bestEpoch,
    trainPages: train.length, validationPages: validation.length,
  };
}

/** Block scores of each listed page under a fitted BiLSTM (the TypeScript forward pass, equal to ONNX's). */
export function scoreBiLstmPages(data: Dataset, pageIndexes: readonly number[], model: BiLstmModel): Float32Array[] {
  return sequencesOf(data, pageIndexes, model).map((seq) => predictSequence(model.params, model.layout, seq));
}
