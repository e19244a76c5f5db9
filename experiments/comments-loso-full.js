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
 * --train-labels DIR: the hand comment labels train the comment head (winnow train
 * --comment-labels); --score-labels DIR: they only score (winnow train --score-comment-labels).
 * --json FILE writes every page's comment figures per variant.
 *
 *   npm run build && node experiments/comments-loso-full.js --held-out l3s-gn1,googletrends-2017
 *     [--data DIR] [--ensemble 3] [--train-labels DIR | --score-labels DIR] [--old-chooser FILE]
 *     [--sweep 0.5,0.7,0.8808,0.95] [--json FILE]
 */
import { writeFileSync } from "node:fs";
import { loadLabelledSources } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { buildDataset, commentLabelsFromFiles, readLabelDirsBySource } from "@winnow/train";
import { parseFlags } from "../benchmarks/lib/common.js";
import { formatCommentDecision } from "../pipelines/cli/dist/commands/eval.js";
import { scorePage } from "../pipelines/train/dist/evaluate.js";
import { decideMlpComments, fitMlp, scoreMlpPages, splitValidation, withFallback } from "../pipelines/train/dist/mlp-fit.js";

const flags = parseFlags(process.argv.slice(2), []);
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
const perPage = [];
const NEVER = 2;
for (const source of heldOut) {
  const s = data.sources.indexOf(source);
  if (s < 0) throw new Error(`${source} is not one of ${data.sources.join(", ")}`);
  const train = [];
  const test = [];
  data.sourceOf.forEach((of, p) => (of === s ? test : train).push(p));
  const t0 = Date.now();
  const fitted = fitMlp(data, train, options);
  const head = fitted.commentHead;
  const content = scoreMlpPages(data, test, fitted.members);
  const comments = scoreMlpPages(data, test, head.members);
  const variants = [["fit's own (this build)", head.threshold]];
  if (oldChooser) {
    // The earlier chooser on the same validation pages and scores as the fit's.
    const { validation } = splitValidation(data, train);
    const chosen = oldChooser(
      data,
      validation,
      scoreMlpPages(data, validation, fitted.members),
      scoreMlpPages(data, validation, head.members),
      undefined,
    );
    variants.push(["fit's own (old chooser)", chosen.threshold]);
  }
  for (const t of sweep) variants.push([`fixed ${t}`, t]);
  variants.push(["never (markup only, head at 0.5)", NEVER]);
  console.log(
    `\n${source} held out: fitted on ${train.length} pages in ${((Date.now() - t0) / 1000).toFixed(0)} s; keep threshold ${fitted.threshold}`,
  );
  for (const [name, threshold] of variants) {
    const decided = decideMlpComments(data, test, content, comments, threshold, fitted.threshold);
    const scores = withFallback(decided.content, fitted.threshold, fitted.emptyPageFallback);
    const scored = test.map((p, i) => scorePage(data, p, scores[i], fitted.threshold, s, { comments: decided.comments[i], threshold }));
    const mainF1 = scored.reduce((a, p) => a + p.f1, 0) / scored.length;
    const lines = formatCommentDecision({ method: `${name}: comment threshold ${threshold > 1 ? "never" : threshold}`, pages: scored });
    console.log(`${lines.slice(1).join("\n")}\n  main-text F1 ${mainF1.toFixed(4)}`);
    for (const p of scored)
      if (p.commentDecision) perPage.push({ source, variant: name, threshold, id: p.id, f1: p.f1, ...p.commentDecision });
  }
}
if (flags.json) writeFileSync(flags.json, `${perPage.map((r) => JSON.stringify(r)).join("\n")}\n`);
console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s in all`);
