#!/usr/bin/env node
/**
 * Two `winnow eval --loso --curve --json` runs over the same pages, side by side (issue 35: is the
 * BiLSTM better than the MLP on pages of a set it never saw?). Prints Markdown tables: per set,
 * per page type, per language, the fold thresholds, and each set's F1 at one threshold per model
 * (from the per-set curves), with the paired per-page difference and its standard error, so that
 * a gap can be told from page-to-page noise. Only the sets both runs scored are compared.
 *
 *   node experiments/loso-compare.js --a A.json[,A2.json…] --b B.json[,…] [--a-name bilstm] [--b-name mlp]
 *
 * Several files on a side: `winnow eval --loso --held-out` runs over disjoint sets of the same --data.
 * Files ending in .gz are read gunzipped.
 *
 * B − A is reported (the second run minus the first). Only numbers, page ids and set names are
 * printed: no page text.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { languageGroup } from "@winnow/evaluation";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
if (typeof flags.a !== "string" || typeof flags.b !== "string") {
  process.stderr.write("usage: node experiments/loso-compare.js --a A.json --b B.json [--a-name NAME] [--b-name NAME]\n");
  process.exit(2);
}
const nameA = flags["a-name"] ?? "A";
const nameB = flags["b-name"] ?? "B";

/**
 * The cross-validated report of one or more results files (runs of `--held-out` over disjoint
 * sets, merged: a fold's figures do not depend on which other folds ran).
 */
function heldOut(files) {
  const parts = files.split(",").map((file) => {
    const raw = readFileSync(file);
    const { reports } = JSON.parse((file.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8"));
    const report = reports.find((r) => r.folds > 0);
    if (report === undefined || !report.leaveOneSourceOut) throw new Error(`${file}: no leave-one-source-out report`);
    return report;
  });
  const pages = parts.flatMap((r) => r.pages);
  const sets = parts.flatMap((r) => [...new Set(r.pages.map((p) => p.source))]);
  if (new Set(sets).size !== sets.length) throw new Error(`${files}: a set is scored twice`);
  // Each run's thresholds are in its folds' order, which is its sets' order.
  const thresholds = new Map(parts.flatMap((r) => [...new Set(r.pages.map((p) => p.source))].map((s, i) => [s, r.thresholds[i]])));
  const counts = { truePositive: 0, falsePositive: 0, falseNegative: 0, trueNegative: 0 };
  for (const r of parts) for (const k of Object.keys(counts)) counts[k] += r.blocks[k];
  const { truePositive: tp, falsePositive: fp, falseNegative: fn, trueNegative: tn } = counts;
  const precision = tp / (tp + fp);
  const recall = tp / (tp + fn);
  const blocks = { precision, recall, f1: (2 * precision * recall) / (precision + recall), accuracy: (tp + tn) / (tp + fp + fn + tn) };
  // A run of one set has no per-set curves, only its pooled one, which is that set's.
  const curves = new Map(
    parts.flatMap((r) => (r.sourceCurves ? r.sourceCurves.map((c) => [c.source, c.curve]) : [[r.pages[0].source, r.curve]])),
  );
  return { pages, thresholds, blocks, curves };
}

const a = heldOut(flags.a);
const b = heldOut(flags.b);
const key = (p) => `${p.source}/${p.id}`;
const pagesB = new Map(b.pages.map((p) => [key(p), p]));
// One run may score more sets than the other (eight against five): the sets both scored compare.
const setsB = new Set(b.pages.map((p) => p.source));
const sources = [...new Set(a.pages.map((p) => p.source))].filter((s) => setsB.has(s));
const pairs = a.pages.filter((p) => setsB.has(p.source)).map((p) => ({ a: p, b: pagesB.get(key(p)) }));
if (pairs.some((g) => g.b === undefined) || pairs.length !== b.pages.filter((p) => sources.includes(p.source)).length) {
  throw new Error("the two runs scored different pages of the same set");
}

const f3 = (x) => (Number.isFinite(x) ? x.toFixed(3) : "–");
const signed = (x) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(3)}`;
const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Mean P/R/F1 of each side over some pairs, the mean paired F1 difference (B − A), its standard error, pages up/down. */
function compare(group) {
  const d = group.map((g) => g.b.f1 - g.a.f1);
  const m = mean(d);
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - m) ** 2, 0) / Math.max(1, d.length - 1));
  const side = (s) => ({
    p: mean(group.map((g) => g[s].precision)),
    r: mean(group.map((g) => g[s].recall)),
    f: mean(group.map((g) => g[s].f1)),
  });
  return {
    n: group.length,
    a: side("a"),
    b: side("b"),
    diff: m,
    se: sd / Math.sqrt(d.length),
    up: d.filter((x) => x > 0.005).length,
    down: d.filter((x) => x < -0.005).length,
  };
}

const prf = (s) => `${f3(s.p)} / ${f3(s.r)} / ${f3(s.f)}`;
const header = (first) => [
  `| ${first} | ${nameA} P / R / F1 | ${nameB} P / R / F1 | ${nameB} − ${nameA} F1 | ± s.e. | pages ${nameB} up / down |`,
  "| --- | --- | --- | ---: | ---: | ---: |",
];
const line = (label, c) =>
  `| ${label} (${c.n}) | ${prf(c.a)} | ${prf(c.b)} | ${signed(c.diff)} | ${c.se.toFixed(3)} | ${c.up} / ${c.down} |`;

const out = [];
out.push(`## Per set (each set scored by its own fold, at the threshold that fold chose on its validation domains)`, "");
out.push(...header("set (pages)"));
const perSet = sources.map((s) => compare(pairs.filter((g) => g.a.source === s)));
sources.forEach((s, i) => out.push(line(s, perSet[i])));
// The mean of sets: each set weighs the same; its standard error from the sets' own.
const meanOfSets = {
  n: perSet.length,
  a: { p: mean(perSet.map((c) => c.a.p)), r: mean(perSet.map((c) => c.a.r)), f: mean(perSet.map((c) => c.a.f)) },
  b: { p: mean(perSet.map((c) => c.b.p)), r: mean(perSet.map((c) => c.b.r)), f: mean(perSet.map((c) => c.b.f)) },
  diff: mean(perSet.map((c) => c.diff)),
  se: Math.sqrt(perSet.reduce((s, c) => s + c.se ** 2, 0)) / perSet.length,
  up: perSet.reduce((s, c) => s + c.up, 0),
  down: perSet.reduce((s, c) => s + c.down, 0),
};
out.push(line("mean of sets", meanOfSets).replace(`(${perSet.length})`, `(${perSet.length} sets)`));
out.push(line("all pages", compare(pairs)));
out.push(
  "",
  `s.e.: standard error of the mean paired per-page F1 difference (page-to-page spread only; the seed-to-seed spread of a one-member run is not in it). Pages up / down: F1 differs by more than 0.005.`,
);

for (const s of sources) {
  const types = [...new Set(pairs.filter((g) => g.a.source === s).map((g) => g.a.pageType))].sort();
  if (types.length < 2) continue;
  out.push("", `## Per page type, ${s}`, "");
  out.push(...header("page type (pages)"));
  for (const t of types) out.push(line(t, compare(pairs.filter((g) => g.a.source === s && g.a.pageType === t))));
}

out.push("", "## Per language of the gold (every set; wcxb-dev has no language field: unknown)", "");
out.push(...header("language (pages)"));
const languages = [...new Set(pairs.map((g) => languageGroup(g.a.language)))].sort();
for (const l of languages) out.push(line(l, compare(pairs.filter((g) => languageGroup(g.a.language) === l))));

out.push("", "## Fold thresholds (each chosen on the fold's own validation domains)", "");
out.push(`| set | ${nameA} | ${nameB} |`, "| --- | ---: | ---: |");
for (const s of sources) out.push(`| ${s} | ${a.thresholds.get(s).toFixed(2)} | ${b.thresholds.get(s).toFixed(2)} |`);

/** Each set's F1 at every candidate threshold, and the threshold where the mean of the sets' F1 peaks. */
function oneThreshold(run) {
  const curves = sources.map((s) => run.curves.get(s));
  const { thresholds } = curves[0];
  const meanF1 = thresholds.map((_, k) => mean(curves.map((c) => c.f1[k])));
  const k = meanF1.indexOf(Math.max(...meanF1));
  return { threshold: thresholds[k], k, curves };
}
const best = (curve) => {
  let k = 0;
  for (let i = 1; i < curve.f1.length; i++) if (curve.f1[i] > curve.f1[k]) k = i;
  return { f1: curve.f1[k], threshold: curve.thresholds[k] };
};
const oa = oneThreshold(a);
const ob = oneThreshold(b);
out.push("", "## F1 at one threshold per model (from the per-set curves of the held-out scores)", "");
out.push(
  `One threshold for every set: the one where each model's mean F1 of these sets peaks on its held-out curves (${nameA} ${oa.threshold}, ${nameB} ${ob.threshold}; chosen with every set's labels, so it flatters both alike, as a pooled operating point does). "Best" is each set's own best threshold on its curve: a ceiling no single threshold reaches.`,
  "",
);
out.push(
  `| set | ${nameA} F1 at ${oa.threshold} | ${nameB} F1 at ${ob.threshold} | ${nameB} − ${nameA} | ${nameA} best (threshold) | ${nameB} best (threshold) |`,
  "| --- | ---: | ---: | ---: | ---: | ---: |",
);
const common = sources.map((s, i) => {
  const ca = oa.curves[i];
  const cb = ob.curves[i];
  return { s, fa: ca.f1[oa.k], fb: cb.f1[ob.k], ba: best(ca), bb: best(cb) };
});
for (const c of common) {
  out.push(
    `| ${c.s} | ${f3(c.fa)} | ${f3(c.fb)} | ${signed(c.fb - c.fa)} | ${f3(c.ba.f1)} (${c.ba.threshold}) | ${f3(c.bb.f1)} (${c.bb.threshold}) |`,
  );
}
const ma = mean(common.map((c) => c.fa));
const mb = mean(common.map((c) => c.fb));
out.push(
  `| mean of sets | ${f3(ma)} | ${f3(mb)} | ${signed(mb - ma)} | ${f3(mean(common.map((c) => c.ba.f1)))} | ${f3(mean(common.map((c) => c.bb.f1)))} |`,
);

// Block counts are pooled per run, not per set: comparable only where both runs scored the same sets.
const sameSets = (run) => new Set(run.pages.map((p) => p.source)).size === sources.length;
out.push("", "## Block decisions against the alignment labels (pooled over blocks)", "");
if (sameSets(a) && sameSets(b)) {
  out.push("| run | precision | recall | F1 | accuracy |", "| --- | ---: | ---: | ---: | ---: |");
  for (const [n, r] of [
    [nameA, a],
    [nameB, b],
  ]) {
    out.push(`| ${n} | ${f3(r.blocks.precision)} | ${f3(r.blocks.recall)} | ${f3(r.blocks.f1)} | ${f3(r.blocks.accuracy)} |`);
  }
} else {
  out.push("Not compared: one run scored sets the other did not, and the results files pool block counts per run.");
}
process.stdout.write(`${out.join("\n")}\n`);
