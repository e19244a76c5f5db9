/**
 * Line dedup as CCNet does it (Wenzek et al. 2020): a line (a paragraph, in winnow's output,
 * where blocks are separated by a blank line) seen in more than N documents of the corpus is
 * boilerplate (a cookie notice, a footer) and is removed from every document that holds it.
 * Lines are compared by the hash of their normalised text; each document counts a line once.
 */
import { hashNormalized } from "./hash.js";
import { normalizeText } from "./normalize.js";

/** The distinct hashes of a text's non-empty lines (normalised), in first-seen order. */
export function lineHashes(text: string): bigint[] {
  const seen = new Set<bigint>();
  for (const line of text.split("\n")) {
    // A line of punctuation alone normalises to nothing: it is never counted, never removed.
    const norm = normalizeText(line);
    if (norm !== "") seen.add(hashNormalized(norm));
  }
  return [...seen];
}

export interface LinesRemoved {
  text: string;
  /** Lines removed (every occurrence counts). */
  removed: number;
  /** Non-empty lines before. */
  lines: number;
}

/**
 * `text` without the lines whose hash `isFrequent` accepts; blank lines left doubled by a removal
 * are merged, so blocks stay separated by one blank line.
 */
export function removeLines(text: string, isFrequent: (hash: bigint) => boolean): LinesRemoved {
  const kept: string[] = [];
  let removed = 0;
  let lines = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") {
      if (kept.length > 0 && kept[kept.length - 1] !== "") kept.push("");
      continue;
    }
    lines++;
    const norm = normalizeText(line);
    if (norm !== "" && isFrequent(hashNormalized(norm))) removed++;
    else kept.push(line);
  }
  while (kept.length > 0 && kept[kept.length - 1] === "") kept.pop();
  return { text: removed === 0 ? text : kept.join("\n"), removed, lines };
}

/**
 * Words in a text as the short-document rule counts them: the words of the normalised text that
 * the signatures are made of (normalize.ts), so the rule and the shingles agree. Not the filters'
 * words (@winnow/filters' splitWords) that `stats.words` holds: normalisation drops punctuation
 * and digits first.
 */
export function wordCount(text: string): number {
  const norm = normalizeText(text);
  return norm === "" ? 0 : norm.split(" ").length;
}
