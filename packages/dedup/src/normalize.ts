/**
 * Text normalisation before hashing, as the FineWeb pipeline (datatrove's simplify_text) does it:
 * two documents that differ only in case, accents, punctuation, digits or spacing hash the same.
 *
 *   "The 3 Cafés — open 24/7!"  ->  "the 0 cafes open 000"
 *
 * Steps, in order: lower case, Unicode compatibility decomposition (NFKD) with combining marks
 * dropped (accents folded; after lower-casing, so that "İ" loses the dot it gains), every decimal digit to "0", punctuation and symbols removed,
 * runs of whitespace to one space, trimmed.
 */

const MARKS = /\p{M}+/gu;
const DIGITS = /\p{Nd}/gu;
const PUNCTUATION = /[\p{P}\p{S}]+/gu;
const SPACES = /\s+/gu;

/** The normalised form of `text` that exact hashes and shingles are computed on. */
export function normalizeText(text: string): string {
  return text.toLowerCase().normalize("NFKD").replace(MARKS, "").replace(DIGITS, "0").replace(PUNCTUATION, "").replace(SPACES, " ").trim();
}

/** The words of a normalised text (split on its single spaces); none for an empty text. */
export function wordsOf(normalized: string): string[] {
  return normalized === "" ? [] : normalized.split(" ");
}
