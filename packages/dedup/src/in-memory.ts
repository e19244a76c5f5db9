/**
 * Dedup of a corpus that fits in memory, in the same terms as the multi-pass stage (pipelines/dedup):
 * exact duplicates by the hash of the normalised text, near duplicates by MinHash LSH candidates
 * checked on the whole signature, clusters by union-find, and in each cluster the first document
 * in the given order kept. The stage computes the same thing pass by pass from files on disk;
 * this is its reference, used by the tests and small runs.
 */
import { pairBucket } from "./bucket.js";
import { exactHash } from "./hash.js";
import { type MinHashParams, MinHasher } from "./minhash.js";
import { UnionFind } from "./union-find.js";

export type DuplicateKind = "exact" | "near";

export interface DedupOptions {
  /** Find exact duplicates (default true). */
  exact?: boolean;
  /** Find near duplicates with MinHash LSH (default true). */
  minhash?: boolean;
  minhashParams?: Partial<MinHashParams>;
  /** Candidate pairs below this estimated Jaccard are not duplicates (default DEFAULT_MIN_SIMILARITY). */
  minSimilarity?: number;
}

/** Default minimum estimated Jaccard for a candidate pair: 0.99 recall at J = 0.8 with 112 hashes. */
export const DEFAULT_MIN_SIMILARITY = 0.7;

/** What became of one document: kept (`of` null), or a duplicate of document `of`. */
export interface DedupVerdict {
  of: number | null;
  kind: DuplicateKind | null;
}

export function dedupInMemory(texts: readonly string[], options: DedupOptions = {}): DedupVerdict[] {
  const n = texts.length;
  const uf = new UnionFind(n);
  const exact = options.exact !== false;
  const hashes = texts.map((t) => exactHash(t));
  if (exact) {
    const first = new Map<bigint, number>();
    for (let i = 0; i < n; i++) {
      const f = first.get(hashes[i]);
      if (f === undefined) first.set(hashes[i], i);
      else uf.union(f, i);
    }
  }
  if (options.minhash !== false) {
    const hasher = new MinHasher(options.minhashParams);
    const sigs = texts.map((t) => hasher.signatureOf(t));
    const buckets = new Map<bigint, number[]>();
    for (let i = 0; i < n; i++) {
      const sig = sigs[i];
      if (sig === null) continue;
      const keys = hasher.bandKeys(sig);
      for (let b = 0; b < keys.length; b++) {
        // Band number in the key's top bits keeps bands apart (as the stage's one file per band does).
        const k = (BigInt(b) << 64n) | keys[b];
        const list = buckets.get(k);
        if (list === undefined) buckets.set(k, [i]);
        else list.push(i);
      }
    }
    const minSimilarity = options.minSimilarity ?? DEFAULT_MIN_SIMILARITY;
    for (const members of buckets.values()) {
      pairBucket(
        members,
        (m) => sigs[m] as Uint32Array,
        minSimilarity,
        (a, b) => uf.union(a, b),
      );
    }
  }
  const verdicts: DedupVerdict[] = [];
  for (let i = 0; i < n; i++) {
    const root = uf.find(i);
    if (root === i) verdicts.push({ of: null, kind: null });
    else verdicts.push({ of: root, kind: hashes[root] === hashes[i] ? "exact" : "near" });
  }
  return verdicts;
}
