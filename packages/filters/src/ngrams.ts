/**
 * Word n-gram counting for the Gopher repetition rules, on the words' hashes instead of strings:
 * an n-gram is two 32-bit hashes built from its words' hashes, kept in an open-addressed table
 * of typed arrays. Building the n-gram strings (as datatrove does) cost more than all the other
 * rules together; two 32-bit lanes make a false match about as likely as one in 10^19 pairs.
 */
import type { Words } from "./words.js";

/** Open-addressed counts keyed by a pair of 32-bit hashes; cleared and reused per n. */
class PairCounts {
  #lo = new Int32Array(0);
  #hi = new Int32Array(0);
  #counts = new Int32Array(0);
  #mask = 0;

  /**
   * Empties the table for `n` keys at a load of at most one half. The arrays only grow: a smaller
   * table uses their start (the mask bounds every probe), so documents do not reallocate them.
   */
  reset(n: number): void {
    let size = 16;
    while (size < 2 * n) size *= 2;
    if (size > this.#counts.length) {
      this.#lo = new Int32Array(size);
      this.#hi = new Int32Array(size);
      this.#counts = new Int32Array(size);
    } else {
      this.#counts.fill(0, 0, size);
    }
    this.#mask = size - 1;
  }

  /** The slot of key (lo, hi): where it is, or the empty slot where it goes. */
  #slot(lo: number, hi: number): number {
    let s = (lo ^ Math.imul(hi, 0x27d4eb2d)) & this.#mask;
    while (this.#counts[s] !== 0 && (this.#lo[s] !== lo || this.#hi[s] !== hi)) s = (s + 1) & this.#mask;
    return s;
  }

  /** Adds one to the key's count and returns the new count. */
  add(lo: number, hi: number): number {
    const s = this.#slot(lo, hi);
    if (this.#counts[s] === 0) {
      this.#lo[s] = lo;
      this.#hi[s] = hi;
    }
    return ++this.#counts[s];
  }

  has(lo: number, hi: number): boolean {
    return this.#counts[this.#slot(lo, hi)] !== 0;
  }

  count(lo: number, hi: number): number {
    return this.#counts[this.#slot(lo, hi)];
  }
}

export interface RepetitionValues {
  /** n = 2, 3, 4: characters in the most frequent n-gram, times its count. */
  topChars: [number, number, number];
  /** n = 5 .. 10: characters in repeated n-grams (datatrove's count; see below). */
  dupChars: [number, number, number, number, number, number];
}

/**
 * The n-gram values of the Gopher repetition rules, in characters, as datatrove's
 * GopherRepetitionFilter counts them:
 *
 * - top n-gram (n = 2, 3, 4): the n-gram that occurs most often (the first to reach that count on
 *   a tie), its length with the spaces between its words, times its count;
 * - duplicated n-grams (n = 5 .. 10): going left to right, an n-gram seen before adds its words'
 *   characters (without spaces) and the scan jumps past it, so overlapping repeats count once.
 */
export class NgramCounter {
  readonly #table = new PairCounts();
  #lo = new Int32Array(0);
  #hi = new Int32Array(0);
  /** Prefix sums of word lengths: characters of words [i, j) = #prefix[j] - #prefix[i]. */
  #prefix = new Float64Array(0);
  /**
   * Positions whose current n-gram occurs twice or more in the document. Only there can an
   * (n+1)-gram occur twice (its n-word start occurs wherever it does), so each longer n looks at
   * fewer positions: in prose most 3-grams, and nearly all 5-grams, occur once.
   */
  #repeated = new Uint8Array(0);
  /** The positions flagged in #repeated, in order. */
  #candidates = new Int32Array(0);

  measure(words: Words, out: RepetitionValues): RepetitionValues {
    const n = words.count;
    words.hash();
    if (this.#lo.length < n) {
      this.#lo = new Int32Array(n);
      this.#hi = new Int32Array(n);
      this.#prefix = new Float64Array(n + 1);
      this.#repeated = new Uint8Array(n);
      this.#candidates = new Int32Array(n);
    }
    const lo = this.#lo;
    const hi = this.#hi;
    const prefix = this.#prefix;
    const repeated = this.#repeated;
    const candidates = this.#candidates;
    const table = this.#table;
    prefix[0] = 0;
    for (let i = 0; i < n; i++) {
      lo[i] = words.hashLo[i];
      hi[i] = words.hashHi[i];
      prefix[i + 1] = prefix[i] + words.length(i);
      candidates[i] = i;
    }
    let count = n;
    out.topChars.fill(0);
    out.dupChars.fill(0);
    // lo/hi[i] hold the hash of the (size)-gram starting at word i, extended by one word per round,
    // at the candidate positions only (the others can no longer repeat).
    for (let size = 2; size <= 10; size++) {
      const grams = n - size + 1;
      if (grams <= 0) break;
      let kept = 0;
      for (let c = 0; c < count; c++) {
        const i = candidates[c];
        if (i >= grams) break;
        lo[i] = Math.imul(lo[i] ^ words.hashLo[i + size - 1], 0x01000193) + size;
        hi[i] = Math.imul(hi[i] + words.hashHi[i + size - 1], 0x9e3779b1) ^ (hi[i] >>> 15);
        candidates[kept++] = i;
      }
      count = kept;
      // Count the candidates' n-grams: exact for every n-gram that occurs twice or more.
      table.reset(count);
      let best = 0;
      let bestAt = 0;
      for (let c = 0; c < count; c++) {
        const i = candidates[c];
        const seen = table.add(lo[i], hi[i]);
        if (seen > best) {
          best = seen;
          bestAt = i;
        }
      }
      kept = 0;
      for (let c = 0; c < count; c++) {
        const i = candidates[c];
        const twice = table.count(lo[i], hi[i]) >= 2;
        repeated[i] = twice ? 1 : 0;
        if (twice) candidates[kept++] = i;
      }
      if (size <= 4) {
        // With no n-gram occurring twice, every count is 1 and the first n-gram is the top one.
        if (best < 2) {
          best = 1;
          bestAt = 0;
        }
        out.topChars[size - 2] = (prefix[bestAt + size] - prefix[bestAt] + size - 1) * best;
      } else {
        // datatrove's left-to-right scan; an n-gram that occurs once is never found again, so
        // only those that occur twice or more go into the set.
        table.reset(kept);
        let dup = 0;
        let i = 0;
        while (i < grams) {
          if (repeated[i] === 1) {
            if (table.has(lo[i], hi[i])) {
              dup += prefix[i + size] - prefix[i];
              i += size;
              continue;
            }
            table.add(lo[i], hi[i]);
          }
          i++;
        }
        out.dupChars[size - 5] = dup;
      }
      count = kept;
    }
    return out;
  }
}
