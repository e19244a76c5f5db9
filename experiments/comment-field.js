#!/usr/bin/env node
/**
 * Where the comment gold's words go in `winnow clean --comments`, held out, and what a threshold
 * of the `comments` field's own would give (issue 34, the field's word F1). Reads the folds that
 * `experiments/comments-loso-full.js --save DIR` kept (each set's blocks scored by the content and
 * comment heads of a model trained on the other sets, before any decision) and decides each page
 * as clean does (decideMlpComments at the veto threshold, the empty-page fallback), then:
 *
 * - per set, the comment gold's block words in the main text, in the field, in neither, and for
 *   the "neither" words, the head's raw comment score (bins) and what the markup says of the block;
 * - the field's word F1 (mean over pages with comment gold; precision and recall likewise) and the
 *   field empty on pages without comments, for the field at each candidate threshold, the veto
 *   threshold unchanged, without and with the thread blocks of comment markup that the main text
 *   does not keep (what settleComments now marks for the field);
 * - a before/after table as `winnow train --loso` reports the figures (scorePage): the field as
 *   the rule before filled it, with the unsettled thread's blocks, and at a field threshold chosen
 *   by chooseCommentFieldThreshold on the other sets, on the set itself (in sample) and on all;
 *   with --labels, hand-labelled pages of other sets (wcxb-dev, cleaneval) in the table too.
 *
 *   npm run build && node experiments/comment-field.js --saved DIR [--sets l3s-gn1,googletrends-2017]
 *     [--veto l3s-gn1=0.9241,googletrends-2017=0.7773,…] [--labels experiments/labels/comments] [--pages] [--data ROOT]
 */
import { loadLabelledSources, wordScores } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { inCommentsField } from "@winnow/models";
import {
  buildDataset,
  chooseCommentFieldThreshold,
  commentLabelsFromFiles,
  readLabelDirsBySource,
  THRESHOLD_CANDIDATES,
} from "@winnow/train";
import { parseFlags } from "../benchmarks/lib/common.js";
import { scorePage } from "../pipelines/train/dist/evaluate.js";
import { decideSavedFold, readSavedFold } from "./lib/saved-folds.js";

const flags = parseFlags(process.argv.slice(2), ["pages"]);
if (typeof flags.saved !== "string") throw new Error("--saved DIR: the folds comments-loso-full.js --save wrote");
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const sets = (flags.sets ?? "l3s-gn1,googletrends-2017").split(",");
const veto = new Map(
  (flags.veto ?? "l3s-gn1=0.9241,googletrends-2017=0.7773,wcxb-dev=0.7311,cleaneval=0.5").split(",").map((kv) => {
    const [k, v] = kv.split("=");
    return [k, Number(v)];
  }),
);
/** A block the markup calls a thread's (COMMENT_THREAD); with `text`, not mostly link text. */
function threadBlock(ctx, b, text) {
  return ctx?.roles[b] === 1 && (!text || 2 * ctx.links[b] < ctx.chars[b]);
}
const ROLES = ["no markup role", "thread", "chrome", "signed run", "discussion", "announced run"];

const pages = await loadLabelledSources(sets.map((s) => `${root}/${s}`));
// --labels DIR: hand comment labels (experiments/labels/comments) score their pages, as
// `winnow train --score-comment-labels` does, without training on them.
const commentLabels = flags.labels ? commentLabelsFromFiles(pages, await readLabelDirsBySource(flags.labels, sets)) : undefined;
const data = buildDataset(pages, TEXREX_CONTEXT, { commentLabels, commentLabelsTrain: false });
const fmt = (x) => (Number.isNaN(x) ? "-" : x.toFixed(3));
/** The sets with comment gold: sections 1 and 2 read them alone (a hand-labelled set only fills section 3's table). */
const gold = sets.filter((n) => data.pages.some((p) => p.source === n && p.comments !== ""));
/** Each set's pages decided at a veto threshold (DecidedPages), for the field threshold's choice. */
const folds = new Map();
function decide(source, vetoAt) {
  const f = folds.get(source);
  const { scores, undecided, comments } = decideSavedFold(data, f, vetoAt);
  return { pages: f.test, scores, keep: f.test.map(() => f.threshold), comments, undecided };
}
for (const source of sets) {
  const saved = readSavedFold(flags.saved, data, source);
  if (saved === undefined) throw new Error(`${flags.saved} holds no fold of ${source}`);
  const { test, comments } = saved;
  const vetoAt = veto.get(source) ?? saved.commentThreshold;
  const keep = saved.threshold;
  folds.set(source, saved);
  if (!gold.includes(source)) continue;
  const decided = decideSavedFold(data, saved, vetoAt);
  const { scores } = decided;
  // 1. Where the comment gold's block words go, at the veto threshold as the field threshold (today).
  const where = { main: 0, field: 0, neither: 0 };
  const bins = new Map();
  const roles = new Map();
  const rawBins = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
  test.forEach((p, i) => {
    const ctx = data.commentContexts[p];
    for (let b = 0, row = data.firstRow[p]; row < data.firstRow[p + 1]; b++, row++) {
      if (data.comments[row] !== 1) continue;
      const w = data.words[row];
      if (scores[i][b] >= keep) where.main += w;
      else if (inCommentsField(scores[i][b], decided.comments[i][b], keep, vetoAt)) where.field += w;
      else {
        where.neither += w;
        const raw = comments[i][b];
        const bin = rawBins.findLast((x) => raw >= x);
        bins.set(bin, (bins.get(bin) ?? 0) + w);
        const role = ROLES[ctx?.roles[b] ?? 0];
        roles.set(role, (roles.get(role) ?? 0) + w);
      }
    }
  });
  const total = where.main + where.field + where.neither;
  const pct = (x) => `${x} (${((100 * x) / total).toFixed(1)}%)`;
  console.log(`\n${source}: keep threshold ${keep}, veto (comment) threshold ${vetoAt}, ${test.length} pages`);
  console.log(`  comment gold block words ${total}: main ${pct(where.main)}, field ${pct(where.field)}, neither ${pct(where.neither)}`);
  console.log(`  "neither" by the head's raw comment score: ${rawBins.map((x) => `>=${x.toFixed(1)} ${bins.get(x) ?? 0}`).join(", ")}`);
  console.log(`  "neither" by markup role: ${[...roles].map(([r, w]) => `${r} ${w}`).join(", ")}`);
  if (flags.pages) {
    console.log("  page  gold words  labelled block words  main  field  neither  field words  P  R  F1");
    test.forEach((p, i) => {
      const page = data.pages[p];
      if (page.comments === "") return;
      const blocks = page.doc.blocks;
      const field = [];
      const w = { main: 0, field: 0, neither: 0 };
      for (let b = 0, row = data.firstRow[p]; b < blocks.length; b++, row++) {
        const inField = inCommentsField(scores[i][b], decided.comments[i][b], keep, vetoAt);
        if (inField) field.push(blocks[b].text);
        if (data.comments[row] !== 1) continue;
        if (scores[i][b] >= keep) w.main += data.words[row];
        else if (inField) w.field += data.words[row];
        else w.neither += data.words[row];
      }
      const text = field.join("\n\n");
      const r = wordScores(text, page.comments);
      const count = (t) => (t.match(/\S+/g) ?? []).length;
      console.log(
        `  ${page.id} ${count(page.comments)} ${w.main + w.field + w.neither} ${w.main} ${w.field} ${w.neither} ${count(text)} ${fmt(r.precision)} ${fmt(r.recall)} ${fmt(r.f1)} | ${JSON.stringify(page.comments.slice(0, 90))}`,
      );
    });
  }
  // 2. The field at each candidate threshold.
  // The thread rule: besides the head, every block the markup calls a thread's that the main text
  // does not keep ("all"), or only those of them that are not mostly link text ("text": a thread
  // of links is a list of teasers under comment class words, as settleComments reads it).
  for (const threadRule of [false, "all", "text"]) {
    console.log(
      `  field threshold   field F1   P      R      field empty   pages with/without${threadRule ? `   (and the thread blocks in comment markup not kept as main text: ${threadRule})` : ""}`,
    );
    for (const t of [...THRESHOLD_CANDIDATES, vetoAt, 2]) {
      let f1 = 0,
        pr = 0,
        re = 0,
        withGold = 0,
        empty = 0,
        without = 0;
      test.forEach((p, i) => {
        const blocks = data.pages[p].doc.blocks;
        const field = [];
        for (let b = 0; b < blocks.length; b++)
          if (
            inCommentsField(scores[i][b], decided.comments[i][b], keep, t) ||
            (threadRule !== false && scores[i][b] < keep && threadBlock(data.commentContexts[p], b, threadRule === "text"))
          )
            field.push(blocks[b].text);
        const gold = data.pages[p].comments;
        if (gold === "") {
          without++;
          if (field.length === 0) empty++;
          return;
        }
        const w = wordScores(field.join("\n\n"), gold);
        withGold++;
        f1 += w.f1;
        pr += w.precision;
        re += w.recall;
      });
      console.log(
        `  ${t > 1 ? "never" : t.toFixed(4)}${t === vetoAt ? " (veto)" : "       "}     ${fmt(f1 / withGold)}   ${fmt(pr / withGold)}  ${fmt(re / withGold)}  ${fmt(empty / without)}         ${withGold}/${without}`,
      );
    }
  }
}

// 3. Before and after, per set: the field as the rule before this branch filled it (at the veto
// threshold, without the unsettled thread's blocks), with the unsettled thread's blocks (this
// branch's decision) at the veto threshold, and at a field threshold chosen by
// chooseCommentFieldThreshold on the other sets (left out), on this set (in sample) and on all.
// Figures as `winnow train --loso` reports them (scorePage's commentDecision): on the sets with
// comment gold against the gold, on hand-labelled pages (--labels) against the labels.
/** Whether the rule before this branch left block b out of the field: a thread block the article did not settle, which the head alone did not call a comment. */
const newlyInField = (p, i, b, d, raw, t) => threadBlock(data.commentContexts[p], b, true) && d.undecided[i][b] !== 0 && raw[i][b] < t;
function table(source, label, vetoAt, fieldThreshold, before = false) {
  const f = folds.get(source);
  const d = decide(source, vetoAt);
  let words = 0,
    inMain = 0,
    f1 = 0,
    pr = 0,
    re = 0,
    withComments = 0,
    empty = 0,
    without = 0;
  d.pages.forEach((p, i) => {
    // The rule before: the field's comment scores with the newly marked blocks under any threshold.
    const comments = before
      ? Float32Array.from(d.comments[i], (c, b) => (newlyInField(p, i, b, d, f.comments, fieldThreshold) ? 0 : c))
      : d.comments[i];
    const score = scorePage(data, p, d.scores[i], d.keep[i], 0, { comments, threshold: vetoAt, fieldThreshold }).commentDecision;
    if (score === undefined) return;
    words += score.words;
    inMain += score.wordsInMain;
    if (score.fieldF1 !== undefined) {
      withComments++;
      f1 += score.fieldF1;
      pr += score.fieldPrecision;
      re += score.fieldRecall;
    } else {
      without++;
      if (score.fieldEmpty) empty++;
    }
  });
  const t = (x) => (x > 1 ? "never" : x.toFixed(4));
  console.log(
    `| ${source} | ${label} | ${t(vetoAt)} | ${t(fieldThreshold)} | ${words === 0 ? "-" : `${((100 * inMain) / words).toFixed(1)}%`} | ${fmt(f1 / withComments)} | ${fmt(pr / withComments)} | ${fmt(re / withComments)} | ${without === 0 ? "-" : fmt(empty / without)} | ${withComments} / ${without} |`,
  );
}
const pooledOf = (names, vetoAt) => {
  const ds = names.map((n) => decide(n, vetoAt));
  return {
    pages: ds.flatMap((d) => d.pages),
    scores: ds.flatMap((d) => d.scores),
    keep: ds.flatMap((d) => d.keep),
    comments: ds.flatMap((d) => d.comments),
  };
};
const shipped = Number(flags["shipped-veto"] ?? 0.8808);
const pooled = chooseCommentFieldThreshold(data, pooledOf(gold, shipped), shipped);
console.log(`\nfield threshold chosen on ${gold.join(" + ")} pooled at the veto threshold ${shipped}: ${JSON.stringify(pooled)}`);
console.log(
  "\n| held out | field | veto threshold | field threshold | comment words in main | field F1 | P | R | field empty | pages with / without |",
);
console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const source of sets) {
  for (const vetoAt of [...new Set([veto.get(source), shipped])]) {
    if (vetoAt === undefined) continue;
    table(source, "before (the veto's threshold, no unsettled thread)", vetoAt, vetoAt, true);
    table(source, "after: unsettled thread, the veto's threshold", vetoAt, vetoAt);
    const others = gold.filter((n) => n !== source);
    if (others.length > 0)
      table(
        source,
        `after, field threshold chosen on ${others.join(" + ")}`,
        vetoAt,
        chooseCommentFieldThreshold(data, pooledOf(others, vetoAt), vetoAt).threshold,
      );
    if (gold.includes(source))
      table(
        source,
        "after, field threshold chosen on this set (in sample)",
        vetoAt,
        chooseCommentFieldThreshold(data, pooledOf([source], vetoAt), vetoAt).threshold,
      );
    table(
      source,
      `after, field threshold chosen on ${gold.join(" + ")}`,
      vetoAt,
      chooseCommentFieldThreshold(data, pooledOf(gold, vetoAt), vetoAt).threshold,
    );
  }
}
