/**
 * The values of every rule set, from a document's blocks (its paragraphs, in order). Each
 * function fills one set's statistics; docs/corpus.md says what each value is and where its
 * definition comes from.
 */
import { countSentences, type Duplicates, duplicates, endsInTerminal, nonEmptyLines } from "./lines.js";
import { NgramCounter, type RepetitionValues } from "./ngrams.js";
import type { C4LineRules, FineWebMeasures } from "./settings.js";
import { asciiHash, type StopWordList } from "./stop-words.js";
import { HAS_ALNUM, HAS_LETTER, Words } from "./words.js";

export interface GopherQualityStats {
  word_count: number;
  mean_word_length: number;
  hash_ratio: number;
  ellipsis_ratio: number;
  bullet_lines: number;
  ellipsis_lines: number;
  alpha_words: number;
  stop_words: number;
}

export interface GopherRepetitionStats {
  dup_line_frac: number;
  dup_para_frac: number;
  dup_line_char_frac: number;
  dup_para_char_frac: number;
  top_2gram_char_frac: number;
  top_3gram_char_frac: number;
  top_4gram_char_frac: number;
  dup_5gram_char_frac: number;
  dup_6gram_char_frac: number;
  dup_7gram_char_frac: number;
  dup_8gram_char_frac: number;
  dup_9gram_char_frac: number;
  dup_10gram_char_frac: number;
}

export interface C4Stats {
  /** Non-empty lines before the line rules. */
  lines: number;
  lines_kept: number;
  /** Lines dropped by each line rule, in the order they are tried. */
  lines_long_word: number;
  lines_no_terminal_punct: number;
  lines_too_few_words: number;
  lines_javascript: number;
  lines_policy: number;
  lorem_ipsum: number;
  curly_brace: number;
  sentences: number;
}

export interface FineWebStats {
  line_punct_ratio: number;
  short_line_ratio: number;
  dup_line_char_frac: number;
  new_line_ratio: number;
}

/** Values are rounded to this many decimals, before the rules compare them, so stats reproduce every verdict. */
const DECIMALS = 1e4;

export function round(x: number): number {
  return Number.isFinite(x) ? Math.round(x * DECIMALS) / DECIMALS : 0;
}

function ratio(a: number, b: number): number {
  return b === 0 ? 0 : round(a / b);
}

/** Reused between documents: the word arrays and the n-gram tables. */
export class Scratch {
  readonly words = new Words();
  readonly ngrams = new NgramCounter();
  readonly repetition: RepetitionValues = { topChars: [0, 0, 0], dupChars: [0, 0, 0, 0, 0, 0] };
}

const BULLETS = new Set(["•", "●", "○", "◦", "▪", "■", "‣", "⁃", "-", "*", "·"]);

function countOf(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** Whether word i, stripped of symbols at both ends ("The," → "the"), is in `list`. */
function isStopWord(words: Words, i: number, list: StopWordList): boolean {
  const text = words.text;
  let a = words.starts[i];
  let b = words.ends[i];
  // Longer than any entry even with a few marks around it: most words stop here.
  if (b - a > list.longest + 3) return false;
  while (a < b && !isWordChar(text.charCodeAt(a))) a++;
  while (b > a && !isWordChar(text.charCodeAt(b - 1))) b--;
  if (b - a === 0 || b - a > list.longest) return false;
  // ASCII words are looked up by hash first, so most words cost no string.
  const h = asciiHash(text, a, b);
  if (h !== -1 && !list.hashes.has(h)) return false;
  return list.words.has(text.slice(a, b).toLowerCase());
}

function isWordChar(c: number): boolean {
  // Letters and digits of any script; ASCII punctuation and the common typographic marks are not.
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return !(c >= 0x2000 && c <= 0x206f) && c !== 0xab && c !== 0xbb && !(c >= 0x3000 && c <= 0x303f) && !(c >= 0xff01 && c <= 0xff0f);
}

/**
 * Gopher quality values. Words that hold no letter, digit or mark (a lone "-" or "|") are symbols:
 * they count as words for the per-word ratios, but not for the word count and mean length, as
 * datatrove counts them. Lines are the text's non-empty lines.
 */
export function gopherQuality(words: Words, lines: readonly string[], text: string, list: StopWordList | null): GopherQualityStats {
  const n = words.count;
  let alnum = 0;
  let alnumChars = 0;
  let alpha = 0;
  let stop = 0;
  for (let i = 0; i < n; i++) {
    const f = words.flags[i];
    if (f & HAS_ALNUM) {
      alnum++;
      alnumChars += words.length(i);
    }
    if (f & HAS_LETTER) alpha++;
    if (list !== null && f & HAS_ALNUM && isStopWord(words, i, list)) stop++;
  }
  let bullets = 0;
  let ellipses = 0;
  for (const line of lines) {
    const start = line.trimStart();
    if (start.length > 0 && BULLETS.has(start[0])) bullets++;
    const end = line.trimEnd();
    if (end.endsWith("...") || end.endsWith("…")) ellipses++;
  }
  return {
    word_count: alnum,
    mean_word_length: ratio(alnumChars, alnum),
    hash_ratio: ratio(countOf(text, "#"), n),
    ellipsis_ratio: ratio(countOf(text, "...") + countOf(text, "…"), n),
    bullet_lines: ratio(bullets, lines.length),
    ellipsis_lines: ratio(ellipses, lines.length),
    alpha_words: ratio(alpha, n),
    stop_words: stop,
  };
}

/**
 * Gopher repetition values, as datatrove computes them: paragraphs are the blocks, lines the
 * non-empty lines, and every character fraction is over the whole text's length.
 */
export function gopherRepetition(
  words: Words,
  lines: readonly string[],
  line: Duplicates,
  paragraphs: readonly string[],
  text: string,
  scratch: Scratch,
): GopherRepetitionStats {
  const para = duplicates(paragraphs);
  const { topChars, dupChars } = scratch.ngrams.measure(words, scratch.repetition);
  const chars = text.length;
  return {
    dup_line_frac: ratio(line.count, lines.length),
    dup_para_frac: ratio(para.count, paragraphs.length),
    dup_line_char_frac: ratio(line.chars, chars),
    dup_para_char_frac: ratio(para.chars, chars),
    top_2gram_char_frac: ratio(topChars[0], chars),
    top_3gram_char_frac: ratio(topChars[1], chars),
    top_4gram_char_frac: ratio(topChars[2], chars),
    dup_5gram_char_frac: ratio(dupChars[0], chars),
    dup_6gram_char_frac: ratio(dupChars[1], chars),
    dup_7gram_char_frac: ratio(dupChars[2], chars),
    dup_8gram_char_frac: ratio(dupChars[3], chars),
    dup_9gram_char_frac: ratio(dupChars[4], chars),
    dup_10gram_char_frac: ratio(dupChars[5], chars),
  };
}

/** C4's citation marks, removed from every line: "[1]", "[edit]", "[citation needed]". */
const CITATION = /\[\d*\]|\[edit\]|\[citation needed\]/gi;
/** Lines about policies and cookies, dropped (the C4 code's list). */
const POLICY = ["terms of use", "privacy policy", "cookie policy", "uses cookies", "use of cookies", "use cookies"];
/** Any phrase the page and line rules look for, without regard to case. */
const PHRASES = new RegExp(["lorem ipsum", "javascript", ...POLICY].join("|"), "i");

/**
 * C4's line rules, block by block, in the order of the C4 code (TensorFlow Datasets' c4_utils,
 * which datatrove's C4QualityFilter follows): a line is dropped when a word in it is longer than
 * `maxWordLength` characters, when it does not end in terminal punctuation (or ends in "..."), when
 * it has fewer than `minWordsPerLine` words, when it mentions javascript, or when it speaks of
 * terms of use, privacy or cookies; citation marks are removed first. `rules` switches each off. Of the lines kept, one holding "lorem ipsum" or a
 * curly brace marks the page, and their sentences are counted. Returns the blocks as edited
 * (null for a block with no line left; all null without `edit`, when only the values are wanted)
 * with the values.
 */
export function c4(
  blocks: readonly string[],
  words: Words,
  rules: C4LineRules,
  edit = true,
): { blocks: Array<string | null>; stats: C4Stats } {
  const maxWordLength = rules.maxWordLength ?? Number.POSITIVE_INFINITY;
  const stats: C4Stats = {
    lines: 0,
    lines_kept: 0,
    lines_long_word: 0,
    lines_no_terminal_punct: 0,
    lines_too_few_words: 0,
    lines_javascript: 0,
    lines_policy: 0,
    lorem_ipsum: 0,
    curly_brace: 0,
    sentences: 0,
  };
  const out = new Array<string | null>(blocks.length);
  // `words` are those of blocks.join("\n\n"): each line's words are found by their offsets.
  let w = 0;
  let blockStart = 0;
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b];
    let kept: string | null = null;
    let from = 0;
    while (from <= block.length) {
      let to = block.indexOf("\n", from);
      if (to === -1) to = block.length;
      const lineEnd = blockStart + to;
      let lineWords = 0;
      let longWord = false;
      while (w < words.count && words.starts[w] < lineEnd) {
        lineWords++;
        if (words.ends[w] - words.starts[w] > maxWordLength) longWord = true;
        w++;
      }
      const raw = block.slice(from, to);
      from = to + 1;
      let line = raw.trim();
      if (line === "") continue;
      stats.lines++;
      if (longWord) {
        stats.lines_long_word++;
        continue;
      }
      if (rules.removeCitations && line.includes("[")) line = line.replace(CITATION, "").trim();
      if (rules.filterNoTerminalPunct && (!endsInTerminal(line) || line.endsWith("..."))) {
        stats.lines_no_terminal_punct++;
        continue;
      }
      if (lineWords < rules.minWordsPerLine) {
        stats.lines_too_few_words++;
        continue;
      }
      // One case-blind scan finds any of the phrases; the rare line with one is looked at again.
      const lower = PHRASES.test(line) ? line.toLowerCase() : "";
      if (lower.includes("lorem ipsum")) stats.lorem_ipsum = 1;
      if (rules.filterJavascript && lower.includes("javascript")) {
        stats.lines_javascript++;
        continue;
      }
      if (line.includes("{")) stats.curly_brace = 1;
      if (rules.filterPolicy && lower !== "" && POLICY.some((p) => lower.includes(p))) {
        stats.lines_policy++;
        continue;
      }
      stats.lines_kept++;
      stats.sentences += countSentences(line);
      if (edit) kept = kept === null ? line : `${kept}\n${line}`;
    }
    out[b] = kept;
    blockStart += block.length + 2;
  }
  return { blocks: out, stats };
}

/**
 * FineWeb's filters, on the text's non-empty lines: the share ending in terminal punctuation (the
 * single quote counts, as in FineWeb's code), the share of at most `shortLineLength` characters,
 * the characters of repeated lines over all characters but line breaks, and the line breaks
 * between lines per word (datatrove counts the text's "\n" per word; its texts hold one between
 * paragraphs, where ours hold a blank line, so the breaks between non-empty lines are counted).
 */
export function fineweb(
  lines: readonly string[],
  lineDuplicates: Duplicates,
  text: string,
  words: number,
  measures: FineWebMeasures,
): FineWebStats {
  let punct = 0;
  let short = 0;
  for (const line of lines) {
    if (endsInTerminal(line.trimEnd(), true)) punct++;
    if (line.length <= measures.shortLineLength) short++;
  }
  let breaks = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) breaks++;
  return {
    line_punct_ratio: ratio(punct, lines.length),
    short_line_ratio: ratio(short, lines.length),
    dup_line_char_frac: ratio(lineDuplicates.chars, text.length - breaks),
    new_line_ratio: ratio(Math.max(0, lines.length - 1), words),
  };
}

export { duplicates, nonEmptyLines };
