/**
 * Pass 2, one task per band: the band's entries of every input merged in key order (sorted runs
 * on disk, one 64 KiB block per run in memory), each group of documents sharing a key turned into
 * checked pairs (@winnow/dedup's pairBucket: each near duplicate paired with an earlier member
 * whose signature agrees on at least min-similarity of its positions; the "exact" band pairs
 * every member with the group's first), written as 16-byte (input, row, input, row) records:
 *
 *   buckets/<band>.pairs    written whole and renamed
 *   buckets/<band>.json     counts; written last, it marks the task done
 *
 * Members come out of the merge in (input, row) order, the stable order that decides which
 * document is kept, so the first of a group is its earliest.
 */
import { mergeRuns, pairBucket, runsOf } from "@winnow/dedup";
import { AtomicFile, writeJson } from "./files.js";
import { type Plan, paths } from "./plan.js";
import { SignatureReader } from "./signature-reader.js";
import type { SignatureMeta } from "./signatures.js";

export interface BucketResult {
  band: string;
  entries: number;
  /** Groups of two or more documents. */
  groups: number;
  pairs: number;
  largestGroup: number;
  cpuMs: number;
}

export async function bucketTask(plan: Plan, state: string, metas: readonly SignatureMeta[], band: string): Promise<BucketResult> {
  const cpu = process.cpuUsage();
  const name = `band-${band}`;
  const runs = metas.flatMap((meta, shard) => runsOf(paths.sigFile(state, shard, name), meta.runs[name] ?? []));
  const out = await AtomicFile.open(paths.bucket(state, band));
  const record = Buffer.alloc(16);
  const signatures = band === "exact" ? null : new SignatureReader(state, plan.settings.minhash.bands * plan.settings.minhash.rows);
  const minSimilarity = plan.settings.minSimilarity;
  const result: BucketResult = { band, entries: 0, groups: 0, pairs: 0, largestGroup: 0, cpuMs: 0 };
  let hi = -1;
  let lo = -1;
  let group: number[] = [];
  const flush = (): void => {
    const n = group.length / 2;
    if (n < 2) return;
    result.groups++;
    if (n > result.largestGroup) result.largestGroup = n;
    const members = Array.from({ length: n }, (_, i) => i);
    const g = group;
    pairBucket(
      members,
      (m) => (signatures as SignatureReader).read(g[2 * m], g[2 * m + 1]),
      signatures === null ? 0 : minSimilarity,
      (kept, dup) => {
        record.writeUInt32LE(g[2 * kept], 0);
        record.writeUInt32LE(g[2 * kept + 1], 4);
        record.writeUInt32LE(g[2 * dup], 8);
        record.writeUInt32LE(g[2 * dup + 1], 12);
        out.write(Buffer.from(record));
        result.pairs++;
      },
    );
  };
  try {
    mergeRuns(runs, (h, l, shard, row) => {
      result.entries++;
      if (h !== hi || l !== lo) {
        flush();
        group = [];
        hi = h;
        lo = l;
      }
      group.push(shard, row);
    });
    flush();
  } finally {
    signatures?.close();
  }
  out.finish();
  const used = process.cpuUsage(cpu);
  result.cpuMs = (used.user + used.system) / 1000;
  await writeJson(paths.bucketSummary(state, band), result);
  return result;
}
