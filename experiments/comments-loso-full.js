#!/usr/bin/env node
/**
 * The shipped recipe's leave-one-source-out folds (`npm run train:default`: eight sets,
 * texrex37+ext+ctx, 32 hidden units, three members, a comment head), some sets held out only, and
 * each held-out set scored as `winnow clean --comments` decides its comments (the head's veto at
 * the comment threshold, then the markup rule: decideComments): comment words in the main text,
 * the `comments` field's word F1 and the field empty on pages without comments, per set with
 * comment gold and per set's hand-labelled pages (formatCommentDecision, as `winnow train --loso`
 * prints it).
 *
 * Each fold is trained once and then decided at several comment thresholds: the one its fit chose
 * on its own validation pages (this build's chooseCommentThreshold), the one an earlier build's
 * chooser picks on the same validation scores (--old-chooser FILE, that build's compiled
 * mlp-fit.js placed beside this one's), and fixed ones (--sweep), so one training shows what the
 * threshold does.
 *
 * With two sets held out or more, each is also decided at the threshold chosen (this build's
 * chooser, and the old one) on the other held-out sets' scores pooled, each scored by its own fold:
 * a threshold chosen on out-of-fold predictions, as `--loso` chooses the shipped model's on all
 * eight, without the set it is scored on.
 *
 * --save DIR keeps each fold's held-out scores (content and comment heads, before the decision)
 * and thresholds in DIR/SET.json; with --reuse, a fold already saved there is read back instead
 * of trained (the comment rule changed, not the recipe).
 *
 * --train-labels DIR: the hand comment labels train the comment head (winnow train
 * --comment-labels); --score-labels DIR: they only score (winnow train --score-comment-labels).
 * --json FILE writes every page's comment figures per variant.
 *
 *   npm run build && node experiments/comments-loso-full.js --held-out l3s-gn1,googletrends-2017
 *     [--data DIR] [--ensemble 3] [--train-labels DIR | --score-labels DIR] [--old-chooser FILE]
 *     [--sweep 0.5,0.7,0.8808,0.95] [--save DIR [--reuse]] [--json FILE]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadLabelledSources } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { buildDataset, commentLabelsFromFiles, readLabelDirsBySource } from "@winnow/train";
import { parseFlags } from "../benchmarks/lib/common.js";
import { formatCommentDecision } from "../pipelines/cli/dist/commands/eval.js";
import { scorePage } from "../pipelines/train/dist/evaluate.js";
import { readSavedFold } from "./lib/saved-folds.js";
import {
  chooseCommentThreshold,
  decideMlpComments,
  fitMlp,
  scoreMlpPages,
  splitValidation,
  withFallback,
} from "../pipelines/train/dist/mlp-fit.js";

const flags = parseFlags(process.argv.slice(2), ["reuse"]);
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const SETS = ["wcxb-dev", "cleaneval", "l3s-gn1", "googletrends-2017", "magic-html", "cleanportaleval", "newspaper3k", "chinese-wce"];
const sets = flags.sets ? flags.sets.split(",") : SETS;
const heldOut = (flags["held-out"] ?? "l3s-gn1,googletrends-2017").split(",");
const ensemble = Number(flags.ensemble ?? 3);
const sweep = (flags.sweep ?? "0.5,0.6225,0.7311,0.8176,0.8808,0.9241,0.9526").split(",").map(Number);
const oldChooser = flags["old-chooser"]
  ? (await import(new URL(flags["old-chooser"], `file://${process.cwd()}/`).href)).chooseCommentThreshold
  : undefined;

const started = Date.now();
const pages = await loadLabelledSources(sets.map((s) => `${root}/${s}`));
const labelDir = flags["train-labels"] ?? flags["score-labels"];
const commentLabels = labelDir ? commentLabelsFromFiles(pages, await readLabelDirsBySource(labelDir, sets)) : undefined;
const data = buildDataset(pages, TEXREX_CONTEXT, { commentLabels, commentLabelsTrain: flags["train-labels"] !== undefined });
console.log(`${pages.length} pages of ${sets.length} sets read in ${((Date.now() - started) / 1000).toFixed(0)} s`);
const options = { hiddenSize: 32, ensemble, commentHead: true };
const NEVER = 2;
if (flags.save) mkdirSync(flags.save, { recursive: true });

/** One fold: its held-out pages' raw scores and the thresholds its fit chose, trained or read back. */
function fold(source) {
  const s = data.sources.indexOf(source);
  if (s < 0) throw new Error(`${source} is not one of ${data.sources.join(", ")}`);
  const file = flags.save ? join(flags.save, `${source}.json`) : undefined;
  const test = [];
  const train = [];
  data.sourceOf.forEach((of, p) => (of === s ? test : train).push(p));
  const saved = flags.reuse && file ? readSavedFold(flags.save, data, source) : undefined;
  if (saved !== undefined) {
    console.log(`${source} held out: read back from ${file}`);
    return { ...saved, s };
  }
  const t0 = Date.now();
  const fitted = fitMlp(data, train, options);
  const head = fitted.commentHead;
  const out = {
    s,
    test,
    threshold: fitted.threshold,
    emptyPageFallback: fitted.emptyPageFallback,
    commentThreshold: head.threshold,
    content: scoreMlpPages(data, test, fitted.members),
    comments: scoreMlpPages(data, test, head.members),
  };
  if (oldChooser) {
    // The earlier chooser on the same validation pages and scores as the fit's.
    const { validation } = splitValidation(data, train);
    const v = [scoreMlpPages(data, validation, fitted.members), scoreMlpPages(data, validation, head.members)];
    out.oldCommentThreshold = oldChooser(data, validation, ...v, undefined).threshold;
  }
  console.log(`${source} held out: fitted on ${train.length} pages in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  if (file)
    writeFileSync(
      file,
      JSON.stringify({
        ...out,
        test: undefined,
        s: undefined,
        content: out.content.map((a) => Array.from(a)),
        comments: out.comments.map((a) => Array.from(a)),
      }),
    );
  return out;
}

const folds = new Map(heldOut.map((source) => [source, fold(source)]));
/** A threshold chosen by `choose` on the other held-out folds' pages and raw scores, pooled. */
function fromOtherFolds(source, choose) {
  const others = [...folds].filter(([name]) => name !== source).map(([, f]) => f);
  if (others.length === 0 || choose === undefined) return undefined;
  const pagesOf = others.flatMap((f) => f.test);
  return choose(
    data,
    pagesOf,
    others.flatMap((f) => f.content),
    others.flatMap((f) => f.comments),
    undefined,
  ).threshold;
}
const perPage = [];
/** The same pages with no comment markup: the head's veto alone decides. */
const vetoOnly = { ...data, commentContexts: data.commentContexts.map(() => null) };
for (const [source, f] of folds) {
  const variants = [["fit's own (the chooser of the build that trained it)", f.commentThreshold]];
  if (f.oldCommentThreshold !== undefined) variants.push(["fit's own (--old-chooser of the run that trained it)", f.oldCommentThreshold]);
  const other = fromOtherFolds(source, chooseCommentThreshold);
  if (other !== undefined) variants.push(["other folds pooled (this build's chooser)", other]);
  const otherOld = fromOtherFolds(source, oldChooser);
  if (otherOld !== undefined) variants.push(["other folds pooled (--old-chooser)", otherOld]);
  for (const t of sweep) variants.push([`fixed ${t}`, t]);
  variants.push(["never (markup only, head at 0.5)", NEVER]);
  console.log(`\n${source} held out: keep threshold ${f.threshold}`);
  for (const [name, threshold] of variants) {
    const decided = decideMlpComments(data, f.test, f.content, f.comments, threshold, f.threshold);
    const scores = withFallback(decided.content, f.threshold, f.emptyPageFallback);
    const scored = f.test.map((p, i) => scorePage(data, p, scores[i], f.threshold, f.s, { comments: decided.comments[i], threshold }));
    const mainF1 = scored.reduce((a, p) => a + p.f1, 0) / scored.length;
    const lines = formatCommentDecision({ method: `${name}: comment threshold ${threshold > 1 ? "never" : threshold}`, pages: scored });
    // The figure `winnow train --loso` printed before: the head's veto alone, no markup rule.
    const vetoed = decideMlpComments(vetoOnly, f.test, f.content, f.comments, threshold, f.threshold);
    const vetoScores = withFallback(vetoed.content, f.threshold, f.emptyPageFallback);
    let words = 0;
    let kept = 0;
    f.test.forEach((p, i) => {
      const s = scorePage(vetoOnly, p, vetoScores[i], f.threshold, f.s);
      words += s.commentWords ?? 0;
      kept += s.commentWordsKept ?? 0;
    });
    const old = words === 0 ? "-" : `${((100 * kept) / words).toFixed(1)}%`;
    console.log(
      `${lines.slice(1).join("\n")}\n  main-text F1 ${mainF1.toFixed(4)}; the head's veto alone keeps ${old} of the comment words`,
    );
    for (const p of scored)
      if (p.commentDecision) perPage.push({ source, variant: name, threshold, id: p.id, f1: p.f1, ...p.commentDecision });
  }
}
if (flags.json) writeFileSync(flags.json, `${perPage.map((r) => JSON.stringify(r)).join("\n")}\n`);
console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s in all`);
