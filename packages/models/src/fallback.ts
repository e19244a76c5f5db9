/**
 * The empty-page fallback: on a page where no block reaches the keep threshold, the blocks
 * scoring within `factor` of the page's best are kept instead. A page with nothing kept scores 0
 * whatever it holds; its best-scored blocks are most often its main text (seen held out: 32 of
 * 1,358 WCXB dev pages came out empty under leave-one-source-out).
 *
 * Done by rescaling the page's scores, so everything downstream keeps comparing scores with the
 * one threshold: when the best score m is under `threshold`, every score s becomes
 * s × threshold / (factor × m), which lifts exactly the blocks with s >= factor × m to the
 * threshold or above.
 */
export function applyEmptyPageFallback(scores: Float32Array, threshold: number, factor: number): void {
  let best = 0;
  for (let b = 0; b < scores.length; b++) if (scores[b] > best) best = scores[b];
  if (best >= threshold || best <= 0) return;
  const scale = threshold / (factor * best);
  for (let b = 0; b < scores.length; b++) scores[b] = Math.min(1, scores[b] * scale);
}
