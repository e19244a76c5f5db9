#!/usr/bin/env node
/**
 * The CPU a page costs in the segmenter (with the metadata observer, as `winnow clean` runs it)
 * and in the feature rows, per build, each build in processes of its own, runs interleaved.
 *
 * Two builds in one process (page-cost.js) share V8's heap and JIT: the same code measured that
 * way came out 10% apart depending on which module copy ran second. Here every run is a fresh
 * process that loads one build only, decodes the pages up front, then times `--passes` passes
 * over them (process.cpuUsage) and reports the fastest; builds alternate run by run, so a busy
 * machine slows both alike.
 *
 *   node benchmarks/segment-cost.js --builds OLD_CHECKOUT,. [--runs 5] [--data DIR] [--limit 300] [--passes 3]
 *   (each checkout built; `.` is this one)
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { DEFAULT_SOURCE, median, parseFlags } from "./lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
const data = flags.data ?? DEFAULT_SOURCE;
const limit = Number(flags.limit ?? 300);
const passes = Number(flags.passes ?? 3);

/** One run: this process, one build. Prints one JSON line. */
async function measureBuild(root) {
  const load = (path) => import(pathToFileURL(join(root, path)).href);
  const { decodeHtmlPieces } = await load("packages/archive/dist/index.js");
  const { segmentHtml } = await load("packages/segment/dist/index.js");
  const page = await load("pipelines/clean/dist/page.js");
  const featuresModule = await load("packages/features/dist/index.js");
  const segment = page.segmentWithMetadata ?? ((pieces) => segmentHtml(pieces));
  // The default model's set (texrex37+ext+ctx); an older build without it measures the segmenter only.
  let features = null;
  try {
    features = featuresModule.featureSetByName?.("texrex37+ext+ctx") ?? null;
  } catch {}
  const files = readdirSync(join(data, "html")).sort().slice(0, limit);
  const pages = files.map((f) => {
    const body = gunzipSync(readFileSync(join(data, "html", f)));
    return { pieces: decodeHtmlPieces(body, "").pieces, url: `https://example.org/${f}` };
  });
  const cpu = (fn) => {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000 / pages.length;
  };
  let segmentMs = Number.POSITIVE_INFINITY;
  let featuresMs = Number.POSITIVE_INFINITY;
  let docs = [];
  for (let p = 0; p < passes; p++) {
    docs = [];
    segmentMs = Math.min(
      segmentMs,
      cpu(() => {
        for (const { pieces, url } of pages) {
          const r = segment(pieces, url, {});
          docs.push(r.doc ?? r);
        }
      }),
    );
    if (features !== null)
      featuresMs = Math.min(
        featuresMs,
        cpu(() => docs.forEach((doc) => features.extract(doc))),
      );
  }
  return { segmentMs, featuresMs: features === null ? null : featuresMs };
}

if (flags.child !== undefined) {
  console.log(JSON.stringify(await measureBuild(resolve(flags.child))));
} else {
  const builds = (flags.builds ?? ".").split(",").map((b) => resolve(b));
  const runs = Number(flags.runs ?? 5);
  const self = fileURLToPath(import.meta.url);
  const results = new Map(builds.map((b) => [b, []]));
  for (let r = 1; r <= runs; r++) {
    for (const build of builds) {
      const args = [self, "--child", build, "--limit", String(limit), "--passes", String(passes), "--data", data];
      const child = spawnSync(process.execPath, args, { encoding: "utf8" });
      if (child.status !== 0) throw new Error(`run on ${build} failed: ${child.stderr}`);
      const m = JSON.parse(child.stdout.trim().split("\n").at(-1));
      results.get(build).push(m);
      console.log(`${build}\trun ${r}\tsegment ${m.segmentMs.toFixed(3)} ms/page\tfeatures ${m.featuresMs?.toFixed(3) ?? "-"} ms/page`);
    }
  }
  console.log(`medians over ${runs} runs, ${limit} pages of ${data}, fastest of ${passes} passes each:`);
  for (const [build, ms] of results) {
    const seg = median(ms.map((m) => m.segmentMs));
    const feat = ms[0].featuresMs === null ? null : median(ms.map((m) => m.featuresMs));
    console.log(`${build}\tsegment ${seg.toFixed(3)} ms/page\tfeatures ${feat?.toFixed(3) ?? "-"} ms/page`);
  }
}
