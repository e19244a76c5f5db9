#!/usr/bin/env node
/**
 * How often winnow's page metadata gives the publication date and the author the gold gives, on
 * the shared sets whose gold has them: WCXB dev and Chinese-WCE (`author`, `publish_date`) and
 * GoogleTrends-2017 (the text of the blocks labelled author and date). Pages are read as `winnow
 * clean` reads them (decodeHtmlPieces, then one segmenter pass with the MetadataCollector), with
 * the gold's URL as the page's URL (so a date in the URL path counts, as it would for a crawled
 * record). The upper bound of a date is fixed (2026-12-31), as a record's WARC-Date would be: the
 * figures do not depend on the day the script runs.
 *
 * The gold's dates are read by the experiments' own parser (not winnow's: lib/metadata-gold.js).
 * Relative ones ("7 hours ago", "Yesterday") and a year alone are no day, and those pages count
 * as having no gold date.
 *
 * Scores, on pages whose gold has the field:
 * - date `right_day`: the day given is the gold's day (htmldate's comparison);
 * - author `right`: case and spaces folded (and the separators of a list of names: ",", ";",
 *   "&", "and"), the answer contains the gold or the gold the answer;
 *   `same_words`: the same words (case, punctuation and "and"/"&" aside), the stricter figure
 *   of the earlier runs;
 * - `missing`: none given; `wrong`: given and not right.
 * And on pages whose gold has none: `filled_without_gold` (the gold may miss one, so this is an
 * upper bound of false answers).
 *
 * Domain folds: each set's pages are split in two by domain (@winnow/evaluation's domainFolds,
 * k=2, seed 1). Rules were tuned looking at fold 0's pages only; fold 1 is the held-out figure.
 *
 * `--show N` prints fold 0's first N wrong, missing and unwanted answers (fold 1 stays unseen);
 * `--candidates` adds, under each of fold 0's author lines, every author candidate the page
 * offered (its rank and text, as the collector received it) and where the gold's name first
 * sits in the page's HTML, to see which rule gave an answer and what a missing one would need.
 *
 * `--main-text model|gold` reads each page as clean does from the segmenter on (clean's
 * segmentWithMetadata), then re-decides its date and author by where the page shows them against
 * its main text (chooseByMainText), the main text being the blocks that the shipped model keeps
 * (`model`: scored as clean scores a page, scoreBatch of the default classifier) or the blocks
 * that the gold's main text covers (`gold`: alignBlockLabels, the upper bound of what the signal
 * can give). The shipped model was trained on WCXB dev's pages among others, so `model` is
 * optimistic there about which blocks are kept. `--candidates` is not read in this mode.
 * `--dump FILE` writes, for fold 0's pages only, one JSON line per page: the gold, the answers,
 * the shown candidates with their blocks and the kept blocks (for counting a rule's effect on
 * the tuning fold before writing it).
 *
 *   npx turbo run build --filter=@winnow/clean... && node experiments/metadata-accuracy.js [--data DIR] [--out FILE] [--show N] [--candidates]
 *     [--main-text model|gold] [--dump FILE]
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { decodeHtmlPieces } from "@winnow/archive";
import { alignBlockLabels } from "@winnow/evaluation";
import { chooseByMainText, MetadataCollector, normaliseDate } from "@winnow/metadata";
import { loadClassifier, resolveModelSpec } from "@winnow/models";
import { segmentHtml } from "@winnow/segment";
import { segmentWithMetadata } from "../pipelines/clean/dist/page.js";
import { parseFlags } from "../benchmarks/lib/common.js";
import { goldDay, modelKeptBlocks, setPages } from "./lib/metadata-gold.js";

const flags = parseFlags(process.argv.slice(2), []);
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const SETS = ["wcxb-dev", "googletrends-2017", "chinese-wce"];
const BOUND = Date.UTC(2026, 11, 31);
const SHOW = Number(flags.show ?? 0);
const CANDIDATES = flags.candidates !== undefined;
const MAIN_TEXT = flags["main-text"];
if (MAIN_TEXT !== undefined && MAIN_TEXT !== "model" && MAIN_TEXT !== "gold") throw new Error("--main-text takes model or gold");
const DUMP = flags.dump;
if (DUMP !== undefined) writeFileSync(DUMP, "");
const classifier = MAIN_TEXT === "model" ? await loadClassifier(resolveModelSpec(undefined)) : undefined;

/**
 * Case and spaces folded, and the list's own separators: winnow writes several authors with
 * "; " between them where the gold writes "A, B, and C" or "A & B".
 */
const fold = (s) =>
  s
    .toLowerCase()
    .replace(/\b(?:and|und)\b|[&;,]/g, "")
    .replace(/\s+/g, "");
const containsEither = (a, b) => {
  const x = fold(a);
  const y = fold(b);
  return x.length > 0 && y.length > 0 && (x.includes(y) || y.includes(x));
};
const words = (s) =>
  s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\b(and|und|by|von)\b|&/g, " ")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
const sameWords = (a, b) => words(a).sort().join(" ") === words(b).sort().join(" ");

function tally() {
  return { pages: 0, right: 0, sameWords: 0, wrong: 0, missing: 0, pagesWithoutGold: 0, filledWithoutGold: 0, examples: [] };
}
const round = (x) => Math.round(x * 1000) / 1000;
function summary(t, field) {
  return {
    pages_with_gold: t.pages,
    [field === "date" ? "right_day" : "right"]: round(t.right / Math.max(1, t.pages)),
    ...(field === "author" ? { same_words: round(t.sameWords / Math.max(1, t.pages)) } : {}),
    wrong: t.wrong,
    missing: t.missing,
    pages_without_gold: t.pagesWithoutGold,
    filled_without_gold: round(t.filledWithoutGold / Math.max(1, t.pagesWithoutGold)),
  };
}

const results = {};
const collector = new MetadataCollector();
/** With --candidates: each author candidate of the page being read, as offered (rank, text). */
const offered = [];
if (CANDIDATES) {
  // offerAuthor is the collector's one entry for author candidates (TypeScript-private only).
  const offerAuthor = collector.offerAuthor;
  collector.offerAuthor = function (value, rank, ...rest) {
    const line = `    candidate rank ${rank}${rest[0] === true ? " (handle)" : ""}: ${JSON.stringify(value.replace(/\s+/g, " ").trim().slice(0, 160))}`;
    // A forum's user blocks repeat: each distinct candidate once, at most 12 a page.
    if (offered.length < 12 && !offered.includes(line)) offered.push(line);
    // Every argument passed on: a forum's username is offered as a handle (a third argument).
    return offerAuthor.call(this, value, rank, ...rest);
  };
}
const started = process.cpuUsage();
let pagesRead = 0;
for (const set of SETS) {
  const dir = join(root, set);
  const { ids, folds } = setPages(dir);
  const byFold = [0, 1, "all"].map(() => ({ date: tally(), author: tally() }));
  for (let index = 0; index < ids.length; index++) {
    const id = ids[index];
    const gold = JSON.parse(readFileSync(join(dir, "ground-truth", `${id}.json`), "utf8"));
    const html = gunzipSync(readFileSync(join(dir, "html", `${id}.html.gz`)));
    const { pieces } = decodeHtmlPieces(html, "");
    offered.length = 0;
    let meta;
    if (MAIN_TEXT === undefined) {
      const doc = segmentHtml(pieces, { observer: collector });
      meta = collector.finish(gold.url ?? "", BOUND, doc.blocks, doc.title);
    } else {
      const { doc, metadata, shown } = segmentWithMetadata(pieces, gold.url ?? "", { capturedAt: new Date(BOUND).toISOString() });
      const kept = await keptBlocks(doc, gold.ground_truth.main_content ?? "");
      meta = chooseByMainText(
        metadata,
        shown,
        kept,
        doc.blocks.map((b) => b.text),
      );
      if (DUMP !== undefined && folds[index] === 0) dump(set, id, gold, doc, metadata, meta, shown, kept);
    }
    pagesRead++;
    const goldDate = gold.ground_truth.publish_date ? goldDay(gold.ground_truth.publish_date) : undefined;
    const goldAuthor = gold.ground_truth.author || undefined;
    for (const t of [byFold[folds[index]], byFold[2]]) {
      score(t.date, meta.date, goldDate, (a, g) => a.slice(0, 10) === g, `${set}/${id} f${folds[index]}`);
      const shown = t.author.examples.length;
      score(t.author, meta.author, goldAuthor, containsEither, `${set}/${id} f${folds[index]}`, sameWords);
      if (CANDIDATES && folds[index] === 0 && t.author.examples.length > shown) {
        t.author.examples.push(...offered, ...(goldAuthor === undefined ? [] : whereInHtml(html.toString("utf8"), goldAuthor)));
      }
    }
  }
  results[set] = Object.fromEntries(
    ["fold 0 (tuned on)", "fold 1 (held out)", "all"].map((name, f) => [
      name,
      { date: summary(byFold[f].date, "date"), author: summary(byFold[f].author, "author") },
    ]),
  );
  if (SHOW > 0) {
    // Only fold 0's pages are shown: fold 1 stays unseen.
    for (const line of [...byFold[0].date.examples, ...byFold[0].author.examples].slice(0, SHOW)) console.log(line);
  }
}

/** The indexes of the main text's blocks: those the shipped model keeps, or those the gold's main text covers. */
async function keptBlocks(doc, goldText) {
  if (MAIN_TEXT === "model") return modelKeptBlocks(classifier, doc);
  const { labels } = alignBlockLabels(
    doc.blocks.map((b) => b.text),
    goldText,
  );
  const kept = [];
  for (let b = 0; b < doc.blocks.length; b++) if (labels[b] === 1) kept.push(b);
  return kept;
}

/** One line of --dump: a fold-0 page's gold, answers before and after, shown candidates (dates read) and kept blocks. */
function dump(set, id, gold, doc, before, after, shown, kept) {
  const text = (b) => (b >= 0 && b < doc.blocks.length ? doc.blocks[b].text.slice(0, 120) : "");
  const line = {
    set,
    id,
    url: gold.url,
    blocks: doc.blocks.length,
    goldDate: gold.ground_truth.publish_date ? goldDay(gold.ground_truth.publish_date) : null,
    goldAuthor: gold.ground_truth.author || null,
    before: { date: before.date ?? null, author: before.author ?? null },
    after: { date: after.date ?? null, author: after.author ?? null },
    dateBlock: shown.dateBlock,
    authorBlock: shown.authorBlock,
    dates: shown.dates.map((d) => ({
      ...d,
      day: normaliseDate(d.value, shown.bound, shown.lang)?.slice(0, 10) ?? null,
      text: text(d.block),
    })),
    authors: shown.authors.map((a) => ({ ...a, text: text(a.block) })),
    kept,
    // The blocks around the main text's head and end, with their indexes.
    around:
      kept.length === 0
        ? []
        : [...Array.from({ length: 7 }, (_, k) => kept[0] - 4 + k), ...Array.from({ length: 5 }, (_, k) => kept[kept.length - 1] - 1 + k)]
            .filter((b, k, all) => b >= 0 && b < doc.blocks.length && all.indexOf(b) === k)
            .map((b) => [b, text(b)]),
    heads: doc.blocks.slice(0, 400).flatMap((b, k) => (b.heading === 1 ? [k] : [])),
  };
  appendFileSync(DUMP, `${JSON.stringify(line)}\n`);
}

/** Where the gold's name (or its first name of a list) first sits in the page's HTML, with some markup around it. */
function whereInHtml(html, goldAuthor) {
  const name = goldAuthor.split(/\s*(?:,|;|&|\band\b)\s*/)[0].trim();
  const at = name.length > 1 ? html.toLowerCase().indexOf(name.toLowerCase()) : -1;
  if (at < 0) return [`    gold name ${JSON.stringify(name)} not in the HTML`];
  const count = html.toLowerCase().split(name.toLowerCase()).length - 1;
  return [`    gold name x${count}, first at ${at}: ${JSON.stringify(html.slice(Math.max(0, at - 250), at + name.length + 80))}`];
}

function score(t, given, gold, isRight, where, isSame) {
  if (gold === undefined) {
    t.pagesWithoutGold++;
    if (given !== undefined) {
      t.filledWithoutGold++;
      t.examples.push(`${where}: ${JSON.stringify(given)} where the gold has none`);
    }
    return;
  }
  t.pages++;
  if (given === undefined) {
    t.missing++;
    t.examples.push(`${where}: none for ${JSON.stringify(gold)}`);
  } else if (isRight(given, gold)) t.right++;
  else {
    t.wrong++;
    t.examples.push(`${where}: ${JSON.stringify(given)} for ${JSON.stringify(gold)}`);
  }
  if (isSame !== undefined && given !== undefined && isSame(given, gold)) t.sameWords++;
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
  for (const [f, v] of Object.entries(r)) {
    const d = v.date;
    const a = v.author;
    console.log(
      `${set.padEnd(18)} ${f.padEnd(18)} date right ${d.right_day} of ${d.pages_with_gold} (wrong ${d.wrong}, missing ${d.missing}), filled ${d.filled_without_gold} of ${d.pages_without_gold} without | author right ${a.right} (same words ${a.same_words}) of ${a.pages_with_gold} (wrong ${a.wrong}, missing ${a.missing}), filled ${a.filled_without_gold} of ${a.pages_without_gold} without`,
    );
  }
}
console.log(`wrote ${out}`);
