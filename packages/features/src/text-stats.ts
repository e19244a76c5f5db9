/**
 * Character-level statistics of a block in one pass over its char codes (no regex per character).
 * Letter, digit and punctuation classes are exact for ASCII and Latin-1 and approximate beyond
 * (code points from U+00C0 up count as letters unless they lie in a punctuation block): enough
 * for proportions, and much cheaper than a Unicode property test per character.
 */
import { CJK_UNIT } from "./words.js";

export interface TextStats {
  chars: number;
  letters: number;
  uppercase: number;
  digits: number;
  punctuation: number;
  words: number;
  sentences: number;
  /** Commas: , ， 、 and ، (the densest-section score counts them). */
  commas: number;
  copyright: boolean;
  endsWithPunctuation: boolean;
  emails: number;
  urls: number;
  hashtags: number;
}

function isPunctuation(c: number): boolean {
  if (c < 128) return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
  return (
    c === 0xa1 ||
    c === 0xab ||
    c === 0xb7 ||
    c === 0xbb ||
    c === 0xbf ||
    (c >= 0x2010 && c <= 0x2027) ||
    (c >= 0x2030 && c <= 0x205e) ||
    (c >= 0x3001 && c <= 0x3003) ||
    (c >= 0x3008 && c <= 0x3011) ||
    (c >= 0xff01 && c <= 0xff0f) ||
    (c >= 0xff1a && c <= 0xff20)
  );
}

function isLetter(c: number): boolean {
  if (c < 128) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return c >= 0xc0 && c !== 0xd7 && c !== 0xf7 && !isPunctuation(c) && c !== 0x3000 && !(c >= 0x2000 && c <= 0x200b);
}

function isSentenceEnd(c: number): boolean {
  return c === 46 || c === 33 || c === 63 || c === 0x3002 || c === 0xff01 || c === 0xff1f || c === 0x2026;
}

// Every UTF-16 code unit's class, from the functions above, in one table: the per-character
// loop below then costs one load instead of a chain of range tests.
const LETTER = 1,
  UPPER = 2,
  DIGIT = 4,
  PUNCT = 8,
  SENTENCE_END = 16,
  /** A Han, hiragana or katakana letter: a word of its own when counting CJK-aware. */
  CJK = 32,
  /** 。！？: they end a sentence with no space after. */
  FULL_STOP = 64;
const CHAR_CLASS = new Uint8Array(65536);
for (let c = 0; c < 65536; c++) {
  if (c >= 48 && c <= 57) CHAR_CLASS[c] = DIGIT;
  else if (isLetter(c)) CHAR_CLASS[c] = LETTER | ((c >= 65 && c <= 90) || (c >= 0xc0 && c <= 0xde && c !== 0xd7) ? UPPER : 0);
  else if (isPunctuation(c))
    CHAR_CLASS[c] = PUNCT | (isSentenceEnd(c) ? SENTENCE_END : 0) | (c === 0x3002 || c === 0xff01 || c === 0xff1f ? FULL_STOP : 0);
}
for (let c = 0; c < 65536; c++) if (CJK_UNIT[c] === 1 && CHAR_CLASS[c] & LETTER) CHAR_CLASS[c] |= CJK;

const EMAIL = /[\w.+-]+@[\w-]+\.[\w.-]+/g;
const URL_LITERAL = /\b(?:https?:\/\/|www\.)\S+/gi;
const HASHTAG = /(?:^|\s)#[\p{L}\p{N}_]+/gu;

function countMatches(text: string, pattern: RegExp): number {
  pattern.lastIndex = 0;
  let n = 0;
  while (pattern.exec(text) !== null) n++;
  return n;
}

/**
 * One block's statistics. Its `words` are runs of the letters and digits of CHAR_CLASS (a code
 * unit table, not \p{L}\p{N}: every unit from U+00C0 outside the punctuation blocks is a letter,
 * an emoji's halves included), as the texrex features the
 * models were trained on count them: not countWords' words (words.ts, for the title and
 * stopword features) nor the filters' (@winnow/filters' splitWords). With `cjkWords`, every Han, hiragana and katakana character counts as a
 * word and 。！？ end sentences without a space after them, so that Chinese and Japanese blocks
 * get word and sentence counts on the scale of other languages' (a run of Han characters is a
 * clause, not a word).
 */
export function textStats(text: string, cjkWords = false): TextStats {
  let letters = 0,
    uppercase = 0,
    digits = 0,
    punctuation = 0,
    words = 0,
    sentences = 0,
    commas = 0;
  let copyright = false;
  let inWord = false;
  let hasAt = false,
    hasHash = false,
    hasUrlHint = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const k = CHAR_CLASS[c];
    let wordChar = false;
    if (k & DIGIT) {
      digits++;
      wordChar = true;
    } else if (k & LETTER) {
      letters++;
      wordChar = true;
      if (k & UPPER) uppercase++;
      // The Arabic comma lies among the letters of the table above (it counts as one, as it always has).
      else if (c === 0x060c) commas++;
    } else if (k & PUNCT) {
      punctuation++;
      if (c === 44 || c === 0xff0c || c === 0x3001) commas++;
      else if (c === 64) hasAt = true;
      else if (c === 35) hasHash = true;
      else if (c === 58 || c === 46) hasUrlHint = true;
      // A sentence ends at . ! ? followed by a space or the end of the block.
      if (k & SENTENCE_END && (i + 1 === n || text.charCodeAt(i + 1) === 32 || (cjkWords && k & FULL_STOP))) sentences++;
    } else if (c === 0xa9) {
      copyright = true;
    }
    if (wordChar && (!inWord || (cjkWords && k & CJK))) words++;
    // A CJK letter is a word of its own: what follows it starts the next.
    inWord = wordChar && !(cjkWords && k & CJK);
  }
  const last = n > 0 ? text.charCodeAt(n - 1) : 0;
  if (words > 0 && sentences === 0) sentences = 1;
  return {
    chars: n,
    letters,
    uppercase,
    digits,
    punctuation,
    words,
    sentences,
    commas,
    copyright,
    endsWithPunctuation: isPunctuation(last),
    emails: hasAt ? countMatches(text, EMAIL) : 0,
    urls: hasUrlHint ? countMatches(text, URL_LITERAL) : 0,
    hashtags: hasHash ? countMatches(text, HASHTAG) : 0,
  };
}
