#!/usr/bin/env node
/**
 * What the metadata collector's hooks alone cost per page (open, attribute, text, close: what
 * the segmenter calls for every tag, attribute and captured text), an earlier build's collector
 * against this one's, in one process. Each page is segmented once, by this build's segmenter, with
 * this build's collector behind a recorder; the recorded calls are then replayed into each build's
 * collector, rounds interleaved (A B, then B A), process.cpuUsage per round, each page ended by
 * reset() rather than finish(): finish's date parsing (chrono-node) is metadata-cost.js's to
 * measure, and at several times the hooks' CPU it hid a change to them in that script's replay.
 * The segmenter's pass (five times the hooks) is left out, and with it most of a busy machine's
 * noise. Medians of the rounds' after/before ratios; run both load orders (--load-after-first).
 *
 *   node benchmarks/metadata-hooks-cost.js --before OTHER_CHECKOUT [--data DIR] [--limit 300] [--rounds 15] [--load-after-first]
 *   (OTHER_CHECKOUT: a checkout with packages/metadata/dist built; DIR: pages in the WCXB layout,
 *   DIR/html/*.html.gz, the WCXB dev pages by default)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { decodeHtmlPieces } from "@winnow/archive";
import { Segmenter } from "@winnow/segment";
import { DEFAULT_SOURCE, median, parseFlags, ROOT } from "./lib/common.js";

const flags = parseFlags(process.argv.slice(2), ["load-after-first"]);
if (flags.before === undefined) throw new Error("--before OTHER_CHECKOUT is needed");
const data = flags.data ?? DEFAULT_SOURCE;
const limit = Number(flags.limit ?? 300);
const rounds = Number(flags.rounds ?? 15);
const roots = { before: flags.before, after: ROOT };
const order = flags["load-after-first"] === true ? ["after", "before"] : ["before", "after"];

const Collector = {};
for (const name of order) {
  Collector[name] = (await import(pathToFileURL(join(roots[name], "packages/metadata/dist/index.js")).href)).MetadataCollector;
}

// Calls as flat triples (kind, a, b): 0 open(name, level), 1 attribute(name, value), 2 text(data),
// 3 close(level); text and close only while the recording collector captures, as the segmenter calls them.
const segmenter = new Segmenter();
const pages = readdirSync(join(data, "html"))
  .sort()
  .slice(0, limit)
  .map((file) => {
    const { pieces } = decodeHtmlPieces(gunzipSync(readFileSync(join(data, "html", file))), "");
    const calls = [];
    const collector = new Collector.after();
    const recorder = {
      get capturing() {
        return collector.capturing;
      },
      open(name, level) {
        calls.push(0, name, level);
        return collector.open(name, level);
      },
      attribute(name, value) {
        calls.push(1, name, value);
        collector.attribute(name, value);
      },
      text(text) {
        if (!collector.capturing) return;
        calls.push(2, text, 0);
        collector.text(text);
      },
      close(level) {
        if (!collector.capturing) return;
        calls.push(3, level, 0);
        collector.close(level);
      },
    };
    segmenter.segment(pieces, recorder);
    return calls;
  });

function replay(collector) {
  for (const calls of pages) {
    for (let i = 0; i < calls.length; i += 3) {
      const kind = calls[i];
      if (kind === 0) collector.open(calls[i + 1], calls[i + 2]);
      else if (kind === 1) collector.attribute(calls[i + 1], calls[i + 2]);
      else if (kind === 2) collector.text(calls[i + 1]);
      else collector.close(calls[i + 1]);
    }
    collector.reset();
  }
}

const collectors = { before: new Collector.before(), after: new Collector.after() };
const perPage = { before: [], after: [] };
const ratios = [];
for (let r = 0; r <= rounds; r++) {
  const round = {};
  for (const name of r % 2 === 0 ? ["before", "after"] : ["after", "before"]) {
    const start = process.cpuUsage();
    replay(collectors[name]);
    const used = process.cpuUsage(start);
    round[name] = (used.user + used.system) / 1000 / pages.length;
  }
  if (r === 0) continue; // warms up
  perPage.before.push(round.before);
  perPage.after.push(round.after);
  ratios.push(round.after / round.before);
}
const calls = pages.reduce((n, c) => n + c.length / 3, 0);
console.log(
  `${pages.length} pages of ${data} (${(calls / pages.length).toFixed(0)} hook calls a page), loaded ${order.join(" then ")}, ${rounds} interleaved rounds:`,
);
console.log(`  hooks before ${median(perPage.before).toFixed(4)} ms/page, after ${median(perPage.after).toFixed(4)} ms/page`);
console.log(`  after / before: median of the rounds' ratios ${median(ratios).toFixed(3)}`);
