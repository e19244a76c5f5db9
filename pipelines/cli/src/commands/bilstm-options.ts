// Flags of `winnow train --model bilstm` and `winnow eval --model bilstm --folds K`.
import { type Command, Option } from "commander";
import { BILSTM_DEFAULTS, type BiLstmFitOptions, type BiLstmInput } from "@winnow/train";
import { parseCount, parseUnitFraction } from "../parse.js";

export interface BiLstmFlags {
  input?: BiLstmInput;
  layers?: number;
  hidden?: number;
  epochs?: number;
  seed?: number;
  skip?: boolean;
  averaging?: number;
}

/** Adds the BiLSTM-only flags; --hidden, --epochs and --seed are shared with the MLP. */
export function bilstmOptions(command: Command): void {
  command
    .addOption(
      new Option(
        "--input <kind>",
        "what the BiLSTM reads per block: tags-words (BoilerNet: ancestor tags and words) or tags-words-features (also the --feature-set values)",
      )
        .choices(["tags-words", "tags-words-features"])
        .default(BILSTM_DEFAULTS.input),
    )
    .option("--layers <n>", `stacked bidirectional LSTM layers of the BiLSTM (default: ${BILSTM_DEFAULTS.layers})`, parseCount(1))
    .option("--skip", "let the BiLSTM's output layer also read each block's own projection (a per-block path beside the sequence path)")
    .option(
      "--averaging <decay>",
      "keep a moving average of the BiLSTM's weights with this decay per step (0: the raw weights)",
      parseUnitFraction,
    );
}

/** The flags as fitBiLstm's options; --hidden sets both the projection width and the LSTM units. */
export function bilstmOptionsFrom(flags: BiLstmFlags & { ensemble?: number }): BiLstmFitOptions {
  return {
    input: flags.input,
    layers: flags.layers,
    hiddenSize: flags.hidden,
    projectionSize: flags.hidden,
    epochs: flags.epochs,
    seed: flags.seed,
    skip: flags.skip,
    averaging: flags.averaging,
    ensemble: flags.ensemble,
  };
}

/**
 * Flags that belong to the other kind of model are refused rather than ignored, so that a
 * user never believes a setting took effect when it did not.
 */
export function foreignFlags(kind: "mlp" | "bilstm", flags: BiLstmFlags & { optimizer?: string }, inputGiven: boolean): string[] {
  const given: string[] = [];
  if (kind === "bilstm") {
    if (flags.optimizer !== undefined) given.push("--optimizer");
  } else {
    if (flags.layers !== undefined) given.push("--layers");
    if (flags.skip !== undefined) given.push("--skip");
    if (flags.averaging !== undefined) given.push("--averaging");
    if (inputGiven) given.push("--input");
  }
  return given.map((flag) => `${flag} applies to the ${kind === "bilstm" ? "MLP" : "BiLSTM"} only, not to --model ${kind}`);
}
