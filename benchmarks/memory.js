#!/usr/bin/env node
/**
 * Memory: peak RSS of a winnow MLP run over a multi-gigabyte input (the dev pages repeated with
 * make-warc --repeat), with 1 and 2 workers, against the issue's bound 150 MB + 60 MB per worker and the
 * bound RESULTS.md states (150 MB + 300 MB per worker). RSS is
 * sampled through the run too, so a plateau (bounded) can be told from growth (a leak).
 *
 *   node benchmarks/memory.js [--repeat R] [--workers 1,2] [--model PATH] [--input WARC] [--json FILE]
 *
 * Slow: R=5 is 6,790 pages, ~2 GB of HTML in a ~320 MB gzip WARC (generated once, ~2 min).
 */
import { writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { rssBound } from "./end-to-end.js";
import {
  BENCH_DIR,
  benchModel,
  busyWarning,
  ensureWarc,
  fmt,
  machineInfo,
  parseFlags,
  parseList,
  runChild,
  table,
  warcStats,
} from "./lib/common.js";

const METHOD = join(BENCH_DIR, "lib", "method.js");
export const DEFAULT_REPEAT = 5;
/** The bound RESULTS.md states as holding (measured 2026-11-23): the issue's 150 + 60 per worker does not. */
export const statedRssBound = (workers) => (150 + 300 * workers) * 1e6;

/** RSS at a few points of the run (by share of the samples), in MB, to show its shape. */
function shape(samples) {
  if (!samples?.length) return "–";
  const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * (samples.length - 1)))];
  return [0.1, 0.25, 0.5, 0.75, 1].map((q) => fmt.mb(at(q).rss)).join(" → ");
}

export async function memory(options = {}, log = console.error) {
  const repeat = Number(options.repeat ?? DEFAULT_REPEAT);
  const input = options.input ?? ensureWarc({ repeat, data: options.data, log });
  const model = options.model ? { path: options.model, kind: "given" } : await benchModel({ data: options.data, log });
  const stats = await warcStats(input);
  const workerList = parseList(String(options.workers ?? "1,2"));
  const warning = busyWarning();
  const rows = [];
  for (const workers of workerList) {
    log(`memory: ${workers === 0 ? "inline" : `${workers} worker${workers === 1 ? "" : "s"}`} over ${basename(input)} ...`);
    const r = await runChild(METHOD, [
      "--method",
      "mlp",
      "--input",
      input,
      "--model",
      model.path,
      "--workers",
      String(workers),
      "--sample-rss",
      "500",
    ]);
    const bound = rssBound(workers);
    const peakHeap = Math.max(...(r.rssSamples ?? []).map((s) => s.heapUsed));
    const peakBuffers = Math.max(...(r.rssSamples ?? []).map((s) => s.arrayBuffers));
    const stated = statedRssBound(workers);
    rows.push({
      workers,
      ...r,
      bound,
      stated,
      peakHeap,
      peakBuffers,
      within: r.peakRssBytes <= bound,
      withinStated: r.peakRssBytes <= stated,
    });
  }
  const body = rows.map((r) => [
    r.workers === 0 ? "0 (inline)" : r.workers,
    r.records,
    fmt.n(r.elapsedSeconds, 0),
    fmt.n(r.records / r.elapsedSeconds, 1),
    fmt.mb(r.peakRssBytes),
    fmt.mb(r.bound),
    r.within ? "yes" : "**no**",
    fmt.mb(r.stated),
    r.withinStated ? "yes" : "**no**",
    shape(r.rssSamples),
    fmt.mb(r.peakHeap),
    fmt.mb(r.peakBuffers),
  ]);
  const markdown =
    (warning ? `> **Note:** ${warning}.\n\n` : "") +
    `Input: ${basename(input)}: ${stats.records} HTML records (the dev pages × ${repeat}), ${fmt.n(stats.payloadBytes / 1e9, 2)} GB of HTML, ` +
    `${fmt.n(stats.compressedBytes / 1e9, 2)} GB gzip. winnow MLP (\`${basename(model.path)}\`), JSONL output, one process per row. ` +
    "Peak RSS is the process's own high-water mark (VmHWM: main thread and workers); the RSS columns sampled every 0.5 s show whether it plateaus. " +
    "Heap and ArrayBuffer peaks are the main thread's only (process.memoryUsage).\n\n" +
    table(
      [
        "workers",
        "docs",
        "s",
        "docs/s",
        "peak RSS MB",
        "issue's bound MB",
        "within",
        "stated bound MB",
        "within",
        "RSS at 10/25/50/75/100% MB",
        "main heap peak MB",
        "main ArrayBuffers peak MB",
      ],
      body,
    );
  return { machine: machineInfo(), input, stats, model, rows, markdown };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flags = parseFlags(process.argv.slice(2));
  try {
    const result = await memory({ repeat: flags.repeat, workers: flags.workers, model: flags.model, input: flags.input, data: flags.data });
    if (flags.json) writeFileSync(flags.json, JSON.stringify(result, null, 2));
    console.log(result.markdown);
  } catch (error) {
    console.error(`memory: ${error.message}`);
    process.exit(1);
  }
}
