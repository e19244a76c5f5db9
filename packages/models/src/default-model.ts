/**
 * The models shipped with winnow, both trained on all WCXB dev pages (see the README for how
 * they were made and how they score): the MLP that `winnow clean` uses when no --model is given,
 * and the BiLSTM behind `--model bilstm`.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const DEFAULT_MODEL_PATH = fileURLToPath(new URL("../assets/default-mlp.onnx", import.meta.url));
export const DEFAULT_BILSTM_PATH = fileURLToPath(new URL("../assets/default-bilstm.onnx", import.meta.url));

export function hasDefaultModel(): boolean {
  return existsSync(DEFAULT_MODEL_PATH);
}

/** The file behind a built-in model name ("mlp", "bilstm"), or undefined for anything else. */
export function builtinModelPath(name: string): string | undefined {
  return name === "mlp" ? DEFAULT_MODEL_PATH : name === "bilstm" ? DEFAULT_BILSTM_PATH : undefined;
}
