/**
 * Pass 3, one task: the pairs of every band joined by union-find over all documents, numbered in
 * the stable order (input by input as the plan lists them, row by row), so each cluster's root is
 * its first document: the one kept. Then, with line dedup, the lines of the kept documents
 * counted (a merge of every input's sorted line runs, one document counted once per line) and
 * those in more than --line-threshold kept documents listed.
 *
 *   clusters/<i>.jsonl           per input, each dropped row: {row, key, of, of_input, kind}
 *   clusters/frequent-lines.bin  the frequent line hashes, sorted 64-bit values
 *   clusters/summary.json        counts and the Jaccard sample; written last, it marks the task done
 *
 * Memory: 4 bytes (union-find) + 8 bytes (exact hash) + 1 byte per document, and the ids of
 * the kept documents that others duplicate: about 1 GB for 50 million documents.
 */
import { closeSync, createReadStream, openSync, readFileSync, readSync } from "node:fs";
import { createInterface } from "node:readline";
import { estimateJaccard, mergeRuns, runsOf, UnionFind } from "@winnow/dedup";
import { AtomicFile, writeJson } from "./files.js";
import { bandNames, type Plan, paths } from "./plan.js";
import { SignatureReader } from "./signature-reader.js";
import type { SignatureMeta } from "./signatures.js";

/** Near duplicates whose similarity to the document kept is estimated, at most. */
export const JACCARD_SAMPLE = 1000;

export interface JaccardSample {
  pairs: number;
  min: number;
  p05: number;
  median: number;
  mean: number;
}

export interface ClusterSummary {
  documents: number;
  exact: number;
  near: number;
  clusters: number;
  frequentLines: number;
  /** Estimated Jaccard of (dropped, kept) near-duplicate pairs, on an even sample. */
  jaccard: JaccardSample | null;
  cpuMs: number;
}

export interface DropLine {
  row: number;
  /** The document's key (rows.ts' docKey, 16 hex digits): the filter pass drops the row only where it finds this key. */
  key: string;
  of: string;
  of_input: string;
  kind: "exact" | "near";
}

export async function clustersTask(plan: Plan, state: string, metas: readonly SignatureMeta[]): Promise<ClusterSummary> {
  const cpu = process.cpuUsage();
  const offsets: number[] = [];
  let n = 0;
  for (const meta of metas) {
    offsets.push(n);
    n += meta.rows;
  }
  const uf = new UnionFind(n);
  for (const band of bandNames(plan.settings)) {
    const fd = openSync(paths.bucket(state, band), "r");
    const buf = Buffer.allocUnsafe(16 << 12);
    let pos = 0;
    try {
      for (;;) {
        const got = readSync(fd, buf, 0, buf.length, pos);
        if (got === 0) break;
        pos += got;
        for (let o = 0; o + 16 <= got; o += 16) {
          uf.union(offsets[buf.readUInt32LE(o)] + buf.readUInt32LE(o + 4), offsets[buf.readUInt32LE(o + 8)] + buf.readUInt32LE(o + 12));
        }
      }
    } finally {
      closeSync(fd);
    }
  }
  // Exact hashes of all documents, to tell exact copies from near ones.
  const exact = new BigUint64Array(n);
  for (let s = 0; s < metas.length; s++) {
    const bytes = readFileSync(paths.sigFile(state, s, "exact"));
    exact.set(new BigUint64Array(bytes.buffer, bytes.byteOffset, metas[s].rows), offsets[s]);
  }
  const shardOf = (g: number): number => {
    let lo = 0;
    let hi = offsets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (offsets[mid] <= g) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const dropped = new Uint8Array(n);
  const keepers = new Map<number, string>();
  let exactCount = 0;
  let nearCount = 0;
  const near: Array<[number, number]> = [];
  for (let g = 0; g < n; g++) {
    const root = uf.find(g);
    if (root === g) continue;
    dropped[g] = 1;
    keepers.set(root, "");
    if (exact[root] === exact[g]) exactCount++;
    else {
      nearCount++;
      near.push([g, root]);
    }
  }
  // Roots are never dropped: each keeper is one cluster of two or more documents.
  const clusters = keepers.size;
  // Ids of the kept documents that others duplicate, read input by input.
  for (let s = 0; s < metas.length; s++) {
    const lines = createInterface({ input: createReadStream(paths.sigFile(state, s, "ids")), crlfDelay: Infinity });
    let g = offsets[s];
    for await (const line of lines) {
      if (keepers.has(g)) keepers.set(g, JSON.parse(line) as string);
      g++;
    }
  }
  for (let s = 0; s < metas.length; s++) {
    const out = await AtomicFile.open(paths.clusterShard(state, s));
    const keys = readFileSync(paths.sigFile(state, s, "keys"));
    for (let r = 0; r < metas[s].rows; r++) {
      const g = offsets[s] + r;
      if (dropped[g] === 0) continue;
      const root = uf.find(g);
      const line: DropLine = {
        row: r,
        key: keys
          .readBigUInt64LE(8 * r)
          .toString(16)
          .padStart(16, "0"),
        of: keepers.get(root) as string,
        of_input: plan.inputs[shardOf(root)].path,
        kind: exact[root] === exact[g] ? "exact" : "near",
      };
      out.write(`${JSON.stringify(line)}\n`);
    }
    out.finish();
  }
  const jaccard = plan.settings.kinds.includes("minhash") ? sampleJaccard(plan, state, near, offsets, shardOf) : null;
  const frequentLines = plan.settings.kinds.includes("lines") ? await frequentLinesOf(plan, state, metas, offsets, dropped) : 0;
  const used = process.cpuUsage(cpu);
  const summary: ClusterSummary = {
    documents: n,
    exact: exactCount,
    near: nearCount,
    clusters,
    frequentLines,
    jaccard,
    cpuMs: (used.user + used.system) / 1000,
  };
  await writeJson(paths.clusterSummary(state), summary);
  return summary;
}

function sampleJaccard(
  plan: Plan,
  state: string,
  near: ReadonlyArray<[number, number]>,
  offsets: readonly number[],
  shardOf: (g: number) => number,
): JaccardSample | null {
  if (near.length === 0) return null;
  const { bands, rows } = plan.settings.minhash;
  const reader = new SignatureReader(state, bands * rows);
  const values: number[] = [];
  const step = Math.max(1, near.length / JACCARD_SAMPLE);
  try {
    for (let i = 0; i < near.length; i += step) {
      const [g, root] = near[Math.floor(i)];
      const sg = shardOf(g);
      const sr = shardOf(root);
      values.push(estimateJaccard(reader.read(sg, g - offsets[sg]), reader.read(sr, root - offsets[sr])));
    }
  } finally {
    reader.close();
  }
  values.sort((a, b) => a - b);
  const at = (q: number): number => values[Math.min(values.length - 1, Math.floor(q * values.length))];
  return {
    pairs: values.length,
    min: values[0],
    p05: at(0.05),
    median: at(0.5),
    mean: values.reduce((a, b) => a + b, 0) / values.length,
  };
}

/** Writes the hashes of lines in more than lineThreshold kept documents; returns how many. */
async function frequentLinesOf(
  plan: Plan,
  state: string,
  metas: readonly SignatureMeta[],
  offsets: readonly number[],
  dropped: Uint8Array,
): Promise<number> {
  const runs = metas.flatMap((meta, s) => runsOf(paths.sigFile(state, s, "lines"), meta.runs.lines ?? []));
  const out = await AtomicFile.open(paths.frequentLines(state));
  const threshold = plan.settings.lineThreshold;
  const value = Buffer.alloc(8);
  let hi = -1;
  let lo = -1;
  let count = 0;
  let frequent = 0;
  const flush = (): void => {
    if (count <= threshold) return;
    value.writeUInt32LE(lo, 0);
    value.writeUInt32LE(hi, 4);
    out.write(Buffer.from(value));
    frequent++;
  };
  mergeRuns(runs, (h, l, shard, row) => {
    if (h !== hi || l !== lo) {
      if (hi !== -1) flush();
      hi = h;
      lo = l;
      count = 0;
    }
    if (dropped[offsets[shard] + row] === 0) count++;
  });
  if (hi !== -1) flush();
  out.finish();
  return frequent;
}
