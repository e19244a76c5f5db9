/**
 * Words for the title-overlap and stopword features: maximal runs of Unicode letters and digits
 * in lowercased text, the same tokens /[\p{L}\p{N}]+/gu finds, found by one table load per code
 * unit and looked up by a hash computed on the way, so no word is ever cut out as a string. The
 * property regex, a substring and two Set lookups per word were a fifth of all feature time.
 */

import { ASCII_FOLD, CJK, CLASS, LOWER, WORD as WORD_UNIT } from "./char-classes.js";

const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/** Length of the letter-or-digit code point at `i` (1 or 2 code units), 0 when there is none. */
function wordCharAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (CLASS[c] & WORD_UNIT) return 1;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff && WORD_CHAR.test(text.slice(i, i + 2))) return 2;
  }
  return 0;
}

/** FNV-1a start value: the hash of a span is fnvStep over its code units, from FNV_BASIS. */
export const FNV_BASIS = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** One FNV-1a step. */
export function fnvStep(hash: number, unit: number): number {
  return Math.imul(hash ^ unit, FNV_PRIME);
}

/**
 * What a WordIndex computes from its words: each word's hash, the open-addressed slots and the
 * longest word's length. The function-word table (function-word-table.ts) is built into a file
 * at build time with these, so a thread that loads it hashes and places no word.
 */
export interface WordIndexTable {
  readonly hashes: Int32Array;
  readonly slots: Int32Array;
  readonly longest: number;
}

/**
 * A fixed set of distinct words, looked up by (text, start, end, hash) instead of by string, so a
 * scan that hashes as it goes never cuts a word out. Open addressing over an Int32Array.
 */
export class WordIndex {
  /** Longer spans are never in it: callers can skip the lookup. */
  readonly longest: number;
  private readonly words: readonly string[];
  private readonly hashes: Int32Array;
  /** Entry index + 1 per slot, 0 for empty. */
  private readonly slots: Int32Array;
  /**
   * A large index only (FILTER_FROM words): one bit per value of a hash's top 16 bits, set where
   * a word's hash has them. A span whose bit is clear is not listed, found in this 8 KB, where
   * the slots (512 KB for the 18,556 function words) would cost a cache miss; a quarter of the
   * bits are set for the function words. Null for a small index, whose slots are as near.
   */
  private readonly present: Int32Array | null;

  /**
   * `base`: an index whose words are the first of `words`, in the same order: its table is
   * copied and only the words after them are hashed and placed (WordList.plus), where it is
   * large enough for all of them; the slots are then those a fresh build would fill.
   * `built`: the table a WordIndex of exactly these words gave (`table`), taken as it is.
   */
  constructor(words: readonly string[], base?: WordIndex, built?: WordIndexTable) {
    this.words = words;
    let size = 16;
    while (size < words.length * 4) size *= 2;
    if (built !== undefined) {
      if (built.hashes.length !== words.length || built.slots.length !== size) {
        throw new RangeError(
          `WordIndex: a table of ${built.hashes.length} words in ${built.slots.length} slots given for ${words.length} words`,
        );
      }
      this.hashes = built.hashes;
      this.slots = built.slots;
      this.longest = built.longest;
    } else {
      const copied = base !== undefined && base.slots.length === size ? base.words.length : 0;
      this.slots = copied > 0 ? (base as WordIndex).slots.slice() : new Int32Array(size);
      this.hashes = new Int32Array(words.length);
      let longest = copied > 0 ? (base as WordIndex).longest : 0;
      if (copied > 0) this.hashes.set((base as WordIndex).hashes);
      for (let entry = copied; entry < words.length; entry++) {
        const word = words[entry];
        const h = hashOf(word, 0, word.length);
        this.hashes[entry] = h;
        let slot = h & (size - 1);
        while (this.slots[slot] !== 0) slot = (slot + 1) & (size - 1);
        this.slots[slot] = entry + 1;
        if (word.length > longest) longest = word.length;
      }
      this.longest = longest;
    }
    this.present = words.length < FILTER_FROM ? null : new Int32Array(1 << 11);
    if (this.present !== null) for (let entry = 0; entry < words.length; entry++) markPresent(this.present, this.hashes[entry]);
  }

  /** The hashes, slots and longest length, for a `built` argument of a later WordIndex of the same words. */
  get table(): WordIndexTable {
    return { hashes: this.hashes, slots: this.slots, longest: this.longest };
  }

  /**
   * Position of text[start, end) in the word list, or -1. Units of `text` compare as `fold` maps
   * them: by default ASCII capitals as lower case (so a caller need not lower-case the text
   * first), with LOWER (char-classes.ts) every unit as its lower case; `hash` is hashOf the span
   * so mapped.
   */
  indexOf(text: string, start: number, end: number, hash: number, fold: Uint16Array = ASCII_FOLD): number {
    const present = this.present;
    if (present !== null && ((present[hash >>> 21] >>> ((hash >>> 16) & 31)) & 1) === 0) return -1;
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; this.slots[slot] !== 0; slot = (slot + 1) & mask) {
      const entry = this.slots[slot] - 1;
      if (this.hashes[entry] !== hash) continue;
      const word = this.words[entry];
      if (word.length !== end - start) continue;
      let same = true;
      for (let k = 0; k < word.length && same; k++) same = word.charCodeAt(k) === fold[text.charCodeAt(start + k)];
      if (same) return entry;
    }
    return -1;
  }
}

/** Words from which a WordIndex keeps a filter of its hashes (the function words; not a page's list). */
const FILTER_FROM = 4096;

/** Sets the filter bit of `hash` (its top 16 bits: 11 pick the word, 5 the bit). */
function markPresent(present: Int32Array, hash: number): void {
  present[hash >>> 21] |= 1 << ((hash >>> 16) & 31);
}

/** Kinds of listed word: a word may be both. */
export const IN_TITLE = 1;
export const STOPWORD = 2;

/** A small set of words with kinds (IN_TITLE, STOPWORD), looked up as WordIndex does. */
export class WordList {
  readonly longest: number;
  private readonly index: WordIndex;
  private readonly words: string[];
  private readonly kinds: number[];

  /**
   * `base`: a list these lists add to, with the kinds `new WordList` over its lists and these
   * would give. The feature sets join the title's words and the stopwords into one list for
   * every page: with the stopwords as a base built once, a page hashes and places only its
   * title's few words (WordIndex copies the base's table), where a Map, two copies of the list
   * and a hash of every stopword were made per page.
   */
  constructor(lists: ReadonlyArray<readonly [Iterable<string>, number]>, base?: WordList) {
    const words = base === undefined ? [] : base.words.slice();
    const kinds = base === undefined ? [] : base.kinds.slice();
    const added = new Map<string, number>();
    for (const [list, kind] of lists) {
      for (const word of list) {
        let entry = added.get(word) ?? base?.entryOf(word) ?? -1;
        if (entry < 0) {
          entry = words.length;
          words.push(word);
          kinds.push(0);
          added.set(word, entry);
        }
        kinds[entry] |= kind;
      }
    }
    this.words = words;
    this.kinds = kinds;
    this.index = new WordIndex(words, base?.index);
    this.longest = this.index.longest;
  }

  /** Entry per word, made when the list first serves as a base (never for a page's own list). */
  private entries: Map<string, number> | undefined;

  /** The entry of exactly `word`, or undefined (the same keys as the Map of the lists). */
  private entryOf(word: string): number | undefined {
    if (this.entries === undefined) this.entries = new Map(this.words.map((w, entry) => [w, entry]));
    return this.entries.get(word);
  }

  /** The kinds of text[start, end) (0 when it is not listed); `hash` is hashOf that span. */
  kindOf(text: string, start: number, end: number, hash: number): number {
    const entry = this.index.indexOf(text, start, end, hash);
    return entry < 0 ? 0 : this.kinds[entry];
  }

  /** As kindOf, for a span not lower-cased: every unit compares as its lower case (LOWER). */
  kindOfLower(text: string, start: number, end: number, hash: number): number {
    const entry = this.index.indexOf(text, start, end, hash, LOWER);
    return entry < 0 ? 0 : this.kinds[entry];
  }
}

/** FNV-1a over the code units of text[start, end). */
export function hashOf(text: string, start: number, end: number): number {
  let h = FNV_BASIS;
  for (let i = start; i < end; i++) h = fnvStep(h, text.charCodeAt(i));
  return h;
}

const WORD = /[\p{L}\p{N}]+/gu;
/** As WORD, but each Han or kana character a word of its own. */
const CJK_WORD = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]|(?:(?![\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}])[\p{L}\p{N}])+/gu;

/**
 * The words of `text`, lowercased, as strings: the words countWords counts (words.test.ts holds
 * them equal), for the few places that need the words themselves (the title's words), but for
 * one difference kept because the shipped model's features were computed with it: with
 * `cjkWords`, CJK punctuation such as "。" (whose scripts include Han) is a word here. Not
 * the words of the filters' rules (@winnow/filters' splitWords: space-separated, as Gopher and C4
 * count), nor texrex's word count (block-scan.ts), nor the scorer's tokens (@winnow/evaluation's
 * wordTokens: Python's \w, underscore included).
 */
export function wordsOf(text: string, cjkWords: boolean): string[] {
  return text.toLowerCase().match(cjkWords ? CJK_WORD : WORD) ?? [];
}

/** What countWords found: words, those in the title, those that are stopwords. */
export interface WordCounts {
  words: number;
  inTitle: number;
  stopwords: number;
}

/**
 * Counts the words of `lower` (already lowercased), and how many `listed` marks as each kind.
 * With `cjkWords`, each Han or kana character is a word of its own (CJK, char-classes.ts). The
 * block scan (block-scan.ts) counts the same words without a lower-cased copy, and falls back on
 * this for the few blocks whose lower case it cannot map unit by unit.
 */
export function countWords(lower: string, listed: WordList, out: WordCounts, cjkWords = false): void {
  let words = 0,
    inTitle = 0,
    stop = 0;
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
    if (cjkWords && CLASS[lower.charCodeAt(i)] & CJK) {
      h = fnvStep(h, lower.charCodeAt(i));
      i++;
    } else {
      do {
        h = fnvStep(h, lower.charCodeAt(i));
        if (step === 2) h = fnvStep(h, lower.charCodeAt(i + 1));
        i += step;
      } while (i < n && (step = wordCharAt(lower, i)) !== 0 && !(cjkWords && CLASS[lower.charCodeAt(i)] & CJK));
    }
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
