#!/usr/bin/env node
/**
 * CPU time of commentContext (the comment markup's read of a page, run on every page `winnow clean`
 * scores with a comment head) in two builds, in one process, rounds interleaved (A B A B …), the
 * median CPU time per round: what a change to comment-markup.ts costs per page.
 *
 *   node experiments/comment-markup-cost.js --before /path/to/other/checkout [--sets wcxb-dev,l3s-gn1] [--rounds 9]
 */
import { loadLabelledSources } from "@winnow/evaluation";
import { commentContext } from "@winnow/models";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
if (typeof flags.before !== "string") throw new Error("--before CHECKOUT: the other build");
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const sets = (flags.sets ?? "wcxb-dev,l3s-gn1").split(",");
const rounds = Number(flags.rounds ?? 9);
const other = await import(`${flags.before}/packages/models/dist/comment-markup.js`);
const docs = (await loadLabelledSources(sets.map((s) => `${root}/${s}`))).map((p) => p.doc);
const cpu = (f) => {
  const t = process.cpuUsage();
  let marked = 0;
  for (const doc of docs) if (f(doc) !== null) marked++;
  const d = process.cpuUsage(t);
  return { ms: (d.user + d.system) / 1000, marked };
};
const times = { before: [], after: [] };
let marked;
for (let r = 0; r < rounds; r++)
  for (const [side, f] of [
    ["before", other.commentContext],
    ["after", commentContext],
  ]) {
    const x = cpu(f);
    times[side].push(x.ms);
    marked = { ...marked, [side]: x.marked };
  }
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const side of ["before", "after"])
  console.log(
    `${side}: median ${median(times[side]).toFixed(1)} ms CPU per round of ${docs.length} pages (${((1000 * median(times[side])) / docs.length).toFixed(1)} µs a page), ${marked[side]} pages with markup`,
  );
