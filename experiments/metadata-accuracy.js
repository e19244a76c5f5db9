#!/usr/bin/env node
/**
 * How often winnow's page metadata gives the publication date and the author the gold gives, on
 * the shared sets whose gold has them: WCXB dev (`author`, `publish_date`) and GoogleTrends-2017
 * (the text of the blocks labelled author and date). Pages are read as `winnow clean` reads them
 * (decodeHtmlPieces, then one segmenter pass with the MetadataCollector), with the gold's URL as
 * the page's URL (so a date in the URL path counts, as it would for a crawled record).
 *
 * GoogleTrends' gold dates are the page's words ("Published On 09/24/2018", "Sep 24 2018, 3:03 PM",
 * "7 hours ago"): words before the date are dropped and US month/day/year is read as such (for
 * the gold only; winnow reads 04/03/2021 day first); relative ones ("Yesterday") are not dates
 * and those pages count as having none.
 *
 * Dates are compared by day, as htmldate's evaluation does (its docs/evaluation.rst):
 * on pages whose gold has a date that normalises to one, a date given and right is a true
 * positive, given and wrong a false positive, none given a false negative; precision
 * TP/(TP+FP), recall TP/(TP+FN), accuracy TP/all, F1. Authors: the same counts, an answer right
 * when it has the same words as the gold (case, punctuation and "and"/"&" aside), or, in
 * "partial", when the two share a word of a name. Pages without gold say how often a field is
 * given where the gold has none (not counted above: the gold may miss it).
 *
 *   npx tsc -b && node experiments/metadata-accuracy.js [--data DIR] [--out FILE]
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { decodeHtmlPieces } from "@winnow/archive";
import { MetadataCollector, normaliseDate } from "@winnow/metadata";
import { segmentHtml } from "@winnow/segment";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const SETS = ["wcxb-dev", "googletrends-2017"];
// Gold dates are as old as 2008 (GoogleTrends: 2017-2018): anything up to the run is fine.
const LATEST = Date.now() + 86_400_000;

/** The gold's date as a day (YYYY-MM-DD), or undefined. */
function goldDay(written) {
  const direct = normaliseDate(written, LATEST);
  if (direct !== undefined) return direct.slice(0, 10);
  const us = /(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(written);
  if (us !== null) return normaliseDate(`${us[3]}-${us[1].padStart(2, "0")}-${us[2].padStart(2, "0")}`, LATEST);
  const start = written.search(/\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec/i);
  if (start < 0) return undefined;
  // "Sep 24 2018, 3:03 PM PDT", "on September 25, 2018, 4:45am": the day is what is compared.
  const day = /^([a-z]+\.? \d{1,2},? \d{4}|\d{1,2} [a-z]+\.? \d{4})/i.exec(written.slice(start));
  return day === null ? undefined : normaliseDate(day[1].replace(".", ""), LATEST)?.slice(0, 10);
}

const words = (s) =>
  s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\b(and|und|by|von)\b|&/g, " ")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
const sameWords = (a, b) => words(a).sort().join(" ") === words(b).sort().join(" ");
const shareName = (a, b) => {
  const gold = new Set(words(b).filter((w) => w.length > 2));
  return words(a).some((w) => gold.has(w));
};

function tally() {
  return { pages: 0, tp: 0, fp: 0, fn: 0, partialTp: 0, givenWithoutGold: 0, pagesWithoutGold: 0, wrong: [] };
}

function summary(t) {
  const p = t.tp / Math.max(1, t.tp + t.fp);
  const r = t.tp / Math.max(1, t.tp + t.fn);
  return {
    pages: t.pages,
    precision: round(p),
    recall: round(r),
    accuracy: round(t.tp / Math.max(1, t.pages)),
    f1: round(p + r === 0 ? 0 : (2 * p * r) / (p + r)),
    ...(t.partialTp > 0 ? { partial_accuracy: round(t.partialTp / Math.max(1, t.pages)) } : {}),
    given_without_gold: `${t.givenWithoutGold} of ${t.pagesWithoutGold}`,
  };
}
const round = (x) => Math.round(x * 1000) / 1000;

const results = {};
const collector = new MetadataCollector(LATEST);
const started = process.cpuUsage();
let pagesRead = 0;
for (const set of SETS) {
  const dir = join(root, set);
  const date = tally();
  const author = tally();
  for (const file of readdirSync(join(dir, "ground-truth")).sort()) {
    const id = file.replace(/\.json$/, "");
    const gold = JSON.parse(readFileSync(join(dir, "ground-truth", file), "utf8"));
    const html = gunzipSync(readFileSync(join(dir, "html", `${id}.html.gz`)));
    const { pieces } = decodeHtmlPieces(html, "");
    segmentHtml(pieces, { observer: collector });
    const meta = collector.finish(gold.url ?? "");
    pagesRead++;
    const goldDate = gold.ground_truth.publish_date ? goldDay(gold.ground_truth.publish_date) : undefined;
    if (goldDate === undefined) {
      date.pagesWithoutGold++;
      if (meta.date !== undefined) date.givenWithoutGold++;
    } else {
      date.pages++;
      if (meta.date === undefined) date.fn++;
      else if (meta.date.slice(0, 10) === goldDate.slice(0, 10)) date.tp++;
      else {
        date.fp++;
        if (date.wrong.length < 15) date.wrong.push(`${set}/${id}: ${meta.date} for ${gold.ground_truth.publish_date}`);
      }
    }
    const goldAuthor = gold.ground_truth.author;
    if (!goldAuthor) {
      author.pagesWithoutGold++;
      if (meta.author !== undefined) author.givenWithoutGold++;
    } else {
      author.pages++;
      if (meta.author === undefined) author.fn++;
      else {
        if (shareName(meta.author, goldAuthor)) author.partialTp++;
        if (sameWords(meta.author, goldAuthor)) author.tp++;
        else {
          author.fp++;
          if (author.wrong.length < 15) author.wrong.push(`${set}/${id}: ${JSON.stringify(meta.author)} for ${JSON.stringify(goldAuthor)}`);
        }
      }
    }
  }
  results[set] = { date: summary(date), author: summary(author), examples: { wrong_dates: date.wrong, wrong_authors: author.wrong } };
}
const cpu = process.cpuUsage(started);
const report = {
  command: "node experiments/metadata-accuracy.js",
  date: new Date().toISOString(),
  pages: pagesRead,
  cpu_seconds: round((cpu.user + cpu.system) / 1e6),
  results,
};
const out =
  flags.out ?? join(new URL(".", import.meta.url).pathname, "results", `${new Date().toISOString().slice(0, 10)}-metadata-accuracy.json`);
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
for (const [set, r] of Object.entries(results)) {
  console.log(`${set}: date ${JSON.stringify(r.date)}`);
  console.log(`${set}: author ${JSON.stringify(r.author)}`);
}
console.log(`wrote ${out}`);
