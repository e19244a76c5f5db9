// Public API of @winnow/evaluation: labelled pages and how they are read, word scores against gold
// text, block labels by alignment, and folds that keep each domain on one side.

export { alignBlockLabels, type AlignOptions, type BlockAlignment } from "./align.js";
export { LabelledDataError } from "./errors.js";
export { fingerprint } from "./fingerprint.js";
export { domainFolds } from "./folds.js";
export {
  labelledDataPaths,
  type LoadLabelledOptions,
  loadLabelledPages,
  loadLabelledSources,
  requireGoldText,
  sourceName,
} from "./labelled-data.js";
export { keptText, type LabelledPage } from "./labelled-page.js";
export { wordScores, type WordScores } from "./scores.js";
export { normaliseSnippetText, snippetRates, type SnippetRates } from "./snippets.js";
export { type GroupSummary, languageGroup, type PageResult, type Summary, summarise } from "./summary.js";
export { wordTokens } from "./tokens.js";
export { loadWcxb, type WcxbEntry, type WcxbOptions, type WcxbPage } from "./wcxb.js";
