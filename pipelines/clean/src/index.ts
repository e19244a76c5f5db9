// Public API of @winnow/clean: one cleaning run (runClean) with its options, progress and summary.

export { type CleanRunOptions, DEFAULT_BATCH_SIZE, maxWorkers, runClean } from "./run.js";
export {
  type CleanProgress,
  type CleanRunSummary,
  type CleanSkipReason,
  CLEAN_SKIP_REASONS,
  type InputFailure,
  type PiiSummary,
  ROUTINE_SKIP_REASONS,
} from "./summary.js";
export { DEFAULT_TEMPLATE_KEEP_SCORE, SITE_TEMPLATE_MODES, type SiteTemplateMode, type SiteTemplateRunOptions } from "./site-templates.js";
export type { CorpusOptions } from "./steps.js";
// The CLI checks --langs against the labels documents can get, before a run starts.
export { isLanguageLabel, nearestLanguageLabels, UNDETERMINED } from "./languages.js";
export {
  checkPerInputRun,
  type PerInputRunOptions,
  type PerInputRunSummary,
  perInputSuffix,
  runCleanPerInput,
} from "./per-input.js";
