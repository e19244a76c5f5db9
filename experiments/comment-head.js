#!/usr/bin/env node
/**
 * How many user comment words end up in the main text, in sample: an MLP with a comment head is
 * trained on all five shared sets (the shipped recipe, one member), then the pages with comment
 * gold (L3S-GN1, GoogleTrends-2017) are scored. Reports the share of their comment words the
 * content model keeps, the share the head finds, and the share kept once the head's comments are
 * kept out. These are training pages: an upper bound for held-out pages of those sets (the
 * leave-one-source-out figure in docs/quality.md is the held-out one).
 *
 *   npm run build && node experiments/comment-head.js [--data DIR]   (DIR: ../shared/data)
 */
import { loadLabelledSources } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { buildDataset, fitMlp, scoreMlpPages } from "@winnow/train";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const sets = ["wcxb-dev", "cleaneval", "l3s-gn1", "googletrends-2017", "magic-html"].map((s) => `${root}/${s}`);
const pages = await loadLabelledSources(sets);
const data = buildDataset(pages, TEXREX_CONTEXT);
const all = pages.map((_, i) => i);
const fitted = fitMlp(data, all, { hiddenSize: 32, ensemble: 1, commentHead: true });
const head = fitted.commentHead;
if (!head) throw new Error("no comment head was trained: the pages label no comments");
const withComments = all.filter((p) => pages[p].comments !== "");
const content = scoreMlpPages(data, withComments, fitted.members);
const comments = scoreMlpPages(data, withComments, head.members);
let words = 0,
  kept = 0,
  found = 0,
  keptAfterVeto = 0;
withComments.forEach((p, i) => {
  for (let b = 0, row = data.firstRow[p]; row < data.firstRow[p + 1]; b++, row++) {
    if (data.comments[row] !== 1) continue;
    const w = data.words[row];
    words += w;
    const isKept = content[i][b] >= fitted.threshold;
    const isComment = comments[i][b] >= head.threshold;
    if (isKept) kept += w;
    if (isComment) found += w;
    if (isKept && !isComment) keptAfterVeto += w;
  }
});
const pct = (x) => `${((100 * x) / words).toFixed(1)}%`;
console.log(`${withComments.length} pages with comment gold, ${words} comment words`);
console.log(
  `keep threshold ${fitted.threshold}, comment threshold ${head.threshold} (validation comment F1 ${head.validationF1.toFixed(3)})`,
);
console.log(
  `kept by the content model: ${pct(kept)}; found by the head: ${pct(found)}; kept once the head's comments are out: ${pct(keptAfterVeto)}`,
);
