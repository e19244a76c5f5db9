#!/usr/bin/env node
/**
 * Site templates: what they cost.
 *
 * 1. The segmenter with and without subtree fingerprints, single-threaded over the pages of a
 *    WARC (decoded once up front), best of --runs.
 * 2. Pass one in process, single-threaded: segment with fingerprints, keep each page's sorted
 *    fingerprint set by host, fit. Pages per second, and the bytes held per page and per host.
 * 3. Whole runs as child processes (`winnow clean --workers N`): without site templates, with
 *    them in memory mode and in performance mode: time, pass one's share and peak RSS.
 *
 *   npm run build && node --expose-gc benchmarks/site-templates.js [--warc FILE] [--runs 3] [--workers 2]
 *
 * Default input: benchmarks/data/wcxb-dev.warc.gz (all 1,358 dev pages, made when missing).
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { decodeHtml, readRecords } from "@winnow/archive";
import { Segmenter } from "@winnow/segment";
import { hostOf } from "@winnow/archive";
import { SiteTemplateFitter, pageFingerprints } from "@winnow/templates";
import { ROOT, ensureWarc } from "./lib/common.js";

function flag(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}

const warc = flag("warc", undefined) ?? ensureWarc({});
const runs = Number(flag("runs", "3"));
const workers = Number(flag("workers", "2"));
const gc = globalThis.gc ?? (() => {});

const pages = [];
for await (const record of readRecords(warc)) pages.push({ url: record.url, html: decodeHtml(record.body, record.charset).html });
const mb = (bytes) => (bytes / 1e6).toFixed(1);
console.log(`input: ${warc}, ${pages.length} pages; ${new Date().toISOString()}, load ${loadavg()[0].toFixed(1)}`);

// 1. Segmenter speed.
function segmentAll(segmenter) {
  const started = performance.now();
  for (const page of pages) segmenter.segment(page.html);
  return (performance.now() - started) / 1000;
}
const plain = new Segmenter();
const withSubtrees = new Segmenter({ subtrees: true });
segmentAll(plain);
segmentAll(withSubtrees);
const times = { plain: [], subtrees: [] };
for (let r = 0; r < runs; r++) {
  times.plain.push(segmentAll(plain));
  times.subtrees.push(segmentAll(withSubtrees));
}
const best = (xs) => Math.min(...xs);
console.log(`\n| segmenter | best of ${runs} (s) | pages/s | cost |`);
console.log("|---|---|---|---|");
console.log(`| plain | ${best(times.plain).toFixed(2)} | ${(pages.length / best(times.plain)).toFixed(0)} | |`);
console.log(
  `| with subtree fingerprints | ${best(times.subtrees).toFixed(2)} | ${(pages.length / best(times.subtrees)).toFixed(0)} | +${(100 * (best(times.subtrees) / best(times.plain) - 1)).toFixed(1)}% |`,
);

// 2. Pass one in process.
gc();
const heapBefore = process.memoryUsage();
const fitter = new SiteTemplateFitter();
let started = performance.now();
for (const page of pages) fitter.add(page.url, pageFingerprints(withSubtrees.segment(page.html).subtrees));
const passOneSeconds = (performance.now() - started) / 1000;
gc();
const heapAfter = process.memoryUsage();
started = performance.now();
const templates = fitter.fit();
const fitMs = performance.now() - started;
const held = heapAfter.heapUsed + heapAfter.arrayBuffers - heapBefore.heapUsed - heapBefore.arrayBuffers;
const hosts = new Set(pages.map((p) => hostOf(p.url)).filter((h) => h !== "")).size;
let withTemplate = 0;
for (const h of templates.hosts()) if (h.fingerprints.length > 0) withTemplate++;
console.log(
  `\npass one, single-threaded, in process: ${(pages.length / passOneSeconds).toFixed(0)} pages/s (${passOneSeconds.toFixed(1)} s), fit ${fitMs.toFixed(0)} ms`,
);
console.log(
  `held between the passes: ${fitter.fingerprints} fingerprints (${(fitter.fingerprints / Math.max(1, fitter.pages)).toFixed(0)} per page) ` +
    `for ${fitter.pages} pages on ${hosts} hosts; heap + array buffers grew ${mb(held)} MB: ${(held / Math.max(1, fitter.pages) / 1024).toFixed(1)} KB per page, ` +
    `${(held / Math.max(1, hosts) / 1024).toFixed(1)} KB per host; ${withTemplate} hosts with a template`,
);
pages.length = 0;

// 3. Whole runs.
const CLI = join(ROOT, "pipelines", "cli", "bin", "winnow.js");
function run(name, extra) {
  const output = join(tmpdir(), `winnow-site-templates-${process.pid}-${name}.jsonl`);
  const r = spawnSync(process.execPath, [CLI, "clean", warc, "-o", output, "--workers", String(workers), "--log-level", "info", ...extra], {
    encoding: "utf8",
  });
  rmSync(output, { force: true });
  const line = r.stderr.split("\n").find((l) => l.includes('"summary"'));
  if (r.status !== 0 || line === undefined) throw new Error(`${name} run failed: ${r.stderr.slice(-500)}`);
  return JSON.parse(line).summary;
}
const rows = [
  ["without site templates", []],
  ["--site-templates (memory mode)", ["--site-templates"]],
  ["--site-templates --site-templates-mode performance", ["--site-templates", "--site-templates-mode", "performance"]],
];
console.log(
  `\n| run (${workers} workers, ${runs === 1 ? "one run" : `best of ${Math.min(runs, 2)}`}) | s | docs/s | pass one s | pass one pages/s | peak RSS MB |`,
);
console.log("|---|---|---|---|---|---|");
for (const [name, extra] of rows) {
  let bestRun;
  for (let r = 0; r < Math.min(runs, 2); r++) {
    const s = run(name.replace(/\W+/g, "-"), extra);
    if (bestRun === undefined || s.elapsedSeconds < bestRun.elapsedSeconds) bestRun = s;
  }
  const st = bestRun.siteTemplates;
  console.log(
    `| ${name} | ${bestRun.elapsedSeconds.toFixed(1)} | ${bestRun.documentsPerSecond.toFixed(1)} | ${st ? st.fitSeconds.toFixed(1) : "-"} | ` +
      `${st ? (st.pages / st.fitSeconds).toFixed(1) : "-"} | ${(bestRun.peakRssBytes / 1e6).toFixed(0)} |`,
  );
}
