/**
 * Subtree fingerprints for site-template detection, computed inside the segmenter's own parse.
 *
 * Every element gets a hash of its tag name, its visible text (whitespace folded, ASCII lowercased,
 * digits as 0, so dates and counters in a footer don't split a template) and its children's hashes
 * in order, built bottom-up as elements close. Attributes are left out: the same navigation often
 * differs only in an "active" class or a session id. Elements named in SUBTREE_TAGS that hold text
 * are "candidate subtrees": their fingerprint is kept, and each block records the innermost
 * candidate that encloses it. A second parse, or a DOM, would cost as much as segmenting again;
 * riding on the segmenter's callbacks costs a few integer ops per character and element.
 *
 * Fingerprints are 53-bit integers (two 32-bit lanes, FNV-1a over char codes with an avalanche
 * at the end), exact as JavaScript numbers, so a Set<number> holds them without strings.
 */

/** Elements whose subtrees can be site templates: the containers that headers, menus and footers use. */
const SUBTREE_TAGS: ReadonlySet<string> = new Set(["div", "nav", "header", "footer", "aside", "section", "ul", "ol", "table", "form"]);

/** A document's candidate subtrees and where its blocks sit among them. */
export interface SubtreeIndex {
  /** Per candidate subtree, in start-tag order: its fingerprint, or 0 when it holds no text or never closed. */
  fingerprints: Float64Array;
  /** Per candidate: the index of the nearest enclosing candidate, -1 for none (parents come first). */
  parents: Int32Array;
  /** Per block (same order as blocks): the innermost enclosing candidate, -1 for none. */
  blockSubtrees: Int32Array;
}

const FNV_PRIME = 0x01000193;
const LANE_A_BASIS = 0x811c9dc5 | 0;
const LANE_B_BASIS = 0x2f6b3a1d | 0;
const LANE_B_PRIME = 0x5bd1e995;
const OPEN_MARK = 0x3c; // "<"
const CLOSE_MARK = 0x3e; // ">"
const SPACE = 0x20;
const TWO_POW_32 = 4294967296;

/** Murmur3's finaliser: every input bit reaches every output bit. */
function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

export class SubtreeFingerprinter {
  // Per open level, parallel to the segmenter's stack.
  private laneA: number[] = [];
  private laneB: number[] = [];
  private hasText: boolean[] = [];
  /** The candidate index opened at this level, or -1. */
  private candidateAt: number[] = [];
  /** The innermost candidate open at or above this level, or -1. */
  private innermost: number[] = [];

  private fingerprints: number[] = [];
  private parents: number[] = [];
  private blockSubtrees: number[] = [];
  private blockSubtree = -1;

  reset(): void {
    this.laneA.length = 0;
    this.laneB.length = 0;
    this.hasText.length = 0;
    this.candidateAt.length = 0;
    this.innermost.length = 0;
    this.fingerprints = [];
    this.parents = [];
    this.blockSubtrees = [];
    this.blockSubtree = -1;
  }

  /** Element `name` opened at stack level `d`. */
  open(d: number, name: string): void {
    let a = LANE_A_BASIS,
      b = LANE_B_BASIS;
    for (let i = 0; i < name.length; i++) {
      const c = name.charCodeAt(i);
      a = Math.imul(a ^ c, FNV_PRIME);
      b = Math.imul(b ^ c, LANE_B_PRIME);
    }
    this.laneA[d] = Math.imul(a ^ OPEN_MARK, FNV_PRIME);
    this.laneB[d] = Math.imul(b ^ OPEN_MARK, LANE_B_PRIME);
    this.hasText[d] = false;
    const outer = d === 0 ? -1 : this.innermost[d - 1];
    if (SUBTREE_TAGS.has(name)) {
      const index = this.fingerprints.length;
      this.fingerprints.push(0);
      this.parents.push(outer);
      this.candidateAt[d] = index;
      this.innermost[d] = index;
    } else {
      this.candidateAt[d] = -1;
      this.innermost[d] = outer;
    }
  }

  /** Visible text inside the element at level `d`. */
  text(d: number, data: string): void {
    if (d < 0) return;
    let a = this.laneA[d],
      b = this.laneB[d];
    let seen = false,
      space = false;
    for (let i = 0; i < data.length; i++) {
      let c = data.charCodeAt(i);
      if (c <= SPACE || c === 0xa0) {
        space = seen;
        continue;
      }
      if (space) {
        a = Math.imul(a ^ SPACE, FNV_PRIME);
        b = Math.imul(b ^ SPACE, LANE_B_PRIME);
        space = false;
      }
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      else if (c >= 0x30 && c <= 0x39) c = 0x30;
      a = Math.imul(a ^ c, FNV_PRIME);
      b = Math.imul(b ^ c, LANE_B_PRIME);
      seen = true;
    }
    if (!seen) return;
    // A text node is a unit: "ab" then "c" differs from "a" then "bc" only by this mark.
    this.laneA[d] = Math.imul(a ^ SPACE, FNV_PRIME);
    this.laneB[d] = Math.imul(b ^ SPACE, LANE_B_PRIME);
    this.hasText[d] = true;
  }

  /** The element at level `d` closed: finish its hash and fold it into its parent's. */
  close(d: number): void {
    const a = avalanche(Math.imul(this.laneA[d] ^ CLOSE_MARK, FNV_PRIME));
    const b = avalanche(Math.imul(this.laneB[d] ^ CLOSE_MARK, LANE_B_PRIME));
    const hasText = this.hasText[d];
    const candidate = this.candidateAt[d];
    // 53 bits: the low 21 bits of lane B above the 32 of lane A.
    if (candidate >= 0 && hasText) this.fingerprints[candidate] = (b & 0x1fffff) * TWO_POW_32 + (a >>> 0) || 1;
    if (d === 0) return;
    const p = d - 1;
    this.laneA[p] = Math.imul(Math.imul(this.laneA[p] ^ a, FNV_PRIME) ^ (b >>> 16), FNV_PRIME);
    this.laneB[p] = Math.imul(Math.imul(this.laneB[p] ^ b, LANE_B_PRIME) ^ (a >>> 16), LANE_B_PRIME);
    if (hasText) this.hasText[p] = true;
  }

  /** A block's first text arrived while level `d` was the innermost open element. */
  startBlock(d: number): void {
    this.blockSubtree = d < 0 ? -1 : this.innermost[d];
  }

  /** The block started last was pushed to the document's blocks. */
  endBlock(): void {
    this.blockSubtrees.push(this.blockSubtree);
  }

  /** The document's blocks from index `count` on were taken back (a short <noscript>'s). */
  dropBlocks(count: number): void {
    if (this.blockSubtrees.length > count) this.blockSubtrees.length = count;
  }

  finish(): SubtreeIndex {
    const index: SubtreeIndex = {
      fingerprints: Float64Array.from(this.fingerprints),
      parents: Int32Array.from(this.parents),
      blockSubtrees: Int32Array.from(this.blockSubtrees),
    };
    this.fingerprints = [];
    this.parents = [];
    this.blockSubtrees = [];
    return index;
  }
}
