import { alignTokens } from "./lcs.js";
import { wordTokens } from "./tokens.js";

export interface AlignOptions {
  /** Minimum fraction of a block's word tokens that must be matched for label 1. Default 0.5. */
  threshold?: number;
  /**
   * Minimum length of a run of consecutive tokens accepted by the second ("moved text") pass;
   * 0 disables that pass. Default 4.
   */
  movedRunMin?: number;
}

export interface BlockAlignment {
  /** 1 = main content, 0 = boilerplate, per block. */
  labels: Uint8Array;
  /** Matched word tokens / word tokens, per block (0 for blocks without word tokens). */
  matchedFraction: Float32Array;
  /** Word tokens per block (wordTokens(text).length), counted on the way. */
  tokens: Int32Array;
  /** Fraction of gold word tokens matched to some block: how well the blocks can cover the gold. */
  goldCoverage: number;
  /** True when part of the page was too costly to align exactly (see lcs.ts). */
  approximate: boolean;
}

const DEFAULT_THRESHOLD = 0.5;
const DEFAULT_MOVED_RUN = 4;

/**
 * Labels blocks by aligning the whole page's word tokens (blocks concatenated in order) with the
 * gold text's word tokens, so each gold word is credited to at most one page position and in
 * order: a "Share" in the navigation is not content just because the gold contains "Share" once.
 *
 * Rule: block b is content iff it has ≥ 1 word token and matched(b) / tokens(b) ≥ threshold.
 *
 * Pass 1 is an order-preserving common subsequence (see lcs.ts). Because that cannot credit
 * text the gold places in a different order than the page (a title moved to the top, swapped
 * sections), pass 2 aligns the still-unmatched tokens of both sides again and keeps only runs of
 * at least `movedRunMin` pairs consecutive on both sides: copied text, not scattered common words.
 */
export function alignBlockLabels(blockTexts: readonly string[], goldText: string, options: AlignOptions = {}): BlockAlignment {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const movedRunMin = options.movedRunMin ?? DEFAULT_MOVED_RUN;
  const ids = new Map<string, number>();
  const idOf = (w: string): number => {
    let id = ids.get(w);
    if (id === undefined) ids.set(w, (id = ids.size));
    return id;
  };

  const nBlocks = blockTexts.length;
  const blockEnd = new Int32Array(nBlocks);
  const pageIds: number[] = [];
  for (let k = 0; k < nBlocks; k++) {
    for (const w of wordTokens(blockTexts[k])) pageIds.push(idOf(w));
    blockEnd[k] = pageIds.length;
  }
  const a = Int32Array.from(pageIds);
  const b = Int32Array.from(wordTokens(goldText), idOf);

  const first = alignTokens(a, b, ids.size);
  const matchedA = first.matchedA;
  let matchedGold = first.matches;
  let approximate = first.approximate;
  if (movedRunMin > 0 && first.matches < a.length && first.matches < b.length) {
    const moved = alignMoved(a, b, matchedA, first.matchedB, ids.size, movedRunMin);
    matchedGold += moved.added;
    approximate ||= moved.approximate;
  }

  const labels = new Uint8Array(nBlocks);
  const matchedFraction = new Float32Array(nBlocks);
  const tokens = new Int32Array(nBlocks);
  let pos = 0;
  for (let k = 0; k < nBlocks; k++) {
    const end = blockEnd[k];
    let hit = 0;
    for (; pos < end; pos++) hit += matchedA[pos];
    const total = end - (k === 0 ? 0 : blockEnd[k - 1]);
    tokens[k] = total;
    const frac = total === 0 ? 0 : hit / total;
    matchedFraction[k] = frac;
    labels[k] = total > 0 && frac >= threshold ? 1 : 0;
  }
  const goldCoverage = b.length === 0 ? 0 : matchedGold / b.length;
  return { labels, matchedFraction, tokens, goldCoverage, approximate };
}

/** Pass 2: align the leftovers, then mark (in place) only long consecutive runs as matched. */
function alignMoved(
  a: Int32Array,
  b: Int32Array,
  matchedA: Uint8Array,
  matchedB: Uint8Array,
  vocabSize: number,
  minRun: number,
): { added: number; approximate: boolean } {
  const restA = unmatchedIndices(matchedA);
  const restB = unmatchedIndices(matchedB);
  const second = alignTokens(
    restA.map((i) => a[i]),
    restB.map((j) => b[j]),
    vocabSize,
  );
  // Walk matched residual pairs in order; they pair up in sequence because the alignment is
  // order-preserving (only approximately so where it fell back to its bag match, which the
  // result flags). A run continues while both residual indices advance by exactly one.
  const ra = second.matchedA;
  const rb = second.matchedB;
  let added = 0;
  let runStart = -1;
  let runLen = 0;
  let prevI = -2;
  let prevJ = -2;
  let j = 0;
  const flush = (): void => {
    if (runLen >= minRun) {
      for (let k = runStart; k < runStart + runLen; k++) matchedA[restA[k]] = 1;
      added += runLen;
    }
  };
  for (let i = 0; i < ra.length; i++) {
    if (ra[i] === 0) continue;
    while (rb[j] === 0) j++;
    if (i === prevI + 1 && j === prevJ + 1) runLen++;
    else {
      flush();
      runStart = i;
      runLen = 1;
    }
    prevI = i;
    prevJ = j;
    j++;
  }
  flush();
  return { added, approximate: second.approximate };
}

function unmatchedIndices(matched: Uint8Array): Int32Array {
  let n = 0;
  for (let i = 0; i < matched.length; i++) n += 1 - matched[i];
  const out = new Int32Array(n);
  for (let i = 0, k = 0; i < matched.length; i++) if (matched[i] === 0) out[k++] = i;
  return out;
}
