export { TEXREX37, TEXREX_EXTENDED, featureSetByName, type FeatureSet } from "./feature-sets.js";
export {
  TEXREX_SPECS,
  CONTAINER_GROUPS,
  SCALE,
  containerGroup,
  fold,
  documentContext,
  writeTexrex,
  type FeatureSpec,
  type DocumentContext,
} from "./texrex.js";
export { EXTENDED_SPECS, ANCESTOR_TAGS, extendedContext, writeExtended, type ExtendedContext } from "./extended.js";
export { textStats, isPunctuation, type TextStats } from "./text-stats.js";
export { WordIndex, FNV_BASIS, fnvStep, hashOf } from "./words.js";
