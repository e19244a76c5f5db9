#!/usr/bin/env node
/**
 * What the block features cost per page: an earlier build's feature sets against this build's,
 * over the same pages segmented once by this build's segmenter, in one process, rounds
 * interleaved (before, after, before, after ...), CPU time (process.cpuUsage) per round. Each
 * round writes every page's rows into one reused buffer, as FeatureBatch.append does in a clean
 * run. Those pages stay segmented and warm in the caches from round to round, which a clean run's
 * pages never are; so a second series segments each page afresh just before both builds extract
 * it (in alternating order), as a clean run does, timing each extract on its own. Then what
 * loading each build's features module costs, in fresh processes, interleaved likewise: the
 * tables and the 58 function-word lists are built at import, in the main thread and again in
 * every worker thread.
 *
 *   npx turbo run build --filter=@winnow/features... && node benchmarks/features-cost.js --before OTHER_CHECKOUT
 *     [--data DIR] [--limit 400] [--cleaneval 730] [--rounds 9] [--fresh-rounds 3] [--evict MB] [--set texrex37+ext+ctx] [--loads 9]
 *     [--load-after-first]
 *   node benchmarks/features-cost.js --before-set texrex37+ext+ctx --after-set texrex37+ext+ctx+struct
 *     (two sets of this build against each other: what the values one set adds cost; --before is
 *     this checkout when left out)
 *   (OTHER_CHECKOUT: a checkout of the earlier commit with packages/features/dist built, e.g.
 *   `git archive 03a9544 | tar -x -C DIR`, a node_modules link to this one's, and the features built;
 *   DIR: the labelled sets, ../shared/data by default: the first --limit pages of wcxb-dev and
 *   the first --cleaneval pages of cleaneval)
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { decodeHtmlPieces } from "@winnow/archive";
import { Segmenter } from "@winnow/segment";
import { parseFlags } from "./lib/common.js";

const flags = parseFlags(process.argv.slice(2), ["load-after-first"]);
const setName = flags.set ?? "texrex37+ext+ctx";
const setNames = { before: flags["before-set"] ?? setName, after: flags["after-set"] ?? setName };
if (flags.before === undefined && setNames.before === setNames.after) {
  throw new Error("--before OTHER_CHECKOUT is needed, or two sets of this build (--before-set, --after-set)");
}
const beforeRoot = flags.before ?? new URL("..", import.meta.url).pathname;
const data = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const limit = Number(flags.limit ?? 400);
const cleaneval = Number(flags.cleaneval ?? 730);
const rounds = Number(flags.rounds ?? 9);
const loads = Number(flags.loads ?? 9);
const freshRounds = Number(flags["fresh-rounds"] ?? 3);
// In a clean run the stages between two pages' features (ONNX Runtime, fastText's WebAssembly,
// the writer) pass megabytes through the caches, so the features' tables are seldom still there:
// --evict MB reads that much memory before each extract of the fresh series (0: none).
const evictBytes = Number(flags.evict ?? 0) * 1024 * 1024;
const evictBuffer = new Float64Array(evictBytes / 8);
/** Reads one double per 64-byte line of evictBuffer, pushing the caches' older lines out. */
function evictCaches() {
  let sum = 0;
  for (let k = 0; k < evictBuffer.length; k += 8) sum += evictBuffer[k];
  return sum;
}

const modules = {
  before: pathToFileURL(join(beforeRoot, "packages/features/dist/index.js")).href,
  after: new URL("../packages/features/dist/index.js", import.meta.url).href,
};
// Two copies of one module in one process can run some percent apart by the order they were
// loaded in (alloc-cost.js's header): run once as is and once with --load-after-first.
const sets = {};
for (const name of flags["load-after-first"] === true ? ["after", "before"] : ["before", "after"]) {
  sets[name] = (await import(modules[name])).featureSetByName(setNames[name]);
}

const segmenter = new Segmenter();
const pieces = [];
const docs = [];
for (const [set, count] of [
  ["wcxb-dev", limit],
  ["cleaneval", cleaneval],
]) {
  const dir = join(data, set, "html");
  for (const name of readdirSync(dir).sort().slice(0, count)) {
    const decoded = decodeHtmlPieces(gunzipSync(readFileSync(join(dir, name))), "").pieces;
    pieces.push(decoded);
    docs.push(segmenter.segment(decoded));
  }
}
const blocks = docs.reduce((n, d) => n + d.blocks.length, 0);
let buffer = new Float32Array(0);
let sink = 0;
function extractAll(set) {
  for (const doc of docs) {
    const need = doc.blocks.length * set.size;
    if (buffer.length < need) buffer = new Float32Array(need);
    set.extract(doc, buffer, 0);
    sink += buffer[0];
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpu = { before: [], after: [] };
extractAll(sets.before);
extractAll(sets.after); // warm-up
for (let r = 0; r < rounds; r++) {
  for (const name of ["before", "after"]) {
    const start = process.cpuUsage();
    extractAll(sets[name]);
    const used = process.cpuUsage(start);
    cpu[name].push((used.user + used.system) / 1000);
  }
}
console.log(
  `${setNames.before === setNames.after ? setNames.after : `${setNames.before} (before) against ${setNames.after} (after)`}: ${docs.length} pages (${limit} of wcxb-dev, ${cleaneval} of cleaneval), ${blocks} blocks, ${rounds} interleaved rounds, CPU ms per page:`,
);
const perPage = (ms) => ms / docs.length;
for (const name of ["before", "after"]) {
  const xs = cpu[name];
  console.log(
    `  ${name.padEnd(7)} median ${perPage(median(xs)).toFixed(3)} ms/page (fastest ${perPage(Math.min(...xs)).toFixed(3)}), ${((median(xs) / median(cpu.before)) * 100).toFixed(0)}% of before`,
  );
}

// Pages segmented afresh, as in a clean run: each build's extract timed on its own, the order
// alternating from page to page and round to round.
const fresh = { before: [], after: [] };
for (let r = 0; r < freshRounds; r++) {
  const used = { before: 0, after: 0 };
  for (let p = 0; p < pieces.length; p++) {
    const doc = segmenter.segment(pieces[p]);
    for (const name of (p + r) % 2 === 0 ? ["before", "after"] : ["after", "before"]) {
      const need = doc.blocks.length * sets[name].size;
      if (buffer.length < need) buffer = new Float32Array(need);
      if (evictBytes > 0) sink += evictCaches();
      const start = process.cpuUsage();
      sets[name].extract(doc, buffer, 0);
      const cpuUsed = process.cpuUsage(start);
      used[name] += (cpuUsed.user + cpuUsed.system) / 1000;
      sink += buffer[0];
    }
  }
  for (const name of ["before", "after"]) fresh[name].push(used[name]);
}
if (freshRounds > 0) {
  const evicted = evictBytes > 0 ? `, ${flags.evict} MB read before each extract` : "";
  console.log(`each page segmented afresh before both extract it (${freshRounds} rounds${evicted}), CPU ms per page:`);
  for (const name of ["before", "after"]) {
    const xs = fresh[name];
    console.log(
      `  ${name.padEnd(7)} median ${perPage(median(xs)).toFixed(3)} ms/page (fastest ${perPage(Math.min(...xs)).toFixed(3)}), ${((median(xs) / median(fresh.before)) * 100).toFixed(0)}% of before`,
    );
  }
}

// Import cost: a fresh process per load, before and after alternating; CPU of the import alone.
const script =
  "const t = process.cpuUsage(); const m = await import(process.argv[1]); m.featureSetByName('texrex37'); " +
  "const u = process.cpuUsage(t); process.stdout.write(String((u.user + u.system) / 1000));";
const load = { before: [], after: [] };
for (let r = 0; r < loads; r++) {
  for (const name of ["before", "after"]) {
    load[name].push(Number(execFileSync(process.execPath, ["--input-type=module", "-e", script, modules[name]], { encoding: "utf8" })));
  }
}
console.log(`loading the module (${loads} fresh processes each, interleaved), CPU ms:`);
for (const name of ["before", "after"]) {
  console.log(`  ${name.padEnd(7)} median ${median(load[name]).toFixed(1)} ms (fastest ${Math.min(...load[name]).toFixed(1)})`);
}
if (sink === Number.MAX_VALUE) console.log(sink);
