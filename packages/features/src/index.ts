// Public API of @winnow/features: the block feature sets (texrex's 37, the extended set) and the
// word hashing that the features and the BiLSTM's vocabulary share.

export { TEXREX37, TEXREX_CONTEXT, TEXREX_EXTENDED, TEXREX_STRUCTURE, featureSetByName, type FeatureSet } from "./feature-sets.js";
export {
  SCALE,
  fold,
  documentContext,
} from "./texrex.js";
export { WordIndex, FNV_BASIS, fnvStep, hashOf } from "./words.js";
export { titleHeading } from "./extended.js";
export { isCommentMarker } from "./page-context.js";
