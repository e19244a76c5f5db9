// Public API of @winnow/segment: HTML to text blocks in one htmlparser2 pass, with each block's
// tag path, class words and (on request) the subtree fingerprints site templates use.

export { MAX_NESTING, Segmenter, segmentHtml, type SegmentOptions } from "./segmenter.js";
export {
  Doctype,
  type Block,
  type BlockLayout,
  type InlineKind,
  type InlineSpan,
  type CellLayout,
  type ListLayout,
  type MarkupObserver,
  type SegmentedDocument,
} from "./types.js";
export type { SubtreeIndex } from "./subtrees.js";
export { CLASS_WORD_GROUPS, CLASS_WORD_GROUP_COUNT } from "./class-words.js";
export { SkippingTokenizer } from "./skipping-tokenizer.js";
