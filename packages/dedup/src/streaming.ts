/**
 * Dedup in one pass, as documents arrive (`winnow clean --dedup`): a document is a duplicate when
 * its normalised text equals an earlier document's (exact), or when it shares a band key with an
 * earlier document whose signature agrees on at least `minSimilarity` of its positions (near).
 * The first of each group is kept, in arrival order.
 *
 * Memory grows with the corpus: per document a 64-bit exact hash, one map entry per band key not
 * seen before and a one-byte-per-hash signature (112 bytes by default; b-bit MinHash, Li and König
 * 2010, corrected for the 1/256 chance of equal bytes). For corpora larger than memory use the
 * multi-pass stage, which holds none of this.
 *
 * It differs from the stage in one case: a chain A ~ B ~ C where C arrives before B and is not
 * itself similar to A is a cluster to the stage (C dropped) but C is kept here.
 */
import { hashNormalized } from "./hash.js";
import { DEFAULT_MIN_SIMILARITY, type DuplicateKind } from "./in-memory.js";
import { type MinHashParams, MinHasher } from "./minhash.js";
import { normalizeText } from "./normalize.js";

export interface StreamingOptions {
  /** "exact": exact duplicates only; "minhash": exact and near duplicates. */
  mode: "exact" | "minhash";
  minhashParams?: Partial<MinHashParams>;
  minSimilarity?: number;
}

/** A duplicate found: the number of the earlier document it duplicates, and how. */
export interface StreamingMatch {
  of: number;
  kind: DuplicateKind;
  /** Estimated Jaccard with that document (near duplicates). */
  similarity?: number;
}

/** What the worker computes for a document, so the ordered check on the main thread is cheap. */
export interface DedupKeys {
  exact: bigint;
  /** One key per band, folded to 52 bits for map keys; absent for exact mode or an empty text. */
  bands?: number[];
  /** The low byte of each signature position. */
  signature?: Uint8Array;
}

/** Computes DedupKeys (thread-safe to use one per worker). */
export class DedupKeyMaker {
  readonly #hasher: MinHasher | null;

  constructor(options: StreamingOptions) {
    this.#hasher = options.mode === "minhash" ? new MinHasher(options.minhashParams) : null;
  }

  keys(text: string): DedupKeys {
    const norm = normalizeText(text);
    const keys: DedupKeys = { exact: hashNormalized(norm) };
    if (this.#hasher === null) return keys;
    const sig = this.#hasher.signatureOfNormalized(norm);
    if (sig === null) return keys;
    keys.bands = Array.from(this.#hasher.bandKeys(sig), (k) => Number(k & 0xfffffffffffffn));
    const bytes = new Uint8Array(sig.length);
    for (let i = 0; i < sig.length; i++) bytes[i] = sig[i] & 0xff;
    keys.signature = bytes;
    return keys;
  }
}

export class StreamingDeduper {
  readonly #exact = new Map<bigint, number>();
  readonly #bands: Array<Map<number, number>> = [];
  readonly #minSimilarity: number;
  /** Signature bytes of every document with one, by document number (grown by doubling). */
  #signatures = new Uint8Array(0);
  #width = 0;
  #count = 0;
  /** The kept document each document stands for (itself when kept), by number. */
  #keeper = new Int32Array(1024);

  constructor(options: StreamingOptions) {
    this.#minSimilarity = options.minSimilarity ?? DEFAULT_MIN_SIMILARITY;
  }

  /** Documents seen so far (the next document's number). */
  get count(): number {
    return this.#count;
  }

  /** Checks the next document (numbered `count`) and remembers it; null when it is no duplicate. */
  check(keys: DedupKeys): StreamingMatch | null {
    const n = this.#count++;
    if (n === this.#keeper.length) {
      const grown = new Int32Array(2 * n);
      grown.set(this.#keeper);
      this.#keeper = grown;
    }
    const match = this.#match(n, keys);
    // A match may be an earlier duplicate: the answer is the document that one stands for.
    if (match !== null) match.of = this.#keeper[match.of];
    this.#keeper[n] = match === null ? n : match.of;
    return match;
  }

  #match(n: number, keys: DedupKeys): StreamingMatch | null {
    const earlier = this.#exact.get(keys.exact);
    if (earlier !== undefined) return { of: earlier, kind: "exact" };
    this.#exact.set(keys.exact, n);
    if (keys.bands === undefined || keys.signature === undefined) return null;
    this.#store(n, keys.signature);
    let match: StreamingMatch | null = null;
    for (let b = 0; b < keys.bands.length; b++) {
      let band = this.#bands[b];
      if (band === undefined) band = this.#bands[b] = new Map();
      const first = band.get(keys.bands[b]);
      if (first === undefined) {
        band.set(keys.bands[b], n);
      } else if (match === null) {
        const similarity = this.#similarity(first, keys.signature);
        if (similarity >= this.#minSimilarity) match = { of: first, kind: "near", similarity };
      }
    }
    return match;
  }

  #store(n: number, sig: Uint8Array): void {
    if (this.#width === 0) this.#width = sig.length;
    if (sig.length !== this.#width) throw new RangeError(`signature of ${sig.length} bytes, expected ${this.#width}`);
    const need = (n + 1) * this.#width;
    if (need > this.#signatures.length) {
      const grown = new Uint8Array(Math.max(need, this.#signatures.length * 2, 1024 * this.#width));
      grown.set(this.#signatures);
      this.#signatures = grown;
    }
    this.#signatures.set(sig, n * this.#width);
  }

  #similarity(doc: number, sig: Uint8Array): number {
    const w = this.#width;
    const base = doc * w;
    let same = 0;
    for (let i = 0; i < w; i++) if (this.#signatures[base + i] === sig[i]) same++;
    const p = same / w;
    // Equal low bytes happen by chance 1 time in 256 for unequal values.
    return Math.max(0, (p - 1 / 256) / (1 - 1 / 256));
  }
}
