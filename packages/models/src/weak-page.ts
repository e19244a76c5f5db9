/**
 * The weak-page rule: on a page where the model is sure of little of what it keeps, and where
 * much more text scores a little lower, the keep threshold is lowered for that page.
 *
 * Why: on an article the kept text is mostly blocks the model is sure of (scores of 0.8 and
 * more); on listings, collections and link-heavy service pages the gold's main text is made of
 * short linked items that score in the uncertain band, so the threshold keeps a few of them and
 * drops the rest. Held out (leave one source out, eight sets, the shipped recipe), keeping such a
 * page (its kept text less than half sure, and at least twice that text again between a fifth of
 * the threshold and the threshold) at the lower bar lifts collections and listings by 0.06-0.08
 * of F1 and leaves articles level (docs/quality.md, "The weak-page rule"); without the second
 * condition, short articles whose few kept blocks are all the text there is lost it.
 *
 * The lowered bar never takes a block the comment markup marks as a thread, its chrome, a signed
 * or an announced run (comment-markup.ts): a thread the markup did not settle as comments is
 * still no main text, and lifting one put whole threads into the main text on news pages with a
 * short kept article. A forum's posts (COMMENT_DISCUSSION) are main text and may be lifted.
 *
 * Done by rescaling the page's scores, as the empty-page fallback does, so that everything
 * downstream keeps comparing scores with the one threshold: with t the threshold and l = t × 0.2,
 * a score s >= l becomes t + (s − l)(1 − t)/(1 − l) (l to t, 1 to 1), and s < l becomes a score
 * under t; the order of the scores is kept.
 */

import { COMMENT_DISCUSSION, COMMENT_UNKNOWN } from "./comment-markup.js";

/** The weak-page rule's settings (WEAK_PAGE_RULE is the one `winnow clean` applies). */
export interface WeakPageRule {
  /** A block the model is sure of: its score at or above this. */
  sure: number;
  /** The page is weak when its sure text is less than this share of its kept text. */
  sureShare: number;
  /** The lowered bar, as a share of the keep threshold. */
  lowFactor: number;
  /** Text between the lowered bar and the threshold must be at least this many times the kept text. */
  growth: number;
  /** A page that keeps this many characters or more has its main text: the rule leaves it alone. */
  maxKept: number;
}

/** Chosen on held-out scores of the eight shared sets (experiments/weak-page.js). */
export const WEAK_PAGE_RULE: Readonly<WeakPageRule> = {
  sure: 0.8,
  sureShare: 0.5,
  lowFactor: 0.2,
  growth: 2,
  maxKept: Number.POSITIVE_INFINITY,
};

/**
 * Applies the weak-page rule to one page's block scores at `threshold` (in place); `blockChars[b]`
 * is block b's text length (Block.textChars), `commentRoles` what the comment markup says of each
 * block (CommentContext.roles; null where it says nothing). Returns whether it fired.
 */
export function applyWeakPageRule(
  scores: Float32Array,
  blockChars: ArrayLike<number>,
  threshold: number,
  commentRoles: ArrayLike<number> | null = null,
  rule: Readonly<WeakPageRule> = WEAK_PAGE_RULE,
): boolean {
  const low = threshold * rule.lowFactor;
  let kept = 0,
    sure = 0,
    between = 0;
  for (let b = 0; b < scores.length; b++) {
    const s = scores[b];
    const chars = blockChars[b];
    if (s >= threshold) {
      kept += chars;
      if (s >= rule.sure) sure += chars;
    } else if (s >= low && !inComments(commentRoles, b)) between += chars;
  }
  if (kept === 0 || kept >= rule.maxKept || sure >= rule.sureShare * kept || between < rule.growth * kept) return false;
  const keptFloor = float32AtLeast(threshold);
  const droppedCeiling = float32Below(threshold);
  const above = (1 - threshold) / (1 - low);
  for (let b = 0; b < scores.length; b++) {
    const s = scores[b];
    // A comment block the threshold drops stays as it is (dropped, and its score still the one
    // the comments field reads).
    if (s < threshold && inComments(commentRoles, b)) continue;
    scores[b] = s >= low ? Math.max(keptFloor, threshold + (s - low) * above) : Math.min(droppedCeiling, (s * threshold) / low);
  }
  return true;
}

/** Whether the markup marks block `b` as part of the comments (not a forum's discussion). */
function inComments(roles: ArrayLike<number> | null, b: number): boolean {
  if (roles === null) return false;
  const role = roles[b];
  return role !== COMMENT_UNKNOWN && role !== COMMENT_DISCUSSION;
}

const word = new Float32Array(1);
const bits = new Uint32Array(word.buffer);

/** The smallest float32 at or above `x` (0 < x < 1): a score stored there compares >= x. */
function float32AtLeast(x: number): number {
  word[0] = x;
  if (word[0] < x) bits[0]++;
  return word[0];
}

/** The largest float32 below `x` (0 < x <= 1): a score stored there compares < x. */
function float32Below(x: number): number {
  word[0] = x;
  if (word[0] >= x) bits[0]--;
  return word[0];
}
