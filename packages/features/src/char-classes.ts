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
 * The tables are built once per thread from ranges and one regex pass per Unicode property over
 * all BMP characters, rather than a test per character.
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
/** Lowered otherwise than A–Z folded (É, Д): a word holding one hashes two ways (with RARE). */
export const FOLD_DIFFERS = 16384;

/** Class bits per UTF-16 code unit. */
export const CLASS = new Uint16Array(65536);
/** Each unit's lower case where that is one unit (else the unit itself, and LOWER_SPECIAL is set). */
export const LOWER = new Uint16Array(65536);
/** Each unit with A–Z folded to a–z and nothing else: how function words are looked up. */
export const ASCII_FOLD = new Uint16Array(65536);

/**
 * The runs of BMP characters that `pattern` (a class of single characters, flag u) matches, as
 * [first unit, last unit + 1) pairs: one regex pass over every BMP character but the surrogates,
 * `bmp` (which moves the units from U+E000 down by 0x800).
 */
function runsOf(bmp: string, pattern: string): number[] {
  const runs: number[] = [];
  const re = new RegExp(`${pattern}+`, "gu");
  for (let m = re.exec(bmp); m !== null; m = re.exec(bmp)) {
    const start = m.index,
      end = m.index + m[0].length;
    if (start < 0xd800 && end > 0xd800) runs.push(start, 0xd800, 0xe000, end + 0x800);
    else if (start < 0xd800) runs.push(start, end);
    else runs.push(start + 0x800, end + 0x800);
  }
  return runs;
}

/** ORs `bit` into CLASS over [from, to) where `where` bits are all set (0: everywhere). */
function mark(from: number, to: number, bit: number, where = 0): void {
  for (let c = from; c < to; c++) if ((CLASS[c] & where) === where) CLASS[c] |= bit;
}

// Built from ranges and regex runs, not by a test per unit: the module is loaded by every worker
// thread, and a per-unit loop runs unoptimised there.
function buildTables(): void {
  // texrex's classes: from U+00C0 every unit is a letter (surrogates too) but for the ranges
  // below; ASCII and the rest of Latin-1 as usual.
  CLASS.fill(T_LETTER, 0xc0);
  CLASS.fill(T_LETTER | T_UPPER, 0xc0, 0xdf);
  CLASS.fill(0, 0x2000, 0x200c);
  CLASS[0xd7] = 0;
  CLASS[0xf7] = 0;
  CLASS[0x3000] = 0;
  CLASS.fill(T_DIGIT, 48, 58);
  CLASS.fill(T_LETTER | T_UPPER | ASCII_UPPER, 65, 91);
  CLASS.fill(T_LETTER, 97, 123);
  for (const [from, to] of [
    [33, 48],
    [58, 65],
    [91, 97],
    [123, 127],
    [0x2010, 0x2028],
    [0x2030, 0x205f],
    [0x3001, 0x3004],
    [0x3008, 0x3012],
    [0xff01, 0xff10],
    [0xff1a, 0xff21],
  ])
    CLASS.fill(T_PUNCT, from, to);
  for (const c of [0xa1, 0xab, 0xb7, 0xbb, 0xbf]) CLASS[c] = T_PUNCT;
  for (const c of [46, 33, 63, 0x2026]) CLASS[c] |= T_SENTENCE_END;
  for (const c of [0x3002, 0xff01, 0xff1f]) CLASS[c] |= T_SENTENCE_END | T_FULL_STOP;
  mark(0xd800, 0xdc00, HIGH_SURROGATE);

  for (let c = 0; c < 65536; c++) LOWER[c] = c;
  ASCII_FOLD.set(LOWER);
  for (let c = 65; c <= 90; c++) ASCII_FOLD[c] = c + 32;
  const units = new Uint16Array(65536 - 0x800);
  units.set(LOWER.subarray(0, 0xd800));
  units.set(LOWER.subarray(0xe000), 0xd800);
  const bmp = new TextDecoder("utf-16le").decode(units);

  const word = runsOf(bmp, "[\\p{L}\\p{N}]");
  for (let r = 0; r < word.length; r += 2) mark(word[r], word[r + 1], WORD);
  // Han, hiragana and katakana letters, looked for in U+2E80..U+FAFF (halfwidth katakana not).
  const cjk = runsOf(bmp, "[\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}]");
  for (let r = 0; r < cjk.length; r += 2) {
    const from = Math.max(0x2e80, cjk[r]),
      to = Math.min(0xfb00, cjk[r + 1]);
    mark(from, to, CJK, WORD);
    mark(from, to, T_CJK, CJK | T_LETTER);
  }
  // Only \p{Changes_When_Lowercased} units (about 1,400) change when lowered; char-classes.test.ts
  // holds every unit to String.prototype.toLowerCase.
  const cased = runsOf(bmp, "\\p{CWL}");
  const wordBits = (c: number) => CLASS[c] & (WORD | CJK);
  for (let r = 0; r < cased.length; r += 2) {
    for (let c = cased[r]; c < cased[r + 1]; c++) {
      const lower = String.fromCharCode(c).toLowerCase();
      // İ lowers to two units; Σ to σ or ς by what is around it.
      if (lower.length === 1 && c !== 0x03a3 && wordBits(c) === wordBits(lower.charCodeAt(0))) LOWER[c] = lower.charCodeAt(0);
      else CLASS[c] |= LOWER_SPECIAL | RARE;
      if (LOWER[c] !== ASCII_FOLD[c]) CLASS[c] |= FOLD_DIFFERS | RARE;
    }
  }
  for (const c of [44, 0xff0c, 0x3001, 0x060c, 64, 35, 58, 46, 0xa9, 33, 63, 0x2026, 0x3002, 0xff01, 0xff1f]) CLASS[c] |= RARE;
  mark(0xd800, 0xdc00, RARE);
}
buildTables();
