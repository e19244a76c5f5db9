export { MAX_NESTING, Segmenter, segmentHtml, type SegmentOptions } from "./segmenter.js";
export { BLOCK_TAGS, SKIP_TAGS, headingLevel } from "./tags.js";
export { Doctype, type Block, type SegmentedDocument } from "./types.js";
export { SUBTREE_TAGS, type SubtreeIndex } from "./subtrees.js";
export { CLASS_WORD_GROUPS, CLASS_WORD_GROUP_COUNT, classWordMask } from "./class-words.js";
export { FastTokenizer } from "./skipping-tokenizer.js";
