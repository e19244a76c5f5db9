#!/usr/bin/env node
/**
 * Where two builds differ in the CPU a page costs, stage by stage, in one process: each build's
 * own decode, segment (with the metadata observer where the build has one, as `winnow clean`
 * runs it), feature rows and ONNX scoring (cleanPages), corpus steps (language ID) and JSONL
 * encoding, over the same WCXB pages, rounds interleaved, CPU time per stage (process.cpuUsage).
 * End-to-end runs (compare-builds.sh) swing ±15% between runs on a shared VM; two builds in one
 * process, round after round, see the same machine and show which stage a difference lives in.
 *
 *   npx tsc -b && node benchmarks/page-cost.js --before OTHER_CHECKOUT [--data DIR] [--limit 400] [--rounds 7]
 *   (OTHER_CHECKOUT: a built checkout of the earlier commit with its own `npm install`; see
 *   experiments/segment-equivalence.js for why a bare node_modules link is not enough)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { DEFAULT_SOURCE, parseFlags, ROOT } from "./lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
if (flags.before === undefined) throw new Error("--before OTHER_CHECKOUT is needed");
const data = flags.data ?? DEFAULT_SOURCE;
const limit = Number(flags.limit ?? 400);
const rounds = Number(flags.rounds ?? 7);
const batchSize = 16;

/** One build's stages, each a function over the whole page set that returns its CPU seconds. */
async function build(root, pageOptions = {}) {
  const load = (path) => import(pathToFileURL(join(root, path)).href);
  const { decodeHtmlPieces } = await load("packages/archive/dist/index.js");
  const { loadClassifier } = await load("packages/models/dist/index.js");
  const page = await load("pipelines/clean/dist/page.js");
  const { DocumentSteps } = await load("pipelines/clean/dist/steps.js");
  const { jsonl } = await load("packages/writers/dist/formats.js");
  const classifier = await loadClassifier("mlp");
  const steps = await DocumentSteps.open({ langId: true, filters: [], stats: false, keepFiltered: false });
  const { segmentHtml } = await load("packages/segment/dist/index.js");
  // As cleanPages segments: with the metadata observer where the build has one.
  const segment = page.segmentWithMetadata ?? ((pieces) => segmentHtml(pieces));
  const metadata = pageOptions.metadata;
  return {
    // Page by page, holding none: all 400 decoded pages at once would be a garbage collector test.
    decode: (bodies) => {
      let n = 0;
      for (const b of bodies) n += decodeHtmlPieces(b, "").pieces.length;
      return n;
    },
    segment: (bodies) => {
      let n = 0;
      for (let i = 0; i < bodies.length; i++) {
        const r = segment(decodeHtmlPieces(bodies[i], "").pieces, urls[i], { metadata });
        n += (r.doc ?? r).blocks.length;
      }
      return n;
    },
    /** Decode + segment + features + scoring, batch by batch, as a worker runs it. */
    clean: async (bodies) => {
      const outs = [];
      for (let i = 0; i < bodies.length; i += batchSize) {
        const inputs = bodies.slice(i, i + batchSize).map((body, k) => ({ body, headerCharset: "", url: urls[i + k] }));
        outs.push(...(await page.cleanPages(inputs, classifier, undefined, pageOptions)));
      }
      return outs;
    },
    steps: (outs) => {
      for (let i = 0; i < outs.length; i += batchSize) steps.apply(outs.slice(i, i + batchSize));
    },
    encode: (outs) => {
      let n = 0;
      for (let i = 0; i < outs.length; i++) {
        const out = outs[i];
        if (!out.ok) continue;
        n += jsonl.encode({
          url: urls[i],
          recordId: "<urn:uuid:0>",
          date: "2025-01-01T00:00:00Z",
          contentType: "text/html",
          charset: out.charset,
          title: out.title,
          blocks: out.blocks,
          blocksTotal: out.blocksTotal,
          source: "bench.warc.gz",
          lang: out.lang,
          langScore: out.langScore,
          metadata: out.metadata,
        }).length;
      }
      return n;
    },
  };
}

const htmlDir = join(data, "html");
const files = readdirSync(htmlDir).sort().slice(0, limit);
const bodies = files.map((f) => gunzipSync(readFileSync(join(htmlDir, f))));
const urls = files.map((f) => `https://example.org/${f.replace(/\.html\.gz$/, "")}`);
const builds = {
  before: await build(flags.before),
  after: await build(ROOT),
  "after --no-metadata": await build(ROOT, { metadata: false }),
};
const names = Object.keys(builds);

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const stages = ["decode", "segment", "clean", "steps", "encode"];
const times = Object.fromEntries(Object.keys(builds).map((b) => [b, Object.fromEntries(stages.map((s) => [s, []]))]));
async function round(name, record) {
  const b = builds[name];
  let t = cpu();
  b.decode(bodies);
  const decoded = cpu() - t;
  t = cpu();
  b.segment(bodies);
  const segmented = cpu() - t;
  t = cpu();
  const outs = await b.clean(bodies);
  const cleaned = cpu() - t;
  t = cpu();
  b.steps(outs);
  const stepped = cpu() - t;
  t = cpu();
  b.encode(outs);
  const encoded = cpu() - t;
  if (!record) return;
  const at = times[name];
  at.decode.push(decoded);
  at.segment.push(segmented); // includes its own decode
  at.clean.push(cleaned); // includes its own decode
  at.steps.push(stepped);
  at.encode.push(encoded);
}
for (const name of names) await round(name, false); // warm-up
// Each round in another order, so that no build always follows the same one.
for (let r = 0; r < rounds; r++) for (let k = 0; k < names.length; k++) await round(names[(r + k) % names.length], true);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const perPage = (seconds) => (seconds / bodies.length) * 1000;
const row = (label, values) => `  ${label.padEnd(8)} ${values.map((v) => v.padStart(22)).join("")}`;
// decode and segment are measured on their own; clean includes both, so the total is clean + steps + encode.
const totals = Object.fromEntries(names.map((n) => [n, 0]));
console.log(`${bodies.length} pages, ${rounds} rounds, builds interleaved; median CPU ms per page, and against "before":`);
console.log(row("stage", names));
for (const s of stages) {
  const base = median(times.before[s]);
  const cells = names.map((n) => {
    const m = median(times[n][s]);
    if (s !== "decode" && s !== "segment") totals[n] += m;
    return n === "before" ? perPage(m).toFixed(3) : `${perPage(m).toFixed(3)} (${((m / base - 1) * 100).toFixed(1)}%)`;
  });
  console.log(row(s, cells));
}
console.log(
  row(
    "total",
    names.map((n) =>
      n === "before"
        ? perPage(totals[n]).toFixed(3)
        : `${perPage(totals[n]).toFixed(3)} (${((totals[n] / totals.before - 1) * 100).toFixed(1)}%)`,
    ),
  ),
);
console.log("  (segment = decode + segment; clean = decode + segment + features + scoring; total = clean + steps + encode)");
