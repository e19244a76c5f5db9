#!/usr/bin/env node
/**
 * A second pass stacked on the first (issue 35): a logistic regression that rescores each block
 * from its own held-out score, its neighbours' (one each side, three each side), its section's
 * (Block.parentId, words-weighted), its place against the page's main run of kept blocks (in it,
 * blocks after its end / 20, blocks before its start / 20) and, unless --local, two page values
 * (the share of the page's words kept, the main run's share) and a bias. Scores are logits less the
 * fold threshold's logit, and the new score's 0 maps back to that threshold.
 *
 * Each set is rescored by a pass fit on the other sets' held-out scores only (the output of
 * `loso-block-scores.js`), so neither pass saw the set's labels; blocks weigh their words, each page
 * the same in total.
 *
 *   node experiments/stacked-pass.js --scores DIR [--sets a,b,…] [--build CHECKOUT] [--local] [--epochs 200]
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), ["local"]);
if (typeof flags.scores !== "string") throw new Error("--scores DIR: the output folder of loso-block-scores.js");
const sets = (flags.sets ?? "wcxb-dev,magic-html,googletrends-2017,cleaneval").split(",");
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const build = resolve(flags.build ?? new URL("..", import.meta.url).pathname);
const epochs = Number(flags.epochs ?? 200);
const { loadLabelledSources, keptText, wordScores } = await import(pathToFileURL(join(build, "packages/evaluation/dist/index.js")).href);

const INPUTS = 10;
const logit = (p) => {
  const q = Math.min(1 - 1e-4, Math.max(1e-4, p));
  return Math.log(q / (1 - q));
};

function mainRun(s, words, t) {
  let best = null;
  let current = null;
  let gap = 0;
  for (let b = 0; b < s.length; b++) {
    if (s[b] >= t) {
      if (current && gap < 6) {
        current.end = b;
        current.words += words[b];
      } else current = { start: b, end: b, words: words[b] };
      if (!best || current.words > best.words) best = current;
      gap = 0;
    } else gap++;
  }
  return best;
}

function inputs(s, words, parent, t) {
  const n = s.length;
  const x = new Float64Array(n * INPUTS);
  const lt = logit(t);
  const run = mainRun(s, words, t);
  let keptWords = 0;
  let allWords = 0;
  for (let b = 0; b < n; b++) {
    allWords += words[b];
    if (s[b] >= t) keptWords += words[b];
  }
  const sections = new Map();
  for (let b = 0; b < n; b++) {
    const a = sections.get(parent[b]) ?? [0, 0];
    a[0] += s[b] * (words[b] + 1);
    a[1] += words[b] + 1;
    sections.set(parent[b], a);
  }
  const at = (k) => (k >= 0 && k < n ? logit(s[k]) - lt : -3);
  for (let b = 0; b < n; b++) {
    const f = x.subarray(b * INPUTS, (b + 1) * INPUTS);
    f[0] = logit(s[b]) - lt;
    f[1] = (at(b - 1) + at(b + 1)) / 2;
    let sum = 0;
    for (let k = -3; k <= 3; k++) if (k !== 0) sum += at(b + k);
    f[2] = sum / 6;
    const section = sections.get(parent[b]);
    f[3] = logit(section[0] / section[1]) - lt;
    f[4] = run && b >= run.start && b <= run.end ? 1 : 0;
    f[5] = run && b > run.end ? Math.min(1, (b - run.end) / 20) : 0;
    f[6] = run && b < run.start ? Math.min(1, (run.start - b) / 20) : 0;
    f[7] = flags.local || allWords === 0 ? 0 : keptWords / allWords;
    f[8] = flags.local || !run || allWords === 0 ? 0 : run.words / allWords;
    f[9] = flags.local ? 0 : 1;
  }
  return x;
}

function load(set) {
  return readFileSync(`${flags.scores}/${set}.jsonl`, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const d = JSON.parse(line);
      const s = Float64Array.from(d.blocks, (b) => b.s);
      const words = Float64Array.from(d.blocks, (b) => b.words);
      const parent = Int32Array.from(d.blocks, (b) => b.parentId);
      return {
        id: d.id,
        t: d.threshold,
        s,
        words,
        label: Uint8Array.from(d.blocks, (b) => b.label),
        x: inputs(s, words, parent, d.threshold),
      };
    });
}

/** Words-weighted logistic regression, each page the same weight in total; full-batch Adam from "keep the first pass". */
function fitPass(pages) {
  const w = new Float64Array(INPUTS);
  w[0] = 1;
  const m = new Float64Array(INPUTS);
  const v = new Float64Array(INPUTS);
  for (let e = 1; e <= epochs; e++) {
    const g = new Float64Array(INPUTS);
    let total = 0;
    for (const p of pages) {
      const pageWords = p.words.reduce((a, b) => a + b, 0) + p.words.length;
      for (let b = 0; b < p.s.length; b++) {
        const weight = (p.words[b] + 1) / pageWords;
        let z = 0;
        for (let k = 0; k < INPUTS; k++) z += w[k] * p.x[b * INPUTS + k];
        const d = (1 / (1 + Math.exp(-z)) - p.label[b]) * weight;
        for (let k = 0; k < INPUTS; k++) g[k] += d * p.x[b * INPUTS + k];
        total += weight;
      }
    }
    for (let k = 0; k < INPUTS; k++) {
      const gk = g[k] / total;
      m[k] = 0.9 * m[k] + 0.1 * gk;
      v[k] = 0.999 * v[k] + 0.001 * gk * gk;
      w[k] -= (0.1 * (m[k] / (1 - 0.9 ** e))) / (Math.sqrt(v[k] / (1 - 0.999 ** e)) + 1e-8);
    }
  }
  return w;
}

function rescore(p, w) {
  const out = new Float32Array(p.s.length);
  for (let b = 0; b < p.s.length; b++) {
    let z = 0;
    for (let k = 0; k < INPUTS; k++) z += w[k] * p.x[b * INPUTS + k];
    out[b] = 1 / (1 + Math.exp(-(z + logit(p.t))));
  }
  return out;
}

const data = Object.fromEntries(sets.map((s) => [s, load(s)]));
const pages = await loadLabelledSources(sets.map((s) => `${root}/${s}`));
const byKey = new Map(pages.map((p) => [`${p.source}/${p.id}`, p]));
for (const held of sets) {
  const w = fitPass(sets.filter((s) => s !== held).flatMap((s) => data[s]));
  const sums = { first: [0, 0, 0], stacked: [0, 0, 0] };
  let up = 0;
  let down = 0;
  for (const p of data[held]) {
    const page = byKey.get(`${held}/${p.id}`);
    const a = wordScores(keptText(page.doc, p.s, p.t), page.gold);
    const b = wordScores(keptText(page.doc, rescore(p, w), p.t), page.gold);
    for (const [key, r] of [
      ["first", a],
      ["stacked", b],
    ]) {
      sums[key][0] += r.precision;
      sums[key][1] += r.recall;
      sums[key][2] += r.f1;
    }
    if (b.f1 > a.f1 + 1e-6) up++;
    else if (b.f1 < a.f1 - 1e-6) down++;
  }
  const n = data[held].length;
  const f = (x) => x.map((v, i) => (v / n).toFixed(i === 2 ? 4 : 3)).join(" / ");
  console.log(`| ${held} | ${f(sums.first)} | ${f(sums.stacked)} | ${up} / ${down} | ${Array.from(w, (x) => x.toFixed(2)).join(" ")} |`);
}
