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

  /** Empties the table, sized for `n` keys at a load of at most one half. */
  reset(n: number): void {
    let size = 16;
    while (size < 2 * n) size *= 2;
    if (size !== this.#counts.length) {
      this.#lo = new Int32Array(size);
      this.#hi = new Int32Array(size);
      this.#counts = new Int32Array(size);
    } else {
      this.#counts.fill(0);
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

  measure(words: Words, out: RepetitionValues): RepetitionValues {
    const n = words.count;
    words.hash();
    if (this.#lo.length < n) {
      this.#lo = new Int32Array(n);
      this.#hi = new Int32Array(n);
      this.#prefix = new Float64Array(n + 1);
    }
    const lo = this.#lo;
    const hi = this.#hi;
    const prefix = this.#prefix;
    prefix[0] = 0;
    for (let i = 0; i < n; i++) {
      lo[i] = words.hashLo[i];
      hi[i] = words.hashHi[i];
      prefix[i + 1] = prefix[i] + words.length(i);
    }
    out.topChars.fill(0);
    out.dupChars.fill(0);
    // lo/hi[i] hold the hash of the (size)-gram starting at word i, extended by one word per round.
    for (let size = 2; size <= 10; size++) {
      const grams = n - size + 1;
      if (grams <= 0) break;
      for (let i = 0; i < grams; i++) {
        lo[i] = Math.imul(lo[i] ^ words.hashLo[i + size - 1], 0x01000193) + size;
        hi[i] = Math.imul(hi[i] + words.hashHi[i + size - 1], 0x9e3779b1) ^ (hi[i] >>> 15);
      }
      const table = this.#table;
      table.reset(grams);
      if (size <= 4) {
        let best = 0;
        let bestAt = 0;
        for (let i = 0; i < grams; i++) {
          const count = table.add(lo[i], hi[i]);
          if (count > best) {
            best = count;
            bestAt = i;
          }
        }
        out.topChars[size - 2] = (prefix[bestAt + size] - prefix[bestAt] + size - 1) * best;
      } else {
        let repeated = 0;
        let i = 0;
        while (i < grams) {
          if (table.has(lo[i], hi[i])) {
            repeated += prefix[i + size] - prefix[i];
            i += size;
          } else {
            table.add(lo[i], hi[i]);
            i++;
          }
        }
        out.dupChars[size - 5] = repeated;
      }
    }
    return out;
  }
}
