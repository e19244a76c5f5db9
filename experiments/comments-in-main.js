#!/usr/bin/env node
/**
 * Where the comment words that stay in the main text sit, held out: each page of a set with
 * comment gold is scored by a model that was not trained on the set (--model FILE), its comments
 * decided as `winnow clean --comments` decides them (the classifier's own path), and every block
 * kept as main text that the comment gold covers (alignBlockLabels at 0.5, and not the main gold)
 * is listed with what the comment markup says of it, whether it is under comment or forum class
 * words, and its innermost class words. The tallies, by role and by class word, say which markup
 * holds those words before any rule is written for it.
 *
 * --saved FILE reads the held-out scores of a fold that comments-loso-full.js --save kept (the set's
 * pages in the set's order) in place of a model, decided here with decideComments at the fold's
 * comment threshold (--comment-threshold T for another).
 *
 *   npm run build && node experiments/comments-in-main.js (--model FILE | --saved FILE) --set googletrends-2017 [--data DIR] [--blocks]
 */
import { alignBlockLabels, loadWcxb } from "@winnow/evaluation";
import { applyEmptyPageFallback, commentContext, commentMarkup, decideComments, loadClassifier } from "@winnow/models";
import { readFileSync } from "node:fs";
import { CLASS_WORD_GROUPS, segmentHtml } from "@winnow/segment";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), ["blocks"]);
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const saved = flags.saved ? JSON.parse(readFileSync(flags.saved, "utf8")) : undefined;
const commentThreshold = flags["comment-threshold"] ? Number(flags["comment-threshold"]) : saved?.commentThreshold;
/** What clean does with the fold's scores: the comment decision, then the empty-page fallback. */
const fromSaved = saved && {
  threshold: saved.threshold,
  commentThreshold,
  at: 0,
  async score([doc]) {
    const content = [Float32Array.from(saved.content[this.at])];
    const comments = [Float32Array.from(saved.comments[this.at++])];
    if (content[0].length !== doc.blocks.length) throw new Error("saved scores do not fit the page: another segmenter?");
    decideComments(content, comments, [commentContext(doc)], commentThreshold, saved.threshold);
    if (saved.emptyPageFallback !== undefined) applyEmptyPageFallback(content[0], saved.threshold, saved.emptyPageFallback);
    return content;
  },
};
const classifier = fromSaved ?? (await loadClassifier(flags.model));
const group = (name) => 1 << CLASS_WORD_GROUPS.findIndex(([g]) => g === name);
const COMMENTS = group("comments");
const FORUM = group("forum");
const ROLE = ["none said", "thread", "chrome", "signed", "discussion"];
const byRole = new Map();
const byClass = new Map();
const byPage = new Map();
const add = (m, k, w) => m.set(k, (m.get(k) ?? 0) + w);
let total = 0;
for await (const page of loadWcxb(`${root}/${flags.set}`)) {
  const doc = page.comments === "" && !saved ? undefined : segmentHtml(page.html);
  // Saved scores are one per page of the set, in order: every page is scored to keep the count.
  const [scores] = doc === undefined ? [] : await classifier.score([doc]);
  if (page.comments === "") continue;
  const texts = doc.blocks.map((b) => b.text);
  const inComments = alignBlockLabels(texts, page.comments, { threshold: 0.5 });
  const inMain = alignBlockLabels(texts, page.gold, { threshold: 0.5 });
  const roles = commentMarkup(doc);
  for (let b = 0; b < texts.length; b++) {
    if (inComments.labels[b] !== 1 || inMain.labels[b] === 1 || scores[b] < classifier.threshold) continue;
    const words = inComments.tokens[b];
    const block = doc.blocks[b];
    const role = roles === null ? "no markup on page" : ROLE[roles[b]];
    const under =
      (block.classMask & COMMENTS) !== 0 ? "comment class" : (block.classMask & FORUM) !== 0 ? "forum class" : "no comment class";
    const own = block.classIds.split(" | ").slice(-2).join(" | ") || "(none)";
    total += words;
    add(byRole, `${role}; ${under}`, words);
    add(byClass, own, words);
    add(byPage, page.id, words);
    if (flags.blocks) console.log(`${page.id} ${b} ${words}w ${role}; ${under}; ${own}; ${block.tagPath.split("/").slice(-3).join("/")}`);
  }
}
const show = (title, m) => {
  console.log(`\n${title}`);
  for (const [k, w] of [...m].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${String(w).padStart(6)}  ${((100 * w) / total).toFixed(1).padStart(5)}%  ${k}`);
};
console.log(
  `${flags.set}: ${total} comment-gold words in blocks kept as main text (${flags.saved ? `saved fold ${flags.saved}` : `model ${flags.model}`}, threshold ${classifier.threshold}, comment threshold ${classifier.commentThreshold})`,
);
show("by what the markup says, and class words", byRole);
show("by page", byPage);
show("by the block's two innermost class words", byClass);
