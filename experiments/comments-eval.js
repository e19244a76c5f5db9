#!/usr/bin/env node
/**
 * How well `winnow clean --comments` separates user comments, on the shared sets with comment
 * gold (l3s-gn1, googletrends-2017; `ground_truth.comments`, "" when a page has none). Every page
 * goes through the clean pipeline's own batch function (decode, segment, score, keep), as a run
 * with `--comments` would, and is scored on:
 *
 * - comment words in the main text: of the page's comment-gold words (as a bag), those the main
 *   text has beyond what its main-content gold accounts for, summed over the pages with comments;
 * - the comments field's word F1 against the comment gold, mean over the pages with comments;
 * - the share of pages without comments whose comments field is empty.
 *
 * Much of the comment gold holds no user comment: counters ("53 Comments"), prompts ("Add
 * comment »", "Be the first to post a comment"), reply forms, posting rules, even a poll. The
 * rule this run checks puts all of those in neither field, so each figure is given twice: on the
 * gold as given ("gold"), and with the 39 pages whose comment gold was read, page by page, as
 * holding no user comment counted as pages without comments ("read"; the ids are below, 21 of
 * them with under 15 words of comment gold, 18 with more).
 *
 * --pages prints each page's figures; --dump FILE appends each page's main text and comments field
 * (JSON lines); --against FILE, a dump of an earlier build, adds a table of main-text F1 to four
 * places and the pages whose main text or comments field differ from it, per set.
 *
 * --comment-labels DIR scores, instead, the pages of each set that have a hand comment label file
 * in DIR/SET/ (version 2, as experiments/labels/comments/ holds them), every other page left out:
 * the text of the file's comment blocks is the page's comment gold, the text of its content
 * blocks its main gold (so a set whose gold keeps comments as main text, CleanEval's, or a forum's
 * replies, WCXB's, is scored with them out of it); --view does not apply.
 *
 * The rule part has no training; a model's comment head is held out only when the model was not
 * trained on the set (--model FILE made without it), which the results file says per row.
 *
 *   npm run build && node experiments/comments-eval.js [--data DIR] [--model NAME|FILE] [--sets A,B] [--view gold|read] [--comment-labels DIR] [--json FILE] [--pages] [--dump FILE] [--against FILE]
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { loadWcxb, wordScores, wordTokens } from "@winnow/evaluation";
import { labelMismatch, readLabelDir } from "@winnow/labels";
import { segmentHtml } from "@winnow/segment";
import { loadClassifier } from "@winnow/models";
import { parseFlags } from "../benchmarks/lib/common.js";
import { cleanPages } from "../pipelines/clean/dist/page.js";

const flags = parseFlags(process.argv.slice(2), []);
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const sets = (flags.sets ?? "l3s-gn1,googletrends-2017").split(",");
const classifier = await loadClassifier(flags.model ?? "mlp");
/** --view read: pages whose comment gold holds no user comment, by reading it (see the top). */
const NO_USER_COMMENTS = {
  "l3s-gn1": [
    ...["0049", "0117", "0138", "0194", "0208", "0259", "0319", "0355", "0374", "0392", "0394", "0428"],
    ...["0062", "0088", "0157", "0227", "0291", "0298", "0338", "0341", "0356", "0389", "0408", "0430"],
    ...["0442", "0482", "0489", "0544", "0578", "0602"],
  ],
  "googletrends-2017": ["0101", "0111", "0117", "0143", "0154", "0161", "0162", "0166", "0177"],
};
const view = flags.view ?? "gold";
if (view !== "gold" && view !== "read") throw new Error(`--view is gold or read, not ${view}`);
const hasComments = (set, page) =>
  page.comments !== "" && !(view === "read" && NO_USER_COMMENTS[set]?.includes(page.id) && !flags["comment-labels"]);

/**
 * With --comment-labels: the set's hand-labelled pages only, their gold and comment gold from the
 * labels (see the top); without, every page as the set gives it.
 */
async function* pagesOf(set) {
  const dir = flags["comment-labels"];
  const files = dir === undefined ? undefined : await readLabelDir(`${dir}/${set}`);
  for await (const page of loadWcxb(`${root}/${set}`)) {
    if (files === undefined) {
      yield page;
      continue;
    }
    const file = files.get(page.id);
    if (file === undefined || file.version < 2) continue;
    const texts = segmentHtml(page.html).blocks.map((b) => b.text);
    const problem = labelMismatch(file, texts);
    if (problem !== undefined) throw new Error(`${set}: ${problem}`);
    const join = (label) => texts.filter((_, b) => file.labels[b] === label).join("\n\n");
    yield { ...page, gold: join(1), comments: join("comment") };
  }
}
const encoder = new TextEncoder();
/** --against: the earlier build's output per "set id". */
const earlier = new Map();
if (flags.against)
  for (const line of readFileSync(flags.against, "utf8").split("\n"))
    if (line !== "") {
      const o = JSON.parse(line);
      earlier.set(`${o.set} ${o.id}`, o);
    }

function bag(text) {
  const m = new Map();
  for (const w of wordTokens(text)) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** Comment-gold words the main text has beyond its main-content gold's count of each word. */
function commentWordsInMain(text, gold, comments) {
  const t = bag(text);
  const g = bag(gold);
  let n = 0;
  for (const [w, c] of bag(comments)) n += Math.min(c, Math.max(0, (t.get(w) ?? 0) - (g.get(w) ?? 0)));
  return n;
}

/** One set's counts, all zero: what each page adds to. */
function emptyTally(set) {
  return {
    set,
    pagesWithComments: 0,
    commentWords: 0,
    commentWordsInMain: 0,
    f1Sum: 0,
    precisionSum: 0,
    recallSum: 0,
    pagesWithout: 0,
    emptyWithout: 0,
    mainF1Sum: 0,
    pages: 0,
    textChanged: 0,
    commentsChanged: 0,
  };
}

const rows = [];
for (const set of sets) {
  const r = emptyTally(set);
  let batch = [];
  const flush = async () => {
    const inputs = batch.map((p) => ({ body: encoder.encode(p.html), headerCharset: "utf-8", url: p.url }));
    const outs = await cleanPages(inputs, classifier, undefined, { keepComments: true, metadata: false });
    outs.forEach((out, i) => {
      const p = batch[i];
      const text = out.ok ? out.blocks.map((b) => b.text).join("\n\n") : "";
      const comments = out.ok ? (out.comments ?? []).map((b) => b.text).join("\n\n") : "";
      r.pages++;
      if (flags.dump) appendFileSync(flags.dump, `${JSON.stringify({ set, id: p.id, text, comments })}\n`);
      const was = earlier.get(`${set} ${p.id}`);
      if (was !== undefined && was.text !== text) r.textChanged++;
      if (was !== undefined && was.comments !== comments) r.commentsChanged++;
      const mainF1 = wordScores(text, p.gold).f1;
      r.mainF1Sum += mainF1;
      if (flags.pages) console.log(`${set} ${p.id} main F1 ${mainF1.toFixed(3)}`);
      if (hasComments(set, p)) {
        r.pagesWithComments++;
        const words = wordTokens(p.comments).length;
        const inMain = commentWordsInMain(text, p.gold, p.comments);
        r.commentWords += words;
        r.commentWordsInMain += inMain;
        const field = wordScores(comments, p.comments);
        const f1 = field.f1;
        r.f1Sum += f1;
        r.precisionSum += field.precision;
        r.recallSum += field.recall;
        if (flags.pages) {
          console.log(`${set} ${p.id} comments F1 ${f1.toFixed(3)}, comment words in main ${inMain} of ${words}`);
          // Words missing from the field (recall) or others put in it (precision): a low F1 is either.
          const fieldWords = wordTokens(comments).length;
          console.log(
            `${set} ${p.id} comments precision ${field.precision.toFixed(3)} recall ${field.recall.toFixed(3)}, field words ${fieldWords}`,
          );
        }
      } else {
        r.pagesWithout++;
        if (comments === "") r.emptyWithout++;
      }
    });
    batch = [];
  };
  for await (const page of pagesOf(set)) {
    batch.push(page);
    if (batch.length === 16) await flush();
  }
  await flush();
  rows.push(r);
}
const total = rows.reduce((a, r) => {
  for (const k of Object.keys(a)) if (k !== "set") a[k] += r[k];
  return a;
}, emptyTally("both"));
const summary = [...rows, total].map((r) => ({
  set: r.set,
  pagesWithComments: r.pagesWithComments,
  commentWordsInMain: Number((r.commentWordsInMain / r.commentWords).toFixed(3)),
  commentsF1: Number((r.f1Sum / r.pagesWithComments).toFixed(3)),
  commentsPrecision: Number((r.precisionSum / r.pagesWithComments).toFixed(3)),
  commentsRecall: Number((r.recallSum / r.pagesWithComments).toFixed(3)),
  pagesWithout: r.pagesWithout,
  emptyWithout: Number((r.emptyWithout / r.pagesWithout).toFixed(3)),
  mainF1: Number((r.mainF1Sum / r.pages).toFixed(3)),
}));
console.log(
  "| set | pages with comments | comment words in main text | comments F1 | pages without | field empty | main-text F1 (all pages) |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const s of summary) {
  console.log(
    `| ${s.set} | ${s.pagesWithComments} | ${s.commentWordsInMain} | ${s.commentsF1} | ${s.pagesWithout} | ${s.emptyWithout} | ${s.mainF1} |`,
  );
}
// The field's F1 split (means over the pages with comments): words missing, or others put in.
console.log("\n| set | comments precision | comments recall |");
console.log("| --- | ---: | ---: |");
for (const s of summary) console.log(`| ${s.set} | ${s.commentsPrecision} | ${s.commentsRecall} |`);
if (flags.against) {
  console.log("\n| set | pages | main-text F1 | pages whose main text changed | pages whose comments field changed |");
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const r of rows)
    console.log(`| ${r.set} | ${r.pages} | ${(r.mainF1Sum / r.pages).toFixed(4)} | ${r.textChanged} | ${r.commentsChanged} |`);
}
if (flags.json) writeFileSync(flags.json, `${JSON.stringify(summary, null, 2)}\n`);
