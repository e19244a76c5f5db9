/**
 * Every class the block features give a UTF-16 code unit, in one table, so that one pass over a
 * block's text (block-scan.ts) reads one entry per code unit for all of them. Two families that
 * must not be confused:
 *
 * - texrex's classes (T_*): letters, digits and punctuation as the texrex features count them,
 *   exact for ASCII and Latin-1 and approximate beyond (code units from U+00C0 count as letters
 *   unless they lie in a punctuation block, an emoji's surrogate halves included);
 * - Unicode word units (WORD: \p{L} or \p{N}; CJK: a Han, hiragana or katakana letter, a word
 *   of its own when counting CJK-aware), for the title, stopword and function-word cues.
 *
 * The tables are built once per thread from one regex pass over all BMP characters rather than
 * a regex test per character (that took a quarter of the module's load time).
 */

/** texrex: a letter. */
export const T_LETTER = 1;
/** texrex: an upper-case letter (with T_LETTER). */
export const T_UPPER = 2;
export const T_DIGIT = 4;
export const T_PUNCT = 8;
/** texrex: . ! ? and their CJK forms, which end a sentence before a space or the end. */
export const T_SENTENCE_END = 16;
/** texrex: a Han, hiragana or katakana letter. */
export const T_CJK = 32;
/** texrex: 。！？, which end a sentence with no space after. */
export const T_FULL_STOP = 64;
/** \p{L} or \p{N} (surrogates never: pairs are looked at as pairs). */
export const WORD = 128;
/** A WORD unit in Han, hiragana or katakana. */
export const CJK = 256;
/** A–Z: function words fold these, and only these. */
export const ASCII_UPPER = 512;
/**
 * A unit whose lower case is not one code unit of its own word class, or depends on its
 * neighbours (İ becomes two units; Σ is σ or ς): word counts of a block holding one are taken
 * from the block's lower-cased copy (see block-scan.ts).
 */
export const LOWER_SPECIAL = 1024;
/** A high surrogate: a pair may be a letter, to be looked at on its own. */
export const HIGH_SURROGATE = 2048;
/**
 * A unit that the block scan looks at beyond counting its classes: commas, @ # : . and the
 * sentence ends, ©, and every LOWER_SPECIAL and HIGH_SURROGATE unit. Letters, digits and spaces,
 * nearly all of any text, never are: their counts are added without a branch.
 */
export const RARE = 4096;

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

const isSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdfff;

/** The BMP characters from..to-1 but surrogates, as one string, and their code units in order. */
function charsOf(from: number, to: number): { text: string; units: number[] } {
  const units: number[] = [];
  for (let c = from; c < to; c++) if (!isSurrogate(c)) units.push(c);
  let text = "";
  for (let k = 0; k < units.length; k += 4096) text += String.fromCharCode(...units.slice(k, k + 4096));
  return { text, units };
}

/**
 * Marks `bit` on every unit of from..to-1 that `pattern` (one character, flag u) matches: one
 * replace over all of them, non-matches blanked to U+0000 (never a match itself), so the string
 * keeps one unit per character.
 */
function markMatches(table: Uint16Array, from: number, to: number, pattern: string, bit: number): void {
  const { text, units } = charsOf(from, to);
  const kept = text.replace(new RegExp(`(?!${pattern}).`, "gsu"), "\0");
  for (let k = 0; k < units.length; k++) if (kept.charCodeAt(k) !== 0) table[units[k]] |= bit;
}

/** Class bits per UTF-16 code unit. */
export const CLASS = new Uint16Array(65536);
/** Each unit's lower case where that is one unit (else the unit itself, and LOWER_SPECIAL is set). */
export const LOWER = new Uint16Array(65536);
/** Each unit with A–Z folded to a–z and nothing else: how function words are looked up. */
export const ASCII_FOLD = new Uint16Array(65536);

for (let c = 0; c < 65536; c++) {
  let k = 0;
  if (c >= 48 && c <= 57) k = T_DIGIT;
  else if (isLetter(c)) k = T_LETTER | ((c >= 65 && c <= 90) || (c >= 0xc0 && c <= 0xde && c !== 0xd7) ? T_UPPER : 0);
  else if (isPunctuation(c))
    k = T_PUNCT | (isSentenceEnd(c) ? T_SENTENCE_END : 0) | (c === 0x3002 || c === 0xff01 || c === 0xff1f ? T_FULL_STOP : 0);
  if (c >= 65 && c <= 90) k |= ASCII_UPPER;
  if (c >= 0xd800 && c <= 0xdbff) k |= HIGH_SURROGATE;
  CLASS[c] = k;
  ASCII_FOLD[c] = c >= 65 && c <= 90 ? c + 32 : c;
}
markMatches(CLASS, 0, 65536, "[\\p{L}\\p{N}]", WORD);
// Han, hiragana and katakana letters all lie in U+2E80..U+FAFF.
markMatches(CLASS, 0x2e80, 0xfb00, "[\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}]", CJK);
for (let c = 0; c < 65536; c++) {
  if (CLASS[c] & CJK && !(CLASS[c] & WORD)) CLASS[c] &= ~CJK;
  if (CLASS[c] & CJK && CLASS[c] & T_LETTER) CLASS[c] |= T_CJK;
}

// Lower case: only the units that \p{Changes_When_Lowercased} finds change (a few thousand of
// 65,536), so only those are lowered one by one; char-classes.test.ts holds every unit to
// String.prototype.toLowerCase.
const CHANGES_WHEN_LOWERED = 8192;
markMatches(CLASS, 0, 65536, "\\p{CWL}", CHANGES_WHEN_LOWERED);
for (let c = 0; c < 65536; c++) {
  LOWER[c] = c;
  if (!(CLASS[c] & CHANGES_WHEN_LOWERED)) continue;
  CLASS[c] &= ~CHANGES_WHEN_LOWERED;
  const lower = String.fromCharCode(c).toLowerCase();
  const same = (a: number, b: number) => (CLASS[a] & (WORD | CJK)) === (CLASS[b] & (WORD | CJK));
  // Σ lowers to σ or ς by what is around it.
  if (lower.length === 1 && c !== 0x03a3 && same(c, lower.charCodeAt(0))) LOWER[c] = lower.charCodeAt(0);
  else CLASS[c] |= LOWER_SPECIAL;
}
for (const c of [44, 0xff0c, 0x3001, 0x060c, 64, 35, 58, 46, 0xa9]) CLASS[c] |= RARE;
for (let c = 0; c < 65536; c++) if (CLASS[c] & (T_SENTENCE_END | LOWER_SPECIAL | HIGH_SURROGATE)) CLASS[c] |= RARE;
