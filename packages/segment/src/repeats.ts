/**
 * The blocks of one page by their lowercased text, to find a block's first earlier copy
 * (Block.repeatOf).
 *
 * Why not a Map keyed by the text: a string key is hashed over all of its characters, and nearly
 * every block of a page is unique, so each block's whole text was hashed to learn nothing (with
 * the lowercasing, a sixth of the segmenter's per-block time on WCXB dev; the lookups alone cost
 * twice what they cost here, benchmarks/results/2026-11-27-segmenter-speed.md). Keyed by the
 * text's length instead, a lookup hashes one small integer and compares strings only with the
 * earlier texts of the same length, which a differing character ends at once.
 */
export class RepeatIndex {
  /** The newest entry for each text length (an index into the arrays below). */
  private readonly newestByLength = new Map<number, number>();
  /** Entries per length, to know when a length's chain is crowded. */
  private readonly entriesByLength = new Map<number, number>();
  /**
   * Crowded lengths: their texts in a Map from text to first block. Walking a chain is quadratic in
   * its length: 40,000 five-word table rows of one length took 5.3 s to segment where the Map took
   * 0.9 s. Past CROWDED entries a length's texts move here, and its chain is no longer read.
   */
  private readonly crowded = new Map<number, Map<string, number>>();
  // One entry per distinct text, in parallel arrays reused from page to page: the text, the
  // entry of the same length added before it (-1: none), and the index of its first block.
  private readonly texts: string[] = [];
  private readonly previous: number[] = [];
  private readonly blocks: number[] = [];

  /** The first block whose text is `key`, or -1. */
  firstOf(key: string): number {
    const byText = this.crowded.size === 0 ? undefined : this.crowded.get(key.length);
    if (byText !== undefined) return byText.get(key) ?? -1;
    for (let e = this.newestByLength.get(key.length) ?? -1; e >= 0; e = this.previous[e]) {
      if (this.texts[e] === key) return this.blocks[e];
    }
    return -1;
  }

  /** Block `block` is the first with text `key` (firstOf gave -1). */
  add(key: string, block: number): void {
    const length = key.length;
    const byText = this.crowded.size === 0 ? undefined : this.crowded.get(length);
    if (byText !== undefined) {
      byText.set(key, block);
      return;
    }
    const e = this.texts.length;
    this.texts.push(key);
    this.previous.push(this.newestByLength.get(length) ?? -1);
    this.blocks.push(block);
    this.newestByLength.set(length, e);
    const entries = (this.entriesByLength.get(length) ?? 0) + 1;
    this.entriesByLength.set(length, entries);
    if (entries > CROWDED) this.crowd(length);
  }

  /** Block `block` is gone: when it was the first with text `key`, the text is unseen again. */
  forget(key: string, block: number): void {
    const byText = this.crowded.size === 0 ? undefined : this.crowded.get(key.length);
    if (byText !== undefined) {
      if (byText.get(key) === block) byText.delete(key);
      return;
    }
    let later = -1;
    for (let e = this.newestByLength.get(key.length) ?? -1; e >= 0; later = e, e = this.previous[e]) {
      if (this.texts[e] !== key) continue;
      if (this.blocks[e] !== block) return;
      // Unlinked from its length's chain; the slot stays unused until the next page.
      if (later >= 0) this.previous[later] = this.previous[e];
      else if (this.previous[e] >= 0) this.newestByLength.set(key.length, this.previous[e]);
      else this.newestByLength.delete(key.length);
      this.texts[e] = "";
      return;
    }
  }

  clear(): void {
    this.newestByLength.clear();
    this.entriesByLength.clear();
    this.crowded.clear();
    this.texts.length = 0;
    this.previous.length = 0;
    this.blocks.length = 0;
  }

  /** Moves a length's chain into a Map (see `crowded`). */
  private crowd(length: number): void {
    const byText = new Map<string, number>();
    for (let e = this.newestByLength.get(length) ?? -1; e >= 0; e = this.previous[e]) byText.set(this.texts[e], this.blocks[e]);
    this.newestByLength.delete(length);
    this.crowded.set(length, byText);
  }
}

/**
 * Entries of one length past which its texts go to a Map: a page's blocks of five words or more
 * rarely share a length more than a few times, and 64 string comparisons that end at the first
 * differing character cost less than hashing one long text.
 */
const CROWDED = 64;
