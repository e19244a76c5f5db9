#!/usr/bin/env node
/**
 * Held-out block scores for an error study (issue 35): for each chosen set, an MLP (the shipped
 * recipe: comment head, clean's comment decision and the empty-page fallback, as `winnow eval --loso` scores) is
 * trained on all the other sets and scores that set's blocks. One JSON line per page goes to
 * OUT/<set>.jsonl: the fold's threshold and, per block, its score, alignment label, comment label,
 * words and markup (tag path, class/id words, section ids, link share, text), so that rules acting
 * on the scores can be studied without training again.
 *
 *   npm run build && node experiments/loso-block-scores.js --out DIR \
 *     [--data ROOT] [--sets a,b,…] [--held-out a,b,…] [--feature-set NAME] [--hidden 32]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { loadLabelledSources } from "@winnow/evaluation";
import { featureSetByName } from "@winnow/features";
import { buildDataset, fitMlp, scoreMlpPages } from "@winnow/train";
import { decideMlpComments, withFallback } from "../pipelines/train/dist/mlp-fit.js";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
if (typeof flags.out !== "string") throw new Error("--out DIR: where the per-set block scores go");
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const sets = (flags.sets ?? "wcxb-dev,cleaneval,l3s-gn1,googletrends-2017,magic-html,cleanportaleval,newspaper3k,chinese-wce").split(",");
const heldOut = (flags["held-out"] ?? "wcxb-dev,magic-html,googletrends-2017,cleaneval").split(",");
const featureSet = featureSetByName(flags["feature-set"] ?? "texrex37+ext+ctx");
const hiddenSize = Number(flags.hidden ?? 32);

const started = Date.now();
const pages = await loadLabelledSources(sets.map((s) => `${root}/${s}`));
const data = buildDataset(pages, featureSet);
mkdirSync(flags.out, { recursive: true });
for (const name of heldOut) {
  const s = data.sources.indexOf(name);
  if (s < 0) throw new Error(`${name} is not one of --sets`);
  const train = [];
  const test = [];
  data.sourceOf.forEach((g, p) => (g === s ? test : train).push(p));
  const fitted = fitMlp(data, train, { hiddenSize, commentHead: true });
  const content = scoreMlpPages(data, test, fitted.members);
  const head = fitted.commentHead;
  // The comment decision as clean makes it (the veto, then the markup rule).
  const vetoed = head
    ? decideMlpComments(data, test, content, scoreMlpPages(data, test, head.members), head.threshold, fitted.threshold).content
    : content;
  const scores = withFallback(vetoed, fitted.threshold, fitted.emptyPageFallback);
  const lines = test.map((p, i) => {
    const page = data.pages[p];
    const blocks = page.doc.blocks.map((b, k) => {
      const row = data.firstRow[p] + k;
      return {
        s: Number(scores[i][k].toFixed(4)),
        raw: Number(content[i][k].toFixed(4)),
        label: data.labels[row],
        comment: data.comments[row],
        words: data.words[row],
        tagPath: b.tagPath,
        classIds: b.classIds,
        container: b.container,
        heading: b.heading,
        parentId: b.parentId,
        grandparentId: b.grandparentId,
        anchorChars: b.anchorChars,
        textChars: b.textChars,
        repeatOf: b.repeatOf,
        text: b.text.slice(0, 160),
      };
    });
    return JSON.stringify({
      source: name,
      id: page.id,
      pageType: page.pageType,
      language: page.language,
      threshold: fitted.threshold,
      blocks,
    });
  });
  writeFileSync(`${flags.out}/${name}.jsonl`, `${lines.join("\n")}\n`);
  console.error(`${name}: ${test.length} pages, threshold ${fitted.threshold}, ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
