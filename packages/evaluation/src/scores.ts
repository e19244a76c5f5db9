import { wordTokens } from "./tokens.js";

export interface WordScores {
  precision: number;
  recall: number;
  f1: number;
}

/**
 * Bag-of-words precision / recall / F1 of an extraction against the gold main text (the WCXB
 * rule): overlap = Σ_w min(count_extracted(w), count_gold(w)).
 *
 * Edge cases, chosen so that the per-page mean stays defined:
 * - both texts without words → precision = recall = f1 = 1 (nothing to find, nothing extra);
 * - exactly one without words → all 0 (the other side's ratio is 0/n; the empty side's 0/0 is
 *   taken as 0 rather than 1 so that an empty extraction is never rewarded with precision 1).
 */
export function wordScores(extracted: string, gold: string): WordScores {
  return bagScores(wordTokens(extracted), wordTokens(gold));
}

/** Same as {@link wordScores} on already tokenised text (lets callers tokenise the gold once). */
export function bagScores(extracted: readonly string[], gold: readonly string[]): WordScores {
  const ne = extracted.length;
  const ng = gold.length;
  if (ne === 0 && ng === 0) return { precision: 1, recall: 1, f1: 1 };
  if (ne === 0 || ng === 0) return { precision: 0, recall: 0, f1: 0 };
  // Counting down the gold bag while scanning the extraction yields Σ min(...) in one pass.
  const remaining = new Map<string, number>();
  for (const w of gold) remaining.set(w, (remaining.get(w) ?? 0) + 1);
  let overlap = 0;
  for (const w of extracted) {
    const r = remaining.get(w);
    if (r !== undefined && r > 0) {
      remaining.set(w, r - 1);
      overlap++;
    }
  }
  const precision = overlap / ne;
  const recall = overlap / ng;
  const f1 = overlap === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
