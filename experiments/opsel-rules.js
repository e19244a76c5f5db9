#!/usr/bin/env node
/**
 * Which rule for the comment (veto) threshold holds on sets it never saw? Over the eight folds that
 * `comments-loso-full.js --save DIR` kept: each rule chooses each fold's threshold on the other
 * seven folds' held-out scores pooled (as `train --loso` does), the fold is decided at it as clean
 * decides it, and the held-out figures are printed per rule: main-text F1 per set, comment words
 * in the main text, the field (its threshold chosen out of fold too; `--no-field 1`: the veto's).
 * Rules: `before` (the chooser of the build at /work/b-6db, or --before-build DIR), `build` (this
 * build's), and variants written here (pooled or per-set cost, all labels or the comment gold's,
 * paired standard errors, a page bootstrap, fixed). `--table SET` prints the curves the chooser
 * reads with SET left out (`all`: none), per set against never vetoing (`--care 1`: the veto
 * undone on Dataset.dontCare blocks). The study: results/2026-11-27-opsel.md.
 *
 *   npm run build && node experiments/opsel-rules.js --saved DIR [--rules a,b] [--table SET] [--no-field 1]
 */
import { loadLabelledSources } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { vetoComments } from "@winnow/models";
import { buildDataset, chooseCommentFieldThreshold } from "@winnow/train";
import { parseFlags } from "../benchmarks/lib/common.js";
import { mulberry32 } from "@winnow/random";
import { scorePage } from "../pipelines/train/dist/evaluate.js";
import { chooseCommentThreshold, sourceWeights } from "../pipelines/train/dist/mlp-fit.js";
import { operatingPoints, pageCurveOfWords, pageWords, THRESHOLD_CANDIDATES } from "../pipelines/train/dist/operating-points.js";
import { decideSavedFold, readSavedFold } from "./lib/saved-folds.js";

const flags = parseFlags(process.argv.slice(2), []);
/** The chooser of the build before (its checkout's compiled mlp-fit.js). */
const before = (await import(`${flags["before-build"] ?? "/work/b-6db"}/pipelines/train/dist/mlp-fit.js`)).chooseCommentThreshold;
const root = new URL("../../shared/data", import.meta.url).pathname;
const SETS = ["wcxb-dev", "cleaneval", "l3s-gn1", "googletrends-2017", "magic-html", "cleanportaleval", "newspaper3k", "chinese-wce"];
const NEVER = 2;
const pages = await loadLabelledSources(SETS.map((s) => `${root}/${s}`));
const data = buildDataset(pages, TEXREX_CONTEXT);
const folds = SETS.map((s) => readSavedFold(flags.saved, data, s));
// Smoke runs on some folds only: the sets without a saved fold are left out of everything.
const missing = SETS.filter((_, f) => folds[f] === undefined);
if (missing.length > 0) console.error(`no saved fold of ${missing.join(", ")}`);
const goldSources = new Set(data.pages.filter((p) => p.comments !== "").map((p) => p.source));
const T = [...THRESHOLD_CANDIDATES, NEVER];
const K = THRESHOLD_CANDIDATES.length;
const fB = (p, r) => (p + r === 0 ? 0 : (2 * p * r) / (p + r));

// Per fold, per veto candidate: per page F1 at every keep candidate (veto alone), comment tp/fp/fn words.
const t0 = Date.now();
const wordsOf = folds.map((fold) =>
  fold?.test.map((p) =>
    pageWords(
      data.pages[p].doc.blocks.map((b) => b.text),
      data.pages[p].gold,
    ),
  ),
);
const perFold = folds.map((fold, fi) =>
  fold === undefined
    ? undefined
    : T.map((t) => {
        const vetoed = fold.content.map((s) => Float32Array.from(s));
        if (t <= 1) vetoComments(vetoed, fold.comments, t);
        return fold.test.map((p, i) => {
          const c = pageCurveOfWords(wordsOf[fi][i], vetoed[i]);
          const f1 = new Float64Array(K);
          for (let k = 0; k < K; k++) f1[k] = fB(c.precision[k], c.recall[k]);
          // The same with the veto undone on the blocks whose content label training ignores (Dataset.dontCare).
          const from0 = data.firstRow[p];
          let undone = false;
          const care = Float32Array.from(vetoed[i]);
          for (let b = 0; b < care.length; b++)
            if (data.dontCare[from0 + b] === 1 && care[b] !== fold.content[i][b]) {
              care[b] = fold.content[i][b];
              undone = true;
            }
          let f1care = f1;
          if (undone) {
            const cc = pageCurveOfWords(wordsOf[fi][i], care);
            f1care = new Float64Array(K);
            for (let k = 0; k < K; k++) f1care[k] = fB(cc.precision[k], cc.recall[k]);
          }
          let tp = 0,
            fp = 0,
            fn = 0;
          const from = data.firstRow[p];
          for (let b = 0; b < vetoed[i].length; b++) {
            const said = fold.comments[i][b] >= t;
            const w = data.words[from + b];
            if (data.comments[from + b] === 1) said ? (tp += w) : (fn += w);
            else if (said) fp += w;
          }
          return { f1, f1care, tp, fp, fn };
        });
      }),
);
console.error(`page curves in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

/** The pool's figures at veto candidate j: pooled keep choice, mean F1 there, per-source F1 there, comment F1 (all / gold sets). */
function poolAt(pool, j, times, care = false) {
  const pagesOf = pool.flatMap((f) => folds[f].test);
  const w = sourceWeights(data, pagesOf, 0.5);
  const curve = { thresholds: THRESHOLD_CANDIDATES, f1: new Float64Array(K), f05: new Float64Array(K), f2: new Float64Array(K) };
  let i = 0;
  // times: per fold, per page, how often a bootstrap draw took it (undefined: once each).
  const m = (f, q) => (times === undefined ? 1 : times[f][q]);
  for (const f of pool)
    perFold[f][j].forEach((pg, q) => {
      const x = m(f, q);
      const pf = care ? pg.f1care : pg.f1;
      if (x > 0) for (let k = 0; k < K; k++) curve.f1[k] += (x * w[i] * pf[k]) / pagesOf.length;
      i++;
    });
  const keep = operatingPoints(curve).balanced;
  const k = THRESHOLD_CANDIDATES.indexOf(keep);
  const bySource = new Map();
  let tp = 0,
    fp = 0,
    fn = 0,
    gtp = 0,
    gfp = 0,
    gfn = 0;
  for (const f of pool) {
    let sum = 0;
    perFold[f][j].forEach((pg, q) => {
      const x = m(f, q);
      sum += x * (care ? pg.f1care : pg.f1)[k];
      tp += x * pg.tp;
      fp += x * pg.fp;
      fn += x * pg.fn;
      if (goldSources.has(SETS[f])) {
        gtp += x * pg.tp;
        gfp += x * pg.fp;
        gfn += x * pg.fn;
      }
    });
    bySource.set(f, sum / perFold[f][j].length);
  }
  const cf = (a, b, c) => (a === 0 ? 0 : (2 * a) / (2 * a + b + c));
  return { keep, k, f1: curve.f1[k], bySource, commentF1: cf(tp, fp, fn), goldF1: cf(gtp, gfp, gfn) };
}

/** Rules: pool (fold indexes) -> veto threshold. */
const SLACK = 0.001;
/** Per source of the pool: the paired SE over its pages of the F1 difference between veto j (at keep index k) and never (at kn). */
function pairedSE(pool, j, k, kn, care) {
  const out = new Map();
  for (const f of pool) {
    const a = perFold[f][j],
      z = perFold[f][K];
    const d = a.map((pg, q) => (care ? pg.f1care : pg.f1)[k] - (care ? z[q].f1care : z[q].f1)[kn]);
    const mu = d.reduce((x, y) => x + y, 0) / d.length;
    const sd = Math.sqrt(d.reduce((x, y) => x + (y - mu) ** 2, 0) / Math.max(1, d.length - 1));
    out.set(f, sd / Math.sqrt(d.length));
  }
  return out;
}
function generic(
  pool,
  { gold = false, perSource = false, slack = SLACK, oneSE = false, draws = 200, care = false, exclKeep = false, seZ = 0 } = {},
  times,
) {
  const at = T.map((_, j) => poolAt(pool, j, times, care));
  const never = at[K];
  let chosen = K;
  let best = 0;
  for (let j = 0; j < K; j++) {
    const cf = gold ? at[j].goldF1 : at[j].commentF1;
    if (cf === 0 || cf < best + 1e-4) continue;
    const se = seZ > 0 ? pairedSE(pool, j, at[j].k, never.k, care) : undefined;
    const ok = perSource
      ? [...never.bySource].every(
          ([f, v]) => (exclKeep && KEEPS.has(SETS[f])) || at[j].bySource.get(f) >= v - Math.max(slack, se ? seZ * se.get(f) : 0),
        )
      : at[j].f1 >= never.f1 - slack;
    if (ok) {
      chosen = j;
      best = cf;
    }
  }
  if (!oneSE || chosen === K) return T[chosen];
  // The page bootstrap's spread of the comment F1 at the chosen threshold; then the highest
  // feasible threshold within one SD of it.
  const random = mulberry32(7);
  const cfs = [];
  for (let d = 0; d < draws; d++) {
    const tm = drawPages(pool, random);
    const x = poolAt(pool, chosen, tm, care);
    cfs.push(gold ? x.goldF1 : x.commentF1);
  }
  const mu = cfs.reduce((a, b) => a + b, 0) / draws;
  const sd = Math.sqrt(cfs.reduce((a, b) => a + (b - mu) ** 2, 0) / (draws - 1));
  for (let j = K - 1; j > chosen; j--) {
    const cf = gold ? at[j].goldF1 : at[j].commentF1;
    const ok = perSource ? [...at[K].bySource].every(([f, v]) => at[j].bySource.get(f) >= v - slack) : at[j].f1 >= at[K].f1 - slack;
    if (cf >= best - sd && ok) return T[j];
  }
  return T[chosen];
}
/** Per fold of the pool, per page: how often one bootstrap draw (pages drawn within each set) took it. */
function drawPages(pool, random) {
  const times = [];
  for (const f of pool) {
    const n = folds[f].test.length;
    const c = new Int32Array(n);
    for (let q = 0; q < n; q++) c[Math.floor(random() * n)]++;
    times[f] = c;
  }
  return times;
}
/** The median of the rule's choices over bootstrap draws of the pool's pages. */
function bagged(pool, options, draws = 50) {
  const random = mulberry32(11);
  const picks = [];
  for (let d = 0; d < draws; d++) picks.push(generic(pool, options, drawPages(pool, random)));
  picks.sort((a, b) => a - b);
  return picks[Math.floor(draws / 2)];
}
/** Sets whose gold keeps comments as main text (Dataset.dontCare on some block). */
const KEEPS = new Set(
  SETS.filter((_, f) => folds[f]?.test.some((p) => data.dontCare.subarray(data.firstRow[p], data.firstRow[p + 1]).includes(1))),
);
console.error(`sets whose gold keeps comments: ${[...KEEPS].join(", ")}`);
/** A chooser of the train package's shape, run on a pool of folds' held-out pages: its threshold. */
const onPool = (choose) => (pool) =>
  choose(
    data,
    pool.flatMap((f) => folds[f].test),
    pool.flatMap((f) => folds[f].content),
    pool.flatMap((f) => folds[f].comments),
    undefined,
  ).threshold;
const RULES = {
  before: onPool(before),
  build: onPool(chooseCommentThreshold),
  pooled: (pool) => generic(pool),
  gold: (pool) => generic(pool, { gold: true }),
  perSource: (pool) => generic(pool, { perSource: true }),
  goldPerSource: (pool) => generic(pool, { gold: true, perSource: true }),
  fixed0881: () => 0.8808,
  oneSE: (pool) => generic(pool, { oneSE: true }),
  careSource: (pool) => generic(pool, { perSource: true, care: true }),
  goldCareSource: (pool) => generic(pool, { gold: true, perSource: true, care: true }),
  goldCareSource2: (pool) => generic(pool, { gold: true, perSource: true, care: true, slack: 0.002 }),
  goldCareSourceSE: (pool) => generic(pool, { gold: true, perSource: true, care: true, oneSE: true }),
  carePooled: (pool) => generic(pool, { care: true }),
  goldSource: (pool) => generic(pool, { gold: true, perSource: true }),
  goldSourceSE2: (pool) => generic(pool, { gold: true, perSource: true, seZ: 2 }),
  goldSourceSE1: (pool) => generic(pool, { gold: true, perSource: true, seZ: 1 }),
  goldCareSourceSE2: (pool) => generic(pool, { gold: true, perSource: true, care: true, seZ: 2 }),
  goldSourceExclKeep: (pool) => generic(pool, { gold: true, perSource: true, exclKeep: true }),
  goldPooledSE: (pool) => generic(pool, { gold: true, oneSE: true }),
  slack2: (pool) => generic(pool, { gold: true, perSource: true, slack: 0.002 }),
  slack3: (pool) => generic(pool, { gold: true, perSource: true, slack: 0.003 }),
  goldOneSE: (pool) => generic(pool, { gold: true, oneSE: true }),
  bagged: (pool) => bagged(pool, {}),
  goldBagged: (pool) => bagged(pool, { gold: true }),
};

// Held-out figures of fold f decided at veto t (field threshold chosen on the other folds decided at t).
const decidedCache = new Map();
const decided = (f, t) => {
  const key = `${f}:${t}`;
  if (!decidedCache.has(key)) decidedCache.set(key, decideSavedFold(data, folds[f], t));
  return decidedCache.get(key);
};
function heldOut(f, t) {
  const others = all.filter((g) => g !== f);
  const field =
    flags["no-field"] !== undefined
      ? t
      : chooseCommentFieldThreshold(
          data,
          {
            pages: others.flatMap((g) => folds[g].test),
            scores: others.flatMap((g) => decided(g, t).scores),
            keep: others.flatMap((g) => folds[g].test.map(() => folds[g].threshold)),
            comments: others.flatMap((g) => decided(g, t).comments),
          },
          t,
        ).threshold;
  const d = decided(f, t);
  const scored = folds[f].test.map((p, i) =>
    scorePage(data, p, d.scores[i], folds[f].threshold, f, { comments: d.comments[i], threshold: t, fieldThreshold: field }),
  );
  const mean = (xs) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
  const cd = scored.map((s) => s.commentDecision).filter((c) => c?.from === "gold");
  const words = cd.reduce((a, c) => a + c.words, 0);
  const inMain = cd.reduce((a, c) => a + c.wordsInMain, 0);
  return {
    f1: mean(scored.map((s) => s.f1)),
    field,
    words,
    inMain,
    fieldF1: mean(cd.filter((c) => c.fieldF1 !== undefined).map((c) => c.fieldF1)),
    empty: mean(cd.filter((c) => c.fieldEmpty !== undefined).map((c) => (c.fieldEmpty ? 1 : 0))),
  };
}

const all = SETS.map((_, f) => f).filter((f) => folds[f] !== undefined);
const only = flags.rules?.split(",");
for (const [name, rule] of Object.entries(RULES)) {
  if (only && !only.includes(name)) continue;
  const chosen = all.map((f) => rule(all.filter((g) => g !== f)));
  const figures = [];
  all.forEach((f, i) => (figures[f] = heldOut(f, chosen[i])));
  const meanF1 = all.reduce((a, f) => a + figures[f].f1, 0) / all.length;
  console.log(`\n${name}: on all eight ${rule(all)}; per fold ${chosen.map((t) => (t > 1 ? "never" : t)).join(", ")}`);
  console.log(`  F1 ${all.map((f) => `${SETS[f]} ${figures[f].f1.toFixed(4)}`).join(", ")}; mean ${meanF1.toFixed(4)}`);
  for (const f of all.filter((f) => goldSources.has(SETS[f]))) {
    const x = figures[f];
    console.log(
      `  ${SETS[f]}: comment words in main ${x.inMain}/${x.words} (${((100 * x.inMain) / x.words).toFixed(1)}%), field threshold ${x.field}, field F1 ${x.fieldF1.toFixed(3)}, empty ${x.empty.toFixed(3)}`,
    );
  }
}

// The curves each chooser reads: with one set left out (--table SET) or all eight.
if (flags.table) {
  const out = flags.table === "all" ? -1 : SETS.indexOf(flags.table);
  const pool = all.filter((g) => g !== out);
  console.log(`\npool without ${flags.table}: veto t, keep, pooled F1 (- never), comment F1, gold-set comment F1, per set F1 - never`);
  const careView = flags.care !== undefined;
  const never = poolAt(pool, K, undefined, careView);
  for (let j = 0; j <= K; j++) {
    const x = poolAt(pool, j, undefined, careView);
    console.log(
      `  ${T[j] > 1 ? "never " : T[j].toFixed(4)} keep ${x.keep} F1 ${x.f1.toFixed(4)} (${(x.f1 - never.f1).toFixed(4)}) cF1 ${x.commentF1.toFixed(3)} gold ${x.goldF1.toFixed(3)} | ${pool
        .map((f) => `${SETS[f].slice(0, 6)} ${(x.bySource.get(f) - never.bySource.get(f)).toFixed(4)}`)
        .join(" ")}`,
    );
  }
}
