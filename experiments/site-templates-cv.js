#!/usr/bin/env node
/**
 * Per-block held-out MLP scores of every WCXB dev page, for the site-templates evaluation
 * (experiments/site-templates-eval.js): K domain folds (the same split as `winnow eval --folds K`),
 * each page scored by the fold model that never saw its domain, with that fold's threshold.
 * Blocks are the segmenter's, so they line up with the site-template flags computed later.
 *
 * With --template-feature, every block row gets one more input: 1 when the block lies in a
 * site-template subtree of its host (templates fitted on all dev pages, no gold used), else 0.
 *
 *   npm run build && node experiments/site-templates-cv.js --out /tmp/cv.json [--folds 5] [--ensemble 1] [--template-feature]
 */
import { writeFileSync } from "node:fs";
import { domainFolds, loadLabelledPages } from "@winnow/evaluation";
import { TEXREX_EXTENDED } from "@winnow/features";
import { buildDataset, fitMlp, scoreMlpPages } from "@winnow/train";
import { Segmenter } from "@winnow/segment";
import { SiteTemplateFitter, pageFingerprints, templateBlocks } from "@winnow/templates";
import { DEFAULT_SOURCE } from "../benchmarks/lib/common.js";

function flag(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}

const dir = flag("data", process.env.WINNOW_BENCH_DATA ?? DEFAULT_SOURCE);
const k = Number(flag("folds", "5"));
const ensemble = Number(flag("ensemble", "1"));
const out = flag("out", "/tmp/site-templates-cv.json");

const started = performance.now();
const pages = await loadLabelledPages(dir);
const templateFeature = process.argv.includes("--template-feature");
const data = buildDataset(pages, templateFeature ? await withTemplateFlag(pages) : TEXREX_EXTENDED);
const fold = domainFolds(
  pages.map((p) => ({ id: p.id, domain: p.domain })),
  k,
  1,
);
const result = { folds: k, ensemble, featureSet: data.featureSet.name, pages: new Array(pages.length) };
for (let f = 0; f < k; f++) {
  const train = [];
  const test = [];
  fold.forEach((g, p) => (g === f ? test : train).push(p));
  const fitted = fitMlp(data, train, { ensemble });
  const scores = scoreMlpPages(data, test, fitted.members);
  test.forEach((p, i) => {
    result.pages[p] = {
      id: pages[p].id,
      fold: f,
      threshold: fitted.threshold,
      scores: Array.from(scores[i], (s) => Math.round(s * 1e4) / 1e4),
    };
  });
  console.error(`fold ${f + 1}/${k} done, threshold ${fitted.threshold}, ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
writeFileSync(out, JSON.stringify(result));
console.error(`wrote ${out}`);

/** TEXREX_EXTENDED plus one column: the block lies in its host's site template. */
async function withTemplateFlag(pages) {
  const { loadWcxb } = await import("@winnow/evaluation");
  const segmenter = new Segmenter({ subtrees: true });
  const subtreesById = new Map();
  const fitter = new SiteTemplateFitter();
  for await (const page of loadWcxb(dir)) {
    const { subtrees } = segmenter.segment(page.html);
    subtreesById.set(page.id, subtrees);
    fitter.add(page.url, pageFingerprints(subtrees));
  }
  const templates = fitter.fit();
  const flags = new Map();
  for (const p of pages) {
    const subtrees = subtreesById.get(p.id);
    if (subtrees.blockSubtrees.length !== p.doc.blocks.length) throw new Error(`blocks differ for ${p.id}`);
    flags.set(p.doc, templateBlocks(subtrees, templates.forUrl(p.url)));
  }
  const base = TEXREX_EXTENDED.size;
  const size = base + 1;
  return {
    name: `${TEXREX_EXTENDED.name}+site-template`,
    version: 1,
    specs: [...TEXREX_EXTENDED.specs, { name: "inSiteTemplate", group: "extended", scaling: "0/1" }],
    size,
    extract(doc, out, offset = 0) {
      const rows = TEXREX_EXTENDED.extract(doc);
      const n = doc.blocks.length;
      const target = out ?? new Float32Array(n * size);
      const flag = flags.get(doc);
      for (let b = 0; b < n; b++) {
        target.set(rows.subarray(b * base, (b + 1) * base), offset + b * size);
        target[offset + b * size + base] = flag?.[b] ?? 0;
      }
      return target;
    },
  };
}
