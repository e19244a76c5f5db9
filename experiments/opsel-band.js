#!/usr/bin/env node
/**
 * Which blocks and pages move between two comment (veto) thresholds, per held-out set, on the
 * folds `comments-loso-full.js --save DIR` kept: the words the head scores between them (comment
 * labels, content by the gold, under comment class words, in comment markup), and the pages whose
 * F1 changes most. The study: results/2026-11-27-opsel.md.
 *
 *   npm run build && node experiments/opsel-band.js --saved DIR [--low 0.5622] [--high 0.8808] [--top 8]
 */
import { loadLabelledSources } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { buildDataset } from "@winnow/train";
import { parseFlags } from "../benchmarks/lib/common.js";
import { scorePage } from "../pipelines/train/dist/evaluate.js";
import { decideSavedFold, readSavedFold } from "./lib/saved-folds.js";

const flags = parseFlags(process.argv.slice(2), []);
const root = new URL("../../shared/data", import.meta.url).pathname;
const SETS = ["wcxb-dev", "cleaneval", "l3s-gn1", "googletrends-2017", "magic-html", "cleanportaleval", "newspaper3k", "chinese-wce"];
const low = Number(flags.low ?? 0.5622);
const high = Number(flags.high ?? 0.8808);
const pages = await loadLabelledSources(SETS.map((s) => `${root}/${s}`));
const data = buildDataset(pages, TEXREX_CONTEXT);
const rows = [];
for (const source of SETS) {
  const fold = readSavedFold(flags.saved, data, source);
  if (!fold) continue;
  const at = (t) => decideSavedFold(data, fold, t).scores;
  const lo = at(low),
    hi = at(high);
  let band = 0,
    bandComment = 0,
    bandContent = 0,
    bandOther = 0,
    bandKeptHi = 0,
    bandContentKeptHi = 0,
    contentUnderComments = 0,
    contentInMarkup = 0;
  const moved = [];
  fold.test.forEach((p, i) => {
    const from = data.firstRow[p];
    let pageBand = 0;
    for (let b = 0; b < fold.comments[i].length; b++) {
      const c = fold.comments[i][b];
      if (c < low || c >= high) continue;
      const w = data.words[from + b];
      band += w;
      pageBand += w;
      if (data.comments[from + b] === 1) bandComment += w;
      else if (data.labels[from + b] === 1) {
        bandContent += w;
        if (data.dontCare[from + b] === 1) contentUnderComments += w;
        const role = data.commentContexts[p]?.roles?.[b];
        if (role !== undefined && role !== 0) contentInMarkup += w;
      } else bandOther += w;
      if (fold.content[i][b] >= fold.threshold) {
        bandKeptHi += w;
        if (data.labels[from + b] === 1) bandContentKeptHi += w;
      }
    }
    const a = scorePage(data, p, lo[i], fold.threshold, 0).f1;
    const z = scorePage(data, p, hi[i], fold.threshold, 0).f1;
    if (a !== z) moved.push({ id: data.pages[p].id, type: data.pages[p].pageType, band: pageBand, f1Low: a, f1High: z });
  });
  const mean = (k) => moved.reduce((s, m) => s + m[k], 0) / fold.test.length;
  console.log(
    `${source}: band [${low}, ${high}) words ${band}: comment-labelled ${bandComment}, content ${bandContent}, other ${bandOther}; kept by the content head ${bandKeptHi} (content ${bandContentKeptHi}); content under comment class words ${contentUnderComments}, in comment markup roles ${contentInMarkup}`,
  );
  const delta = moved.reduce((s, m) => s + m.f1High - m.f1Low, 0) / fold.test.length;
  console.log(`  ${moved.length} pages change F1; mean F1 over the set moves ${delta.toFixed(4)} from ${low} to ${high}`);
  moved.sort((x, y) => Math.abs(y.f1High - y.f1Low) - Math.abs(x.f1High - x.f1Low));
  for (const m of moved.slice(0, Number(flags.top ?? 8)))
    console.log(`    ${m.id} ${m.type} band ${m.band} words: F1 ${m.f1Low.toFixed(3)} at ${low}, ${m.f1High.toFixed(3)} at ${high}`);
  rows.push({ source, band, bandComment, bandContent, bandOther, moved: moved.length, delta, _: mean });
}
