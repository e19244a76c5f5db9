#!/usr/bin/env node
/**
 * Per page with comment markup: what the rule marks (thread, signed run, chrome, forum post), how
 * much text the thread holds and how much of it is link text, the share the comment head leans to
 * comments, the article the model keeps before it, and where the page's gold puts the thread's
 * words (comment gold, main gold). One line per page, tab-separated, for reading what settleComments
 * decides and what a change to it would move. Scores come from the model's heads before
 * settleComments (the same numbers it reads).
 *
 *   npm run build && node experiments/comments-threads.js --model FILE --sets A,B [--data DIR] > OUT.tsv
 */
import { decodeHtmlPieces } from "@winnow/archive";
import { alignBlockLabels, loadWcxb } from "@winnow/evaluation";
import { featureSetByName } from "@winnow/features";
import { COMMENT_CHROME, COMMENT_THREAD, COMMENT_UNKNOWN, commentMarkup, datedThread, OnnxBlockScorer } from "@winnow/models";
import { segmentHtml } from "@winnow/segment";
import { parseFlags } from "../benchmarks/lib/common.js";

const COMMENT_SIGNED = 3;
const COMMENT_DISCUSSION = 4;
const flags = parseFlags(process.argv.slice(2), []);
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
if (typeof flags.model !== "string" || typeof flags.sets !== "string") throw new Error("--model FILE --sets A,B");
const scorer = await OnnxBlockScorer.load(flags.model);
const info = scorer.info;
const featureSet = featureSetByName(info.featureSet);
const keep = info.threshold;
const leans = info.commentThreshold ?? 0.5;
const encoder = new TextEncoder();
/** A date with its year and a time of day, or a numeric date: a comment's timestamp. */
const DATED = /(\b(19|20)\d{2}\b.{0,25}\b\d{1,2}:\d{2}|\b\d{1,2}:\d{2}.{0,30}\b(19|20)\d{2}\b|\b\d{1,2}[/.-]\d{1,2}[/.-](19|20)?\d{2}\b)/;
console.log(
  [
    "set id",
    "thread",
    "signed",
    "chrome",
    "forum",
    "threadChars",
    "linkChars",
    "headShare",
    "articleChars",
    "afterChars",
    "threadCommentGold",
    "threadMainGold",
    "commentGoldWords",
    "commentGoldOutside",
    "firstThread",
    "blocks",
    "dated",
    "datedThread",
    "headOutsideWords",
    "headOutsideCommentGold",
    "headOutsideMainGold",
  ].join("\t"),
);
for (const set of flags.sets.split(",")) {
  for await (const page of loadWcxb(`${root}/${set}`)) {
    const { pieces } = decodeHtmlPieces(encoder.encode(page.html), "utf-8");
    const doc = segmentHtml(pieces);
    const roles = commentMarkup(doc);
    if (roles === null && page.comments === "") continue;
    const n = doc.blocks.length;
    const rows = new Float32Array(n * featureSet.size);
    featureSet.extract(doc, rows, 0);
    const heads = n === 0 ? { scores: new Float32Array(0), comments: new Float32Array(0) } : await scorer.scoreHeads(rows, n);
    const texts = doc.blocks.map((b) => b.text);
    const main = alignBlockLabels(texts, page.gold, { threshold: 0.5 });
    const inComments = page.comments ? alignBlockLabels(texts, page.comments, { threshold: 0.5 }).labels : new Uint8Array(n);
    const count = [0, 0, 0, 0, 0];
    let threadChars = 0;
    let linkChars = 0;
    let headChars = 0;
    let articleChars = 0;
    let afterChars = 0;
    let threadCommentGold = 0;
    let threadMainGold = 0;
    let commentGold = 0;
    let commentOutside = 0;
    let first = -1;
    let dated = 0;
    // Words the head alone puts in the field: blocks outside the markup's thread and chrome at the comment threshold.
    let headOutside = 0;
    let headOutsideGold = 0;
    let headOutsideMain = 0;
    for (let b = 0; b < n; b++) {
      const role = roles?.[b] ?? COMMENT_UNKNOWN;
      count[role]++;
      const block = doc.blocks[b];
      const thread = role === COMMENT_THREAD || role === COMMENT_SIGNED;
      if (thread && first < 0) first = b;
      if (inComments[b] === 1) {
        commentGold += main.tokens[b];
        if (!thread) commentOutside += main.tokens[b];
      }
      if (role === COMMENT_UNKNOWN && heads.scores[b] >= keep) {
        if (first < 0) articleChars += block.textChars;
        else afterChars += block.textChars;
      }
      if (!thread && role !== COMMENT_CHROME && heads.comments !== undefined && heads.comments[b] >= leans) {
        headOutside += main.tokens[b];
        if (inComments[b] === 1) headOutsideGold += main.tokens[b];
        if (main.labels[b] === 1) headOutsideMain += main.tokens[b];
      }
      if (!thread) continue;
      if (role === COMMENT_THREAD && block.textChars <= 80 && DATED.test(block.text)) {
        dated++;
      }
      threadChars += block.textChars;
      linkChars += block.anchorChars;
      if (heads.comments !== undefined && heads.comments[b] >= leans) headChars += block.textChars;
      if (inComments[b] === 1) threadCommentGold += main.tokens[b];
      if (main.labels[b] === 1) threadMainGold += main.tokens[b];
    }
    if (roles === null && commentGold === 0) continue;
    console.log(
      [
        `${set} ${page.id}`,
        count[COMMENT_THREAD],
        count[COMMENT_SIGNED],
        count[COMMENT_CHROME],
        count[COMMENT_DISCUSSION],
        threadChars,
        linkChars,
        threadChars === 0 ? 0 : (headChars / threadChars).toFixed(2),
        articleChars,
        afterChars,
        threadCommentGold,
        threadMainGold,
        commentGold,
        commentOutside,
        first,
        n,
        dated,
        datedThread(doc, roles) ? 1 : 0,
        headOutside,
        headOutsideGold,
        headOutsideMain,
      ].join("\t"),
    );
  }
}
