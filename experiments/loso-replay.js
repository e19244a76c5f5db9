#!/usr/bin/env node
/**
 * What `winnow train --loso` prints for the shipped recipe (`npm run train:default`'s eight sets,
 * texrex37+ext+ctx), replayed from folds that `comments-loso-full.js --save DIR` kept instead of
 * trained again: crossValidateMlp itself runs, each fold's fit replaced by its saved scores and
 * thresholds (FitFold), so everything chosen after the folds (the comment thresholds in and out of
 * fold, the field thresholds, the pooled curve and operating points) is this build's. A change to
 * those choices is measured in minutes instead of an hour; the saved folds must be of the same
 * recipe and segmenter (replaying the build that ran the full report gives that report's figures).
 * Last, what `train --loso` would write into the model: the keep threshold, the comment threshold
 * and the field threshold chosen on all folds.
 *
 *   npm run build && node experiments/loso-replay.js --saved DIR [--sets a,b,…] [--data DIR]
 */
import { loadLabelledSources } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { buildDataset, crossValidateMlp } from "@winnow/train";
import { parseFlags } from "../benchmarks/lib/common.js";
import { formatBreakdown, formatCurves, formatReports } from "../pipelines/cli/dist/commands/eval.js";
import { readSavedFold } from "./lib/saved-folds.js";

const flags = parseFlags(process.argv.slice(2), []);
if (!flags.saved) throw new Error("--saved DIR: the folds comments-loso-full.js --save kept");
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const SETS = ["wcxb-dev", "cleaneval", "l3s-gn1", "googletrends-2017", "magic-html", "cleanportaleval", "newspaper3k", "chinese-wce"];
const sets = flags.sets ? flags.sets.split(",") : SETS;

const started = Date.now();
const pages = await loadLabelledSources(sets.map((s) => `${root}/${s}`));
const data = buildDataset(pages, TEXREX_CONTEXT);
console.error(`${pages.length} pages of ${sets.length} sets read in ${((Date.now() - started) / 1000).toFixed(0)} s`);

/** The saved fold of the set left out in fold `f` (folds are the data's sources, in order). */
function savedFold(_train, test, f) {
  const source = data.sources[f];
  const saved = readSavedFold(flags.saved, data, source);
  if (saved === undefined) throw new Error(`${flags.saved} has no fold of ${source}`);
  if (saved.test.some((p, i) => p !== test[i])) throw new Error(`${source}: the saved fold's pages are not the fold's`);
  return {
    fitted: {
      threshold: saved.threshold,
      validationF1: Number.NaN,
      emptyPageFallback: saved.emptyPageFallback,
      commentHead: { threshold: saved.commentThreshold },
    },
    content: saved.content,
    comments: saved.comments,
  };
}

const t0 = Date.now();
const report = crossValidateMlp(data, { folds: data.sources.length, bySource: true, commentHead: true }, savedFold);
const chose = (Date.now() - t0) / 1000;
process.stdout.write(`${formatReports([report], pages.length)}\n`);
if (sets.length > 1) process.stdout.write(`${formatBreakdown([report])}\n`);
process.stdout.write(formatCurves([report]));
const head = report.commentHead;
console.log(
  `\nwhat train --loso writes into the model: keep threshold ${report.operatingPoints?.balanced}, comment threshold ${
    head?.threshold
  }, comments field threshold ${head?.fieldThreshold}`,
);
console.log(`the folds' decisions and the choices after them: ${chose.toFixed(1)} s`);
