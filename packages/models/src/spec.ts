/**
 * The classifier behind what `--model` names (model-names.ts): "heuristic", a shipped model
 * ("mlp", the default, or "bilstm"), a model file made by `winnow train`, or a folder made by
 * `winnow train --per-host`.
 */
import { existsSync, statSync } from "node:fs";
import { ModelError } from "@winnow/errors";
import { type BlockClassifier, heuristicClassifier, loadModelClassifier } from "./classifier.js";
import { builtinModelPath } from "./builtin.js";
import { keepingOneCopy } from "./repeated-blocks.js";
import { HostRoutedClassifier, isModelDirectory, MODEL_INDEX } from "./host-routing.js";
import { MODEL_NAMES, type ModelSpec } from "./model-names.js";
import type { Favor } from "./types.js";

/** Loads the classifier a spec names; a ModelError says what is wrong and which names exist. */
export async function loadClassifier(spec: ModelSpec, options: { favor?: Favor } = {}): Promise<BlockClassifier> {
  if (spec === "heuristic") {
    if (options.favor !== undefined && options.favor !== "balanced")
      throw new ModelError(
        `--favor ${options.favor} needs a model with operating points; the heuristic has one fixed rule: leave --favor out`,
        "--favor",
      );
    return keepingOneCopy(heuristicClassifier());
  }
  const builtin = builtinModelPath(spec);
  if (builtin !== undefined) return keepingOneCopy(await loadModelClassifier(builtin, { name: spec, favor: options.favor }));
  if (!existsSync(spec)) {
    // "all-text" keeps every block: a baseline winnow eval prints, not a model to clean with.
    const baseline = spec === "all-text" ? "all-text is winnow eval's keep-everything baseline, not a model to clean with; " : "";
    throw new ModelError(
      `${baseline}no such model: give ${MODEL_NAMES.join(", ")}, a model file made by winnow train, ` +
        "or a folder of per-host models made by winnow train --per-host (in clean, with --models DIR)",
      spec,
    );
  }
  // A folder made by `winnow train --per-host`: one model per host, each loaded by this function.
  if (isModelDirectory(spec)) return HostRoutedClassifier.open(spec, (path) => loadClassifier(path, options));
  if (statSync(spec).isDirectory())
    throw new ModelError(
      `a folder is not a model file: --model takes ${MODEL_NAMES.join(", ")} or a model file made by winnow train; ` +
        `a folder of per-host models (with the ${MODEL_INDEX} that winnow train --per-host writes) goes to --models DIR`,
      spec,
    );
  return keepingOneCopy(await loadModelClassifier(spec, { favor: options.favor }));
}
