/**
 * Stop words per language, for Gopher's "at least two stop words" rule beyond English.
 *
 * English keeps Gopher's own eight words (the, be, to, of, and, that, have, with). Other languages
 * use their stopwords-iso list (MIT; 58 languages), the lists @winnow/features uses too. Those are
 * longer lists than Gopher's eight, so the rule is easier to meet there; it still tells running
 * prose from menus, tables and link lists, which hold almost none. For Chinese and Japanese only
 * single-character entries are kept: their text is split one character per word (words.ts).
 * A language without a list has no stop-word rule (its value is still counted, as 0).
 */
import { createRequire } from "node:module";

const STOPWORDS = createRequire(import.meta.url)("stopwords-iso") as Record<string, readonly string[]>;

/** Gopher's list (Rae et al. 2021, A.1.1). */
export const GOPHER_STOP_WORDS: readonly string[] = ["the", "be", "to", "of", "and", "that", "have", "with"];

export interface StopWordList {
  readonly words: ReadonlySet<string>;
  /** Longest entry, in UTF-16 code units: longer words are not looked up. */
  readonly longest: number;
}

const LISTS = new Map<string, StopWordList | null>();

function listOf(words: readonly string[]): StopWordList {
  const set = new Set<string>();
  let longest = 0;
  for (const raw of words) {
    const w = raw.toLowerCase();
    if (w.length === 0) continue;
    set.add(w);
    if (w.length > longest) longest = w.length;
  }
  return { words: set, longest };
}

/**
 * The stop words of `lang` (an ISO 639-1 code, or a longer code whose first part is one), or null
 * when there is no list. Without a language (language identification off) Gopher's English list.
 */
export function stopWordsFor(lang: string | undefined): StopWordList | null {
  const code = (lang ?? "en").toLowerCase().split(/[-_]/)[0];
  let list = LISTS.get(code);
  if (list !== undefined) return list;
  if (code === "en") list = listOf(GOPHER_STOP_WORDS);
  else if (STOPWORDS[code] === undefined) list = null;
  else if (code === "zh" || code === "ja") list = listOf(STOPWORDS[code].filter((w) => [...w].length === 1));
  else list = listOf(STOPWORDS[code]);
  LISTS.set(code, list);
  return list;
}
