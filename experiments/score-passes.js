#!/usr/bin/env node
/**
 * Would a pass over the held-out block scores help? (issue 35) Word precision, recall and F1 of
 * the sets of `loso-block-scores.js` (each page scored by a model that never saw its set), as
 * scored, then with each candidate pass applied to the scores before the fold's threshold:
 *
 *   smooth A      each block's score moved A of the way to the mean of its two neighbours'
 *   islands G F   runs of kept blocks that fewer than G dropped blocks part; every run but the one
 *                 with the most words is dropped when it has under F times its words (hi: unless
 *                 one of its blocks scored 0.9 or more)
 *   references    blocks under a reference or footnote list (class words references, reflist,
 *                 mw-references-wrap, footnotes, endnotes, bibliography) dropped
 *   suffix modal  blocks under a class word that ends in -modal, --modal, _modal or __modal
 *                 (`mol-ads-cmp--modal`, `select-menu-modal`) dropped, unless a word of the same
 *                 ancestor says it is open (show, in, open, is-open, active, is-active, visible,
 *                 is-visible): what the segmenter's closed-modal rule would do if it read such words
 *
 * Pages are segmented by the build at --build (default: this checkout), which must be the one the
 * scores were made with: the block counts are checked page by page.
 *
 *   node experiments/score-passes.js --scores DIR [--sets a,b] [--build CHECKOUT] [--types] [--only "name,name"]
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), ["types"]);
if (typeof flags.scores !== "string") throw new Error("--scores DIR: the output folder of loso-block-scores.js");
const sets = (flags.sets ?? "wcxb-dev,magic-html,googletrends-2017,cleaneval").split(",");
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const build = resolve(flags.build ?? new URL("..", import.meta.url).pathname);
const { loadLabelledSources, keptText, wordScores } = await import(pathToFileURL(join(build, "packages/evaluation/dist/index.js")).href);

function smooth(a) {
  return (_doc, s) => {
    const o = Float32Array.from(s);
    for (let b = 0; b < s.length; b++) {
      const left = b > 0 ? o[b - 1] : (o[b + 1] ?? o[b]);
      const right = b + 1 < s.length ? o[b + 1] : left;
      s[b] = (1 - a) * o[b] + a * 0.5 * (left + right);
    }
  };
}

function islands(gap, fraction, high = 2) {
  return (doc, s, t) => {
    const runs = [];
    let current = null;
    let dropped = 0;
    for (let b = 0; b < s.length; b++) {
      const words = doc.blocks[b].text.split(/\s+/).length;
      if (s[b] >= t) {
        if (current && dropped < gap) {
          current.blocks.push(b);
          current.words += words;
        } else {
          current = { blocks: [b], words };
          runs.push(current);
        }
        dropped = 0;
      } else dropped++;
    }
    if (runs.length < 2) return;
    const main = runs.reduce((a, r) => (r.words > a.words ? r : a));
    for (const r of runs) {
      if (r === main || r.words >= fraction * main.words) continue;
      if (r.blocks.some((b) => s[b] >= high)) continue;
      for (const b of r.blocks) s[b] = 0;
    }
  };
}

const REFERENCE_WORDS = new Set(["references", "reflist", "mw-references-wrap", "footnotes", "endnotes", "bibliography"]);
function references(doc, s) {
  doc.blocks.forEach((b, i) => {
    if (b.classIds.split(/[\s|]+/).some((w) => REFERENCE_WORDS.has(w))) s[i] = 0;
  });
}

const OPEN_WORDS = new Set(["show", "in", "open", "is-open", "active", "is-active", "visible", "is-visible"]);
function suffixModal(doc, s) {
  doc.blocks.forEach((b, i) => {
    const closed = b.classIds.split("|").some((ancestor) => {
      const words = ancestor.trim().split(/\s+/);
      return words.some((w) => /[a-z0-9](--|__|-|_)modal$/.test(w)) && !words.some((w) => OPEN_WORDS.has(w));
    });
    if (closed) s[i] = 0;
  });
}

const PASSES = {
  none: () => {},
  "smooth 0.2": smooth(0.2),
  "smooth 0.35": smooth(0.35),
  "smooth 0.5": smooth(0.5),
  "islands 3 0.1": islands(3, 0.1),
  "islands 5 0.1": islands(5, 0.1),
  "islands 5 0.2": islands(5, 0.2),
  "islands 8 0.1": islands(8, 0.1),
  "islands 10 0.05": islands(10, 0.05),
  "islands 5 0.1 hi": islands(5, 0.1, 0.9),
  references,
  "suffix modal": suffixModal,
};

const pages = await loadLabelledSources(sets.map((s) => `${root}/${s}`));
const byKey = new Map(pages.map((p) => [`${p.source}/${p.id}`, p]));
const scored = [];
for (const set of sets)
  for (const line of readFileSync(`${flags.scores}/${set}.jsonl`, "utf8").split("\n")) {
    if (line === "") continue;
    const d = JSON.parse(line);
    const page = byKey.get(`${set}/${d.id}`);
    if (page.doc.blocks.length !== d.blocks.length) throw new Error(`${set}/${d.id}: blocks differ from the scores' (another build?)`);
    scored.push({ page, set, threshold: d.threshold, scores: Float32Array.from(d.blocks, (b) => b.s) });
  }

const only = flags.only?.split(",");
const base = new Map();
const f3 = (a) => `${(a.p / a.n).toFixed(3)} / ${(a.r / a.n).toFixed(3)} / ${(a.f / a.n).toFixed(4)}`;
for (const [name, pass] of Object.entries(PASSES)) {
  if (only !== undefined && name !== "none" && !only.includes(name)) continue;
  const sums = new Map();
  let up = 0;
  let down = 0;
  for (const x of scored) {
    const s = Float32Array.from(x.scores);
    pass(x.page.doc, s, x.threshold);
    const r = wordScores(keptText(x.page.doc, s, x.threshold), x.page.gold);
    const key = `${x.set}/${x.page.id}`;
    if (name === "none") base.set(key, r.f1);
    else if (r.f1 > base.get(key) + 1e-6) up++;
    else if (r.f1 < base.get(key) - 1e-6) down++;
    for (const group of [x.set, `${x.set} ${x.page.pageType}`]) {
      const a = sums.get(group) ?? { p: 0, r: 0, f: 0, n: 0 };
      a.p += r.precision;
      a.r += r.recall;
      a.f += r.f1;
      a.n++;
      sums.set(group, a);
    }
  }
  console.log(`| ${name} | ${up} / ${down} | ${sets.map((s) => f3(sums.get(s))).join(" | ")} |`);
  if (flags.types) for (const [g, a] of [...sums].sort()) if (g.includes(" ")) console.log(`|   ${g} (${a.n}) | | ${f3(a)} |`);
}
