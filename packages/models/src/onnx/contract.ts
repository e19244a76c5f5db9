/**
 * Tensor names every winnow block model uses, so one scorer runs any exporter's model:
 * float "features" [N, inputSize] in, float "scores" [N, 1] out.
 */
export const FEATURES_INPUT = "features";
export const SCORES_OUTPUT = "scores";
/** Optional second output of models with a comment head: float "comment_scores" [N, 1]. */
export const COMMENT_SCORES_OUTPUT = "comment_scores";
/** Symbolic batch dimension name. */
export const BATCH_DIM = "N";
