// Public API of @winnow/filters: the Gopher, C4 and FineWeb rule sets (rules.ts), the document
// filter that measures and judges a document (filter.ts), the words they count (words.ts), and
// the running summary of a corpus that `winnow stats` prints (corpus-summary.ts).

export { FILTER_NAMES, parseFilterNames, passes, type Rule, RULE_BY_ID, RULE_SETS, RULES, type RuleSetName } from "./rules.js";
export { DocumentFilter, type DocumentStats, type FilterOptions, type FilterOutcome, type RuleFailure } from "./filter.js";
export type { C4Stats, FineWebStats, GopherQualityStats, GopherRepetitionStats } from "./measure.js";
export { GOPHER_STOP_WORDS, stopWordsFor } from "./stop-words.js";
export { splitWords, Words } from "./words.js";
export { CHAR_BUCKETS, CorpusSummary, type CorpusSummaryJson, codePoints, type Histogram, WORD_BUCKETS } from "./corpus-summary.js";
