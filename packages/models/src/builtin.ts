/**
 * The models shipped with winnow (see docs/training.md for how they were made, docs/quality.md for how they score):
 * the MLP that `winnow clean` uses when no --model is given, and the BiLSTM behind
 * `--model bilstm`.
 */
import { fileURLToPath } from "node:url";

const asset = (file: string): string => fileURLToPath(new URL(`../assets/${file}`, import.meta.url));

/** Each shipped model's name and file. */
export const BUILTIN_MODELS: Readonly<Record<string, string>> = {
  mlp: asset("default-mlp.onnx"),
  bilstm: asset("default-bilstm.onnx"),
};

/** The shipped model a run uses when none is named. */
export const DEFAULT_MODEL = "mlp";

/** The file behind a shipped model's name, or undefined for anything else. */
export function builtinModelPath(name: string): string | undefined {
  return Object.hasOwn(BUILTIN_MODELS, name) ? BUILTIN_MODELS[name] : undefined;
}
