import { describe, expect, it } from "vitest";
import type { Block, SegmentedDocument } from "@winnow/segment";
import { Doctype } from "@winnow/segment";
import { buildBlockGraph, graphFromEdges } from "./graph.js";
import { solveHarmonic } from "./harmonic.js";
import { propagateLabels, propagateLabelsDetailed } from "./propagate.js";
import { heuristicSeeds } from "./seeds.js";

/** Path ids as the segmenter gives them: equal paths, equal ids. */
const pathIds = new Map<string, number>();

function block(index: number, text: string, tagPath = "html/body/div/p", anchorChars = 0): Block {
  if (!pathIds.has(tagPath)) pathIds.set(tagPath, pathIds.size);
  return {
    index,
    text,
    tagPath,
    pathId: pathIds.get(tagPath) as number,
    container: tagPath.split("/").pop() ?? "p",
    classIds: "",
    classMask: 0,
    nearClassMask: 0,
    heading: 0,
    anchorCount: anchorChars > 0 ? 1 : 0,
    anchorChars,
    markupChars: 0,
    textChars: text.length,
    emptyBefore: 0,
    parentId: 0,
    grandparentId: 0,
    repeatOf: -1,
  };
}

function docOf(blocks: Block[]): SegmentedDocument {
  return { title: "", doctype: Doctype.Html5, blocks, markupChars: 0, textChars: 0, truncated: false };
}

const plainDoc = (n: number) => docOf(Array.from({ length: n }, (_, i) => block(i, `block ${i}`)));

/** Two tight clusters in 2-D, interleaved in block order so adjacency alone cannot decide. */
function twoClusters(perCluster: number): { rows: Float32Array; truth: number[] } {
  const rows = new Float32Array(perCluster * 2 * 2);
  const truth: number[] = [];
  for (let i = 0; i < perCluster * 2; i++) {
    const cluster = i % 2;
    rows[i * 2] = cluster === 1 ? 0.9 + 0.01 * (i % 5) : 0.1 + 0.01 * (i % 5);
    rows[i * 2 + 1] = cluster === 1 ? 0.8 : 0.2;
    truth.push(cluster);
  }
  return { rows, truth };
}

describe("propagateLabels", () => {
  it("gives each cluster the label of its one seed", () => {
    const { rows, truth } = twoClusters(15);
    const seeds = new Int8Array(truth.length).fill(-1);
    seeds[0] = 0; // cluster 0
    seeds[1] = 1; // cluster 1
    const scores = propagateLabels(plainDoc(truth.length), rows, 2, seeds, { k: 5, adjacencyWeight: 0.01 });
    for (let i = 0; i < truth.length; i++) expect(scores[i] > 0.5 ? 1 : 0).toBe(truth[i]);
  });

  it("keeps seeds exactly and converges", () => {
    const { rows, truth } = twoClusters(10);
    const seeds = new Int8Array(truth.length).fill(-1);
    seeds[3] = 1;
    seeds[4] = 0;
    seeds[7] = 1;
    const result = propagateLabelsDetailed(plainDoc(truth.length), rows, 2, seeds);
    expect(result.converged).toBe(true);
    expect(result.scores[3]).toBe(1);
    expect(result.scores[4]).toBe(0);
    expect(result.scores[7]).toBe(1);
    for (const s of result.scores) expect(s >= 0 && s <= 1).toBe(true);
  });

  it("without seeds returns the neutral 0.5", () => {
    const scores = propagateLabels(plainDoc(4), new Float32Array(8), 2, new Int8Array(4).fill(-1));
    expect([...scores]).toEqual([0.5, 0.5, 0.5, 0.5]);
  });

  it("rejects mismatched seeds", () => {
    expect(() => propagateLabels(plainDoc(3), new Float32Array(6), 2, new Int8Array(2))).toThrow(RangeError);
  });

  it("stays fast and sparse on a page of thousands of blocks", () => {
    const n = 5000,
      dims = 116;
    const rows = new Float32Array(n * dims);
    for (let i = 0; i < rows.length; i++) rows[i] = ((i * 2654435761) % 1000) / 1000;
    const graph = buildBlockGraph(rows, dims, n);
    // Symmetrised kNN plus chain edges: at most 2k + 2 neighbours on average.
    expect(graph.col.length / n).toBeLessThanOrEqual(2 * 10 + 2);
    const seeds = new Int8Array(n).fill(-1);
    seeds[0] = 1;
    seeds[n - 1] = 0;
    expect(propagateLabels(plainDoc(n), rows, dims, seeds)).toHaveLength(n);
  });
});

describe("solveHarmonic", () => {
  it("is monotone along a chain between a 1-seed and a 0-seed (and linear on a uniform chain)", () => {
    const n = 12;
    const edges: [number, number, number][] = [];
    for (let i = 0; i + 1 < n; i++) edges.push([i, i + 1, 1 + (i % 3)]);
    const seeds = new Int8Array(n).fill(-1);
    seeds[0] = 1;
    seeds[n - 1] = 0;
    const { scores, converged } = solveHarmonic(graphFromEdges(n, edges), seeds, { tolerance: 1e-9, maxIterations: 100_000 });
    expect(converged).toBe(true);
    for (let i = 0; i + 1 < n; i++) expect(scores[i + 1]).toBeLessThan(scores[i]);

    const uniform = solveHarmonic(
      graphFromEdges(
        n,
        edges.map(([a, b]) => [a, b, 1]),
      ),
      seeds,
      { tolerance: 1e-9, maxIterations: 100_000 },
    );
    for (let i = 0; i < n; i++) expect(uniform.scores[i]).toBeCloseTo(1 - i / (n - 1), 4);
  });

  it("satisfies the harmonic property at every unlabelled node", () => {
    const edges: [number, number, number][] = [
      [0, 2, 1],
      [1, 2, 2],
      [2, 3, 0.5],
      [3, 4, 1],
      [1, 4, 0.3],
      [2, 4, 0.7],
    ];
    const seeds = Int8Array.from([1, 0, -1, -1, -1]);
    const graph = graphFromEdges(5, edges);
    const { scores } = solveHarmonic(graph, seeds, { tolerance: 1e-10, maxIterations: 10_000 });
    for (const i of [2, 3, 4]) {
      let sum = 0,
        deg = 0;
      for (let e = graph.start[i]; e < graph.start[i + 1]; e++) {
        sum += graph.weight[e] * scores[graph.col[e]];
        deg += graph.weight[e];
      }
      expect(scores[i]).toBeCloseTo(sum / deg, 5);
    }
  });
});

describe("heuristicSeeds", () => {
  it("seeds long link-free text as content, chrome and short link blocks as boilerplate, and leaves the rest", () => {
    const long = Array.from({ length: 45 }, (_, i) => `word${i}`).join(" ");
    const doc = docOf([
      block(0, long, "html/body/main/article/p"),
      block(1, long, "html/body/nav/ul/li"),
      block(2, "Home", "html/body/main/p", 4),
      block(3, "read more about this topic here", "html/body/div/p", 28),
      block(4, long, "html/body/div/p"),
      block(5, "a short but real sentence here", "html/body/article/p"),
      block(6, long, "html/body/article/p", 60),
      block(7, "Subscribe", "html/body/div/p"),
    ]);
    // Short text alone is no evidence (headings, bylines and captions are short): -1, not 0.
    expect([...heuristicSeeds(doc)]).toEqual([1, 0, 0, 0, 1, -1, -1, -1]);
  });
});
