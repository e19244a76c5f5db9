#!/usr/bin/env node
/**
 * CPU profile (node --cpu-prof) of the single-threaded winnow MLP end-to-end run, summarised:
 * the top functions by self time, and the pipeline stages by inclusive time.
 *
 *   node benchmarks/profile.js [--quick] [--input WARC] [--model PATH] [--workers 0|1] [--top N] [--json FILE]
 *
 * The .cpuprofile files stay in benchmarks/data/profiles/ (open them in Chrome DevTools).
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import {
  BENCH_DIR,
  DATA_DIR,
  QUICK_PAGES,
  ROOT,
  benchModel,
  ensureWarc,
  fmt,
  machineInfo,
  parseFlags,
  runChild,
  table,
} from "./lib/common.js";
import { summarizeProfile, topBySelf } from "./lib/cpuprofile.js";

const METHOD = join(BENCH_DIR, "lib", "method.js");

/** Inclusive time of the costliest function matching `match`: the entry point of a stage. */
const entry = (match) => (rows) => rows.filter(match).sort((a, b) => b.totalMs - a.totalMs)[0]?.totalMs;
/** Self time summed over matching functions: for work spread over callbacks (ORT runs off a setImmediate). */
const selfSum = (match) => (rows) => rows.filter(match).reduce((a, r) => a + r.selfMs, 0) || undefined;

/** Pipeline stages, by the function that enters each (inclusive time, so nested work is counted once). */
const STAGES = [
  ["read + gunzip (archive)", entry((r) => r.name === "pieces" && r.where.includes("archive/dist/gunzip"))],
  ["decode (decodeHtmlPieces)", entry((r) => r.name === "decodeHtmlPieces")],
  ["segment (segmentHtml, htmlparser2 inside)", entry((r) => r.name === "segmentHtml")],
  ["  of which htmlparser2 + entities (self)", selfSum((r) => /node_modules\/(htmlparser2|entities)\//.test(r.where))],
  ["  of which winnow's segmenter code (self)", selfSum((r) => r.where.includes("segment/dist/"))],
  // The pipeline appends page by page (cleanPages); fill, which appends, is kept for other callers.
  ["features (FeatureBatch.append)", entry((r) => r.name === "append" && r.where.includes("models/dist/classifier"))],
  ["  of which class-word masks (self)", selfSum((r) => r.where.includes("features/dist/class-words"))],
  ["ONNX Runtime (JS binding + native run)", selfSum((r) => /onnxruntime-(node|common)\//.test(r.where) && r.name !== "initOrt")],
  ["write (JSONL writer)", entry((r) => r.name === "write" && r.where.includes("writers/dist"))],
  ["garbage collector", entry((r) => r.name === "(garbage collector)")],
];

export async function profile(options = {}, log = console.error) {
  const quick = options.quick === true;
  const input = options.input ?? ensureWarc({ limit: quick ? QUICK_PAGES : undefined, data: options.data, log });
  const model = options.model ? { path: options.model, kind: "given" } : await benchModel({ data: options.data, log });
  const workers = Number(options.workers ?? 0);
  // Profiles are megabytes each: kept with the generated data (gitignored), not with the results.
  const dir = join(options.profileDir ?? join(DATA_DIR, "profiles"), new Date().toISOString().replace(/[:.]/g, "-"));
  mkdirSync(dir, { recursive: true });
  log(`profile: winnow MLP, workers ${workers}, over ${basename(input)} ...`);
  const run = await runChild(METHOD, ["--method", "mlp", "--input", input, "--model", model.path, "--workers", String(workers)], {
    nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`],
  });
  // One file per thread; the main thread's is the one whose name ends in .0.NNN.
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .sort();
  const top = Number(options.top ?? 15);
  const threads = files.map((f) => {
    const summary = summarizeProfile(join(dir, f), { root: ROOT });
    const busy = summary.rows
      .filter((r) => r.name !== "(idle)" && r.name !== "(program)" && r.name !== "(root)")
      .reduce((a, r) => a + r.selfMs, 0);
    return { file: join(dir, f), summary, busyMs: busy, top: topBySelf(summary, top) };
  });
  const sections = threads.map((t, i) => {
    const label = threads.length === 1 ? "the only thread" : i === 0 ? "main thread" : `worker thread ${i}`;
    const selfTable = table(
      ["#", "function", "where", "self ms", "self %"],
      t.top.map((r, k) => [k + 1, r.name, r.where, fmt.n(r.selfMs), fmt.n(100 * r.selfShare, 1)]),
    );
    const stageRows = STAGES.map(([name, measure]) => {
      const ms = measure(t.summary.rows);
      return ms === undefined ? null : [name, fmt.n(ms), fmt.n((100 * ms) / t.summary.totalMs, 1)];
    }).filter(Boolean);
    return (
      `#### ${label} (${relative(ROOT, t.file)}; ${fmt.n(t.summary.totalMs / 1000, 1)} s sampled, ${fmt.n(t.busyMs / 1000, 1)} s not idle)\n\n` +
      `Top ${top} by self time:\n\n${selfTable}\n\n` +
      (stageRows.length
        ? `Stages (inclusive time of each stage's entry function; self time summed where marked):\n\n${table(["stage", "ms", "%"], stageRows)}`
        : "")
    );
  });
  const markdown =
    `winnow MLP (\`${basename(model.path)}\`), workers ${workers}, over ${basename(input)}: ${run.records} records in ${fmt.n(run.elapsedSeconds, 1)} s ` +
    `(${fmt.n(run.cpuSeconds, 1)} CPU-s) with the profiler on (it adds a few %). Shares are of the sampled time of the thread.\n\n${sections.join("\n\n")}`;
  return {
    machine: machineInfo(),
    input,
    model,
    run,
    dir,
    threads: threads.map((t) => ({ file: t.file, busyMs: t.busyMs, top: t.top })),
    markdown,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flags = parseFlags(process.argv.slice(2), ["quick"]);
  try {
    const result = await profile({
      quick: flags.quick === true,
      input: flags.input,
      model: flags.model,
      workers: flags.workers,
      top: flags.top,
      data: flags.data,
    });
    if (flags.json) writeFileSync(flags.json, JSON.stringify(result, null, 2));
    console.log(result.markdown);
  } catch (error) {
    console.error(`profile: ${error.message}`);
    process.exit(1);
  }
}
