/**
 * Words for the title-overlap and stopword features: maximal runs of Unicode letters and digits
 * in lowercased text, the same tokens /[\p{L}\p{N}]+/gu finds, found by one table load per code
 * unit and looked up by a hash computed on the way, so no word is ever cut out as a string. The
 * property regex, a substring and two Set lookups per word were a fifth of all feature time.
 */

const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/** 1 where a BMP code unit is \p{L} or \p{N}; surrogates are 0 and handled as pairs below. About 15 ms once. */
const WORD_UNIT = new Uint8Array(65536);
for (let c = 0; c < 65536; c++) if (c < 0xd800 || c > 0xdfff) WORD_UNIT[c] = WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 0;

/** Length of the letter-or-digit code point at `i` (1 or 2 code units), 0 when there is none. */
function wordCharAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (WORD_UNIT[c] === 1) return 1;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff && WORD_CHAR.test(text.slice(i, i + 2))) return 2;
  }
  return 0;
}

const FNV_BASIS = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** One FNV-1a step: the hash of a span is these steps over its code units, from FNV_BASIS. */
function mix(hash: number, unit: number): number {
  return Math.imul(hash ^ unit, FNV_PRIME);
}

/** Kinds of listed word: a word may be both. */
export const IN_TITLE = 1;
export const STOPWORD = 2;

/** A small set of words with kinds, looked up by (text, start, end, hash) instead of by string. */
export class WordList {
  /** Longer words are not listed: the scan never looks them up. */
  readonly longest: number;
  private readonly words: string[] = [];
  private readonly kinds: number[] = [];
  private readonly hashes: Int32Array;
  /** Open addressing: entry index + 1 per slot, 0 for empty. */
  private readonly slots: Int32Array;

  constructor(lists: ReadonlyArray<readonly [Iterable<string>, number]>) {
    const kindOf = new Map<string, number>();
    for (const [words, kind] of lists) for (const w of words) kindOf.set(w, (kindOf.get(w) ?? 0) | kind);
    let size = 16;
    while (size < kindOf.size * 4) size *= 2;
    this.slots = new Int32Array(size);
    this.hashes = new Int32Array(kindOf.size);
    let longest = 0;
    for (const [word, kind] of kindOf) {
      const entry = this.words.length;
      this.words.push(word);
      this.kinds.push(kind);
      const h = hashOf(word, 0, word.length);
      this.hashes[entry] = h;
      let slot = h & (size - 1);
      while (this.slots[slot] !== 0) slot = (slot + 1) & (size - 1);
      this.slots[slot] = entry + 1;
      if (word.length > longest) longest = word.length;
    }
    this.longest = longest;
  }

  /** The kinds of text[start, end) (0 when it is not listed); `hash` is hashOf that span. */
  kindOf(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; this.slots[slot] !== 0; slot = (slot + 1) & mask) {
      const entry = this.slots[slot] - 1;
      if (this.hashes[entry] !== hash) continue;
      const word = this.words[entry];
      if (word.length !== end - start) continue;
      let same = true;
      for (let k = 0; k < word.length && same; k++) same = word.charCodeAt(k) === text.charCodeAt(start + k);
      if (same) return this.kinds[entry];
    }
    return 0;
  }
}

/** FNV-1a over the code units of text[start, end). */
function hashOf(text: string, start: number, end: number): number {
  let h = FNV_BASIS;
  for (let i = start; i < end; i++) h = mix(h, text.charCodeAt(i));
  return h;
}

/** What countWords found: words, those in the title, those that are stopwords. */
export interface WordCounts {
  words: number;
  inTitle: number;
  stopwords: number;
}

/** Counts the words of `lower` (already lowercased), and how many `listed` marks as each kind. */
export function countWords(lower: string, listed: WordList, out: WordCounts): void {
  let words = 0, inTitle = 0, stop = 0;
  const n = lower.length;
  let i = 0;
  while (i < n) {
    let step = wordCharAt(lower, i);
    if (step === 0) {
      i++;
      continue;
    }
    const start = i;
    let h = FNV_BASIS;
    do {
      h = mix(h, lower.charCodeAt(i));
      if (step === 2) h = mix(h, lower.charCodeAt(i + 1));
      i += step;
    } while (i < n && (step = wordCharAt(lower, i)) !== 0);
    words++;
    if (i - start <= listed.longest) {
      const kind = listed.kindOf(lower, start, i, h);
      if (kind & IN_TITLE) inTitle++;
      if (kind & STOPWORD) stop++;
    }
  }
  out.words = words;
  out.inTitle = inTitle;
  out.stopwords = stop;
}
