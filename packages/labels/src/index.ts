// Public API of @winnow/labels: block labels by propagation over each page's block graph, markup
// seeds, and the block-label file format that winnow label and label-ui write.

export { propagateLabels, type PropagationOptions } from "./propagate.js";
export { heuristicSeeds, wordCount } from "./seeds.js";
export {
  LabelFileError,
  blockFingerprint,
  makeLabelFile,
  contentLabel,
  commentLabels,
  COMMENT_LABEL,
  labelMismatch,
  labelFileName,
  writeLabelFile,
  readLabelDir,
  type BlockLabelFile,
  type BlockLabel,
  type StoredBlockLabel,
  type MakeLabelFileOptions,
  type LabelSource,
} from "./format.js";
