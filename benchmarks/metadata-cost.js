#!/usr/bin/env node
/**
 * What the page metadata costs the segmenter's pass, in one process, rounds interleaved, CPU time
 * (process.cpuUsage) per round over the same decoded pages:
 * - `segmenter alone`: this build's segmenter without an observer (the floor);
 * - `collector`: this build's segmenter with this build's MetadataCollector as its observer and
 *   finish() with the page's blocks, as `winnow clean` runs it;
 * - with `--collector-before DIR`: the same segmenter with DIR's MetadataCollector (DIR: a checkout
 *   whose packages/metadata/dist is an earlier build), so that the two collectors' extra CPU
 *   per page over the floor compare directly; and chrono-node's parses per page, of each;
 * - with `--main-text`: `collector + main text`, this build's collector finishing with its shown
 *   candidates (finishWithShown) and chooseByMainText on the blocks the shipped model keeps (kept
 *   blocks found once, before the timed rounds: the model's scoring is not the step measured);
 *   with `--collector-before DIR` too, `collector + main text before`: DIR's collector and DIR's
 *   chooseByMainText on the same kept blocks, so that the main text's step compares directly;
 * - with `--before DIR`: DIR's segmenter alone (a checkout of an earlier commit, built), as the
 *   first version of this script measured (the cost of structure and metadata together).
 * The extra CPU per page, against the end-to-end CPU per document of `winnow clean`
 * (benchmarks/compare-builds.sh), is the share of docs/CPU-s the feature costs.
 *
 *   npx tsc -b && node benchmarks/metadata-cost.js [--collector-before DIR] [--before DIR] [--data DIR] [--limit 400] [--rounds 7] [--out FILE]
 */
import { writeFileSync } from "node:fs";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { decodeHtmlPieces } from "@winnow/archive";
import { chooseByMainText, MetadataCollector } from "@winnow/metadata";
import { loadClassifier, resolveModelSpec, scoreBatch } from "@winnow/models";
import { Segmenter } from "@winnow/segment";
import { parseFlags } from "./lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
if (flags.before === undefined && flags["collector-before"] === undefined)
  throw new Error("--collector-before DIR or --before DIR is needed");
const data = flags.data ?? new URL("../../shared/data/wcxb-dev", import.meta.url).pathname;
const limit = Number(flags.limit ?? 400);
const rounds = Number(flags.rounds ?? 7);
const checkout = (dir, path) => import(pathToFileURL(join(dir, path)).href);
const before = flags.before === undefined ? undefined : await checkout(flags.before, "packages/segment/dist/index.js");
const collectorBefore =
  flags["collector-before"] === undefined ? undefined : await checkout(flags["collector-before"], "packages/metadata/dist/index.js");

const files = readdirSync(join(data, "html")).sort().slice(0, limit);
const pages = files.map((f) => {
  const { pieces } = decodeHtmlPieces(gunzipSync(readFileSync(join(data, "html", f))), "");
  return pieces;
});
const bytes = pages.reduce((n, p) => n + p.reduce((m, s) => m + s.length, 0), 0);

const now = new Segmenter();
// --url: the pages' URL (a date in it dates every page; "https://example.org/x" leaves the page to date itself).
const URL_OF_PAGE = flags.url ?? "https://example.org/2021/03/04/x";
const CAPTURED = Date.UTC(2026, 11, 31);
let sink = 0;
const withCollector = (collector) => () => {
  for (const p of pages) {
    const doc = now.segment(p, collector);
    sink += doc.blocks.length;
    sink += Object.keys(collector.finish(URL_OF_PAGE, CAPTURED, doc.blocks, doc.title)).length;
  }
};
const runs = { "segmenter alone": () => void pages.forEach((p) => (sink += now.segment(p).blocks.length)) };
if (before !== undefined) {
  const old = new before.Segmenter();
  runs["segmenter before"] = () => void pages.forEach((p) => (sink += old.segment(p).blocks.length));
}
if (collectorBefore !== undefined) runs["collector before"] = withCollector(new collectorBefore.MetadataCollector());
runs.collector = withCollector(new MetadataCollector());
if (flags["main-text"] !== undefined) {
  const kept = await keptByModel();
  const withMainText = (collector, choose) => () => {
    for (let i = 0; i < pages.length; i++) {
      const doc = now.segment(pages[i], collector);
      sink += doc.blocks.length;
      const { metadata, shown } = collector.finishWithShown(URL_OF_PAGE, CAPTURED, doc.blocks, doc.title);
      const texts = doc.blocks.map((b) => b.text);
      sink += Object.keys(choose(metadata, shown, kept[i], texts)).length;
    }
  };
  if (collectorBefore?.chooseByMainText !== undefined)
    runs["collector + main text before"] = withMainText(new collectorBefore.MetadataCollector(), collectorBefore.chooseByMainText);
  runs["collector + main text"] = withMainText(new MetadataCollector(), chooseByMainText);
}

/** Per page, the indexes of the blocks the shipped model keeps (as clean scores a page). */
async function keptByModel() {
  const classifier = await loadClassifier(resolveModelSpec(undefined));
  const out = [];
  for (const p of pages) {
    const doc = now.segment(p);
    const batch = scoreBatch(classifier);
    await batch.add(doc);
    const [scores] = await batch.score();
    out.push(doc.blocks.flatMap((_, b) => (scores[b] >= classifier.threshold ? [b] : [])));
  }
  return out;
}

// chrono-node's parses, counted in one pass of each collector before the timed rounds, in the
// chrono-node that each build's metadata package resolves: a DIR with its own node_modules
// parses with its own copy (counted in this checkout's, its parses read 0 per page).
const requireIn = (dir) => createRequire(join(dir, "packages", "metadata", "package.json"));
const requireNow = requireIn(new URL("..", import.meta.url).pathname);
const requireBefore = flags["collector-before"] === undefined ? requireNow : requireIn(flags["collector-before"]);
const LOCALES = ["en", "de", "fr", "es", "pt", "it", "nl", "ru", "uk", "sv", "fi", "ja", "zh"];
const chronoCalls = {};
for (const name of Object.keys(runs).filter((n) => n.startsWith("collector"))) {
  let calls = 0;
  const require = name.endsWith("before") ? requireBefore : requireNow;
  const strict = LOCALES.map((l) => require(`chrono-node/${l}`).strict);
  for (const chrono of strict) {
    const parse = chrono.parse;
    chrono.parse = function (...args) {
      calls++;
      return parse.apply(this, args);
    };
  }
  runs[name]();
  for (const chrono of strict) delete chrono.parse; // the prototype's again
  chronoCalls[name] = calls;
}

for (const run of Object.values(runs)) run(); // warm-up
const cpu = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
for (let r = 0; r < rounds; r++) {
  for (const [name, run] of Object.entries(runs)) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    cpu[name].push((used.user + used.system) / 1e6);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (s) => ((s / pages.length) * 1000).toFixed(3);
const floor = median(cpu["segmenter alone"]);
const lines = [`${pages.length} pages of ${data} (${(bytes / 1e6).toFixed(1)} M chars), ${rounds} interleaved rounds, CPU per round:`];
for (const [name, xs] of Object.entries(cpu)) {
  const m = median(xs);
  const calls = chronoCalls[name] === undefined ? "" : `, chrono-node parses ${(chronoCalls[name] / pages.length).toFixed(3)} per page`;
  lines.push(
    `  ${name.padEnd(17)} median ${m.toFixed(3)} s (fastest ${Math.min(...xs).toFixed(3)} s)  ${ms(m)} ms/page, ${ms(m - floor)} ms/page over the segmenter alone${calls}`,
  );
}
if (collectorBefore !== undefined) {
  // The collectors alone: each page's observer calls recorded once, then replayed into each
  // collector, rounds interleaved. The segmenter's pass (five times a collector's CPU) is left
  // out, and with it most of the noise of a busy machine.
  const recorded = recordCalls(new collectorBefore.MetadataCollector(), new MetadataCollector());
  const replayed = { "collector before": [], collector: [] };
  const replayers = [new collectorBefore.MetadataCollector(), new MetadataCollector()];
  for (let r = 0; r <= rounds; r++) {
    for (const [who, name] of [
      [0, "collector before"],
      [1, "collector"],
    ]) {
      const start = process.cpuUsage();
      replay(recorded, replayers[who], who);
      const used = process.cpuUsage(start);
      if (r > 0) replayed[name].push((used.user + used.system) / 1e6); // round 0 warms up
    }
  }
  const b = median(replayed["collector before"]);
  const a = median(replayed.collector);
  lines.push(
    `  the collectors alone, observer calls replayed: before ${ms(b)} ms/page, now ${ms(a)} ms/page (${((a / b) * 100).toFixed(0)}% of before)`,
  );
}
if (collectorBefore !== undefined) {
  // Per round, the extra CPU of each collector over the floor of the same round: the pairing
  // takes out what the machine's load did to the round.
  const extra = (name) => cpu[name].map((x, i) => x - cpu["segmenter alone"][i]);
  const b = median(extra("collector before"));
  const a = median(extra("collector"));
  lines.push(
    `  collector's own CPU per page, median of rounds: before ${ms(b)} ms, now ${ms(a)} ms (${((a / b) * 100).toFixed(0)}% of before)`,
  );
}
if (runs["collector + main text"] !== undefined) {
  // Paired per round, as above: what finishWithShown and chooseByMainText add to the collector.
  const extra = cpu["collector + main text"].map((x, i) => x - cpu.collector[i]);
  lines.push(
    `  the main text's choice per page (finishWithShown and chooseByMainText over finish), median of rounds: ${ms(median(extra))} ms (${((median(extra) / median(cpu.collector)) * 100).toFixed(1)}% of the collector's round)`,
  );
}
if (runs["collector + main text before"] !== undefined) {
  // The same for DIR's build, paired with its own collector's round.
  const extra = cpu["collector + main text before"].map((x, i) => x - cpu["collector before"][i]);
  const now = cpu["collector + main text"].map((x, i) => x - cpu.collector[i]);
  lines.push(
    `  the same, DIR's build: ${ms(median(extra))} ms; this build less DIR's, paired per round: ${ms(median(now.map((x, i) => x - extra[i])))} ms per page`,
  );
}
console.log(lines.join("\n"));

/**
 * Every observer call of every page, as the segmenter makes them to each of two collectors: text
 * and close only while that collector captures (the segmenter asks `capturing`), so each call
 * carries which of the two it reaches (1, 2 or both: 3).
 */
function recordCalls(first, second) {
  const both = [first, second];
  return pages.map((p) => {
    const calls = [];
    const tee = {
      get capturing() {
        return first.capturing || second.capturing;
      },
      open(name, level) {
        calls.push(0, name, level, 3);
        first.open(name, level);
        second.open(name, level);
        return true;
      },
      attribute(name, value) {
        calls.push(1, name, value, 3);
        first.attribute(name, value);
        second.attribute(name, value);
      },
      text(data) {
        const to = (first.capturing ? 1 : 0) | (second.capturing ? 2 : 0);
        calls.push(2, data, 0, to);
        both.forEach((c, i) => to & (1 << i) && c.text(data));
      },
      close(level) {
        const to = (first.capturing ? 1 : 0) | (second.capturing ? 2 : 0);
        calls.push(3, level, 0, to);
        both.forEach((c, i) => to & (1 << i) && c.close(level));
      },
    };
    const doc = now.segment(p, tee);
    for (const c of both) c.finish(URL_OF_PAGE, CAPTURED, doc.blocks, doc.title);
    return { calls, blocks: doc.blocks };
  });
}

function replay(recorded, collector, who) {
  const bit = 1 << who;
  for (const { calls, blocks } of recorded) {
    for (let i = 0; i < calls.length; i += 4) {
      if ((calls[i + 3] & bit) === 0) continue;
      const kind = calls[i];
      if (kind === 0) collector.open(calls[i + 1], calls[i + 2]);
      else if (kind === 1) collector.attribute(calls[i + 1], calls[i + 2]);
      else if (kind === 2) collector.text(calls[i + 1]);
      else collector.close(calls[i + 1]);
    }
    sink += Object.keys(collector.finish(URL_OF_PAGE, CAPTURED, blocks)).length;
  }
}
if (flags.out !== undefined) writeFileSync(flags.out, `${lines.join("\n")}\n`);
if (sink < 0) console.log(sink);
