#!/usr/bin/env node
/**
 * Where a `winnow clean` run's memory goes, thread by thread (issue 33's RSS target): the run in
 * a child process with lib/thread-sampler.js preloaded in the main thread and in every pool
 * thread, each sampling its own V8 heap (used, committed, new and old space, code), external and
 * arrayBuffers memory, and the process's RSS every 50 ms, and its collector's pauses. Prints, per
 * thread, the peaks, the values at a few points of the run and the pauses, and the process's peak
 * RSS (VmHWM). A busy thread samples less often (its timer waits for the batch it runs).
 *
 *   node benchmarks/memory-threads.js [--build DIR] [--input WARC] [--keep-log FILE] [-- clean flags...]
 *   e.g. node benchmarks/memory-threads.js --build /work/b-7aa2dc6 -- --workers 1
 *
 * Defaults: this checkout's build, benchmarks/data/cleaneval-x5.warc.gz, `--workers 1` when the
 * clean flags do not name --workers. Every other default is winnow's own (the MLP, metadata and
 * language ID on). RSS is the whole process's: every thread's line shows the same figure.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL("..", import.meta.url));
const sampler = new URL("./lib/thread-sampler.js", import.meta.url);

const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const own = dash >= 0 ? argv.slice(0, dash) : argv;
const cleanFlags = dash >= 0 ? argv.slice(dash + 1) : [];
const flag = (name, fallback) => {
  const at = own.indexOf(name);
  return at >= 0 ? own[at + 1] : fallback;
};
const build = resolve(flag("--build", here));
const input = resolve(flag("--input", join(here, "benchmarks/data/cleaneval-x5.warc.gz")));
const keepLog = flag("--keep-log", null);
if (!existsSync(input)) {
  console.error(`memory-threads: no input ${input} (make it with benchmarks/make-warc.js, see benchmarks/README.md)`);
  process.exit(2);
}
if (!cleanFlags.includes("--workers")) cleanFlags.push("--workers", "1");

const dir = mkdtempSync(join(tmpdir(), "winnow-memory-threads-"));
const log = join(dir, "samples.jsonl");
try {
  const run = spawnSync(
    process.execPath,
    [
      "--import",
      `${sampler.href}?log=${encodeURIComponent(log)}`,
      join(build, "pipelines/cli/bin/winnow.js"),
      "clean",
      input,
      "-o",
      join(dir, "out.jsonl"),
      ...cleanFlags,
    ],
    { encoding: "utf8" },
  );
  if (run.status !== 0) {
    console.error(`memory-threads: winnow clean exited ${run.status}: ${run.stderr.slice(-2000)}`);
    process.exit(1);
  }
  const summary = run.stderr.split("\n").find((line) => line.includes("wrote")) ?? "";
  if (keepLog) copyFileSync(log, keepLog);
  report(
    readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line)),
    summary,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function report(samples, summary) {
  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  console.log(`build ${build}\ninput ${input}\nflags ${cleanFlags.join(" ")}\n${summary.trim()}`);
  const peak = Math.max(...samples.map((s) => s.peakRss));
  console.log(`process peak RSS (VmHWM) ${mb(peak)} MB`);
  const threads = [...new Set(samples.map((s) => s.thread))];
  const fields = [
    "rss",
    "heapUsed",
    "heapTotal",
    "newSpace",
    "oldSpace",
    "codeSpace",
    "largeObjectSpace",
    "external",
    "arrayBuffers",
    "malloced",
  ];
  const first = samples[0].t;
  for (const thread of threads) {
    const own = samples.filter((s) => s.thread === thread);
    const limits = own.find((s) => s.event === "start")?.resourceLimits;
    const gc = own.at(-1).gc;
    console.log(
      `\n${thread}: ${own.length} samples over ${((own.at(-1).t - own[0].t) / 1000).toFixed(1)} s${limits ? `, resourceLimits ${JSON.stringify(limits)}` : ""}`,
    );
    console.log(`  collector pauses: ${gc.young} young ${gc.youngMs.toFixed(0)} ms, ${gc.full} full ${gc.fullMs.toFixed(0)} ms`);
    console.log(`  ${"MB".padEnd(8)}${fields.map((f) => f.padStart(11)).join("")}`);
    console.log(`  ${"peak".padEnd(8)}${fields.map((f) => mb(Math.max(...own.map((s) => s[f]))).padStart(11)).join("")}`);
    const atPeak = own.reduce((a, b) => (b.rss > a.rss ? b : a));
    console.log(`  ${"@RSSmax".padEnd(8)}${fields.map((f) => mb(atPeak[f]).padStart(11)).join("")}`);
    for (const q of [0, 0.1, 0.25, 0.5, 0.75, 1]) {
      const s = own[Math.min(own.length - 1, Math.floor(q * (own.length - 1)))];
      const label = `${((s.t - first) / 1000).toFixed(1)}s`;
      console.log(`  ${label.padEnd(8)}${fields.map((f) => mb(s[f]).padStart(11)).join("")}`);
    }
  }
}
