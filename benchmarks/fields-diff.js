#!/usr/bin/env node
/**
 * Which fields differ between two JSONL corpora of the same inputs, written by two builds (the
 * same documents in the same order): the count of documents per differing field. For a change
 * meant to move only some fields (the metadata), where benchmarks/same-output.sh's byte-for-byte
 * comparison says only "different".
 *
 *   node benchmarks/fields-diff.js BEFORE.jsonl AFTER.jsonl
 */
import { readFileSync } from "node:fs";

const [before, after] = process.argv.slice(2);
if (!before || !after) {
  console.error("usage: node benchmarks/fields-diff.js BEFORE.jsonl AFTER.jsonl");
  process.exit(2);
}
const read = (path) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));
const a = read(before);
const b = read(after);
if (a.length !== b.length) {
  console.error(`fields-diff: ${a.length} documents against ${b.length}: not the same documents`);
  process.exit(1);
}
const differing = {};
for (let i = 0; i < a.length; i++) {
  for (const key of new Set([...Object.keys(a[i]), ...Object.keys(b[i])])) {
    if (JSON.stringify(a[i][key]) !== JSON.stringify(b[i][key])) differing[key] = (differing[key] ?? 0) + 1;
  }
}
console.log(`${a.length} documents; documents per differing field: ${JSON.stringify(differing)}`);
