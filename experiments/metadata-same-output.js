#!/usr/bin/env node
/**
 * Whether two builds of @winnow/metadata give the same metadata on every page of the shared
 * sets: a change meant to cost less (issue 33) must not change a single field. Each page is
 * segmented once per build with that build's MetadataCollector as the observer, as `winnow clean`
 * runs it, and every field finish() returns is compared (deep equality, key order included).
 *
 * Three ways of finishing a page, so that the candidates behind the winning one are read too:
 * - `record`: the gold's URL, a capture date of 2026-12-31, the page's blocks (a crawled record);
 * - `file`: no URL, no capture date, the blocks (HTML read from a file or stdin);
 * - `old capture`: the gold's URL, a capture date of 2015-01-01 (later dates are refused, so
 *   lower-ranked candidates decide), no blocks.
 *
 *   npx turbo run build --filter=@winnow/metadata... && \
 *     node experiments/metadata-same-output.js --before OTHER_CHECKOUT [--data DIR] [--out FILE] [--keep 50]
 *   (OTHER_CHECKOUT: a checkout whose packages/metadata/dist is the earlier build, with a
 *   node_modules that resolves chrono-node and entities, e.g. a link to this one's)
 *   --keep N: how many differences the JSON lists in full (50); every one is counted by field.
 *
 * `--main-text` adds a fourth way, `clean`: the page read as clean reads it (its segmentWithMetadata,
 * the shipped model's kept blocks, chooseByMainText: pipelines/clean/dist, build it first) against
 * the earlier build's `record` finish. Only `date`, `dateModified` and `author` may differ there;
 * any other field that does is counted under `fields_changed` like the rest and fails the run.
 * Where the earlier checkout has a built pipelines/clean too, a fifth way, `clean, both builds`,
 * compares the page as each build's clean reads it (each build's segmentWithMetadata and
 * chooseByMainText, the same kept blocks): what a change to the main text's choice itself moved,
 * counted apart (`changed_against_clean_before`); a change meant to move nothing must count none.
 * `--finish-may-change`: a round whose rules are in the collector changes finish() too; its
 * `date`, `dateModified` and `author` differences in the three finish ways are then counted
 * apart (`finish_changed`), and only other fields fail the run.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { gunzipSync } from "node:zlib";
import { decodeHtmlPieces } from "@winnow/archive";
import { chooseByMainText, MetadataCollector } from "@winnow/metadata";
import { loadClassifier, resolveModelSpec } from "@winnow/models";
import { segmentHtml } from "@winnow/segment";
import { parseFlags } from "../benchmarks/lib/common.js";
import { segmentWithMetadata } from "../pipelines/clean/dist/page.js";
import { modelKeptBlocks } from "./lib/metadata-gold.js";

const flags = parseFlags(process.argv.slice(2), []);
if (flags.before === undefined) throw new Error("--before OTHER_CHECKOUT is needed");
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const before = await import(pathToFileURL(join(flags.before, "packages/metadata/dist/index.js")).href);

const WAYS = [
  { name: "record", url: true, capturedAt: Date.UTC(2026, 11, 31), blocks: true },
  { name: "file", url: false, capturedAt: Number.NaN, blocks: true },
  { name: "old capture", url: true, capturedAt: Date.UTC(2015, 0, 1), blocks: false },
];
const MAIN_TEXT = flags["main-text"] !== undefined;
/** The fields chooseByMainText may change. */
const MAY_CHANGE = new Set(["date", "dateModified", "author"]);
const FINISH_MAY_CHANGE = flags["finish-may-change"] !== undefined;
if (MAIN_TEXT) WAYS.push({ name: "clean", url: true, capturedAt: Date.UTC(2026, 11, 31), blocks: true, clean: true });
const classifier = MAIN_TEXT ? await loadClassifier(resolveModelSpec(undefined)) : undefined;

const cleanBefore =
  MAIN_TEXT && existsSync(join(flags.before, "pipelines/clean/dist/page.js"))
    ? await import(pathToFileURL(join(flags.before, "pipelines/clean/dist/page.js")).href)
    : undefined;
if (cleanBefore !== undefined)
  WAYS.push({ name: "clean, both builds", url: true, capturedAt: Date.UTC(2026, 11, 31), blocks: true, both: true });

const old = new before.MetadataCollector();
const now = new MetadataCollector();
const sets = {};
const differences = [];
let unexpected = 0; // fields that differ and may not (all but chooseByMainText's in the clean way)
let compared = 0;
for (const set of readdirSync(root)
  .filter((name) => existsSync(join(root, name, "html")))
  .sort()) {
  const dir = join(root, set);
  const ids = readdirSync(join(dir, "html"))
    .filter((f) => f.endsWith(".html.gz"))
    .sort()
    .map((f) => f.replace(/\.html\.gz$/, ""));
  const fields = {};
  const changed = {};
  const cleanChanged = {};
  const againstCleanBefore = {};
  const finishChanged = {};
  let same = 0;
  for (const id of ids) {
    const gold = JSON.parse(readFileSync(join(dir, "ground-truth", `${id}.json`), "utf8"));
    const { pieces } = decodeHtmlPieces(gunzipSync(readFileSync(join(dir, "html", `${id}.html.gz`))), "");
    for (const way of WAYS) {
      const url = way.url ? (gold.url ?? "") : "";
      let a;
      let b;
      if (way.both === true) [a, b] = await cleanFinishes(pieces, url, way);
      else {
        a = finish(old, pieces, url, way);
        b = way.clean === true ? await cleanFinish(pieces, url, way) : finish(now, pieces, url, way);
      }
      compared++;
      for (const k of Object.keys(b)) fields[k] = (fields[k] ?? 0) + 1;
      if (isDeepStrictEqual(a, b) && JSON.stringify(a) === JSON.stringify(b)) same++;
      else {
        differences.push({ set, id, way: way.name, before: a, after: b });
        for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
          if (isDeepStrictEqual(a[k], b[k])) continue;
          if (way.clean === true && MAY_CHANGE.has(k)) cleanChanged[k] = (cleanChanged[k] ?? 0) + 1;
          else if (way.both === true && MAY_CHANGE.has(k)) againstCleanBefore[k] = (againstCleanBefore[k] ?? 0) + 1;
          else if (FINISH_MAY_CHANGE && way.clean !== true && way.both !== true && MAY_CHANGE.has(k))
            finishChanged[k] = (finishChanged[k] ?? 0) + 1;
          else {
            changed[k] = (changed[k] ?? 0) + 1;
            unexpected++;
          }
        }
      }
    }
  }
  sets[set] = { pages: ids.length, finishes: ids.length * WAYS.length, identical: same, fields_given: fields, fields_changed: changed };
  if (MAIN_TEXT) sets[set].changed_by_main_text = cleanChanged;
  if (cleanBefore !== undefined) sets[set].changed_against_clean_before = againstCleanBefore;
  if (FINISH_MAY_CHANGE) sets[set].finish_changed = finishChanged;
  console.log(
    `${set.padEnd(18)} ${ids.length} pages × ${WAYS.length}: ${ids.length * WAYS.length - same} different ${JSON.stringify(changed)}` +
      (MAIN_TEXT ? `, by the main text ${JSON.stringify(cleanChanged)}` : "") +
      (cleanBefore !== undefined ? `, against the earlier clean ${JSON.stringify(againstCleanBefore)}` : "") +
      (FINISH_MAY_CHANGE ? `, finish() ${JSON.stringify(finishChanged)}` : ""),
  );
}

/** The page as clean reads it: its finish, then chooseByMainText on the shipped model's kept blocks. */
async function cleanFinish(pieces, url, way) {
  const { doc, metadata, shown } = segmentWithMetadata(pieces, url, { capturedAt: new Date(way.capturedAt).toISOString() });
  const kept = await modelKeptBlocks(classifier, doc);
  return chooseByMainText(
    metadata,
    shown,
    kept,
    doc.blocks.map((b) => b.text),
  );
}

/** The page as each build's clean reads it, on the same kept blocks (the segmenter's blocks are the same in both). */
async function cleanFinishes(pieces, url, way) {
  const capturedAt = new Date(way.capturedAt).toISOString();
  const earlier = cleanBefore.segmentWithMetadata(pieces, url, { capturedAt });
  const { doc, metadata, shown } = segmentWithMetadata(pieces, url, { capturedAt });
  const kept = await modelKeptBlocks(classifier, doc);
  const texts = doc.blocks.map((b) => b.text);
  return [before.chooseByMainText(earlier.metadata, earlier.shown, kept, texts), chooseByMainText(metadata, shown, kept, texts)];
}

function finish(collector, pieces, url, way) {
  const doc = segmentHtml(pieces, { observer: collector });
  return collector.finish(url, way.capturedAt, way.blocks ? doc.blocks : undefined, doc.title);
}

const report = {
  command: `node experiments/metadata-same-output.js ${process.argv.slice(2).join(" ")}`,
  date: new Date().toISOString(),
  ways: WAYS.map((w) => w.name),
  finishes_compared: compared,
  differences: differences.length,
  unexpected_field_differences: unexpected,
  sets,
  first_differences: differences.slice(0, Number(flags.keep ?? 50)),
};
const out =
  flags.out ??
  join(new URL(".", import.meta.url).pathname, "results", `${new Date().toISOString().slice(0, 10)}-metadata-same-output.json`);
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
console.log(`${compared} finishes compared, ${differences.length} different; wrote ${out}`);
for (const d of differences.slice(0, 10)) console.log(JSON.stringify(d));
if (unexpected > 0) process.exitCode = 1;
