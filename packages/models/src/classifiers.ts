// @winnow/models/classifiers: the block classifiers as a cleaning run uses them (what --model
// names, the shipped models, per-host folders) and what a page's comment markup says. A run's
// threads import this rather than the package's index: the index also loads the trainers and the
// ONNX export (protobufjs and the schema built by reflection), 40-65 ms of CPU a thread that
// cleaning never uses. The index re-exports all of it.

export {
  type BlockClassifier,
  heuristicClassifier,
  loadMlpClassifier,
  loadModelClassifier,
  type ScoreBatch,
  scoreBatch,
} from "./classifier.js";
export { BUILTIN_MODELS, builtinModelPath, DEFAULT_MODEL } from "./builtin.js";
export { loadClassifier } from "./spec.js";
export { MODEL_NAMES, type ModelSpec, resolveModelSpec } from "./model-names.js";
export { HostRoutedClassifier, hostModelFile, MODEL_INDEX, type ModelIndex, readModelIndex } from "./host-routing.js";
export { type ScoredPage, scorePages } from "./score-pages.js";
export { applyEmptyPageFallback } from "./fallback.js";
export { applyWeakPageRule, WEAK_PAGE_RULE, type WeakPageRule } from "./weak-page.js";
// What a page's comment markup says of each block (thread, chrome, or nothing): clean applies it, training labels with it;
// and the comment decision itself, which clean makes and training's held-out figures repeat.
export {
  COMMENT_CHROME,
  COMMENT_THREAD,
  COMMENT_UNKNOWN,
  type CommentContext,
  commentContext,
  commentMarkup,
  datedThread,
  decideComments,
  inCommentsField,
  NO_COMMENTS,
  vetoComments,
} from "./comment-markup.js";
export { dropRepeatedBlocks, keepingOneCopy, type RepeatLinks, repeatLinks } from "./repeated-blocks.js";
export { type Favor, type ModelInfo, thresholdFor } from "./types.js";
