// Public API of @winnow/dedup: normalisation and 64-bit hashes (normalize.ts, hash.ts), MinHash
// signatures and LSH band keys (minhash.ts), checked bucket pairs (bucket.ts), union-find
// (union-find.ts), CCNet-style line hashes (lines.ts), sorted bucket files on disk (runs.ts),
// the in-memory reference dedup (in-memory.ts) and the one-pass dedup of `winnow clean --dedup`
// (streaming.ts).

export { normalizeText, wordsOf } from "./normalize.js";
export { exactHash, hashNormalized, hashOf } from "./hash.js";
export {
  candidateProbability,
  checkMinHashParams,
  DEFAULT_MINHASH,
  estimateJaccard,
  MinHasher,
  type MinHashParams,
  shingleJaccard,
} from "./minhash.js";
export { MAX_REPRESENTATIVES, pairBucket } from "./bucket.js";
export { editWords, seededRandom } from "./planted.js";
export { UnionFind } from "./union-find.js";
export { type LinesRemoved, lineHashes, removeLines, wordCount } from "./lines.js";
export { DEFAULT_RUN_ENTRIES, ENTRY_BYTES, mergeRuns, type RunRef, RunWriter, runsOf } from "./runs.js";
export { DEFAULT_MIN_SIMILARITY, type DedupOptions, type DedupVerdict, dedupInMemory, type DuplicateKind } from "./in-memory.js";
export {
  type DedupKeys,
  DedupKeyMaker,
  StreamingDeduper,
  type StreamingMatch,
  type StreamingOptions,
} from "./streaming.js";
