/**
 * Per-page block graph for label propagation: a sparse, symmetric weight matrix in CSR form.
 *
 * Kernel: w_ij = exp(-||x_i - x_j||² / σ²) on each block's k nearest neighbours in feature space
 * (union-symmetrised: an edge exists when either end picked the other), plus a fixed weight for
 * sequence neighbours (i, i±1), added on top when both apply. Memory stays O(n·k).
 */

import { mulberry32 } from "@winnow/random";

/** Undirected weighted graph; neighbours of i are col[start[i] .. start[i+1]-1] with weights w. */
export interface BlockGraph {
  n: number;
  start: Int32Array;
  col: Int32Array;
  weight: Float64Array;
  /** σ² the kernel used (0 when the graph has no feature edges). */
  sigma2: number;
}

export interface GraphOptions {
  /** Nearest neighbours per block before symmetrising. */
  k?: number;
  /** Candidates for a block's neighbours: blocks within ±window positions... */
  window?: number;
  /** ...plus this many blocks drawn at random from the whole page, so distant look-alikes still connect. */
  samples?: number;
  /** Weight of the edge between blocks i and i+1, added to any feature edge between them. */
  adjacencyWeight?: number;
  /** Fixed σ²; by default the median squared distance over the kNN pairs of the page. */
  sigma2?: number;
  /** Seed of the random candidate sample, so graphs are reproducible. */
  seed?: number;
}

const GRAPH_DEFAULTS = { k: 10, window: 200, samples: 50, adjacencyWeight: 0.5, seed: 1 } as const;

function squaredDistance(rows: ArrayLike<number>, dims: number, i: number, j: number): number {
  let s = 0;
  const a = i * dims,
    b = j * dims;
  for (let d = 0; d < dims; d++) {
    const diff = rows[a + d] - rows[b + d];
    s += diff * diff;
  }
  return s;
}

/**
 * Builds the graph of n blocks from row-major features (n × dims). Neighbour search compares each
 * block with at most 2·window + samples candidates, so it costs O(n·(window + samples)·dims) rather
 * than O(n²·dims) on pages with thousands of blocks.
 */
export function buildBlockGraph(rows: ArrayLike<number>, dims: number, n: number, options: GraphOptions = {}): BlockGraph {
  if (rows.length < n * dims) throw new RangeError(`rows hold ${rows.length} values, need ${n} × ${dims}`);
  const k = Math.max(0, Math.min(options.k ?? GRAPH_DEFAULTS.k, n - 1));
  const window = options.window ?? GRAPH_DEFAULTS.window;
  const samples = options.samples ?? GRAPH_DEFAULTS.samples;
  const adjacency = options.adjacencyWeight ?? GRAPH_DEFAULTS.adjacencyWeight;
  const random = mulberry32(options.seed ?? GRAPH_DEFAULTS.seed);

  // kNN per block, kept as a sorted list of the k smallest distances (insertion: k is small).
  const nbr = new Int32Array(n * k).fill(-1);
  const dist = new Float64Array(n * k).fill(Infinity);
  const offer = (i: number, j: number): void => {
    const base = i * k;
    const d = squaredDistance(rows, dims, i, j);
    if (!(d < dist[base + k - 1])) return;
    for (let s = 0; s < k; s++) if (nbr[base + s] === j) return; // random sample may repeat a window candidate
    let s = k - 1;
    while (s > 0 && dist[base + s - 1] > d) {
      dist[base + s] = dist[base + s - 1];
      nbr[base + s] = nbr[base + s - 1];
      s--;
    }
    dist[base + s] = d;
    nbr[base + s] = j;
  };
  if (k > 0) {
    for (let i = 0; i < n; i++) {
      const lo = Math.max(0, i - window),
        hi = Math.min(n - 1, i + window);
      for (let j = lo; j <= hi; j++) if (j !== i) offer(i, j);
      // The window already covers the whole page when it is small; sampling would add nothing.
      if (hi - lo + 1 < n) {
        for (let s = 0; s < samples; s++) {
          const j = Math.floor(random() * n);
          if (j !== i && (j < lo || j > hi)) offer(i, j);
        }
      }
    }
  }

  let sigma2 = options.sigma2 ?? 0;
  if (options.sigma2 === undefined) {
    const kept: number[] = [];
    for (let x = 0; x < n * k; x++) if (nbr[x] >= 0) kept.push(dist[x]);
    sigma2 = median(kept);
    // All neighbours identical (median 0): fall back to the mean, then 1, so the kernel stays finite.
    if (!(sigma2 > 0)) {
      const mean = kept.length > 0 ? kept.reduce((a, b) => a + b, 0) / kept.length : 0;
      sigma2 = mean > 0 ? mean : 1;
    }
  }

  // Union of directed kNN edges and chain edges, keyed by (min, max) pair.
  const edges = new Map<number, number>();
  const key = (i: number, j: number): number => (i < j ? i * n + j : j * n + i);
  for (let i = 0; i < n; i++) {
    for (let s = 0; s < k; s++) {
      const j = nbr[i * k + s];
      if (j < 0) break;
      edges.set(key(i, j), Math.exp(-dist[i * k + s] / sigma2));
    }
  }
  if (adjacency > 0) {
    for (let i = 0; i + 1 < n; i++) {
      const id = key(i, i + 1);
      edges.set(id, (edges.get(id) ?? 0) + adjacency);
    }
  }
  return toCsr(n, edges, sigma2);
}

/** A graph from an explicit undirected edge list; for tests and callers with their own kernel. */
export function graphFromEdges(n: number, list: ReadonlyArray<readonly [number, number, number]>): BlockGraph {
  const edges = new Map<number, number>();
  for (const [i, j, w] of list) {
    if (i === j) continue;
    const id = i < j ? i * n + j : j * n + i;
    edges.set(id, (edges.get(id) ?? 0) + w);
  }
  return toCsr(n, edges, 0);
}

function toCsr(n: number, edges: Map<number, number>, sigma2: number): BlockGraph {
  const degree = new Int32Array(n + 1);
  for (const id of edges.keys()) {
    degree[Math.floor(id / n)]++;
    degree[id % n]++;
  }
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) start[i + 1] = start[i] + degree[i];
  const fill = start.slice(0, n);
  const col = new Int32Array(start[n]);
  const weight = new Float64Array(start[n]);
  for (const [id, w] of edges) {
    const i = Math.floor(id / n),
      j = id % n;
    col[fill[i]] = j;
    weight[fill[i]++] = w;
    col[fill[j]] = i;
    weight[fill[j]++] = w;
  }
  return { n, start, col, weight, sigma2 };
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  values.sort((a, b) => a - b);
  const mid = values.length >> 1;
  return values.length % 2 === 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}
