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

/** stopwords-iso's lists, read on first need (English documents never need them). */
let STOPWORDS: Record<string, readonly string[]> | undefined;

function stopwordsIso(): Record<string, readonly string[]> {
  STOPWORDS ??= createRequire(import.meta.url)("stopwords-iso") as Record<string, readonly string[]>;
  return STOPWORDS;
}

/** Gopher's list (Rae et al. 2021, A.1.1). */
export const GOPHER_STOP_WORDS: readonly string[] = ["the", "be", "to", "of", "and", "that", "have", "with"];

export interface StopWordList {
  readonly words: ReadonlySet<string>;
  /** Longest entry, in UTF-16 code units: longer words are not looked up. */
  readonly longest: number;
  /** asciiHash() of every entry: an ASCII word whose hash is not here is no stop word, without a string made for it. */
  readonly hashes: ReadonlySet<number>;
}

/** FNV-1a of text[from, to) with ASCII capitals folded; -1 when a code unit is not ASCII. */
export function asciiHash(text: string, from: number, to: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = from; i < to; i++) {
    let c = text.charCodeAt(i);
    if (c >= 128) return -1;
    if (c >= 65 && c <= 90) c += 32;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return h >>> 0;
}

const LISTS = new Map<string, StopWordList | null>();

/** A list of `words`, compared in lower case (a filter config's own list, or a language's). */
export function stopWordList(words: readonly string[]): StopWordList {
  const set = new Set<string>();
  const hashes = new Set<number>();
  let longest = 0;
  for (const raw of words) {
    const w = raw.toLowerCase();
    if (w.length === 0) continue;
    set.add(w);
    const h = asciiHash(w, 0, w.length);
    if (h !== -1) hashes.add(h);
    if (w.length > longest) longest = w.length;
  }
  return { words: set, longest, hashes };
}

/**
 * The stop words of `lang` (an ISO 639-1 code, or a longer code whose first part is one), or null
 * when there is no list. Without a language (language identification off) Gopher's English list.
 */
export function stopWordsFor(lang: string | undefined): StopWordList | null {
  const code = (lang ?? "en").toLowerCase().split(/[-_]/)[0];
  let list = LISTS.get(code);
  if (list !== undefined) return list;
  const iso = code === "en" ? undefined : stopwordsIso()[code];
  if (code === "en") list = stopWordList(GOPHER_STOP_WORDS);
  else if (iso === undefined) list = null;
  else if (code === "zh" || code === "ja") list = stopWordList(iso.filter((w) => [...w].length === 1));
  else list = stopWordList(iso);
  LISTS.set(code, list);
  return list;
}
