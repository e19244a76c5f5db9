#!/usr/bin/env node
/**
 * CPU of the segmenter's first look at each class attribute value (hidden-classes.ts's HINT): the
 * old expression, the old one plus a second for carousel clone words, and the two merged, over
 * every class value of the first N WCXB dev pages; one process, variants interleaved round by
 * round (process.cpuUsage), medians.
 *
 *   node benchmarks/class-hint-cost.js [--data DIR] [--limit 300] [--rounds 9]
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { DEFAULT_SOURCE, median, parseFlags } from "./lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
const data = flags.data ?? DEFAULT_SOURCE;
const limit = Number(flags.limit ?? 300);
const rounds = Number(flags.rounds ?? 9);
const files = readdirSync(join(data, "html")).sort().slice(0, limit);
const values = files.flatMap((f) =>
  [
    ...gunzipSync(readFileSync(join(data, "html", f)))
      .toString("utf8")
      .matchAll(/\sclass\s*=\s*["']([^"']*)["']/gi),
  ].map((m) => m[1]),
);

const HIDDEN = /hid|sr-only|d-none|invisible|screen-reader|modal|offcanvas|w-form-/;
const CLONES = /clone|slide-duplicate/;
const MERGED = /hid|sr-only|d-none|invisible|screen-reader|modal|offcanvas|w-form-|clone|slide-duplicate/;
const variants = {
  "hidden words (before)": (v) => HIDDEN.test(v),
  "hidden words, then clone words": (v) => HIDDEN.test(v) || CLONES.test(v),
  "one merged expression (after)": (v) => MERGED.test(v),
};
const cpuMs = (run) => {
  const start = process.cpuUsage();
  run();
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
};
const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
let matched = 0;
for (let r = 0; r < rounds; r++)
  for (const [name, test] of Object.entries(variants))
    times[name].push(
      cpuMs(() => {
        for (let k = 0; k < 5; k++) for (const v of values) if (test(v)) matched++;
      }) / 5,
    );
console.log(
  `${files.length} pages of ${data}, ${values.length} class values (${(values.length / files.length).toFixed(0)} a page), ${rounds} rounds`,
);
for (const [name, t] of Object.entries(times))
  console.log(`${name.padEnd(34)} ${((median(t) / files.length) * 1000).toFixed(1)} µs a page`);
// What the variants matched, all rounds together: the merged expression matches what the other two do.
console.log(`values matched: ${matched}`);
