import type { SegmentedDocument } from "@winnow/segment";
import { buildBlockGraph, type GraphOptions } from "./graph.js";
import { solveHarmonic, type HarmonicResult, type SolveOptions } from "./harmonic.js";

export type PropagationOptions = GraphOptions & SolveOptions;

/** Like propagateLabels, but also says how the solver ended (for diagnostics and tests). */
export function propagateLabelsDetailed(
  doc: SegmentedDocument,
  rows: ArrayLike<number>,
  dims: number,
  seeds: Int8Array,
  options: PropagationOptions = {},
): HarmonicResult {
  const n = doc.blocks.length;
  if (seeds.length !== n) throw new RangeError(`seeds has ${seeds.length} entries for ${n} blocks`);
  return solveHarmonic(buildBlockGraph(rows, dims, n, options), seeds, options);
}

/**
 * Content scores in [0, 1] for every block of doc: seeds (1, 0; -1 unlabelled) are kept as given,
 * the rest get the harmonic function over the page's block graph. Threshold at 0.5.
 * rows: the page's feature rows, row-major blocks × dims (e.g. from a FeatureSet).
 */
export function propagateLabels(
  doc: SegmentedDocument,
  rows: ArrayLike<number>,
  dims: number,
  seeds: Int8Array,
  options: PropagationOptions = {},
): Float32Array {
  return propagateLabelsDetailed(doc, rows, dims, seeds, options).scores;
}
