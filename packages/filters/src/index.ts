// Public API of @winnow/filters: the Gopher, C4 and FineWeb rule sets (rules.ts), their settings
// (settings.ts), what the names of --filters stand for (presets.ts) and filter config files
// (config.ts), the document filter that measures and judges a document (filter.ts), PII masking
// (pii.ts), the words they count (words.ts), the running summary of a corpus that `winnow stats`
// prints (corpus-summary.ts) and what each rule would drop (rule-report.ts).

export {
  type Bounds,
  FILTER_NAMES,
  type FilterName,
  filterName,
  parseFilterNames,
  passes,
  type Rule,
  RULE_BY_ID,
  RULE_SETS,
  RULES,
  type RuleSetName,
} from "./rules.js";
export { type C4LineRules, defaultSettings, type FilterConfig, type FilterSettings, type FineWebMeasures } from "./settings.js";
export { FINEWEB2_LANGUAGES, fineWebConfig, fineWebSettings, presetConfig, presetLanguages } from "./presets.js";
export { CONFIG_KEYS, type ConfigFileOptions, distance, FilterConfigError, parseFilterConfig } from "./config.js";
export { EMAIL_REPLACEMENT, IPV4_REPLACEMENT, IPV6_REPLACEMENT, isPublicIp, type MaskedText, maskPii, type PiiCounts } from "./pii.js";
export { DocumentFilter, type DocumentStats, type FilterOptions, type FilterOutcome, type RuleFailure } from "./filter.js";
export type { C4Stats, FineWebStats, GopherQualityStats, GopherRepetitionStats } from "./measure.js";
export { GOPHER_STOP_WORDS, stopWordsFor } from "./stop-words.js";
export { splitWords, Words } from "./words.js";
export { CHAR_BUCKETS, CorpusSummary, type CorpusSummaryJson, codePoints, type Histogram, WORD_BUCKETS } from "./corpus-summary.js";
export { type RuleDrop, RuleReport, type RuleReportJson } from "./rule-report.js";
