#!/usr/bin/env node
/**
 * Where do the wrongly kept (and wrongly dropped) words of held-out pages sit? (issue 35)
 *
 * Reads the block scores of `loso-block-scores.js` (each set scored by a model that never saw it)
 * and sorts every block the fold kept against its alignment label (label 0: a wrongly kept block)
 * or dropped with label 1 (wrongly dropped) into one markup pattern, the first that applies in
 * this order: a repeat of an earlier block (Block.repeatOf), a user comment (comment label),
 * figure or caption, comment class words, hidden/modal class words, card/nested article/widget,
 * navigation/header/footer/aside/share, mostly link text, then by place against the page's main run
 * (the run of kept blocks with the most words, where fewer than 6 dropped blocks part two kept
 * ones): before it, after it, or in it (heading, table cell, prose). Words are the alignment's
 * words per block; the last column is the share of those words that scored 0.9 or more.
 *
 *   node experiments/precision-study.js --scores DIR [--sets wcxb-dev,magic-html,googletrends-2017,cleaneval]
 */
import { readFileSync } from "node:fs";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
if (typeof flags.scores !== "string") throw new Error("--scores DIR: the output folder of loso-block-scores.js");
const sets = (flags.sets ?? "wcxb-dev,magic-html,googletrends-2017,cleaneval").split(",");

const CARD =
  /(^|[\s_-])(card|cards|teaser|tile|promo|excerpt|related|snippet|preview|recommend\w*|more-stories|trending|popular|widget|sidebar|aside)([\s_-]|$)/i;
const CAPTION = /(caption|credit|figcaption|wp-caption)/i;
const COMMENT = /(comment|reply|replies|respond|discuss|disqus)/i;
const HIDDEN =
  /(^|[\s_-])(hidden|hide|sr-only|d-none|modal|visually-hidden|screen-reader|offcanvas|collapse|dropdown|popup|overlay|tooltip)([\s_-]|$)/i;
const NAV =
  /(^|[\s_-])(nav|menu|breadcrumb\w*|footer|header|masthead|toolbar|pagination|pager|tags?|share|social|subscribe|newsletter|cookie|banner|ad|ads|advert\w*)([\s_-]|$)/i;
const MAIN_RUN_GAP = 6;

/** The run of kept blocks with the most words, where fewer than MAIN_RUN_GAP dropped blocks part two kept ones. */
function mainRun(blocks, threshold) {
  let best = null;
  let current = null;
  let gap = 0;
  blocks.forEach((b, i) => {
    if (b.s >= threshold) {
      if (current && gap < MAIN_RUN_GAP) {
        current.end = i;
        current.words += b.words;
      } else current = { start: i, end: i, words: b.words };
      if (!best || current.words > best.words) best = current;
      gap = 0;
    } else gap++;
  });
  return best;
}

function pattern(b, i, run) {
  if (b.repeatOf >= 0) return "repeat of an earlier block";
  if (b.comment) return "user comment (comment label)";
  if (/figcaption|figure/.test(b.tagPath) || CAPTION.test(b.classIds)) return "caption / figure";
  if (COMMENT.test(b.classIds)) return "comment class words, no comment label";
  if (HIDDEN.test(b.classIds)) return "hidden/modal class words";
  if (/article.*article/.test(b.tagPath) || CARD.test(b.classIds)) return "card / nested article / widget";
  if (NAV.test(b.classIds) || /\bnav\b|\bfooter\b|\bheader\b|\baside\b/.test(b.tagPath)) return "nav/header/footer/aside/share";
  if (b.textChars > 0 && b.anchorChars / b.textChars >= 0.5) return "mostly link text";
  if (run && i > run.end) return "after the main run";
  if (run && i < run.start) return "before the main run";
  if (b.heading > 0) return "heading in the main run";
  if (/\b(td|th)\b/.test(b.tagPath)) return "table cell in the main run";
  return "prose in the main run";
}

for (const set of sets) {
  const kept = new Map();
  const dropped = new Map();
  const byType = new Map();
  const add = (table, key, b, page) => {
    const row = table.get(key) ?? { words: 0, high: 0, pages: new Set() };
    row.words += b.words;
    if (b.s >= 0.9) row.high += b.words;
    row.pages.add(page.id);
    table.set(key, row);
  };
  for (const line of readFileSync(`${flags.scores}/${set}.jsonl`, "utf8").split("\n")) {
    if (line === "") continue;
    const page = JSON.parse(line);
    const run = mainRun(page.blocks, page.threshold);
    page.blocks.forEach((b, i) => {
      const isKept = b.s >= page.threshold;
      if (isKept && b.label === 0) {
        add(kept, pattern(b, i, run), b, page);
        add(byType, page.pageType, b, page);
      } else if (!isKept && b.label === 1) add(dropped, pattern(b, i, run), b, page);
    });
  }
  for (const [title, table, high] of [
    ["wrongly kept", kept, true],
    ["wrongly dropped", dropped, false],
    ["wrongly kept, by page type", byType, true],
  ]) {
    const rows = [...table].sort((a, b) => b[1].words - a[1].words);
    const total = rows.reduce((sum, [, r]) => sum + r.words, 0);
    console.log(`\n${set}: ${title}, ${total} words\n`);
    console.log(`| pattern | words | share | pages |${high ? " scored ≥ 0.9 |" : ""}`);
    console.log(`| --- | --: | --: | --: |${high ? " --: |" : ""}`);
    for (const [key, r] of rows)
      console.log(
        `| ${key} | ${r.words} | ${((r.words / total) * 100).toFixed(1)}% | ${r.pages.size} |${high ? ` ${((r.high / r.words) * 100).toFixed(0)}% |` : ""}`,
      );
  }
}
