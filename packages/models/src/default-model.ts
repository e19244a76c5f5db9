/**
 * The model `winnow clean` uses when no --model is given: an MLP trained on all WCXB dev pages by
 * `npm run train:default` (see the README for how it was made and how it scores).
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const DEFAULT_MODEL_PATH = fileURLToPath(new URL("../assets/default-mlp.onnx", import.meta.url));

export function hasDefaultModel(): boolean {
  return existsSync(DEFAULT_MODEL_PATH);
}
