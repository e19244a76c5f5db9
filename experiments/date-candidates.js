#!/usr/bin/env node
/**
 * What stands between winnow's `date` and the gold's (issue 34): for each page of WCXB dev
 * whose gold has a publication date and that winnow dates on another day or not at all, where
 * the gold's day is to be found, if anywhere:
 * - `candidate`: among the page's date candidates (the markup's and the visible ones the collector
 *   keeps, JSON-LD's dates, the URL's), so a better choice among them would give it;
 * - `modified over published`: the markup gives the gold's day as its dateModified and another
 *   day as its datePublished (a page "Updated …"), where winnow gives the publication date;
 * - `short block`: only in a short block of the page's text (≤ 160 characters) the collector
 *   does not read;
 * - `nowhere`: in none of them (the gold's date is not on the page as served: a first
 *   publication the page no longer shows, a date from elsewhere).
 * And, on the pages whose gold has none and that winnow dates, the share left (the gold may miss
 * a date: an upper bound of false answers). Counted per domain fold (the folds of
 * metadata-accuracy.js); no page of either fold is listed.
 *
 * The pages dated on another day are also split by the convention the gold follows, which is
 * not the same from page to page (2026-11-27-dates.md): `wrongGoldUpdated`, the gold's day is
 * the page's update (the markup's dateModified, or a short block that says "updated" or
 * "modified") where winnow gives another; `wrongGoldPublished`, winnow gives the update so
 * shown and the gold another day (a publication the page may no longer show); `wrongOther`,
 * neither.
 *
 *   npx turbo run build --filter=@winnow/metadata... && node experiments/date-candidates.js [--data DIR] [--out FILE]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { decodeHtmlPieces } from "@winnow/archive";
import { dateInUrl, MetadataCollector, normaliseDate } from "@winnow/metadata";
import { segmentHtml } from "@winnow/segment";
import { parseFlags } from "../benchmarks/lib/common.js";
import { goldDay, setPages } from "./lib/metadata-gold.js";

const flags = parseFlags(process.argv.slice(2), []);
const dir = join(flags.data ?? new URL("../../shared/data", import.meta.url).pathname, "wcxb-dev");
const BOUND = Date.UTC(2026, 11, 31);
const { ids, folds } = setPages(dir);
const collector = new MetadataCollector();
const counts = [0, 1].map(() => ({
  gold: 0,
  right: 0,
  candidate: 0,
  modifiedOverPublished: 0,
  shortBlock: 0,
  nowhere: 0,
  wrongGoldUpdated: 0,
  wrongGoldPublished: 0,
  wrongOther: 0,
}));
const UPDATED = /updated|modified/i;
ids.forEach((id, index) => {
  const gold = JSON.parse(readFileSync(join(dir, "ground-truth", `${id}.json`), "utf8"));
  const want = gold.ground_truth.publish_date ? goldDay(gold.ground_truth.publish_date) : undefined;
  if (want === undefined) return;
  const { pieces } = decodeHtmlPieces(gunzipSync(readFileSync(join(dir, "html", `${id}.html.gz`))), "");
  const doc = segmentHtml(pieces, { observer: collector });
  // The candidates as the collector holds them before finish() (its private lists, read here only).
  const lang = collector.lang;
  const day = (value) => normaliseDate(value.replace(/\s+/g, " ").trim(), BOUND, lang)?.slice(0, 10);
  const ld = collector.jsonLd;
  const published = [...collector.dates.filter((c) => c.rank <= 3).map((c) => c.value), ld.datePublished, ld.pageDatePublished]
    .filter((v) => v !== undefined)
    .map(day);
  const modified = [...collector.modified.map((c) => c.value), ld.dateModified].filter((v) => v !== undefined).map(day);
  const visible = collector.dates.filter((c) => c.rank > 3).map((c) => day(c.value));
  const updatesShown = collector.dates.filter((c) => UPDATED.test(c.value)).map((c) => day(c.value));
  const url = gold.url ? dateInUrl(gold.url, BOUND) : undefined;
  const given = collector.finish(gold.url ?? "", BOUND, doc.blocks, doc.title).date?.slice(0, 10);
  const t = counts[folds[index]];
  t.gold++;
  if (given !== undefined && given !== want) {
    const updates = new Set(modified);
    for (const b of doc.blocks) if (b.text.length <= 160 && UPDATED.test(b.text)) updates.add(day(b.text));
    for (const d of updatesShown) updates.add(d);
    if (updates.has(want)) t.wrongGoldUpdated++;
    else if (updates.has(given)) t.wrongGoldPublished++;
    else t.wrongOther++;
  }
  if (given === want) t.right++;
  else if (modified.includes(want) && published.length > 0 && !published.includes(want)) t.modifiedOverPublished++;
  else if ([...published, ...modified, ...visible, url].includes(want)) t.candidate++;
  else if (doc.blocks.some((b) => b.text.length <= 160 && /\d/.test(b.text) && day(b.text) === want)) t.shortBlock++;
  else t.nowhere++;
});
const report = { command: "node experiments/date-candidates.js", set: "wcxb-dev", folds: counts };
if (flags.out !== undefined) writeFileSync(flags.out, `${JSON.stringify(report, null, 2)}\n`);
counts.forEach((t, f) => {
  const share = (n) => `${n} (${(n / t.gold).toFixed(3)})`;
  console.log(
    `fold ${f}: ${t.gold} pages with a gold date; right ${share(t.right)}; the gold's day is the markup's dateModified beside another datePublished ${share(t.modifiedOverPublished)}; among the other candidates ${share(t.candidate)}; only in a short block ${share(t.shortBlock)}; nowhere ${share(t.nowhere)}`,
  );
  console.log(
    `fold ${f}: dated on another day ${t.wrongGoldUpdated + t.wrongGoldPublished + t.wrongOther}: the gold takes the update shown ${t.wrongGoldUpdated}, winnow the update shown and the gold another day ${t.wrongGoldPublished}, neither ${t.wrongOther}`,
  );
});
