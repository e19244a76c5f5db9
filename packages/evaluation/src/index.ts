export { wordTokens } from "./tokens.js";
export { wordScores, bagScores, type WordScores } from "./scores.js";
export { snippetRates, normaliseSnippetText, type SnippetRates } from "./snippets.js";
export { summarise, type PageResult, type GroupSummary, type Summary } from "./summary.js";
export { alignBlockLabels, type AlignOptions, type BlockAlignment } from "./align.js";
export { alignTokens, type TokenAlignment } from "./lcs.js";
export {
  listWcxb,
  loadWcxb,
  loadWcxbSync,
  type WcxbEntry,
  type WcxbPage,
  type WcxbOptions,
} from "./wcxb.js";
export { domainFolds, domainKey } from "./folds.js";
export { fingerprint } from "./fingerprint.js";
