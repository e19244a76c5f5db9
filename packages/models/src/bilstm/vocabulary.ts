/**
 * BoilerNet's block input: counts of the ancestor tags above a block and of the words in it, over
 * two vocabularies learnt from the training pages (the most common tags and words), each with an
 * out-of-vocabulary slot. No hand-made features: the sequence model learns what matters.
 *
 * Slot layout of one block's vector (size tags + words + 2):
 *   [0, tags)                 ancestor tags, by vocabulary rank
 *   tags                      any other tag
 *   [tags + 1, tags + 1 + words)  words, by vocabulary rank
 *   tags + 1 + words          any other word
 * Values are log(1 + count): a word repeated forty times is not forty times the evidence, and
 * small inputs keep the projection from saturating on long blocks (our choice; the paper uses counts).
 */
import { FNV_BASIS, WordIndex, fnvStep, hashOf } from "@winnow/features";
import type { SegmentedDocument } from "@winnow/segment";

export interface BlockVocabulary {
  /** Ancestor tag names, most common first. */
  tags: string[];
  /** Lower-cased words, most common first. */
  words: string[];
}

/** Sizes of the two vocabularies; the paper's defaults are a few dozen tags and about a thousand words. */
export interface VocabularyOptions {
  tags?: number;
  words?: number;
}

const VOCABULARY_DEFAULTS = { tags: 50, words: 1000 } as const;

/** Number of slots a block vector has for this vocabulary. */
function vocabularySlots(vocabulary: BlockVocabulary): number {
  return vocabulary.tags.length + vocabulary.words.length + 2;
}

/**
 * Whether a UTF-16 code unit is part of a word: an ASCII letter or digit, or a character above
 * U+00BF outside the general- and CJK-punctuation blocks and other than × and ÷.
 */
function isWordUnit(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    (c >= 0xc0 && !(c >= 0x2000 && c <= 0x206f) && !(c >= 0x3000 && c <= 0x303f) && c !== 0xd7 && c !== 0xf7)
  );
}

/**
 * isWordUnit of every UTF-16 code unit, 1 or 0: the encoder scans every character of every block,
 * and one load costs less than the comparisons (four for a space or a comma). Built from
 * isWordUnit, so the two cannot disagree.
 */
const WORD_UNIT = new Uint8Array(0x10000);
for (let c = 0; c < WORD_UNIT.length; c++) WORD_UNIT[c] = isWordUnit(c) ? 1 : 0;

/**
 * log(1 + count) for the counts a block's slot nearly always has, filled by Math.log1p itself so
 * a table entry and a call give the same double. A block's slots are counted one to three times
 * as a rule; the table alone made the encoder 1.07-1.09x as fast.
 */
const LOG1P = new Float64Array(64);
for (let k = 0; k < LOG1P.length; k++) LOG1P[k] = Math.log1p(k);

/**
 * Calls `onWord` for each word of `text` (a maximal run of isWordUnit), lower-cased. This is the
 * definition: buildVocabulary counts with it, and BlockEncoder's faster scan must agree with it.
 * Not @winnow/features' words (\p{L}\p{N} runs): isWordUnit takes every code unit from U+00C0 but
 * a few punctuation blocks, and the shipped BiLSTM's vocabulary was learnt with it.
 */
export function forEachWord(text: string, onWord: (word: string) => void): void {
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && isWordUnit(text.charCodeAt(i))) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      onWord(text.slice(start, i).toLowerCase());
      start = -1;
    }
  }
}

/** Calls `onTag` for each ancestor tag in a block's tag path ("html/body/div/p"). */
export function forEachTag(tagPath: string, onTag: (tag: string) => void): void {
  let start = 0;
  for (let i = 0; i <= tagPath.length; i++) {
    if (i === tagPath.length || tagPath.charCodeAt(i) === 47 /* / */) {
      if (i > start) onTag(tagPath.slice(start, i));
      start = i + 1;
    }
  }
}

/**
 * The most common tags and words of some pages, counted once per block they occur in (so a word
 * repeated in one block does not crowd out words used across many blocks). Ties break by name,
 * so the vocabulary is the same on every run.
 */
export function buildVocabulary(docs: Iterable<SegmentedDocument>, options: VocabularyOptions = {}): BlockVocabulary {
  const tagCounts = new Map<string, number>();
  const wordCounts = new Map<string, number>();
  const seen = new Set<string>();
  for (const doc of docs) {
    for (const block of doc.blocks) {
      seen.clear();
      forEachTag(block.tagPath, (tag) => {
        if (!seen.has(tag)) tagCounts.set(tag, (tagCounts.get(tag) ?? 0) + 1);
        seen.add(tag);
      });
      seen.clear();
      forEachWord(block.text, (word) => {
        if (!seen.has(word)) wordCounts.set(word, (wordCounts.get(word) ?? 0) + 1);
        seen.add(word);
      });
    }
  }
  const top = (counts: Map<string, number>, k: number): string[] =>
    [...counts]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, k)
      .map(([name]) => name);
  return {
    tags: top(tagCounts, options.tags ?? VOCABULARY_DEFAULTS.tags),
    words: top(wordCounts, options.words ?? VOCABULARY_DEFAULTS.words),
  };
}

/** Receives one non-zero slot of one block: blocks in order, slots ascending within a block. */
export type SlotSink = (block: number, slot: number, value: number) => void;

/**
 * Turns a document's blocks into slot counts; one encoder per vocabulary, reused across documents.
 * The same counts as forEachTag and forEachWord with Map lookups, found faster, since this runs on
 * every block of every page: a block's ancestor tags are looked up once per distinct tag path of
 * the page, and words are hashed as they are scanned and looked up without being cut out, except
 * the rare ones with non-ASCII letters, which are lower-cased as strings so the result is exact.
 */
export class BlockEncoder {
  readonly slots: number;
  readonly #tagSlot: Map<string, number>;
  readonly #words: WordIndex;
  readonly #wordSlot0: number;
  readonly #tagOov: number;
  readonly #wordOov: number;
  /** Per page: the tag slots of each tag path, by Block.pathId. */
  readonly #pathTags: Int32Array[] = [];
  // Per-block scratch: counts by slot, and the slots touched, so clearing costs only what was set.
  readonly #counts: Int32Array;
  readonly #touched: Int32Array;
  #touchedCount = 0;

  constructor(readonly vocabulary: BlockVocabulary) {
    const tags = vocabulary.tags.length;
    this.#tagSlot = new Map(vocabulary.tags.map((t, i) => [t, i]));
    this.#words = new WordIndex(vocabulary.words);
    this.#wordSlot0 = tags + 1;
    this.#tagOov = tags;
    this.#wordOov = tags + 1 + vocabulary.words.length;
    this.slots = vocabularySlots(vocabulary);
    this.#counts = new Int32Array(this.slots);
    this.#touched = new Int32Array(this.slots);
  }

  #add(slot: number): void {
    if (this.#counts[slot] === 0) this.#touched[this.#touchedCount++] = slot;
    this.#counts[slot]++;
  }

  #tagsOf(tagPath: string): Int32Array {
    const slots: number[] = [];
    forEachTag(tagPath, (tag) => slots.push(this.#tagSlot.get(tag) ?? this.#tagOov));
    return Int32Array.from(slots);
  }

  #wordSlot(text: string, start: number, end: number, hash: number, ascii: boolean): number {
    let entry: number;
    if (ascii) {
      entry = end - start <= this.#words.longest ? this.#words.indexOf(text, start, end, hash) : -1;
    } else {
      // toLowerCase can change a non-ASCII word's length (İ) or spelling (final Σ): do it as forEachWord does.
      const lower = text.slice(start, end).toLowerCase();
      entry = this.#words.indexOf(lower, 0, lower.length, hashOf(lower, 0, lower.length));
    }
    return entry < 0 ? this.#wordOov : this.#wordSlot0 + entry;
  }

  #addWords(text: string): void {
    const n = text.length;
    let i = 0;
    while (i < n) {
      let c = text.charCodeAt(i);
      if (WORD_UNIT[c] === 0) {
        i++;
        continue;
      }
      const start = i;
      let hash = FNV_BASIS;
      let ascii = true;
      do {
        if (c >= 65 && c <= 90) c += 32;
        else if (c >= 0x80) ascii = false;
        hash = fnvStep(hash, c);
      } while (++i < n && WORD_UNIT[(c = text.charCodeAt(i))] === 1);
      this.#add(this.#wordSlot(text, start, i, hash, ascii));
    }
  }

  /** Hands every non-zero slot of every block of `doc` to `sink`, as log(1 + count). */
  encode(doc: SegmentedDocument, sink: SlotSink): void {
    const pathTags = this.#pathTags;
    pathTags.length = 0;
    const blocks = doc.blocks;
    for (let b = 0; b < blocks.length; b++) {
      const block = blocks[b];
      this.#touchedCount = 0;
      const tags = (pathTags[block.pathId] ??= this.#tagsOf(block.tagPath));
      for (let k = 0; k < tags.length; k++) this.#add(tags[k]);
      this.#addWords(block.text);
      const touched = this.#touched;
      const n = this.#touchedCount;
      // Insertion sort in place: a block touches a dozen or two slots, and a subarray().sort() per
      // block cost more than all its word lookups.
      for (let k = 1; k < n; k++) {
        const slot = touched[k];
        let j = k - 1;
        for (; j >= 0 && touched[j] > slot; j--) touched[j + 1] = touched[j];
        touched[j + 1] = slot;
      }
      for (let k = 0; k < n; k++) {
        const slot = touched[k];
        const count = this.#counts[slot];
        sink(b, slot, count < LOG1P.length ? LOG1P[count] : Math.log1p(count));
        this.#counts[slot] = 0;
      }
    }
  }

  /** Sparse rows (CSR) for training: block b's slots are index[start[b] .. start[b+1]). */
  sparse(doc: SegmentedDocument): SparseBlocks {
    const start = new Int32Array(doc.blocks.length + 1);
    const index: number[] = [];
    const value: number[] = [];
    this.encode(doc, (b, slot, v) => {
      index.push(slot);
      value.push(v);
      start[b + 1] = index.length;
    });
    // Blocks without any slot end where the block before them ended.
    for (let b = 1; b < start.length; b++) if (start[b] < start[b - 1]) start[b] = start[b - 1];
    return { start, index: Int32Array.from(index), value: Float64Array.from(value) };
  }

  /** Dense rows (blocks x slots, row-major) for models with the dense token input, written into `out` at `offset`. */
  dense(doc: SegmentedDocument, out: Float32Array, offset = 0): void {
    const slots = this.slots;
    out.fill(0, offset, offset + doc.blocks.length * slots);
    this.encode(doc, (b, slot, v) => (out[offset + b * slots + slot] = v));
  }
}

/** Compressed sparse rows of slot values, one row per block. */
export interface SparseBlocks {
  start: Int32Array;
  index: Int32Array;
  value: Float64Array;
}
