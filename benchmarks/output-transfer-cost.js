#!/usr/bin/env node
/**
 * What a batch's outputs cost to cross from a pool thread to the main thread, alone: the pages
 * are cleaned once (this build, default model, metadata and language ID, batches of 16), a worker
 * thread is handed the outputs, and then, round after round, posts every batch back either as
 * the objects cleanPages made (as pools did up to 958b079) or packed by packOutputs, which the
 * main thread unpacks (pipelines/clean/src/task.ts). Each round's CPU is the process's (both
 * threads: the clone's writing in the worker, its reading and the unpacking in the main thread,
 * the collector's helpers); rounds alternate A B, B A. End-to-end runs cannot show a difference of
 * a percent on a shared machine; this shows the part that changed.
 *
 *   node benchmarks/output-transfer-cost.js [--input WARC] [--limit 800] [--rounds 11]
 *
 * Default input: benchmarks/data/wcxb-dev.warc.gz (its pages have more blocks and layouts than
 * CleanEval's).
 */
import { isDeepStrictEqual } from "node:util";
import { isMainThread, parentPort, Worker } from "node:worker_threads";
import { packOutputs, unpackOutputs } from "../pipelines/clean/dist/task.js";

if (isMainThread) await main();
else workerThread();

/** The worker: holds the outputs; posts them all back, one message per batch, as asked. */
function workerThread() {
  let batches = [];
  parentPort.on("message", (message) => {
    if (message.batches !== undefined) {
      batches = message.batches;
      parentPort.postMessage({ ready: true });
      return;
    }
    // Shallow copies in both modes: packOutputs takes its outputs over, and the next round needs them.
    for (const outputs of batches) {
      const copies = outputs.map((out) => ({ ...out }));
      parentPort.postMessage(message.packed ? packOutputs(copies) : copies);
    }
  });
}

async function main() {
  const { readRecords } = await import("@winnow/archive");
  const { loadClassifier, resolveModelSpec } = await import("@winnow/models");
  const { cleanPages } = await import("../pipelines/clean/dist/page.js");
  const { DocumentSteps } = await import("../pipelines/clean/dist/steps.js");
  const { parseFlags } = await import("./lib/common.js");
  const flags = parseFlags(process.argv.slice(2), []);
  const input = flags.input ?? new URL("./data/wcxb-dev.warc.gz", import.meta.url).pathname;
  const limit = Number(flags.limit ?? 800);
  const rounds = Number(flags.rounds ?? 11);

  const pages = [];
  for await (const record of readRecords(input)) {
    if (pages.length === limit) break;
    pages.push({ body: Uint8Array.from(record.body), headerCharset: record.charset, url: record.url, capturedAt: record.date });
  }
  const classifier = await loadClassifier(resolveModelSpec(undefined));
  const steps = await DocumentSteps.open({ langId: true, filters: [], stats: false, keepFiltered: false });
  const batches = [];
  for (let at = 0; at < pages.length; at += 16) batches.push(steps.apply(await cleanPages(pages.slice(at, at + 16), classifier)));
  await classifier.close();
  let blocks = 0;
  let layouts = 0;
  for (const out of batches.flat()) if (out.ok) for (const b of out.blocks) blocks++, b.layout !== undefined && layouts++;

  const worker = new Worker(new URL(import.meta.url));
  let onMessage = null;
  worker.on("message", (message) => onMessage(message));
  await new Promise((resolve) => {
    onMessage = resolve;
    worker.postMessage({ batches });
  });

  /** One round: every batch posted back and received (unpacked when packed); its CPU seconds and the outputs. */
  const round = (packed) =>
    new Promise((resolve) => {
      const start = process.cpuUsage();
      const received = [];
      onMessage = (message) => {
        received.push(packed ? unpackOutputs(message) : message);
        if (received.length < batches.length) return;
        const used = process.cpuUsage(start);
        resolve({ seconds: (used.user + used.system) / 1e6, outputs: received });
      };
      worker.postMessage({ packed });
    });

  const modes = { objects: false, packed: true };
  const cpu = { objects: [], packed: [] };
  const last = {};
  for (const [name, packed] of Object.entries(modes)) last[name] = (await round(packed)).outputs; // warm-up
  const same = isDeepStrictEqual(last.objects, last.packed) && isDeepStrictEqual(last.objects, batches);
  for (let r = 1; r <= rounds; r++) {
    const order = r % 2 === 1 ? Object.entries(modes) : Object.entries(modes).reverse();
    for (const [name, packed] of order) {
      const { seconds } = await round(packed);
      cpu[name].push(seconds);
      console.log(`round ${r}\t${name}\t${((1000 * seconds) / pages.length).toFixed(4)} ms a page`);
    }
  }
  await worker.terminate();

  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  console.log(`\n${input}: ${pages.length} pages, ${blocks} blocks kept (${layouts} with a layout), ${rounds} rounds`);
  for (const name of Object.keys(modes))
    console.log(`${name}: median ${((1000 * median(cpu[name])) / pages.length).toFixed(4)} CPU ms a page`);
  const ratios = cpu.packed.map((seconds, i) => seconds / cpu.objects[i]);
  console.log(`paired ratio of CPU, packed / objects: median ${median(ratios).toFixed(3)}`);
  console.log(`outputs after the crossing: ${same ? "identical to the cleaner's, both ways" : "DIFFERENT"}`);
}
