/** Line and paragraph helpers the rule sets share. */

/**
 * Repeats among `items`, as datatrove's find_duplicates counts them: every occurrence after the
 * first is a duplicate, and its characters are duplicate characters.
 */
export interface Duplicates {
  count: number;
  chars: number;
}

export function duplicates(items: readonly string[]): Duplicates {
  const seen = new Set<string>();
  let count = 0;
  let chars = 0;
  for (const item of items) {
    if (seen.has(item)) {
      count++;
      chars += item.length;
    } else {
      seen.add(item);
    }
  }
  return { count, chars };
}

/** The lines of `text` that hold more than white space. */
export function nonEmptyLines(text: string): string[] {
  const lines: string[] = [];
  let from = 0;
  while (from <= text.length) {
    let to = text.indexOf("\n", from);
    if (to === -1) to = text.length;
    // Only a line with something other than white space is sliced out (no trimmed copy made).
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 13 && c !== 0xa0 && !(c >= 0x2000 && c <= 0x200a) && c !== 0x3000) {
        lines.push(text.slice(from, to));
        break;
      }
    }
    from = to + 1;
  }
  return lines;
}

/**
 * Sentence ends and line ends that count as terminal punctuation. C4 and FineWeb name . ! ? and
 * the double quote (FineWeb also the single quote); the full-width and ideographic forms, the
 * Arabic and Urdu question mark and full stop, the Devanagari danda and the Ethiopic full stop
 * are added so that the rules mean the same in those scripts, with the closing quotation marks.
 */
const TERMINAL = new Set([".", "!", "?", '"', "。", "！", "？", "．", "؟", "۔", "।", "॥", "።", "”", "»", "」", "』"]);

/** Whether `line` (trimmed at its end by the caller) ends in terminal punctuation. */
export function endsInTerminal(line: string, alsoApostrophe = false): boolean {
  if (line.length === 0) return false;
  const last = line[line.length - 1];
  return TERMINAL.has(last) || (alsoApostrophe && (last === "'" || last === "’"));
}

/** Sentence ends: . ! ? and their full-width, ideographic, Arabic, Devanagari and Ethiopic forms. */
const SENTENCE_END = new Uint8Array(65536);
for (const ch of ".!?。！？．؟۔।॥።") SENTENCE_END[ch.charCodeAt(0)] = 1;
const CLOSER = new Uint8Array(65536);
for (const ch of "\"'”’»」』)]") CLOSER[ch.charCodeAt(0)] = 1;

/**
 * Sentences in a line: a run of sentence-end marks followed by white space, a closing quote or
 * bracket, or the end of the line ends one (ideographic marks need no space after them). A
 * non-empty line with none is one sentence. C4 counts with NLTK's Punkt splitter, which knows
 * English abbreviations; this rule counts "e.g. this" as two, which errs towards keeping.
 */
export function countSentences(line: string): number {
  let sentences = 0;
  const n = line.length;
  let i = 0;
  let sinceLast = 0;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (SENTENCE_END[c] === 1) {
      let j = i + 1;
      while (j < n && SENTENCE_END[line.charCodeAt(j)] === 1) j++;
      while (j < n && CLOSER[line.charCodeAt(j)] === 1) j++;
      const next = j < n ? line.charCodeAt(j) : 32;
      if (c >= 0x3000 || next === 32 || next === 9 || next === 0xa0) {
        if (sinceLast > 0) sentences++;
        sinceLast = 0;
      }
      i = j;
      continue;
    }
    if (c !== 32) sinceLast++;
    i++;
  }
  if (sinceLast > 0) sentences++;
  return sentences;
}
