#!/usr/bin/env node
/**
 * The comment gold's words that `winnow clean --comments` keeps in the main text, held out (issue
 * 34: at most 10%), page by page, and what the main text keeps of the pages without comment gold.
 * Reads the folds `experiments/comments-loso-full.js --save DIR` kept (as comment-field.js does),
 * decides each page as clean does at one veto threshold (the shipped model's, 0.8808, unless
 * --veto), then prints:
 *
 * - per set with comment gold: the comment words in the main text, the `comments` field's mean
 *   word F1 and its empty share on pages without comments;
 * - per set: the main text's mean word F1 against the gold on pages without comment gold (what a
 *   comment rule must not cost), and the kept words;
 * - with --pages, each page whose comment gold's words stay in the main text: those blocks, their
 *   markup role (commentMarkup), head scores, class words and text.
 *
 *   npm run build && node experiments/comment-main.js --saved DIR [--sets l3s-gn1,googletrends-2017,wcxb-dev,cleaneval]
 *     [--veto 0.8808] [--pages] [--announced] [--dump FILE] [--data ROOT]
 */
import { writeFileSync } from "node:fs";
import { loadLabelledSources, wordScores } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { inCommentsField } from "@winnow/models";
import { buildDataset } from "@winnow/train";
import { parseFlags } from "../benchmarks/lib/common.js";
import { decideSavedFold, readSavedFold } from "./lib/saved-folds.js";

const flags = parseFlags(process.argv.slice(2), ["pages", "announced"]);
if (typeof flags.saved !== "string") throw new Error("--saved DIR: the folds comments-loso-full.js --save wrote");
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const sets = (flags.sets ?? "l3s-gn1,googletrends-2017,wcxb-dev,cleaneval").split(",");
const vetoAt = Number(flags.veto ?? 0.8808);
const ROLES = ["-", "thread", "chrome", "signed", "discussion", "announced"];
const pages = await loadLabelledSources(sets.map((s) => `${root}/${s}`));
const data = buildDataset(pages, TEXREX_CONTEXT, {});
/** --dump FILE: per page, its main text and field word counts (to diff two builds' decisions). */
const dump = {};
const fmt = (x) => (Number.isNaN(x) ? "-" : x.toFixed(4));
const count = (t) => (t.match(/\S+/g) ?? []).length;

for (const source of sets) {
  const saved = readSavedFold(flags.saved, data, source);
  if (saved === undefined) throw new Error(`${flags.saved} holds no fold of ${source}`);
  const { test, content, comments } = saved;
  const keep = saved.threshold;
  const decided = decideSavedFold(data, saved, vetoAt);
  const { scores } = decided;
  let words = 0,
    inMain = 0,
    fieldF1 = 0,
    withGold = 0,
    empty = 0,
    without = 0,
    mainF1 = 0,
    mainWords = 0;
  const listing = [];
  test.forEach((p, i) => {
    const page = data.pages[p];
    const blocks = page.doc.blocks;
    const main = [];
    const field = [];
    const stay = [];
    let pageInMain = 0;
    for (let b = 0, row = data.firstRow[p]; b < blocks.length; b++, row++) {
      const kept = scores[i][b] >= keep;
      if (kept) main.push(blocks[b].text);
      else if (inCommentsField(scores[i][b], decided.comments[i][b], keep, vetoAt)) field.push(blocks[b].text);
      if (data.comments[row] !== 1) continue;
      words += data.words[row];
      if (kept) {
        inMain += data.words[row];
        pageInMain += data.words[row];
        stay.push(b);
      }
    }
    const mainText = main.join("\n\n");
    dump[`${source}/${page.id}`] = [count(mainText), count(field.join("\n\n"))];
    if (page.comments === "") {
      const ctx = data.commentContexts[p];
      // --announced: what a run announced by a comment heading took from a page without comments.
      if (flags.announced && ctx?.roles.includes(5)) {
        const taken = [];
        for (let b = 0; b < blocks.length; b++)
          if (ctx.roles[b] === 5 && scores[i][b] < keep && content[i][b] >= keep)
            taken.push(`    [${b}] c=${content[i][b].toFixed(2)} ${JSON.stringify(blocks[b].text.slice(0, 120))}`);
        if (taken.length > 0) listing.push({ text: `  no gold: ${page.id} ${page.url}\n${taken.join("\n")}`, n: taken.length });
      }
      without++;
      if (field.length === 0) empty++;
      mainF1 += wordScores(mainText, page.gold).f1;
      mainWords += count(mainText);
      return;
    }
    withGold++;
    fieldF1 += wordScores(field.join("\n\n"), page.comments).f1;
    if (pageInMain === 0 || !flags.pages) return;
    const ctx = data.commentContexts[p];
    const lines = stay.map((b) => {
      const bl = blocks[b];
      return `    [${b}] ${ROLES[ctx?.roles[b] ?? 0]} c=${content[i][b].toFixed(2)} h=${comments[i][b].toFixed(2)} ${bl.tagPath.split("/").slice(-3).join("/")} {${bl.classIds.slice(-70)}} ${JSON.stringify(bl.text.slice(0, 110))}`;
    });
    listing.push({
      text: `  ${page.id} ${page.url} in main ${pageInMain} of ${count(page.comments)} gold words, ${blocks.length} blocks\n${lines.join("\n")}`,
      n: pageInMain,
    });
  });
  console.log(`\n${source}: veto ${vetoAt}, keep ${keep}, ${test.length} pages`);
  if (withGold > 0)
    console.log(
      `  comment words in main ${inMain} of ${words} (${((100 * inMain) / words).toFixed(1)}%), field F1 ${fmt(fieldF1 / withGold)} on ${withGold}, field empty ${fmt(empty / without)} of ${without}`,
    );
  console.log(
    `  main text on pages without comment gold: mean word F1 ${fmt(mainF1 / without)}, ${mainWords} words kept, ${without} pages`,
  );
  if (flags.pages || flags.announced) for (const l of listing.sort((a, b) => b.n - a.n)) console.log(l.text);
}
if (typeof flags.dump === "string") writeFileSync(flags.dump, JSON.stringify(dump));
