#!/usr/bin/env node
/**
 * Where `winnow clean` allocates its bytes, per page, and how often the collector runs for them.
 * Garbage collection is a fifth to a third of a default run's CPU (the main thread's own
 * `(garbage collector)` samples plus V8's platform threads, benchmarks/thread-cpu.js), and what it
 * costs follows from what the hot path allocates. One run of each build's CLI over the same
 * input (default `--workers 0`, so one heap holds the whole run), with benchmarks/lib/alloc-sampler.js
 * preloaded: V8's sampling heap profiler that also counts the objects already collected by minor
 * and major GCs (plain `--heap-prof` keeps only what is still alive at the end). And `--trace-gc`,
 * whose lines give the scavenges and mark-compacts.
 *
 *   node benchmarks/alloc-profile.js --builds OLD_CHECKOUT,. --input WARC [--top 25]
 *     [--interval 16384] [--keep DIR] [-- clean flags]
 *
 * Prints, per build: bytes allocated per HTML record, scavenges and mark-compacts per 1,000
 * records, then the functions that allocate the most, by self bytes (allocated in the function
 * itself: V8 names the function, not the line) and by inclusive bytes (in it and what it calls),
 * and the allocation sites (the allocating function with its two callers). The profiler samples
 * one allocation every `--interval` bytes on average, so each figure is an estimate whose error
 * shrinks with its size; a row of a few KB per page is noise. The GC counts are exact. Neither
 * depends on how busy the machine is, which is why this is the measure to compare on a shared one.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildsCommandLine } from "./lib/common.js";

const { flags, builds, cleanFlags } = buildsCommandLine(process.argv.slice(2), ["--workers", "0"], []);
const top = Number(flags.top ?? 25);
const sampler = fileURLToPath(new URL("./lib/alloc-sampler.js", import.meta.url));

/** A frame's place, short: the package and file below dist/ or node_modules/, and the line. */
function place(frame, build) {
  let url = frame.url.replace(/^file:\/\//, "");
  if (url.startsWith(build)) url = url.slice(build.length + 1);
  url = url
    .replace(/^.*node_modules\//, "")
    .replace(/^(packages|pipelines)\//, "")
    .replace("/dist/", "/");
  return url === "" ? "" : `${url}:${frame.lineNumber + 1}`;
}
const label = (frame, build) => {
  const name = frame.functionName || "(anonymous)";
  const where = place(frame, build);
  return where === "" ? name : `${name} ${where}`;
};

/** Self and inclusive bytes per function; self bytes per site (function and two callers). */
function summarize(profile, build) {
  const self = new Map();
  const inclusive = new Map();
  const sites = new Map();
  let total = 0;
  const add = (map, key, bytes) => map.set(key, (map.get(key) ?? 0) + bytes);
  // Returns the subtree's bytes; `onStack` keeps a recursive function from counting twice.
  const walk = (node, stack, onStack) => {
    const key = label(node.callFrame, build);
    const path = [...stack, key];
    let bytes = node.selfSize;
    if (node.selfSize > 0) {
      total += node.selfSize;
      add(self, key, node.selfSize);
      add(sites, path.slice(-3).reverse().join(" < "), node.selfSize);
    }
    const fresh = !onStack.has(key);
    if (fresh) onStack.add(key);
    for (const child of node.children) bytes += walk(child, path, onStack);
    if (fresh) {
      onStack.delete(key);
      add(inclusive, key, bytes);
    }
    return bytes;
  };
  walk(profile.head, [], new Set());
  return { total, self, inclusive, sites };
}

/** Scavenges and mark-compacts in `--trace-gc`'s lines. */
function gcCounts(text) {
  let scavenges = 0;
  let markCompacts = 0;
  for (const line of text.split("\n")) {
    if (/: Scavenge\b/.test(line)) scavenges++;
    else if (/: Mark-Compact\b/.test(line)) markCompacts++;
  }
  return { scavenges, markCompacts };
}

const rowsOf = (map, total, records) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, bytes]) => `| ${(bytes / records / 1024).toFixed(1)} | ${((100 * bytes) / total).toFixed(1)}% | \`${key}\` |`);

const keep = flags.keep === undefined ? undefined : resolve(flags.keep);
if (keep !== undefined) mkdirSync(keep, { recursive: true });
for (const build of builds) {
  const dir = mkdtempSync(join(tmpdir(), "winnow-alloc-"));
  try {
    const profileFile = join(keep ?? dir, `${build.split("/").pop() || "build"}.heapprofile`);
    const cli = join(build, "pipelines", "cli", "bin", "winnow.js");
    const run = spawnSync(
      process.execPath,
      ["--import", sampler, "--trace-gc", cli, "clean", flags.input, "-o", join(dir, "out.jsonl"), ...cleanFlags],
      {
        encoding: "utf8",
        maxBuffer: 1 << 28,
        env: { ...process.env, WINNOW_ALLOC_PROFILE: profileFile, WINNOW_ALLOC_INTERVAL: String(flags.interval ?? 16384) },
      },
    );
    if (run.status !== 0) throw new Error(`${build}: winnow clean failed: ${run.stderr.slice(-400)}`);
    const summaryLine = run.stderr.split("\n").find((l) => l.includes('"summary"'));
    const summary = JSON.parse(summaryLine).summary;
    const records = summary.recordsRead - summary.skipped["not-response"];
    const { total, self, inclusive, sites } = summarize(JSON.parse(readFileSync(profileFile, "utf8")), build);
    const gc = gcCounts(run.stdout);
    console.log(`## ${build}\n`);
    console.log(`input ${flags.input}, flags ${cleanFlags.join(" ")}; ${records} HTML records, ${summary.documentsWritten} documents`);
    console.log(
      `allocated ${(total / 2 ** 20).toFixed(0)} MB in all, ${(total / records / 1024).toFixed(1)} KB per record; ` +
        `${gc.scavenges} scavenges (${((1000 * gc.scavenges) / records).toFixed(1)} per 1,000 records), ` +
        `${gc.markCompacts} mark-compacts (${((1000 * gc.markCompacts) / records).toFixed(1)} per 1,000)\n`,
    );
    for (const [title, map] of [
      ["functions by self bytes", self],
      ["functions by inclusive bytes", inclusive],
      ["allocation sites (function < caller < caller's caller), self bytes", sites],
    ]) {
      console.log(`### ${title}\n\n| KB per record | share | function |\n| ---: | ---: | --- |`);
      console.log(`${rowsOf(map, total, records).join("\n")}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
