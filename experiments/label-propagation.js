#!/usr/bin/env node
/**
 * Label propagation (harmonic functions over per-page block graphs) against the alignment labels
 * of the WCXB dev pages: with 20% of each page's gold labels revealed at random, and with the
 * markup heuristic's seeds only. Accuracy is over the blocks that were not seeds.
 *
 *   npm run build && node experiments/label-propagation.js [--data DIR] [--every N] [--reveal 0.2] [--seed 1]
 *
 * --every N keeps every Nth page, for a quicker run.
 */
import { TEXREX_EXTENDED } from "@winnow/features";
import { loadLabelledPages } from "@winnow/evaluation";
import { buildDataset, evaluatePropagation } from "@winnow/train";
import { DEFAULT_SOURCE } from "../benchmarks/lib/common.js";

function flag(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}

const dir = flag("data", process.env.WINNOW_BENCH_DATA ?? DEFAULT_SOURCE);
const every = Number(flag("every", "1"));
const reveal = Number(flag("reveal", "0.2"));
const seed = Number(flag("seed", "1"));

let t = performance.now();
const all = await loadLabelledPages(dir);
const pages = all.filter((_, i) => i % every === 0);
const data = buildDataset(pages, TEXREX_EXTENDED);
console.error(
  `loaded ${pages.length}/${all.length} pages, ${data.labels.length} blocks in ${((performance.now() - t) / 1000).toFixed(1)} s`,
);

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const rows = [];
for (const [name, options] of [
  [`${Math.round(reveal * 100)}% gold labels revealed (seed ${seed})`, { reveal, seed }],
  ["heuristic seeds only", { heuristicSeeds: true }],
]) {
  t = performance.now();
  const r = evaluatePropagation(data, options);
  const seconds = (performance.now() - t) / 1000;
  rows.push(
    `| ${name} | ${r.seedsPerPage.toFixed(1)} | ${pct(r.seedAccuracy)} | ${r.blocks} | ${pct(r.accuracy)} | ${pct(r.majorityAccuracy)} | ${pct(r.precision)} | ${pct(r.recall)} | ${pct(r.f1)} | ${seconds.toFixed(1)} |`,
  );
}
console.log(
  `Label propagation on ${dir} (${pages.length} pages${every > 1 ? `, every ${every}th` : ""}, ${data.labels.length} blocks, ${TEXREX_EXTENDED.name ?? "TEXREX_EXTENDED"} features)\n`,
);
console.log(
  "| seeds | seeds/page | seed accuracy | scored blocks | accuracy | majority-class accuracy | content precision | content recall | content F1 | propagation s |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
