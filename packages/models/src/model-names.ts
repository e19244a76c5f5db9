/**
 * What `--model` names, without loading a classifier: the names it takes besides paths, and the
 * model a run uses when none is given. A run on a worker pool resolves its model on the main
 * thread, which never scores a page; importing this rather than the package's index spares that
 * thread the features, the segmenter, ONNX Runtime and the trainers (about 0.2 s of CPU a run).
 */
import { existsSync } from "node:fs";
import { BUILTIN_MODELS, builtinModelPath, DEFAULT_MODEL } from "./builtin.js";

/** "heuristic", a shipped model's name, or the path of a model file or per-host model folder. */
export type ModelSpec = string;

export { builtinModelPath };

/** The names `--model` takes besides paths, for help texts and errors. */
export const MODEL_NAMES: readonly string[] = ["heuristic", ...Object.keys(BUILTIN_MODELS)];

/**
 * The model a run uses: as given, else the shipped default, else (only when the shipped file is
 * missing, as in a partial checkout) the heuristic, after calling `warn`.
 */
export function resolveModelSpec(spec: ModelSpec | undefined, warn: (message: string) => void = () => {}): ModelSpec {
  if (spec !== undefined) return spec;
  const path = builtinModelPath(DEFAULT_MODEL);
  if (path !== undefined && existsSync(path)) return DEFAULT_MODEL;
  warn(`the default model is missing (${path}); using the heuristic classifier`);
  return "heuristic";
}
