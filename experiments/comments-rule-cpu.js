#!/usr/bin/env node
/**
 * CPU of the comment markup rule per page, two builds in one process: every page of a set is
 * segmented once, then each round runs one build's rule over all of them (commentMarkup, and
 * datedThread where the build has it, as the classifier's batch calls them), the builds' rounds
 * interleaved (A B A B …), CPU time per round from process.cpuUsage, medians printed. The rule
 * runs on every page a model with a comment head scores, with --comments or without.
 *
 *   npm run build && node experiments/comments-rule-cpu.js --old FILE.js [--set wcxb-dev] [--data DIR] [--rounds 7]
 *
 * --old is another build's compiled comment-markup.js, copied into packages/models/dist/ so that
 * its imports resolve (e.g. `git show REV:packages/models/src/comment-markup.ts`, compiled).
 */
import { decodeHtmlPieces } from "@winnow/archive";
import { loadWcxb } from "@winnow/evaluation";
import { segmentHtml } from "@winnow/segment";
import { parseFlags } from "../benchmarks/lib/common.js";
import * as current from "../packages/models/dist/comment-markup.js";

const flags = parseFlags(process.argv.slice(2), []);
if (typeof flags.old !== "string") throw new Error("--old FILE.js: the other build's comment-markup.js, inside packages/models/dist/");
const old = await import(new URL(flags.old, `file://${process.cwd()}/`).href);
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const set = flags.set ?? "wcxb-dev";
const rounds = Number(flags.rounds ?? 7);
const encoder = new TextEncoder();
const docs = [];
let blocks = 0;
for await (const page of loadWcxb(`${root}/${set}`)) {
  const { pieces } = decodeHtmlPieces(encoder.encode(page.html), "utf-8");
  const doc = segmentHtml(pieces);
  docs.push(doc);
  blocks += doc.blocks.length;
}

/** One pass of a build's rule over every page; returns CPU milliseconds and a checksum of the roles. */
function pass(build) {
  const start = process.cpuUsage();
  let sum = 0;
  for (const doc of docs) {
    const roles = build.commentMarkup(doc);
    if (build.datedThread?.(doc, roles)) sum += 7;
    if (roles !== null) for (const r of roles) sum += r;
  }
  const used = process.cpuUsage(start);
  return { ms: (used.user + used.system) / 1000, sum };
}

const times = { old: [], new: [] };
const sums = {};
for (let r = 0; r < rounds; r++) {
  for (const [name, build] of [
    ["old", old],
    ["new", current],
  ]) {
    const { ms, sum } = pass(build);
    times[name].push(ms);
    sums[name] = sum;
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`${set}: ${docs.length} pages, ${blocks} blocks, ${rounds} rounds each, interleaved`);
for (const name of ["old", "new"]) {
  const m = median(times[name]);
  console.log(
    `${name}: median ${m.toFixed(1)} ms CPU a pass, ${((m * 1000) / docs.length).toFixed(1)} µs a page (rounds ${times[name].map((t) => t.toFixed(0)).join(" ")}; role checksum ${sums[name]})`,
  );
}
