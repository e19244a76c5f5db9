// The defaults of `winnow train` and `eval` against what the shipped model files say about
// themselves: a plain `winnow train` is to reproduce the shipped recipe.
import { MLP_TRAIN_DEFAULTS, readModelInfo } from "@winnow/models";
import { describe, expect, it } from "vitest";
import { DEFAULT_FEATURE_SETS, SMALL_TRAINING_SET, smallTrainingSetWarning } from "./recipe.js";

const ASSETS = new URL("../../../packages/models/assets/", import.meta.url).pathname;

describe("the default recipe", () => {
  it("is the shipped MLP's: its feature set and hidden units", async () => {
    const info = await readModelInfo(`${ASSETS}default-mlp.onnx`);
    expect(info.kind).toBe("mlp");
    expect(DEFAULT_FEATURE_SETS.mlp).toBe(info.featureSet);
    expect(MLP_TRAIN_DEFAULTS.hiddenSize).toBe(JSON.parse(info.notes).hidden);
  });

  it("is the shipped BiLSTM's feature set", async () => {
    const info = await readModelInfo(`${ASSETS}default-bilstm.onnx`);
    expect(DEFAULT_FEATURE_SETS.bilstm).toBe(info.featureSet);
  });

  it("warns below SMALL_TRAINING_SET pages, and not from there on", () => {
    expect(smallTrainingSetWarning(3)).toMatch(/^training on only 3 pages: /);
    expect(smallTrainingSetWarning(SMALL_TRAINING_SET - 1)).not.toBeNull();
    expect(smallTrainingSetWarning(SMALL_TRAINING_SET)).toBeNull();
  });
});
