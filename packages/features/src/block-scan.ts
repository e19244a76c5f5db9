/**
 * One pass over each block's text that yields what every feature set reads from it, where there
 * were three (texrex's character statistics, the title and stopword word counts over a
 * lower-cased copy, the function-word tokens) and a lower-cased copy per block. Results go into
 * typed arrays, one entry per block, that a scanner reuses from page to page: no object, string
 * or array is made per block.
 *
 * Three words are counted, each as the models were trained on it:
 * - texrex words (`words`): runs of texrex's letters and digits (char-classes.ts, T_*);
 * - Unicode words (`unicodeWords`): runs of \p{L}\p{N} in the lower-cased text, the words
 *   whose share is in the title or the English stopwords (`inTitle`, `stopwords`);
 * - tokens (`tokens`): runs of BMP \p{L}\p{N}, each Han or kana character one of its own, looked
 *   up as function words with A–Z folded and nothing else (function-words.ts).
 * With CJK-aware counting, Unicode words and tokens are the same runs unless a block holds a
 * letter outside the BMP or a unit whose lower case is special (İ, Σ): then, and only then, the
 * Unicode words are counted over the block's lower-cased copy as before (countWords).
 */
import {
  ASCII_FOLD,
  CJK,
  CLASS,
  FOLD_DIFFERS,
  HIGH_SURROGATE,
  LOWER,
  LOWER_SPECIAL,
  RARE,
  T_CJK,
  T_FULL_STOP,
  T_LETTER,
  T_PUNCT,
  T_SENTENCE_END,
  WORD,
} from "./char-classes.js";
import { FUNCTION_WORDS } from "./function-words.js";
import { countWords, FNV_BASIS, fnvStep, IN_TITLE, STOPWORD, type WordCounts, type WordList } from "./words.js";

/** What a scan counts, chosen per feature set. */
export interface ScanOptions {
  /** Each Han, hiragana and katakana character a word of its own, and 。！？ end sentences unspaced. */
  cjkWords: boolean;
  /** The page's title words and stopwords: count Unicode words and those listed (inTitle, stopwords). */
  listed?: WordList;
  /** Collect function-word tokens (tokens, cjk, entries); needs cjkWords. */
  functionWords?: boolean;
}

/** Bits of BlockScans.flags. */
export const COPYRIGHT = 1;
export const ENDS_WITH_PUNCTUATION = 2;

const EMAIL = /[\w.+-]+@[\w-]+\.[\w.-]+/g;
const URL_LITERAL = /\b(?:https?:\/\/|www\.)\S+/gi;
const HASHTAG = /(?:^|\s)#[\p{L}\p{N}_]+/gu;

function countMatches(text: string, pattern: RegExp): number {
  pattern.lastIndex = 0;
  let n = 0;
  while (pattern.exec(text) !== null) n++;
  return n;
}

/** Surrogate pairs (by code point) that make a block's Unicode words take the lower-cased copy. */
const specialPairs = new Map<number, boolean>();
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
function isSpecialPair(high: number, low: number): boolean {
  const point = ((high - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
  let special = specialPairs.get(point);
  if (special === undefined) {
    const s = String.fromCharCode(high, low);
    special = LETTER_OR_DIGIT.test(s) || s.toLowerCase() !== s;
    specialPairs.set(point, special);
  }
  return special;
}

/** Per-block results of one document's scan, in arrays reused while they are big enough. */
export class BlockScans {
  /** Blocks scanned. */
  count = 0;
  letters = new Int32Array(0);
  uppercase = new Int32Array(0);
  digits = new Int32Array(0);
  punctuation = new Int32Array(0);
  /** texrex words. */
  words = new Int32Array(0);
  /** At least 1 when there are words. */
  sentences = new Int32Array(0);
  /** , ， 、 and ، */
  commas = new Int32Array(0);
  emails = new Int32Array(0);
  urls = new Int32Array(0);
  hashtags = new Int32Array(0);
  /** COPYRIGHT, ENDS_WITH_PUNCTUATION. */
  flags = new Uint8Array(0);
  /** With `listed`: Unicode words, and how many of them are title words and stopwords. */
  unicodeWords = new Int32Array(0);
  inTitle = new Int32Array(0);
  stopwords = new Int32Array(0);
  /** With `functionWords`: tokens, those that are single Han or kana characters. */
  tokens = new Int32Array(0);
  cjk = new Int32Array(0);
  /** Function-word entries (function-words.ts) of block i: entries[firstEntry[i] .. firstEntry[i + 1]). */
  firstEntry = new Int32Array(1);
  entries = new Int32Array(1024);

  /** Makes room for `n` blocks. */
  reset(n: number): void {
    this.count = n;
    if (this.letters.length >= n) return;
    const size = Math.max(64, n * 2);
    this.letters = new Int32Array(size);
    this.uppercase = new Int32Array(size);
    this.digits = new Int32Array(size);
    this.punctuation = new Int32Array(size);
    this.words = new Int32Array(size);
    this.sentences = new Int32Array(size);
    this.commas = new Int32Array(size);
    this.emails = new Int32Array(size);
    this.urls = new Int32Array(size);
    this.hashtags = new Int32Array(size);
    this.flags = new Uint8Array(size);
    this.unicodeWords = new Int32Array(size);
    this.inTitle = new Int32Array(size);
    this.stopwords = new Int32Array(size);
    this.tokens = new Int32Array(size);
    this.cjk = new Int32Array(size);
    this.firstEntry = new Int32Array(size + 1);
  }

  /** Appends a function-word entry, growing the list. */
  private push(used: number, entry: number): number {
    if (used === this.entries.length) {
      const grown = new Int32Array(this.entries.length * 2);
      grown.set(this.entries);
      this.entries = grown;
    }
    this.entries[used] = entry;
    return used + 1;
  }

  /** Scans every text, block i into entry i (after reset(texts.length) by the caller or scanAll). */
  scanAll(texts: ReadonlyArray<{ readonly text: string }>, options: ScanOptions): void {
    this.reset(texts.length);
    this.firstEntry[0] = 0;
    for (let i = 0; i < texts.length; i++) this.scan(texts[i].text, i, options);
  }

  /** Scans `text` into entry `i`; its function-word entries follow those of block i-1. */
  scan(text: string, i: number, options: ScanOptions): void {
    const cjkWords = options.cjkWords;
    const listed = options.listed;
    const functionWords = options.functionWords === true;
    if (functionWords && !cjkWords) throw new Error("block-scan: function words are counted CJK-aware only");
    // CJK letters take the rare path only when they are words of their own.
    const rare = cjkWords ? RARE | CJK | T_CJK : RARE;
    let letters = 0,
      uppercase = 0,
      digits = 0,
      punctuation = 0,
      words = 0,
      sentences = 0,
      commas = 0;
    // texrex's word: 1 while inside one (0/1 numbers, so the counts need no branch).
    let inWord = 0;
    let copyright = false,
      hasAt = false,
      hasHash = false,
      hasUrl = false;
    // Unicode words: the run being read (start, or -1), its hash lower-cased, and whether it
    // holds a unit that A–Z folding leaves otherwise (then it is hashed folded when looked up).
    let runStart = -1,
      hLower = 0,
      foldDiffers = false;
    let cjk = 0,
      lowerSpecial = false;
    this.unicodeWords[i] = 0;
    this.inTitle[i] = 0;
    this.stopwords[i] = 0;
    let used = this.firstEntry[i];
    const n = text.length;
    for (let at = 0; at < n; at++) {
      const c = text.charCodeAt(at);
      const k = CLASS[c];
      letters += k & T_LETTER;
      uppercase += (k >> 1) & 1;
      digits += (k >> 2) & 1;
      punctuation += (k >> 3) & 1;
      const wordChar = (k | (k >> 2)) & 1;
      words += wordChar & (inWord ^ 1);
      const wasInWord = inWord;
      inWord = wordChar;

      if (k & rare) {
        if (k & T_PUNCT) {
          if (c === 44 || c === 0xff0c || c === 0x3001) commas++;
          else if (c === 64) hasAt = true;
          else if (c === 35) hasHash = true;
          // A URL literal holds "://" or "www." (any case): without either the regex finds none.
          // (Bounded: a read past the text's end gives NaN, but deoptimises the scan's optimised code.)
          else if (c === 58) hasUrl ||= at + 2 < n && text.charCodeAt(at + 1) === 47 && text.charCodeAt(at + 2) === 47;
          else if (c === 46) hasUrl ||= at >= 3 && isWww(text, at - 3);
          // A sentence ends at . ! ? followed by a space or the end of the block.
          if (k & T_SENTENCE_END && (at + 1 === n || text.charCodeAt(at + 1) === 32 || (cjkWords && k & T_FULL_STOP))) sentences++;
        } else if (c === 0xa9) copyright = true;
        // The Arabic comma lies among texrex's letters (it counts as one, as it always has).
        else if (c === 0x060c) commas++;
        if (k & LOWER_SPECIAL) lowerSpecial = true;
        if (k & FOLD_DIFFERS) foldDiffers = true;
        if (k & HIGH_SURROGATE && at + 1 < n) {
          const d = text.charCodeAt(at + 1);
          if (d >= 0xdc00 && d <= 0xdfff && isSpecialPair(c, d)) lowerSpecial = true;
        }
        if (cjkWords && k & T_CJK) {
          // A CJK letter is a texrex word of its own: what follows it starts the next.
          words += wasInWord;
          inWord = 0;
        }
        if (cjkWords && k & CJK) {
          // A Unicode word of its own, after the run before it (Han and kana have no case).
          if (runStart >= 0) {
            used = this.tally(i, lookUp(text, runStart, at, hLower, foldDiffers, listed, functionWords), used);
            runStart = -1;
            foldDiffers = false;
          }
          used = this.tally(i, lookUp(text, at, at + 1, fnvStep(FNV_BASIS, LOWER[c]), true, listed, functionWords), used);
          cjk++;
          continue;
        }
      }

      if (k & WORD) {
        if (runStart < 0) {
          runStart = at;
          hLower = FNV_BASIS;
        }
        hLower = fnvStep(hLower, LOWER[c]);
      } else if (runStart >= 0) {
        used = this.tally(i, lookUp(text, runStart, at, hLower, foldDiffers, listed, functionWords), used);
        runStart = -1;
        foldDiffers = false;
      }
    }
    if (runStart >= 0) used = this.tally(i, lookUp(text, runStart, n, hLower, foldDiffers, listed, functionWords), used);

    if (words > 0 && sentences === 0) sentences = 1;
    this.letters[i] = letters;
    this.uppercase[i] = uppercase;
    this.digits[i] = digits;
    this.punctuation[i] = punctuation;
    this.words[i] = words;
    this.sentences[i] = sentences;
    this.commas[i] = commas;
    this.emails[i] = hasAt ? countMatches(text, EMAIL) : 0;
    this.urls[i] = hasUrl ? countMatches(text, URL_LITERAL) : 0;
    this.hashtags[i] = hasHash ? countMatches(text, HASHTAG) : 0;
    this.flags[i] = (copyright ? COPYRIGHT : 0) | (n > 0 && CLASS[text.charCodeAt(n - 1)] & T_PUNCT ? ENDS_WITH_PUNCTUATION : 0);
    // Tokens are the Unicode words as counted above (tally), which are the lower-cased copy's
    // unless it is special.
    this.tokens[i] = this.unicodeWords[i];
    this.cjk[i] = cjk;
    this.firstEntry[i + 1] = used;
    if (listed !== undefined && lowerSpecial) {
      countWords(text.toLowerCase(), listed, slowCounts, cjkWords);
      this.unicodeWords[i] = slowCounts.words;
      this.inTitle[i] = slowCounts.inTitle;
      this.stopwords[i] = slowCounts.stopwords;
    }
  }

  /**
   * One Unicode word of block i, as lookUp found it (`r`): counted, in the title or a stopword
   * as it says, and its function-word entry appended after `used`; returns the entries used.
   */
  private tally(i: number, r: number, used: number): number {
    this.unicodeWords[i]++;
    this.inTitle[i] += r & IN_TITLE;
    this.stopwords[i] += (r & STOPWORD) >> 1;
    return r >= 4 ? this.push(used, (r >> 2) - 1) : used;
  }
}

/**
 * Looks up the Unicode word text[start, end), `hLower` its hash lower-cased (`foldDiffers`: and
 * its hash A–Z folded differs, so is taken here): its kinds in `listed` (IN_TITLE, STOPWORD) in
 * the low two bits, and its function-word entry + 1 above them (0 when it is none or
 * `functionWords` is off).
 */
function lookUp(
  text: string,
  start: number,
  end: number,
  hLower: number,
  foldDiffers: boolean,
  listed: WordList | undefined,
  functionWords: boolean,
): number {
  const length = end - start;
  let r = listed !== undefined && length <= listed.longest ? listed.kindOfLower(text, start, end, hLower) : 0;
  if (functionWords && length <= FUNCTION_WORDS.longest) {
    let hFold = hLower;
    if (foldDiffers) {
      hFold = FNV_BASIS;
      for (let k = start; k < end; k++) hFold = fnvStep(hFold, ASCII_FOLD[text.charCodeAt(k)]);
    }
    r |= (FUNCTION_WORDS.indexOf(text, start, end, hFold) + 1) << 2;
  }
  return r;
}

const slowCounts: WordCounts = { words: 0, inTitle: 0, stopwords: 0 };

/** Whether text[at, at+3) is "www" in any case. */
function isWww(text: string, at: number): boolean {
  for (let k = at; k < at + 3; k++) if ((text.charCodeAt(k) | 32) !== 119) return false;
  return true;
}

/** One text scanned alone, into a fresh BlockScans (entry 0): for tests and one-off callers. */
export function scanText(text: string, options: ScanOptions): BlockScans {
  const scans = new BlockScans();
  scans.scanAll([{ text }], options);
  return scans;
}
