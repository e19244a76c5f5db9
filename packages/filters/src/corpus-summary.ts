/**
 * What `winnow stats` reports about a corpus: documents, words and characters, languages, the
 * rules that dropped documents (from a rejects file) or that kept ones failed (--keep-filtered),
 * and length histograms. Rows are added one at a time, so a corpus of any size is summarised in
 * constant memory.
 */
import { splitWords, Words } from "./words.js";

/** Bucket lower bounds on a 1-2-5 scale: [0, 10), [10, 20), [20, 50), ... and the last one open. */
function scale(from: number, to: number): number[] {
  const edges = [0];
  for (let x = from; x <= to; x *= 10) edges.push(x, 2 * x, 5 * x);
  return edges;
}

export const WORD_BUCKETS: readonly number[] = scale(10, 100_000);
export const CHAR_BUCKETS: readonly number[] = scale(100, 1_000_000);

export interface Histogram {
  /** Lower bound of each bucket; a bucket runs to the next one's bound (the last has none). */
  from: number[];
  count: number[];
}

export interface CorpusSummaryJson {
  documents: number;
  words: number;
  chars: number;
  /** Documents by language ("none" for documents without a lang field), most first. */
  languages: Record<string, number>;
  /** From --rejects: records dropped, by reason, and documents dropped by each rule (the first it failed). */
  rejected: Record<string, number>;
  droppedByRule: Record<string, number>;
  /** From filter_failed (--keep-filtered): documents written that failed each rule. */
  failedByRule: Record<string, number>;
  /** Documents that failed at least one rule (filter_failed not empty). */
  documentsFailing: number;
  wordsHistogram: Histogram;
  charsHistogram: Histogram;
}

/**
 * Characters as readers count them: code points, so an emoji or a Han character outside the
 * BMP is one, not the two UTF-16 units of `text.length`.
 */
export function codePoints(text: string): number {
  let n = text.length;
  for (let i = 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) {
      const before = text.charCodeAt(i - 1);
      if (before >= 0xd800 && before <= 0xdbff) n--;
    }
  }
  return n;
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function sorted(map: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...map].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

function bucketOf(edges: readonly number[], x: number): number {
  let b = 0;
  while (b + 1 < edges.length && x >= edges[b + 1]) b++;
  return b;
}

export class CorpusSummary {
  documents = 0;
  words = 0;
  chars = 0;
  documentsFailing = 0;
  readonly #languages = new Map<string, number>();
  readonly #rejected = new Map<string, number>();
  readonly #dropped = new Map<string, number>();
  readonly #failed = new Map<string, number>();
  readonly #wordCounts = new Array<number>(WORD_BUCKETS.length).fill(0);
  readonly #charCounts = new Array<number>(CHAR_BUCKETS.length).fill(0);
  readonly #scratch = new Words();

  /** A written document: a row of winnow's JSONL or Parquet output. */
  addDocument(row: Readonly<Record<string, unknown>>): void {
    const text = typeof row.text === "string" ? row.text : "";
    const stats = row.stats as { words?: unknown } | undefined;
    // --stats already counted them; otherwise they are counted here the same way.
    const words = typeof stats?.words === "number" ? stats.words : splitWords(text, this.#scratch).count;
    this.documents++;
    this.words += words;
    const chars = codePoints(text);
    this.chars += chars;
    bump(this.#languages, typeof row.lang === "string" ? row.lang : "none");
    this.#wordCounts[bucketOf(WORD_BUCKETS, words)]++;
    this.#charCounts[bucketOf(CHAR_BUCKETS, chars)]++;
    const failed = row.filter_failed;
    if (Array.isArray(failed) && failed.length > 0) {
      this.documentsFailing++;
      for (const f of failed) if (typeof f?.rule === "string") bump(this.#failed, f.rule);
    }
  }

  /** A line of a --rejects file. */
  addReject(row: Readonly<Record<string, unknown>>): void {
    bump(this.#rejected, String(row.reason));
    if (typeof row.rule === "string") bump(this.#dropped, row.rule);
  }

  toJSON(): CorpusSummaryJson {
    return {
      documents: this.documents,
      words: this.words,
      chars: this.chars,
      languages: sorted(this.#languages),
      rejected: sorted(this.#rejected),
      droppedByRule: sorted(this.#dropped),
      failedByRule: sorted(this.#failed),
      documentsFailing: this.documentsFailing,
      wordsHistogram: { from: [...WORD_BUCKETS], count: [...this.#wordCounts] },
      charsHistogram: { from: [...CHAR_BUCKETS], count: [...this.#charCounts] },
    };
  }
}
