#!/usr/bin/env node
/**
 * How the weak-page rule's settings were chosen (@winnow/models' weak-page.ts), on held-out
 * scores: each shared set's blocks scored by the shipped recipe trained on the other seven (the
 * folds that `experiments/comments-loso-full.js --save DIR` keeps; the shipped model never saw a
 * page it is scored on here). Each page is decided as `winnow clean` decides it (the comment markup
 * with no veto, as every fold's out-of-fold veto threshold is "never"; the empty-page fallback:
 * decideSavedFold, which settles comments at the fold's own threshold), then the rule is applied
 * with each setting of a grid, at each keep threshold asked for: by default each fold's own (what
 * `train --loso` reports) and the shipped 0.5.
 *
 * Prints, per setting, the change in each set's mean word F1 and in WCXB dev's page types, the
 * pages it fires on, and which setting a choice made on seven sets picks for the eighth (with
 * what that gives the eighth: the honest estimate of choosing on this grid). Then the pages the
 * shipped setting (WEAK_PAGE_RULE) fires on, with their F1 before and after (--pages).
 *
 *   npm run build && node experiments/weak-page.js --saved DIR [--data DIR] [--pages] [--all] [--out FILE]
 *   [--thresholds fold,0.5,0.62]
 *   (--all: every setting of the grid, best first, not the best dozen and the shipped one;
 *   --thresholds: the keep thresholds, each fold's own and the shipped 0.5 by default)
 */
import { writeFileSync } from "node:fs";
import { keptText, loadLabelledSources, wordScores } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { applyWeakPageRule, NO_COMMENTS, WEAK_PAGE_RULE } from "@winnow/models";
import { buildDataset } from "@winnow/train";
import { parseFlags } from "../benchmarks/lib/common.js";
import { decideSavedFold, readSavedFold } from "./lib/saved-folds.js";

const flags = parseFlags(process.argv.slice(2), ["pages", "all"]);
if (!flags.saved) throw new Error("--saved DIR: the folds comments-loso-full.js --save kept");
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const SETS = ["wcxb-dev", "cleaneval", "l3s-gn1", "googletrends-2017", "magic-html", "cleanportaleval", "newspaper3k", "chinese-wce"];
const SHIPPED_KEEP = 0.5;

const grid = [];
for (const sure of [0.8, 0.9])
  for (const sureShare of [0.2, 0.3, 0.5, 1.01])
    for (const lowFactor of [0.2, 0.4, 0.6])
      for (const growth of [0, 0.5, 1, 2])
        for (const maxKept of [3000, 5000, Number.POSITIVE_INFINITY]) grid.push({ sure, sureShare, lowFactor, growth, maxKept });
const same = (a, b) =>
  a.sure === b.sure && a.sureShare === b.sureShare && a.lowFactor === b.lowFactor && a.growth === b.growth && a.maxKept === b.maxKept;
if (!grid.some((r) => same(r, WEAK_PAGE_RULE))) grid.push({ ...WEAK_PAGE_RULE });
const name = (r) => `sure ${r.sure} share ${r.sureShare} low ${r.lowFactor}×t growth ${r.growth} max ${r.maxKept}`;

const pages = await loadLabelledSources(SETS.map((s) => `${root}/${s}`));
const data = buildDataset(pages, TEXREX_CONTEXT);
const lines = [];
const say = (line) => {
  lines.push(line);
  console.log(line);
};

// --thresholds: the keep thresholds to try ("fold": each fold's own), default fold and the shipped 0.5.
const bases = (flags.thresholds ?? `fold,${SHIPPED_KEEP}`).split(",").map((t) => (t === "fold" ? "fold" : Number(t)));
for (const base of bases) {
  // gain[setting][set]: summed F1 change over the set's pages; types: WCXB dev's page types.
  const gain = grid.map(() => new Map());
  const typeGain = grid.map(() => new Map());
  const fired = grid.map(() => 0);
  const perSet = new Map();
  const typeCount = new Map();
  const shippedPages = [];
  for (const source of SETS) {
    const fold = readSavedFold(flags.saved, data, source);
    // No veto: the comment threshold every fold gets out of fold in `train --loso` (2026-11-28: "never").
    const decided = decideSavedFold(data, fold, NO_COMMENTS);
    const threshold = base === "fold" ? fold.threshold : base;
    perSet.set(source, fold.test.length);
    fold.test.forEach((p, i) => {
      const page = data.pages[p];
      if (source === "wcxb-dev") typeCount.set(page.pageType, (typeCount.get(page.pageType) ?? 0) + 1);
      const before = wordScores(keptText(page.doc, decided.scores[i], threshold), page.gold).f1;
      const chars = Int32Array.from(page.doc.blocks, (b) => b.textChars);
      grid.forEach((rule, g) => {
        const scores = Float32Array.from(decided.scores[i]);
        if (!applyWeakPageRule(scores, chars, threshold, data.commentContexts[p]?.roles ?? null, rule)) return;
        const after = wordScores(keptText(page.doc, scores, threshold), page.gold).f1;
        fired[g]++;
        gain[g].set(source, (gain[g].get(source) ?? 0) + after - before);
        if (source === "wcxb-dev") typeGain[g].set(page.pageType, (typeGain[g].get(page.pageType) ?? 0) + after - before);
        if (same(rule, WEAK_PAGE_RULE))
          shippedPages.push(`${source}/${page.id} ${page.pageType} F1 ${before.toFixed(3)} -> ${after.toFixed(3)}`);
      });
    });
  }
  const delta = (g, s) => (gain[g].get(s) ?? 0) / perSet.get(s);
  const mean = (g, except = -1) =>
    SETS.reduce((sum, s, k) => sum + (k === except ? 0 : delta(g, s)), 0) / (SETS.length - (except < 0 ? 0 : 1));
  const types = ["collection", "listing", "product", "article"];
  say(
    `\nkeep threshold: ${base === "fold" ? "each fold's own" : base}; F1 change per set (mean over its pages), mean of the eight, pages fired, WCXB dev's types`,
  );
  say(
    `${"setting".padEnd(42)} ${SETS.map((s) => s.slice(0, 8).padStart(8)).join(" ")}     mean  fired ${types.map((t) => t.slice(0, 8).padStart(8)).join(" ")}`,
  );
  const order = grid.map((_, g) => g).sort((a, b) => mean(b) - mean(a));
  const shown = flags.all ? order : order.slice(0, 12);
  if (!shown.some((g) => same(grid[g], WEAK_PAGE_RULE))) shown.push(grid.findIndex((r) => same(r, WEAK_PAGE_RULE)));
  for (const g of shown) {
    const t = types.map((ty) =>
      `${((typeGain[g].get(ty) ?? 0) / typeCount.get(ty) >= 0 ? "+" : "") + ((typeGain[g].get(ty) ?? 0) / typeCount.get(ty)).toFixed(3)}`.padStart(
        8,
      ),
    );
    say(
      `${(same(grid[g], WEAK_PAGE_RULE) ? "* " : "  ") + name(grid[g]).padEnd(40)} ${SETS.map((s) => `${delta(g, s) >= 0 ? "+" : ""}${delta(g, s).toFixed(4)}`.padStart(8)).join(" ")} ${mean(g) >= 0 ? "+" : ""}${mean(g).toFixed(4)} ${String(fired[g]).padStart(6)} ${t.join(" ")}`,
    );
  }
  // The setting chosen on the other seven sets, scored on the eighth.
  const chosen = SETS.map((s, k) => {
    const g = grid.map((_, i) => i).reduce((a, b) => (mean(b, k) > mean(a, k) ? b : a));
    return { s, g, d: delta(g, s) };
  });
  say(
    `chosen on the other seven sets: ${chosen.map((c) => `${c.s} ${c.d >= 0 ? "+" : ""}${c.d.toFixed(4)} (${name(grid[c.g])})`).join("; ")}`,
  );
  say(`  mean of the eight, each at the setting chosen without it: ${(chosen.reduce((a, c) => a + c.d, 0) / SETS.length).toFixed(4)}`);
  if (flags.pages) for (const line of shippedPages) say(`  fired (shipped setting): ${line}`);
}
if (flags.out) writeFileSync(flags.out, `${lines.join("\n")}\n`);
