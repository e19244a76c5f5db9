/**
 * Text normalisation before hashing, as the FineWeb pipeline (datatrove's simplify_text) does it:
 * two documents that differ only in case, accents, punctuation, digits or spacing hash the same.
 *
 *   "The 3 Cafés — open 24/7!"  ->  "the 0 cafes open 000"
 *
 * Steps: lower case; Unicode compatibility decomposition (NFKD) with combining marks dropped
 * (accents folded; after lower-casing, so that "İ" loses the dot it gains); every decimal digit
 * to "0"; punctuation and symbols removed; runs of whitespace to one space, trimmed.
 *
 * Done in one scan over the decomposed text with each character's class looked up (learnt from
 * the Unicode property expressions the first time a character is met): the five replace() calls
 * this replaces made a string each and cost four times as much on real pages.
 */

const KEEP = 1;
const MARK = 2;
const DIGIT = 3;
const DROP = 4;
const SPACE = 5;

const IS_MARK = /^\p{M}$/u;
const IS_DIGIT = /^\p{Nd}$/u;
const IS_DROPPED = /^[\p{P}\p{S}]$/u;
const IS_SPACE = /^\s$/u;
const NOT_ASCII = /[^\x00-\x7f]/;

/** Classes of the Basic Multilingual Plane's characters, 0 until first met. */
const CLASSES = new Uint8Array(0x10000);

function classOf(char: string): number {
  if (IS_MARK.test(char)) return MARK;
  if (IS_DIGIT.test(char)) return DIGIT;
  if (IS_DROPPED.test(char)) return DROP;
  if (IS_SPACE.test(char)) return SPACE;
  return KEEP;
}

let scratch = new Uint16Array(4096);
const utf16 = new TextDecoder("utf-16le");

/** The normalised form of `text` that exact hashes and shingles are computed on. */
export function normalizeText(text: string): string {
  const lower = text.toLowerCase();
  // ASCII has nothing to decompose.
  const src = NOT_ASCII.test(lower) ? lower.normalize("NFKD") : lower;
  const n = src.length;
  if (scratch.length < n) scratch = new Uint16Array(Math.max(n, 2 * scratch.length));
  const out = scratch;
  let o = 0;
  let space = false;
  for (let i = 0; i < n; i++) {
    const c = src.charCodeAt(i);
    let cls: number;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = src.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        width = 2;
        cls = classOf(src.slice(i, i + 2));
      } else cls = KEEP;
    } else {
      cls = CLASSES[c];
      if (cls === 0) cls = CLASSES[c] = classOf(String.fromCharCode(c));
    }
    if (cls === KEEP || cls === DIGIT) {
      if (space && o > 0) out[o++] = 32;
      space = false;
      if (cls === DIGIT) out[o++] = 48;
      else {
        out[o++] = c;
        if (width === 2) out[o++] = src.charCodeAt(i + 1);
      }
    } else if (cls === SPACE) {
      space = true;
    }
    // Marks, punctuation and symbols are dropped.
    i += width - 1;
  }
  return utf16.decode(out.subarray(0, o));
}

/** The words of a normalised text (split on its single spaces); none for an empty text. */
export function wordsOf(normalized: string): string[] {
  return normalized === "" ? [] : normalized.split(" ");
}
