/**
 * What a BiLSTM model file holds besides its graph, for both sides of it: the export that writes
 * it (export.ts) and the classifier that runs it (classifier.ts). Kept apart from the export so
 * that a thread running the model does not load protobufjs and the ONNX schema with it.
 */
import type { BiLstmShape } from "./network.js";
import type { BlockVocabulary } from "./vocabulary.js";

/** Inputs of the sparse token counts; the dense features use the MLP's "features". */
export const TOKEN_INPUTS = {
  /** int64 [N]: the slot of each non-zero count. */
  slot: "token_slot",
  /** float [N, 1]: its value, log(1 + count). */
  value: "token_value",
  /** int64 [N, 1]: the block (row) it belongs to. */
  block: "token_block",
  /** int64 [1]: T, the page's blocks (some may have no token at all). */
  blocks: "block_count",
} as const;
/** The dense [T, slots] token input of models exported before the sparse one. */
export const DENSE_TOKENS_INPUT = "tokens";
/** The metadata_props key of a BiLSTM's shape and vocabulary (JSON, a BiLstmMetadata). */
export const BILSTM_METADATA_KEY = "winnow.bilstm";

/** What "winnow.bilstm" holds. */
export interface BiLstmMetadata {
  shape: BiLstmShape;
  vocabulary: BlockVocabulary;
  /** Ensemble members; absent (one) in files from before ensembles. */
  members?: number;
}
