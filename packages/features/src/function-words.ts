/**
 * Language-independent word cues: tokens that work for scripts without spaces, and the share of
 * a block's tokens that are function words of the page's language, for 58 languages.
 *
 * Tokens: a run of letters and digits is one token, except that every Han, hiragana and katakana
 * character is a token of its own (Chinese and Japanese put no spaces between words; one
 * character per token is how the held-out sets' scorer counts them too).
 *
 * Function words: the stopword lists of stopwords-iso (MIT), one per language. A page's language
 * is the list that most of its tokens belong to; a block's cue is the share of its tokens in that
 * list. Running prose is full of function words in every language, link lists and menus are not,
 * which is what the English-only cue of the extended set measured for English pages only.
 * Every list is in one open-addressed table (WordIndex) with a bit mask of the languages listing
 * each word, so a token costs one hash probe however many languages there are. The tokens are
 * found by the block scan (block-scan.ts), in the same pass as every other count of a block.
 */
import { readFileSync } from "node:fs";
import { decodeFunctionWordTable, TABLE_FILE } from "./function-word-table.js";
import type { WordIndex } from "./words.js";

// Built at build time (function-word-table.ts): reading it is a few milliseconds a thread, where
// building it from the lists at import cost about 40.
const TABLE = (() => {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(TABLE_FILE);
  } catch (error) {
    throw new Error(`function-words: cannot read the table built by npm run build (${(error as Error).message})`);
  }
  return decodeFunctionWordTable(bytes);
})();
const MASK_LO = TABLE.maskLo;
const MASK_HI = TABLE.maskHi;

/** The languages, in a fixed order: bit i of a word's mask is LANGUAGES[i]. */
export const LANGUAGES: readonly string[] = TABLE.languages;

/**
 * Every language's function words, looked up with A–Z folded and nothing else (as indexOf does
 * by default); the block scan (block-scan.ts) collects the entries of each block's tokens.
 */
export const FUNCTION_WORDS: WordIndex = TABLE.index;

/** Whether entry `entry` is a function word of language `bit`. */
export function isListedIn(entry: number, bit: number): boolean {
  return bit < 32 ? ((MASK_LO[entry] >>> bit) & 1) === 1 : ((MASK_HI[entry] >>> (bit - 32)) & 1) === 1;
}

/** Adds `times` to `perLanguage[b]` for every language b that lists entry `entry`. */
export function countLanguages(entry: number, times: number, perLanguage: Int32Array): void {
  for (let lo = MASK_LO[entry]; lo !== 0; lo &= lo - 1) perLanguage[31 - Math.clz32(lo & -lo)] += times;
  for (let hi = MASK_HI[entry]; hi !== 0; hi &= hi - 1) perLanguage[32 + 31 - Math.clz32(hi & -hi)] += times;
}

/** Entries in the function-word table (for per-entry scratch arrays). */
export const LISTED_WORDS = MASK_LO.length;
