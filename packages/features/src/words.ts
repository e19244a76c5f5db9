/**
 * Words for the title-overlap and stopword features: maximal runs of Unicode letters and digits
 * in lowercased text, the same tokens /[\p{L}\p{N}]+/gu finds, found by one table load per code
 * unit. The property regex costs a Unicode lookup per character and an object per match; this
 * was a fifth of all feature time.
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

/** What countWords found: words, those in the title set, those in the stopword set. */
export interface WordCounts {
  words: number;
  inTitle: number;
  stopwords: number;
}

/**
 * Counts the words of `lower` (already lowercased) and how many are in each set. Words longer
 * than `longestListed` are in neither set and are never cut out as strings.
 */
export function countWords(
  lower: string, titleWords: ReadonlySet<string>, stopwords: ReadonlySet<string>, longestListed: number, out: WordCounts,
): void {
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
    do i += step;
    while (i < n && (step = wordCharAt(lower, i)) !== 0);
    words++;
    if (i - start <= longestListed) {
      const word = lower.slice(start, i);
      if (titleWords.has(word)) inTitle++;
      if (stopwords.has(word)) stop++;
    }
  }
  out.words = words;
  out.inTitle = inTitle;
  out.stopwords = stop;
}
