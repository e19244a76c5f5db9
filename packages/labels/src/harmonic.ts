/**
 * Harmonic solution of Zhu, Ghahramani & Lafferty (2003): labelled nodes keep their labels, every
 * unlabelled node takes the weighted mean of its neighbours, i.e. f_u = (D_uu − W_uu)^{-1} W_ul f_l.
 * Solved by Gauss–Seidel sweeps rather than a dense inverse, so cost is O(edges) per sweep.
 */
import type { BlockGraph } from "./graph.js";

export interface SolveOptions {
  /** Stop when no unlabelled value moved more than this in one sweep. */
  tolerance?: number;
  maxIterations?: number;
  /**
   * Start value of unlabelled nodes. It is also the answer for nodes in a component with no seed,
   * where the harmonic problem has no unique solution. Default: the share of 1 among the seeds
   * (0.5 when there are none).
   */
  initial?: number;
}

const SOLVE_DEFAULTS = { tolerance: 1e-4, maxIterations: 500 } as const;

export interface HarmonicResult {
  scores: Float32Array;
  iterations: number;
  converged: boolean;
}

/** seeds: 1 content, 0 boilerplate, -1 unlabelled; seeded nodes come back with exactly their seed. */
export function solveHarmonic(graph: BlockGraph, seeds: Int8Array, options: SolveOptions = {}): HarmonicResult {
  const { n, start, col, weight } = graph;
  if (seeds.length !== n) throw new RangeError(`seeds has ${seeds.length} entries for ${n} nodes`);
  const tolerance = options.tolerance ?? SOLVE_DEFAULTS.tolerance;
  const maxIterations = options.maxIterations ?? SOLVE_DEFAULTS.maxIterations;
  let ones = 0,
    labelled = 0;
  for (let i = 0; i < n; i++) {
    if (seeds[i] === 1) ones++;
    if (seeds[i] >= 0) labelled++;
  }
  const initial = options.initial ?? (labelled > 0 ? ones / labelled : 0.5);
  const f = new Float64Array(n);
  const free: number[] = [];
  for (let i = 0; i < n; i++) {
    if (seeds[i] >= 0) f[i] = seeds[i] > 0 ? 1 : 0;
    else {
      f[i] = initial;
      free.push(i);
    }
  }
  let iterations = 0,
    converged = free.length === 0 || labelled === 0;
  // Without seeds every constant is harmonic; keep the initial value instead of iterating.
  while (!converged && iterations < maxIterations) {
    iterations++;
    let maxChange = 0;
    for (const i of free) {
      let sum = 0,
        deg = 0;
      for (let e = start[i]; e < start[i + 1]; e++) {
        sum += weight[e] * f[col[e]];
        deg += weight[e];
      }
      if (deg <= 0) continue; // isolated node: no evidence, keeps its initial value
      const next = sum / deg;
      const change = Math.abs(next - f[i]);
      if (change > maxChange) maxChange = change;
      f[i] = next;
    }
    converged = maxChange < tolerance;
  }
  return { scores: Float32Array.from(f), iterations, converged };
}
