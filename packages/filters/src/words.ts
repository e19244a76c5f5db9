/**
 * Words of a document for the quality rules, in one pass over its text.
 *
 * A word is a run of characters between white space, as the Gopher and C4 rules count them,
 * with two exceptions for scripts that put no spaces between words:
 *
 * - every Han, hiragana and katakana character is a word of its own (as the evaluation's word
 *   scorer and @winnow/features count them: one character per token);
 * - a run of Thai, Lao, Khmer or Myanmar letters is cut into words by the ICU dictionary that
 *   Intl.Segmenter carries (those scripts have long words, so one word per character would make
 *   every such page fail the word-length rule).
 *
 * Each word gets flags (and on request two 32-bit hashes of its characters, for the n-gram rules): has a letter, has no letter, digit or mark (a symbol such as "|" or "-"),
 * is a single Han or kana character.
 */

/** Character classes, one load per UTF-16 code unit. */
const OTHER = 0,
  SPACE = 1,
  LETTER = 2,
  /** Digits and combining marks: a word with one is no symbol, but it has no letter. */
  ALNUM = 3,
  /** Han, hiragana, katakana: one word per character. */
  CJK = 4,
  /** Thai, Lao, Khmer, Myanmar: cut by Intl.Segmenter. */
  SEG = 5,
  SURROGATE = 6;

/**
 * The class of each BMP code unit, worked out the first time the unit is met (UNKNOWN until
 * then): a text uses a few hundred distinct units, and classing all 65,536 up front with regex
 * tests cost 60 ms in every thread that loads this module.
 */
const UNKNOWN = 255;
const CLASS = new Uint8Array(65536).fill(UNKNOWN);
const SPACE_RE = /^\s$/u;
const LETTER_RE = /^\p{L}$/u;
const ALNUM_RE = /^[\p{N}\p{M}]$/u;
const CJK_RE = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]$/u;
const SEG_RE = /^[\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]$/u;

function classify(c: number): number {
  let k = OTHER;
  if (c >= 0xd800 && c <= 0xdfff) k = SURROGATE;
  else {
    const s = String.fromCharCode(c);
    if (SPACE_RE.test(s)) k = SPACE;
    else if (SEG_RE.test(s) && (LETTER_RE.test(s) || ALNUM_RE.test(s))) k = SEG;
    else if (LETTER_RE.test(s)) k = CJK_RE.test(s) ? CJK : LETTER;
    else if (ALNUM_RE.test(s)) k = ALNUM;
  }
  CLASS[c] = k;
  return k;
}

/** The class of code unit `c`. */
function classOf(c: number): number {
  const k = CLASS[c];
  return k === UNKNOWN ? classify(c) : k;
}

const SUPPLEMENTARY_LETTER = /^\p{L}$/u;
const SUPPLEMENTARY_ALNUM = /^[\p{N}\p{M}]$/u;
const SUPPLEMENTARY_CJK = /^\p{scx=Han}$/u;

/** Flags of a word. */
export const HAS_LETTER = 1;
/** Has a letter, digit or mark: not a symbol-only word. */
export const HAS_ALNUM = 2;
/** A single Han or kana character. */
export const IS_CJK = 4;

/**
 * The words of one text. Arrays are reused from one document to the next (a worker filters
 * thousands), so only the first `count` entries are meaningful.
 */
export class Words {
  count = 0;
  /** Words that are single Han or kana characters. */
  cjk = 0;
  /** Offsets of each word in the text. */
  starts = new Int32Array(1024);
  ends = new Int32Array(1024);
  hashLo = new Int32Array(1024);
  hashHi = new Int32Array(1024);
  flags = new Uint8Array(1024);
  text = "";

  length(i: number): number {
    return this.ends[i] - this.starts[i];
  }

  word(i: number): string {
    return this.text.slice(this.starts[i], this.ends[i]);
  }

  #grow(): void {
    const size = this.starts.length * 2;
    const grow = <T extends Int32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.starts = grow(this.starts, (n) => new Int32Array(n));
    this.ends = grow(this.ends, (n) => new Int32Array(n));
    this.hashLo = grow(this.hashLo, (n) => new Int32Array(n));
    this.hashHi = grow(this.hashHi, (n) => new Int32Array(n));
    this.flags = grow(this.flags, (n) => new Uint8Array(n));
  }

  /** Appends the word text[start, end) with its flags. */
  push(start: number, end: number, flags: number): void {
    if (this.count === this.starts.length) this.#grow();
    const k = this.count++;
    this.starts[k] = start;
    this.ends[k] = end;
    this.flags[k] = flags;
    if (flags & IS_CJK) this.cjk++;
  }

  /**
   * Fills hashLo/hashHi: two 32-bit hashes of each word's characters, for the n-gram rules (which
   * compare words exactly). Only they need them, so splitting does not pay for it.
   */
  hash(): void {
    const text = this.text;
    for (let k = 0; k < this.count; k++) {
      let lo = 0x811c9dc5 | 0;
      let hi = 0x2545f491 | 0;
      for (let i = this.starts[k], end = this.ends[k]; i < end; i++) {
        const c = text.charCodeAt(i);
        lo = Math.imul(lo ^ c, 0x01000193);
        hi = Math.imul(hi + c, 0x9e3779b1) ^ (hi >>> 13);
      }
      this.hashLo[k] = lo;
      this.hashHi[k] = hi;
    }
  }
}

let segmenter: Intl.Segmenter | undefined;

/** The class of the character at `i` when it is a surrogate: a pair is classed by its code point. */
function pairClass(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c > 0xdbff || i + 1 >= text.length) return OTHER;
  const d = text.charCodeAt(i + 1);
  if (d < 0xdc00 || d > 0xdfff) return OTHER;
  const pair = text.slice(i, i + 2);
  // Han outside the BMP (extension B and later) is a word per character like the rest of Han.
  if (SUPPLEMENTARY_CJK.test(pair)) return CJK;
  if (SUPPLEMENTARY_LETTER.test(pair)) return LETTER;
  return SUPPLEMENTARY_ALNUM.test(pair) ? ALNUM : OTHER;
}

/**
 * Splits `text` into `into` (reset first) and returns it. These are the words of the rule sets
 * (space-separated, as Gopher and C4 count them, Han and kana one character each), of
 * `stats.words` and of `winnow stats`. Not the features' words (@winnow/features' countWords:
 * letter and digit runs), dedup's (normalised text) or the scorer's (@winnow/evaluation's wordTokens).
 */
export function splitWords(text: string, into: Words = new Words()): Words {
  into.count = 0;
  into.cjk = 0;
  into.text = text;
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    let k = classOf(c);
    if (k === SURROGATE) k = pairClass(text, i);
    if (k === SPACE) {
      i++;
      continue;
    }
    if (k === CJK) {
      const width = c >= 0xd800 ? 2 : 1;
      into.push(i, i + width, HAS_LETTER | HAS_ALNUM | IS_CJK);
      i += width;
      continue;
    }
    if (k === SEG) {
      const start = i;
      while (i < n && classOf(text.charCodeAt(i)) === SEG) i++;
      segment(text, start, i, into);
      continue;
    }
    const start = i;
    let flags = 0;
    while (i < n) {
      c = text.charCodeAt(i);
      k = classOf(c);
      let width = 1;
      if (k === SURROGATE) {
        k = pairClass(text, i);
        if (k !== OTHER) width = 2;
      }
      if (k === SPACE || k === CJK || k === SEG) break;
      if (k === LETTER) flags |= HAS_LETTER | HAS_ALNUM;
      else if (k === ALNUM) flags |= HAS_ALNUM;
      i += width;
    }
    into.push(start, i, flags);
  }
  return into;
}

/** Cuts a run of Thai, Lao, Khmer or Myanmar text into dictionary words. */
function segment(text: string, start: number, end: number, into: Words): void {
  segmenter ??= new Intl.Segmenter("th", { granularity: "word" });
  for (const s of segmenter.segment(text.slice(start, end))) {
    const from = start + s.index;
    into.push(from, from + s.segment.length, s.isWordLike === false ? HAS_ALNUM : HAS_LETTER | HAS_ALNUM);
  }
}

/** Whether code unit `c` is white space (the class table's view). */
export function isSpace(c: number): boolean {
  return classOf(c) === SPACE;
}

/** Whether code unit `c` is a letter of any script. */
export function isLetter(c: number): boolean {
  const k = classOf(c);
  return k === LETTER || k === CJK || k === SEG;
}
