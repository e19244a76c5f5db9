// Public API of @winnow/dedup-stage: the multi-pass dedup stage over shards (run.ts), its passes
// (signatures.ts, buckets.ts, clusters.ts, filter.ts) and its plan (plan.ts).

export {
  DEDUP_PASSES,
  type DedupPass,
  type DedupRunOptions,
  type DedupSummary,
  DEFAULT_SETTINGS,
  runDedup,
  type TaskEvent,
} from "./run.js";
export { type CheckedInputs, checkedInputs, type DedupPaths, stateOf } from "./outputs.js";
export { DEDUP_KINDS, type DedupKind, type DedupSettings, outputName } from "./plan.js";
export type { ClusterSummary, JaccardSample } from "./clusters.js";
export type { DedupRejectLine, FilterSummary } from "./filter.js";
