/**
 * Sets of subtree fingerprints as sorted Float64Arrays: compact (8 bytes a fingerprint, no
 * per-entry objects), cheap to send to a worker, and compared by one linear merge.
 */
import type { SubtreeIndex } from "@winnow/segment";

/** A page's text-bearing candidate fingerprints, sorted, each once. */
export function pageFingerprints(subtrees: SubtreeIndex): Float64Array {
  const sorted = Float64Array.from(subtrees.fingerprints).sort();
  let unique = 0;
  for (let i = 0; i < sorted.length; i++) {
    const f = sorted[i];
    if (f !== 0 && (unique === 0 || sorted[unique - 1] !== f)) sorted[unique++] = f;
  }
  return sorted.slice(0, unique);
}

/** How many fingerprints two sorted sets share. */
export function intersectionSize(a: Float64Array, b: Float64Array): number {
  let i = 0,
    j = 0,
    shared = 0;
  while (i < a.length && j < b.length) {
    const x = a[i],
      y = b[j];
    if (x === y) {
      shared++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return shared;
}

/** Calls `each` for every fingerprint in both sorted sets. */
export function forEachShared(a: Float64Array, b: Float64Array, each: (fingerprint: number) => void): void {
  let i = 0,
    j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i],
      y = b[j];
    if (x === y) {
      each(x);
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
}

/** Whether a sorted set holds `fingerprint` (binary search: no Set to build per page). */
function hasFingerprint(sorted: Float64Array, fingerprint: number): boolean {
  let lo = 0,
    hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid];
    if (v === fingerprint) return true;
    if (v < fingerprint) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * Per block of the document: 1 when the block lies inside a candidate subtree whose fingerprint
 * is in `templates` (the host's template fingerprints, sorted), else 0.
 */
export function templateBlocks(subtrees: SubtreeIndex, templates: Float64Array): Uint8Array {
  const { fingerprints, parents, blockSubtrees } = subtrees;
  const flags = new Uint8Array(blockSubtrees.length);
  if (templates.length === 0) return flags;
  // Parents come before their children, so one forward pass inherits the flag down the tree.
  const inTemplate = new Uint8Array(fingerprints.length);
  for (let c = 0; c < fingerprints.length; c++) {
    const parent = parents[c];
    inTemplate[c] =
      (parent >= 0 && inTemplate[parent] === 1) || (fingerprints[c] !== 0 && hasFingerprint(templates, fingerprints[c])) ? 1 : 0;
  }
  for (let b = 0; b < blockSubtrees.length; b++) {
    const c = blockSubtrees[b];
    if (c >= 0) flags[b] = inTemplate[c];
  }
  return flags;
}

/**
 * The removal rule: blocks the classifier kept (kept[b] === 1) that lie in a site-template
 * subtree are dropped, unless their score is at least `keepScore` (the classifier is sure they
 * are content: a template subtree can hold text two neighbouring pages really share). Returns
 * how many blocks were dropped.
 */
export function dropTemplateBlocks(
  subtrees: SubtreeIndex,
  templates: Float64Array,
  scores: ArrayLike<number>,
  kept: Uint8Array,
  keepScore: number,
): number {
  if (templates.length === 0) return 0;
  const inTemplate = templateBlocks(subtrees, templates);
  let dropped = 0;
  for (let b = 0; b < kept.length; b++) {
    if (kept[b] === 1 && inTemplate[b] === 1 && scores[b] < keepScore) {
      kept[b] = 0;
      dropped++;
    }
  }
  return dropped;
}
