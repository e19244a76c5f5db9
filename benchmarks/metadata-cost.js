#!/usr/bin/env node
/**
 * What the page metadata and the block structure cost the segmenter's pass: the segmenter of an
 * earlier build (without either) and this build's (structure always, the MetadataCollector as
 * its observer, as `winnow clean` runs it) over the same decoded pages, in one process, rounds
 * interleaved, CPU time (process.cpuUsage) per round. The extra CPU per page, against the
 * end-to-end CPU per document of `winnow clean` (benchmarks/compare-builds.sh), is the share of
 * docs/CPU-s the feature costs.
 *
 *   npx tsc -b && node benchmarks/metadata-cost.js --before OTHER_CHECKOUT [--data DIR] [--limit 400] [--rounds 7]
 *   (OTHER_CHECKOUT: a built checkout of the earlier commit, e.g. `git archive 8c68521 | tar -x -C DIR`)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { decodeHtmlPieces } from "@winnow/archive";
import { MetadataCollector } from "@winnow/metadata";
import { Segmenter } from "@winnow/segment";
import { parseFlags } from "./lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
if (flags.before === undefined) throw new Error("--before OTHER_CHECKOUT is needed");
const data = flags.data ?? new URL("../../shared/data/wcxb-dev", import.meta.url).pathname;
const limit = Number(flags.limit ?? 400);
const rounds = Number(flags.rounds ?? 7);
const before = await import(pathToFileURL(join(flags.before, "packages/segment/dist/index.js")).href);

const files = readdirSync(join(data, "html")).sort().slice(0, limit);
const pages = files.map((f) => {
  const { pieces } = decodeHtmlPieces(gunzipSync(readFileSync(join(data, "html", f))), "");
  return pieces;
});
const bytes = pages.reduce((n, p) => n + p.reduce((m, s) => m + s.length, 0), 0);

const old = new before.Segmenter();
const now = new Segmenter();
const collector = new MetadataCollector();
let sink = 0;
const runs = {
  before: () => {
    for (const p of pages) sink += old.segment(p).blocks.length;
  },
  after: () => {
    for (const p of pages) {
      sink += now.segment(p, collector).blocks.length;
      sink += Object.keys(collector.finish("https://example.org/2021/03/04/x")).length;
    }
  },
  "after, no observer": () => {
    for (const p of pages) sink += now.segment(p).blocks.length;
  },
};
const cpu = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
runs.before();
runs.after(); // warm-up
for (let r = 0; r < rounds; r++) {
  for (const [name, run] of Object.entries(runs)) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    cpu[name].push((used.user + used.system) / 1e6);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// The fastest round is the least disturbed by other work on a shared machine; the median is shown beside it.
console.log(`${pages.length} pages (${(bytes / 1e6).toFixed(1)} M chars), ${rounds} interleaved rounds, CPU seconds per round:`);
const base = Math.min(...cpu.before);
for (const [name, xs] of Object.entries(cpu)) {
  const m = Math.min(...xs);
  console.log(
    `  ${name.padEnd(20)} fastest ${m.toFixed(3)} s (median ${median(xs).toFixed(3)} s)  ${((m / pages.length) * 1000).toFixed(3)} ms/page, ${(((m - base) / pages.length) * 1000).toFixed(3)} ms/page more than before (${((m / base - 1) * 100).toFixed(1)}%)`,
  );
}
if (sink < 0) console.log(sink);
