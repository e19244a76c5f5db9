#!/usr/bin/env node
/**
 * CPU of the comment decision in the classifier's batch, the code before comments4 (markup arrays
 * built at add time, the veto over the batch's flat scores, then settleComments) against
 * decideComments (commentContext at add time, the veto per page, then settleComments), on the
 * same segmented pages and the same scores, rounds interleaved, CPU time per round
 * (process.cpuUsage), median. The scores are drawn once from a seeded generator: the decision's
 * cost does not depend on a model.
 *
 *   npm run build && node experiments/comments-decision-cpu.js [--data DIR] [--set wcxb-dev] [--rounds 11]
 */
import { loadWcxb } from "@winnow/evaluation";
import { commentContext, commentMarkup, datedThread, decideComments } from "@winnow/models";
import { segmentHtml } from "@winnow/segment";
import { parseFlags } from "../benchmarks/lib/common.js";
import { settleComments } from "../packages/models/dist/comment-markup.js";

const flags = parseFlags(process.argv.slice(2), []);
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const rounds = Number(flags.rounds ?? 11);
const docs = [];
for await (const page of loadWcxb(`${root}/${flags.set ?? "wcxb-dev"}`)) docs.push(segmentHtml(page.html));
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const counts = docs.map((d) => d.blocks.length);
const total = counts.reduce((a, n) => a + n, 0);
const content = Float32Array.from({ length: total }, random);
const comment = Float32Array.from({ length: total }, random);
const COMMENT = 0.8808;
const KEEP = 0.5;

function split(flat) {
  const out = [];
  let at = 0;
  for (const n of counts) {
    out.push(flat.slice(at, at + n));
    at += n;
  }
  return out;
}

/** Before: as loadMlpClassifier's batch did it. */
function before() {
  const markup = [];
  const chars = [];
  const links = [];
  const dated = [];
  for (const doc of docs) {
    const roles = commentMarkup(doc);
    markup.push(roles);
    chars.push(roles === null ? null : Uint32Array.from(doc.blocks, (b) => b.textChars));
    links.push(roles === null ? null : Uint32Array.from(doc.blocks, (b) => b.anchorChars));
    dated.push(datedThread(doc, roles));
  }
  const scores = Float32Array.from(content);
  for (let b = 0; b < scores.length; b++) if (comment[b] >= COMMENT) scores[b] = 0;
  const comments = split(comment);
  const pages = split(scores);
  settleComments(pages, comments, markup, chars, links, COMMENT, KEEP, dated);
  return pages;
}

/** After: decideComments. */
function after() {
  const contexts = docs.map((doc) => commentContext(doc));
  const comments = split(comment);
  const pages = split(content);
  decideComments(pages, comments, contexts, COMMENT, KEEP);
  return pages;
}

// The two must give the same scores, block for block.
const [was, now] = [before(), after()];
was.forEach((page, p) => {
  for (let b = 0; b < page.length; b++) if (page[b] !== now[p][b]) throw new Error(`the two decisions differ (page ${p}, block ${b})`);
});
const times = { before: [], after: [] };
for (let r = 0; r < rounds; r++) {
  for (const [name, run] of r % 2 === 0
    ? [
        ["before", before],
        ["after", after],
      ]
    : [
        ["after", after],
        ["before", before],
      ]) {
    const t = process.cpuUsage();
    run();
    const used = process.cpuUsage(t);
    times[name].push((used.user + used.system) / 1000);
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log(
  `${docs.length} pages, ${total} blocks, ${rounds} rounds each, interleaved; the two decisions give the same scores, block for block`,
);
for (const name of ["before", "after"])
  console.log(
    `${name.padEnd(6)} median ${median(times[name]).toFixed(1)} ms a pass, ${((1000 * median(times[name])) / docs.length).toFixed(1)} µs a page`,
  );
