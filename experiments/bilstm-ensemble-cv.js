#!/usr/bin/env node
/**
 * Do several BiLSTMs, trained alike but from different seeds, beat one, and the MLP ensemble?
 * K-fold domain cross-validation over the WCXB dev pages, on the folds `winnow eval --folds K`
 * uses. Per fold, every BiLSTM seed and the MLP ×3 are trained on the same pages; the held-out
 * pages and the validation pages are scored by each. Then every combination is evaluated from
 * those scores: one seed, the mean of the first 2, of all, the MLP, and the MLP averaged with the
 * BiLSTMs, each with its threshold chosen on the validation pages from its own (mean) scores.
 *
 *   node experiments/bilstm-ensemble-cv.js [--folds 5] [--seeds 1,2,3] [--jobs 2] [--data DIR]
 *        [--feature-set texrex37+ext] [--skip] [--limit N] [--out DIR]
 *
 * --jobs N trains the folds in N processes (one core each); each writes its fold's scores to
 * --out (default benchmarks/data/ensemble-cv/), and a fold already there is not trained again.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { domainFolds, loadLabelledPages } from "@winnow/evaluation";
import { featureSetByName } from "@winnow/features";
import {
  buildDataset,
  chooseThreshold,
  crossValidate,
  fitBiLstm,
  fitMlp,
  scoreBiLstmPages,
  scoreMlpPages,
  splitValidation,
} from "@winnow/train";
import { DATA_DIR, DEFAULT_SOURCE, parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), ["skip"]);
const folds = Number(flags.folds ?? 5);
const seeds = String(flags.seeds ?? "1,2,3")
  .split(",")
  .map(Number);
const jobs = Number(flags.jobs ?? 1);
const featureSetName = flags["feature-set"] ?? "texrex37+ext";
const skip = flags.skip === true;
const limit = flags.limit !== undefined ? Number(flags.limit) : undefined;
const out = flags.out ?? join(DATA_DIR, `ensemble-cv-${featureSetName}${skip ? "-skip" : ""}${limit ? `-${limit}` : ""}`);
const foldFile = (f) => join(out, `fold-${f}-of-${folds}-seeds-${seeds.join("_")}.json`);
mkdirSync(out, { recursive: true });

const toArrays = (scores) => scores.map((s) => Array.from(s, (v) => +v.toFixed(6)));

/** Trains one fold's models and writes their held-out and validation scores. */
async function trainFold(data, f) {
  const assignment = domainFolds(
    data.pages.map((p) => ({ id: p.id, domain: p.domain })),
    folds,
    1,
  );
  const train = [],
    test = [];
  assignment.forEach((g, p) => (g === f ? test : train).push(p));
  const { validation } = splitValidation(data, train);
  const started = Date.now();
  const record = { fold: f, test, validation, bilstm: {}, mlp: null };
  for (const seed of seeds) {
    // One net per call (the default trains three, seed..seed+2): each seed is scored alone too.
    const fitted = fitBiLstm(data, train, { seed, ensemble: 1, skip: skip || undefined });
    record.bilstm[seed] = {
      test: toArrays(scoreBiLstmPages(data, test, fitted.model)),
      validation: toArrays(scoreBiLstmPages(data, validation, fitted.model)),
      threshold: fitted.threshold,
      validationF1: fitted.validationF1,
      bestEpoch: fitted.bestEpochs[0],
    };
    console.error(
      `fold ${f + 1}/${folds}, BiLSTM seed ${seed}: validation F1 ${fitted.validationF1.toFixed(4)} (epoch ${fitted.bestEpochs[0]}), ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  }
  const mlp = fitMlp(data, train);
  record.mlp = {
    test: toArrays(scoreMlpPages(data, test, mlp.members)),
    validation: toArrays(scoreMlpPages(data, validation, mlp.members)),
  };
  writeFileSync(`${foldFile(f)}.partial`, JSON.stringify(record));
  renameSync(`${foldFile(f)}.partial`, foldFile(f));
}

const mean = (lists) => lists[0].map((page, i) => page.map((_, b) => lists.reduce((a, l) => a + l[i][b], 0) / lists.length));

/** Every combination's cross-validated report, from the saved scores. */
function combine(data) {
  const records = Array.from({ length: folds }, (_, f) => JSON.parse(readFileSync(foldFile(f), "utf8")));
  const methods = [
    ...seeds.map((s) => [`BiLSTM seed ${s}`, (r) => [r.bilstm[s]]]),
    ...(seeds.length > 2 ? [[`BiLSTM ×2 (seeds ${seeds.slice(0, 2).join(", ")})`, (r) => seeds.slice(0, 2).map((s) => r.bilstm[s])]] : []),
    ...(seeds.length > 1 ? [[`BiLSTM ×${seeds.length}`, (r) => seeds.map((s) => r.bilstm[s])]] : []),
    ["MLP ×3", (r) => [r.mlp]],
    [
      `MLP ×3 and BiLSTM ×${seeds.length}, mean`,
      (r) => [r.mlp, { test: mean(seeds.map((s) => r.bilstm[s].test)), validation: mean(seeds.map((s) => r.bilstm[s].validation)) }],
    ],
  ];
  for (const [name, pick] of methods) {
    const report = crossValidate(data, folds, name, (_train, _test, f) => {
      const parts = pick(records[f]);
      const validationScores = mean(parts.map((p) => p.validation));
      const choice = chooseThreshold(data, records[f].validation, validationScores);
      return { scores: mean(parts.map((p) => p.test)), threshold: choice.threshold, validationF1: choice.f1 };
    });
    const o = report.summary.overall;
    const types = Object.entries(report.summary.byType)
      .map(([t, g]) => `${t} ${g.f1.toFixed(3)}`)
      .join(" | ");
    console.log(
      `| ${name} | ${o.precision.toFixed(3)} | ${o.recall.toFixed(3)} | **${o.f1.toFixed(3)}** | ${types} | ${report.thresholds.map((t) => t.toFixed(2)).join(" ")} |`,
    );
  }
}

const foldList = flags["fold-list"] !== undefined ? String(flags["fold-list"]).split(",").map(Number) : null;
if (jobs > 1 && foldList === null) {
  // Parent: split the missing folds over child processes, then combine.
  const missing = Array.from({ length: folds }, (_, f) => f).filter((f) => !existsSync(foldFile(f)));
  const children = Array.from({ length: Math.min(jobs, missing.length) }, (_, j) => missing.filter((_, i) => i % jobs === j));
  await Promise.all(
    children.map(
      (list) =>
        new Promise((resolve, reject) => {
          const args = [
            fileURLToPath(import.meta.url),
            ...process.argv.slice(2).filter((a, i, all) => a !== "--jobs" && all[i - 1] !== "--jobs"),
            "--fold-list",
            list.join(","),
          ];
          const child = spawn(process.execPath, args, { stdio: ["ignore", "inherit", "inherit"] });
          child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`folds ${list} failed (exit ${code})`))));
        }),
    ),
  );
}
const pages = await loadLabelledPages(flags.data ?? DEFAULT_SOURCE, { limit });
const data = buildDataset(pages, featureSetByName(featureSetName));
for (const f of foldList ?? Array.from({ length: folds }, (_, i) => i)) if (!existsSync(foldFile(f))) await trainFold(data, f);
if (foldList === null) combine(data);
