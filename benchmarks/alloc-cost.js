#!/usr/bin/env node
/**
 * What the segmenter's pass (the segmenter with the metadata collector as its observer, as
 * `winnow clean` runs it, the collector's finish included) costs per page in CPU, an earlier build
 * against this one, in one process: rounds interleaved (A B, then B A), each round every page
 * decoded (by this build: decoding is not what is compared) and segmented. process.cpuUsage counts
 * every thread, so the collector's concurrent and parallel work is in it, and the number of
 * scavenges and mark-compacts of each round comes from perf_hooks' GC entries. Medians, and the
 * median of each round's after/before ratio. The blocks and metadata of the two builds are
 * compared once, page by page, before timing.
 *
 * Written for issue 33's allocation round (benchmarks/results/2026-11-27-alloc.md), whose changes
 * are all in the segmenter; the whole run's figures are alloc-profile.js's (bytes, GC counts)
 * and compare-builds.sh's (docs per CPU-second).
 *
 *   node benchmarks/alloc-cost.js --before OTHER_CHECKOUT [--after CHECKOUT] [--data DIR] [--limit 300] [--rounds 9] [--load-after-first]
 *   (DIR: pages in the WCXB layout, DIR/html/*.html.gz; default the WCXB dev pages; --after
 *   defaults to this checkout, and a copy of the before build there is the A/A control)
 *
 * Two copies of one module in one process have been seen to run 10% apart (segment-cost.js's
 * header); alternating which build goes first in a round spreads that, and segment-cost.js (each
 * build in processes of its own) is the check against it. What is left of it follows the order
 * the builds were loaded in (the two load orders gave ratios 1-9% apart, not always the same way,
 * benchmarks/results/2026-11-27-segmenter-speed.md): run once as is and once with
 * --load-after-first, and take the geometric mean of the two ratios.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { PerformanceObserver, constants } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { DEFAULT_SOURCE, median, parseFlags, ROOT } from "./lib/common.js";

const flags = parseFlags(process.argv.slice(2), ["load-after-first"]);
if (flags.before === undefined) throw new Error("--before OTHER_CHECKOUT is needed");
const data = flags.data ?? DEFAULT_SOURCE;
const limit = Number(flags.limit ?? 300);
const rounds = Number(flags.rounds ?? 9);

/** One build's pass: segment each page with that build's metadata collector observing. */
async function build(root) {
  const load = (path) => import(pathToFileURL(join(root, path)).href);
  const { segmentHtml } = await load("packages/segment/dist/index.js");
  const { MetadataCollector } = await load("packages/metadata/dist/index.js");
  const collector = new MetadataCollector();
  return (pieces, url) => {
    const doc = segmentHtml(pieces, { observer: collector });
    return { doc, metadata: collector.finish(url, Number.NaN, doc.blocks, doc.title) };
  };
}

const { decodeHtmlPieces } = await import(pathToFileURL(join(ROOT, "packages/archive/dist/index.js")).href);
const htmlDir = join(data, "html");
const files = readdirSync(htmlDir).sort().slice(0, limit);
const bodies = files.map((f) => gunzipSync(readFileSync(join(htmlDir, f))));
const urls = files.map((f) => `https://example.org/${f.replace(/\.html\.gz$/, "")}`);
const roots = { before: resolve(flags.before), after: resolve(flags.after ?? ROOT) };
const builds = {};
for (const name of flags["load-after-first"] === true ? ["after", "before"] : ["before", "after"]) builds[name] = await build(roots[name]);

// The same blocks and metadata, page by page, before any timing.
let differ = 0;
for (let i = 0; i < bodies.length; i++) {
  const [a, b] = ["before", "after"].map((name) => JSON.stringify(builds[name](decodeHtmlPieces(bodies[i], "").pieces, urls[i])));
  if (a !== b) differ++;
}
console.log(
  `${bodies.length} pages from ${htmlDir}; loaded ${Object.keys(builds).join(" then ")}; pages whose blocks or metadata differ: ${differ}`,
);

let scavenges = 0;
let markCompacts = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) scavenges++;
    else if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) markCompacts++;
  }
});
observer.observe({ entryTypes: ["gc"] });
const settle = () => new Promise((done) => setTimeout(done, 20));

const results = { before: { cpu: [], scavenges: [], markCompacts: [] }, after: { cpu: [], scavenges: [], markCompacts: [] } };
async function round(name) {
  const pass = builds[name];
  await settle();
  scavenges = 0;
  markCompacts = 0;
  const start = process.cpuUsage();
  let blocks = 0;
  for (let i = 0; i < bodies.length; i++) blocks += pass(decodeHtmlPieces(bodies[i], "").pieces, urls[i]).doc.blocks.length;
  const used = process.cpuUsage(start);
  await settle(); // GC entries arrive asynchronously
  const r = results[name];
  r.cpu.push((used.user + used.system) / 1e3 / bodies.length);
  r.scavenges.push(scavenges);
  r.markCompacts.push(markCompacts);
  return blocks;
}

await round("before");
await round("after"); // warm-up, not kept
for (const r of Object.values(results)) for (const list of Object.values(r)) list.length = 0;
const ratios = [];
for (let k = 0; k < rounds; k++) {
  const order = k % 2 === 0 ? ["before", "after"] : ["after", "before"];
  for (const name of order) await round(name);
  ratios.push(results.after.cpu[k] / results.before.cpu[k]);
  console.log(
    `round ${k + 1} (${order.join(" ")}): before ${results.before.cpu[k].toFixed(3)} ms/page, after ${results.after.cpu[k].toFixed(3)} ms/page, ratio ${ratios[k].toFixed(3)}; ` +
      `scavenges ${results.before.scavenges[k]} / ${results.after.scavenges[k]}, mark-compacts ${results.before.markCompacts[k]} / ${results.after.markCompacts[k]}`,
  );
}
observer.disconnect();
const per1000 = (n) => ((1000 * n) / bodies.length).toFixed(1);
for (const name of ["before", "after"]) {
  const r = results[name];
  console.log(
    `${name}: median ${median(r.cpu).toFixed(3)} ms CPU per page (all threads); per 1,000 pages ${per1000(median(r.scavenges))} scavenges, ${per1000(median(r.markCompacts))} mark-compacts`,
  );
}
console.log(`after / before: median of the rounds' ratios ${median(ratios).toFixed(3)} (${rounds} rounds)`);
