#!/usr/bin/env node
/**
 * Where should the default keep threshold sit for pages of a set the model never saw? (issue 35)
 *
 * Leaves one source out over the given sets (the MLP recipe of `winnow eval --loso`, comment head
 * included) and scores each set three ways:
 *   fold:    the threshold its fold chose on validation domains of the sets it trained on (what
 *            `winnow eval --loso` reports, and what a model trained with --folds or nothing does);
 *   pooled:  the balanced point of every set's held-out scores pooled (what `winnow train --loso`
 *            writes into the model; optimistic for each set, whose own pages took part);
 *   others:  the balanced point of the OTHER sets' held-out scores pooled, the set itself left out
 *            of the choice: the honest figure for a threshold chosen the `--loso` way.
 * Each set's curve is the plain mean over its pages; pooling weighs the sets as training does
 * (--source-balance, default 0.5: a set of n pages weighs n^0.5).
 *
 *   npm run build && node experiments/loso-operating-point.js --out FILE.json \
 *     [--data ROOT] [--sets a,b,…] [--feature-set NAME] [--hidden 32]
 */
import { writeFileSync } from "node:fs";
import { loadLabelledSources } from "@winnow/evaluation";
import { featureSetByName } from "@winnow/features";
import { buildDataset, crossValidateMlp, DEFAULT_SOURCE_BALANCE, operatingPoints } from "@winnow/train";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
if (typeof flags.out !== "string") throw new Error("--out FILE.json: where the curves and the table go");
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const sets = (flags.sets ?? "wcxb-dev,cleaneval,l3s-gn1,googletrends-2017,magic-html,cleanportaleval,newspaper3k,chinese-wce").split(",");
const featureSet = featureSetByName(flags["feature-set"] ?? "texrex37+ext+ctx");
const hiddenSize = Number(flags.hidden ?? 32);
const balance = Number(flags["source-balance"] ?? DEFAULT_SOURCE_BALANCE);

const started = Date.now();
const pages = await loadLabelledSources(sets.map((s) => `${root}/${s}`));
const data = buildDataset(pages, featureSet);
const report = crossValidateMlp(data, {
  folds: sets.length,
  bySource: true,
  hiddenSize,
  commentHead: true,
  sourceBalance: balance,
  onFold: (f, k) => console.error(`${data.sources[f]} left out (${f + 1}/${k}), ${((Date.now() - started) / 1000).toFixed(0)} s`),
});

const curves = report.sourceCurves;
const thresholds = report.curve.thresholds;
const count = new Map(data.sources.map((s) => [s, pages.filter((p) => p.source === s).length]));
// A set's weight in a pooled curve: its pages times the per-page weight n^-balance.
const weight = (source) => count.get(source) ** (1 - balance);

/** The curve of some sets pooled as training pools them. */
function pool(chosen) {
  const fields = ["precision", "recall", "f1", "f05", "f2"];
  const out = { thresholds, ...Object.fromEntries(fields.map((f) => [f, new Float64Array(thresholds.length)])) };
  const total = chosen.reduce((sum, c) => sum + weight(c.source), 0);
  for (const c of chosen)
    for (const f of fields) for (let k = 0; k < thresholds.length; k++) out[f][k] += (weight(c.source) / total) * c.curve[f][k];
  return out;
}
const at = (curve, t, field = "f1") => curve[field][thresholds.indexOf(t)];

const pooledPoint = report.operatingPoints.balanced;
const rows = curves.map(({ source, curve }, s) => {
  const others = operatingPoints(pool(curves.filter((c) => c.source !== source))).balanced;
  const best = thresholds[curve.f1.indexOf(Math.max(...curve.f1))];
  const foldPages = report.pages.filter((p) => p.source === source);
  const mean = (key) => foldPages.reduce((sum, p) => sum + p[key], 0) / foldPages.length;
  return {
    source,
    pages: count.get(source),
    fold: { threshold: report.thresholds[s], precision: mean("precision"), recall: mean("recall"), f1: mean("f1") },
    pooled: {
      threshold: pooledPoint,
      precision: at(curve, pooledPoint, "precision"),
      recall: at(curve, pooledPoint, "recall"),
      f1: at(curve, pooledPoint),
    },
    others: { threshold: others, precision: at(curve, others, "precision"), recall: at(curve, others, "recall"), f1: at(curve, others) },
    best: { threshold: best, f1: at(curve, best) },
  };
});

const f3 = (x) => x.toFixed(3);
const lines = [
  `leave one source out, ${featureSet.name}, ${hiddenSize} hidden, source balance ${balance}; ${pages.length} pages, ${((Date.now() - started) / 1000).toFixed(0)} s`,
  `pooled balanced point ${pooledPoint} (precision ${report.operatingPoints.precision}, recall ${report.operatingPoints.recall})`,
  "",
  "| set | pages | fold: t, P / R / F1 | others pooled: t, P / R / F1 | all pooled: t, F1 | its own best: t, F1 |",
  "| --- | --: | --- | --- | --- | --- |",
  ...rows.map(
    (r) =>
      `| ${r.source} | ${r.pages} | ${r.fold.threshold.toFixed(2)}, ${f3(r.fold.precision)} / ${f3(r.fold.recall)} / **${f3(r.fold.f1)}** | ` +
      `${r.others.threshold.toFixed(2)}, ${f3(r.others.precision)} / ${f3(r.others.recall)} / **${f3(r.others.f1)}** | ` +
      `${r.pooled.threshold.toFixed(2)}, ${f3(r.pooled.f1)} | ${r.best.threshold.toFixed(2)}, ${f3(r.best.f1)} |`,
  ),
  `| mean of sets | | ${f3(rows.reduce((s, r) => s + r.fold.f1, 0) / rows.length)} | ${f3(rows.reduce((s, r) => s + r.others.f1, 0) / rows.length)} | ${f3(rows.reduce((s, r) => s + r.pooled.f1, 0) / rows.length)} | ${f3(rows.reduce((s, r) => s + r.best.f1, 0) / rows.length)} |`,
];
console.log(lines.join("\n"));
const plain = (_key, value) => (ArrayBuffer.isView(value) ? Array.from(value) : value);
writeFileSync(
  flags.out,
  JSON.stringify(
    {
      sets,
      featureSet: featureSet.name,
      hiddenSize,
      balance,
      rows,
      operatingPoints: report.operatingPoints,
      curve: report.curve,
      sourceCurves: curves,
      summary: report.summary,
      pages: report.pages,
    },
    plain,
    1,
  ),
);
