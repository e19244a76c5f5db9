#!/usr/bin/env node
/**
 * Does the site-template removal rule help? Word F1 of the WCXB dev pages whose domain has more
 * than one page, with and without dropping blocks that lie in a site-template subtree, on top of
 * (a) cross-validated MLP scores (each page scored by a fold model that never saw its domain:
 * run experiments/site-templates-cv.js first) and (b) the heuristic classifier.
 *
 * Templates are fitted on the dev pages themselves, as `winnow clean --site-templates` fits them
 * on the pages it cleans: no gold text is used, so this is not training on the test pages.
 *
 * With --cv-feature FILE (site-templates-cv.js --template-feature), the MLP that reads the
 * template flag as one more input is scored beside them, on the same pages.
 *
 *   node experiments/site-templates-eval.js --cv /tmp/site-templates-cv.json [--cv-feature FILE] [--data DIR]
 *     [--iou 0.9] [--min-pairs 1] [--veto 0.9]  (comma-separated lists: every combination is scored)
 */
import { readFileSync } from "node:fs";
import { normaliseHost } from "@winnow/archive";
import { alignBlockLabels, keptText, loadWcxb, wordScores } from "@winnow/evaluation";
import { heuristicClassifier } from "@winnow/models";
import { LABEL_THRESHOLD } from "@winnow/train";
import { Segmenter } from "@winnow/segment";
import { SiteTemplateFitter, pageFingerprints, templateBlocks } from "@winnow/templates";
import { DEFAULT_SOURCE } from "../benchmarks/lib/common.js";

function flag(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}

const dir = flag("data", process.env.WINNOW_BENCH_DATA ?? DEFAULT_SOURCE);
const cvPath = flag("cv", "/tmp/site-templates-cv.json");
const ious = flag("iou", "0.9").split(",").map(Number);
const minPairs = flag("min-pairs", "1").split(",").map(Number);
// A template block is kept anyway when the classifier scores it at least this high (1.01: never).
const vetoes = flag("veto", "1.01").split(",").map(Number);

const cv = JSON.parse(readFileSync(cvPath, "utf8"));
const cvFeaturePath = flag("cv-feature", undefined);
const cvFeature = cvFeaturePath === undefined ? null : new Map(JSON.parse(readFileSync(cvFeaturePath, "utf8")).pages.map((p) => [p.id, p]));
const segmenter = new Segmenter({ subtrees: true });
const pages = [];
for await (const page of loadWcxb(dir)) {
  const doc = segmenter.segment(page.html);
  pages.push({
    id: page.id,
    url: page.url,
    domain: normaliseHost(page.domain),
    pageType: page.pageType,
    gold: page.gold,
    doc,
    fingerprints: pageFingerprints(doc.subtrees),
  });
}
const perDomain = new Map();
for (const p of pages) perDomain.set(p.domain, (perDomain.get(p.domain) ?? 0) + 1);
const multi = pages.filter((p) => p.domain !== "" && perDomain.get(p.domain) > 1);
const cvById = new Map(cv.pages.map((p) => [p.id, p]));
const heuristic = heuristicClassifier();
const heuristicScores = await heuristic.score(multi.map((p) => p.doc));
for (const p of multi) {
  const c = cvById.get(p.id);
  if (c.scores.length !== p.doc.blocks.length) throw new Error(`block count differs for ${p.id}`);
  p.labels = alignBlockLabels(
    p.doc.blocks.map((b) => b.text),
    p.gold,
    { threshold: LABEL_THRESHOLD },
  ).labels;
}
console.log(
  `${multi.length} pages on ${new Set(multi.map((p) => p.domain)).size} domains with more than one page (of ${pages.length}); CV: ${cv.folds} folds, ensemble ${cv.ensemble}`,
);

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const f1Of = (p, scores, threshold, drop, veto) => {
  const s = drop ? Float32Array.from(scores, (v, b) => (drop[b] === 1 && v < veto ? -1 : v)) : scores;
  return wordScores(keptText(p.doc, s, threshold), p.gold);
};

function evaluate(iou, pairs, veto) {
  // Fit on every dev page (single-page hosts just add nothing), as a clean run would.
  const fitter = new SiteTemplateFitter({ nearDuplicateIoU: iou, minSharedPairs: pairs });
  for (const p of pages) fitter.add(p.url, p.fingerprints);
  const templates = fitter.fit();
  let nearDuplicates = 0;
  for (const h of templates.hosts()) nearDuplicates += h.nearDuplicates;
  const rows = { mlp: [], mlpRemove: [], heur: [], heurRemove: [], types: new Map() };
  let flagged = 0,
    flaggedContent = 0,
    blocks = 0,
    content = 0,
    contentFlagged = 0;
  multi.forEach((p, i) => {
    const drop = templateBlocks(p.doc.subtrees, templates.forUrl(p.url));
    for (let b = 0; b < drop.length; b++) {
      blocks++;
      if (p.labels[b] === 1) content++;
      if (drop[b] === 1) {
        flagged++;
        if (p.labels[b] === 1) flaggedContent++;
      }
    }
    contentFlagged = flaggedContent;
    const c = cvById.get(p.id);
    const scores = Float32Array.from(c.scores);
    const r = {
      mlp: f1Of(p, scores, c.threshold, null).f1,
      mlpRemove: f1Of(p, scores, c.threshold, drop, veto).f1,
      heur: f1Of(p, heuristicScores[i], heuristic.threshold, null).f1,
      heurRemove: f1Of(p, heuristicScores[i], heuristic.threshold, drop, veto).f1,
    };
    for (const k of ["mlp", "mlpRemove", "heur", "heurRemove"]) rows[k].push(r[k]);
    let t = rows.types.get(p.pageType);
    if (t === undefined) rows.types.set(p.pageType, (t = { n: 0, mlp: [], mlpRemove: [], heur: [], heurRemove: [] }));
    t.n++;
    for (const k of ["mlp", "mlpRemove", "heur", "heurRemove"]) t[k].push(r[k]);
    if (cvFeature !== null) {
      const cf = cvFeature.get(p.id);
      r.feature = f1Of(p, Float32Array.from(cf.scores), cf.threshold, null).f1;
      t.feature ??= [];
      t.feature.push(r.feature);
    }
    r.id = p.id;
    (rows.pages ??= []).push(r);
  });
  const better = rows.pages.filter((r) => r.mlpRemove > r.mlp + 1e-9).length;
  const worse = rows.pages.filter((r) => r.mlpRemove < r.mlp - 1e-9).length;
  console.log(
    `\nnear-duplicate IoU > ${iou}, shared by >= ${pairs} pair(s), kept anyway at score >= ${veto}: ${templates.size} hosts with a template, ${nearDuplicates} near-duplicate pairs skipped`,
  );
  console.log(
    `  blocks flagged as template: ${flagged} of ${blocks} (${((100 * flagged) / blocks).toFixed(1)}%); of them labelled content: ${flaggedContent} (${((100 * flaggedContent) / Math.max(1, flagged)).toFixed(1)}%); content blocks flagged: ${((100 * contentFlagged) / content).toFixed(1)}%`,
  );
  console.log(`  | classifier | F1 without | F1 with removal | pages better / worse |`);
  console.log(
    `  | MLP (${cv.folds}-fold CV, x${cv.ensemble}) | ${mean(rows.mlp).toFixed(3)} | ${mean(rows.mlpRemove).toFixed(3)} | ${better} / ${worse} |`,
  );
  const hb = rows.pages.filter((r) => r.heurRemove > r.heur + 1e-9).length,
    hw = rows.pages.filter((r) => r.heurRemove < r.heur - 1e-9).length;
  if (cvFeature !== null) {
    const fb = rows.pages.filter((r) => r.feature > r.mlp + 1e-9).length,
      fw = rows.pages.filter((r) => r.feature < r.mlp - 1e-9).length;
    console.log(
      `  | MLP reading the template flag (${cv.folds}-fold CV, x${cv.ensemble}), no removal | ${mean(rows.mlp).toFixed(3)} | ${mean(rows.pages.map((r) => r.feature)).toFixed(3)} | ${fb} / ${fw} |`,
    );
  }
  console.log(`  | heuristic | ${mean(rows.heur).toFixed(3)} | ${mean(rows.heurRemove).toFixed(3)} | ${hb} / ${hw} |`);
  console.log(`  per type (pages: MLP without → with; heuristic without → with):`);
  for (const [type, t] of [...rows.types].sort()) {
    const feature = t.feature ? `;  feature ${mean(t.feature).toFixed(3)}` : "";
    console.log(
      `    ${type.padEnd(14)} ${String(t.n).padStart(3)}: ${mean(t.mlp).toFixed(3)} → ${mean(t.mlpRemove).toFixed(3)};  ${mean(t.heur).toFixed(3)} → ${mean(t.heurRemove).toFixed(3)}${feature}`,
    );
  }
  if (process.argv.includes("--worst")) {
    rows.pages.sort((a, b) => a.mlpRemove - a.mlp - (b.mlpRemove - b.mlp));
    for (const r of rows.pages.slice(0, 8)) console.log(`    worst: ${r.id} ${r.mlp.toFixed(3)} → ${r.mlpRemove.toFixed(3)}`);
  }
}

for (const iou of ious) for (const pairs of minPairs) for (const veto of vetoes) evaluate(iou, pairs, veto);
