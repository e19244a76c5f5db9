/**
 * What `winnow train` and `winnow eval` do when no flag says otherwise: the recipe the shipped
 * models (packages/models/assets) were trained with, so that a plain `winnow train` reproduces
 * them. recipe.test.ts reads the model files' own metadata to keep these true.
 */
import { TEXREX_CONTEXT, TEXREX_EXTENDED } from "@winnow/features";

/** The block features each model kind reads by default (the MLP's hidden units: MLP_TRAIN_DEFAULTS). */
export const DEFAULT_FEATURE_SETS: Readonly<Record<"mlp" | "bilstm", string>> = {
  mlp: TEXREX_CONTEXT.name,
  bilstm: TEXREX_EXTENDED.name,
};

/**
 * Fewer training pages than this and a model learns the pages rather than the task: the
 * threshold is chosen on one domain in eight, and the shipped model saw 3,137 pages.
 */
export const SMALL_TRAINING_SET = 100;

/** A warning for a training run on fewer than SMALL_TRAINING_SET pages, or null. */
export function smallTrainingSetWarning(pages: number): string | null {
  if (pages >= SMALL_TRAINING_SET) return null;
  return (
    `training on only ${pages} page${pages === 1 ? "" : "s"}: a model learnt from fewer than ${SMALL_TRAINING_SET} ` +
    `scores new pages poorly and its threshold is chosen on a handful of blocks (the shipped model saw 3,137 pages)`
  );
}
