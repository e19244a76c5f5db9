#!/usr/bin/env node
/**
 * What the pool threads' heap limits (pipelines/clean's THREAD_RESOURCE_LIMITS) cost in CPU, in
 * one process: two one-thread pools, one with Node's own limits and one with winnow's, clean the
 * same pages in alternating rounds (A B, B A, ...), two batches in flight as a run keeps them;
 * each round's CPU is the whole process's (process.cpuUsage: both pools' threads, the collector's
 * helpers, the main thread's packing). Prints each round, the medians and the paired ratio, and
 * checks that both pools gave the same outputs.
 *
 *   node benchmarks/pool-limits-cpu.js [--input WARC] [--rounds 8] [--limits JSON] [--before OTHER_CHECKOUT]
 *
 * --limits tries other limits than winnow's (a worker's resourceLimits, e.g.
 * '{"maxOldGenerationSizeMb":1024,"maxYoungGenerationSizeMb":24}'). --before compares two builds
 * instead, each pool with its build's own limits: the other checkout's (built) pool against this
 * one's, what crosses between the threads included.
 *
 * Default input: benchmarks/data/cleaneval.warc.gz (730 pages). The default model, metadata and
 * language ID, as a default run cleans.
 */
import { isDeepStrictEqual } from "node:util";
import { readRecords } from "@winnow/archive";
import { resolveModelSpec } from "@winnow/models";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { openPoolCleaner, THREAD_RESOURCE_LIMITS } from "../pipelines/clean/dist/pool.js";

const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const input = flag("--input", new URL("./data/cleaneval.warc.gz", import.meta.url).pathname);
const rounds = Number(flag("--rounds", 8));
const tried = args.includes("--limits") ? JSON.parse(flag("--limits")) : THREAD_RESOURCE_LIMITS;
const BATCH = 16;
const IN_FLIGHT = 2;

// Every HTML response's payload, copied out of the reader's buffers once.
const pages = [];
for await (const record of readRecords(input)) {
  pages.push({ body: Uint8Array.from(record.body), charset: record.charset, url: record.url, date: record.date });
}
const settings = { model: resolveModelSpec(undefined), corpus: { langId: true, filters: [], stats: false, keepFiltered: false } };
const before = flag("--before", undefined);
const pools =
  before === undefined
    ? {
        "Node's limits": await openPoolCleaner({ threads: 1, settings, resourceLimits: {} }),
        [JSON.stringify(tried)]: await openPoolCleaner({ threads: 1, settings, resourceLimits: tried }),
      }
    : {
        [`before (${before})`]: await (
          await import(pathToFileURL(join(resolve(before), "pipelines/clean/dist/pool.js")).href)
        ).openPoolCleaner({ threads: 1, settings }),
        "after (this build)": await openPoolCleaner({ threads: 1, settings }),
      };

/** One pass over the pages on `pool`, IN_FLIGHT batches at a time; fresh payloads, since a batch's are transferred. */
async function pass(pool) {
  const outputs = [];
  const running = new Set();
  for (let at = 0; at < pages.length; at += BATCH) {
    const batch = pages.slice(at, at + BATCH).map((page) => ({ ...page, body: Uint8Array.from(page.body) }));
    const done = pool.clean(batch).then((out) => {
      outputs[at / BATCH] = out;
      running.delete(done);
    });
    running.add(done);
    if (running.size >= IN_FLIGHT) await Promise.race(running);
  }
  await Promise.all(running);
  return outputs.flat();
}

const cpu = {};
const last = {};
for (const name of Object.keys(pools)) last[name] = await pass(pools[name]); // warm-up round, not counted
for (let round = 1; round <= rounds; round++) {
  // A B, then B A: neither pool always runs right after the other's garbage.
  const order = round % 2 === 1 ? Object.entries(pools) : Object.entries(pools).reverse();
  for (const [name, pool] of order) {
    const start = process.cpuUsage();
    last[name] = await pass(pool);
    const used = process.cpuUsage(start);
    const seconds = (used.user + used.system) / 1e6;
    (cpu[name] ??= []).push(seconds);
    console.log(`round ${round}\t${name}\t${seconds.toFixed(3)} CPU s\t${(pages.length / seconds).toFixed(1)} pages/CPU-s`);
  }
}
for (const pool of Object.values(pools)) await pool.close();

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const [a, b] = Object.keys(pools);
console.log(`\n${pages.length} pages, ${rounds} rounds each; winnow's limits: ${JSON.stringify(THREAD_RESOURCE_LIMITS)}`);
for (const name of [a, b])
  console.log(`${name}: median ${median(cpu[name]).toFixed(3)} CPU s, ${(pages.length / median(cpu[name])).toFixed(1)} pages/CPU-s`);
const ratios = cpu[a].map((seconds, i) => seconds / cpu[b][i]);
console.log(`paired ratio of pages per CPU-second, ${b} / ${a}: median ${median(ratios).toFixed(3)}`);
console.log(`outputs of the last round: ${isDeepStrictEqual(last[a], last[b]) ? "identical" : "DIFFERENT"}`);
