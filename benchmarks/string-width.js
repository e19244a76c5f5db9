#!/usr/bin/env node
/**
 * Why the segmenter narrows each block's text (block-text.ts since 2026-11-27, segmenter.ts's
 * compactCopy before: the same UTF-16 decoding): feature extraction over
 * the same blocks with their texts one byte per character where they fit (as the segmenter gives
 * them) and with every text two bytes per character (as they were when a page's decoded HTML was,
 * which one curly quote anywhere makes it), also as ropes, as the segmenter built them. Each variant runs in its own process, so that neither
 * trains V8's feedback for the other; and what the copy itself costs, per page.
 *
 *   npx tsc -b && node benchmarks/string-width.js [--data DIR] [--limit 400] [--rounds 6]
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { decodeHtmlPieces } from "@winnow/archive";
import { featureSetByName } from "@winnow/features";
import { builtinModelPath, readModelInfo } from "@winnow/models";
import { Segmenter } from "@winnow/segment";
import { DEFAULT_SOURCE, parseFlags } from "./lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
const data = flags.data ?? DEFAULT_SOURCE;
const limit = Number(flags.limit ?? 400);
const rounds = Number(flags.rounds ?? 6);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpuMs = (start) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e3;
};

function segmentPages() {
  const dir = join(data, "html");
  const segmenter = new Segmenter();
  return readdirSync(dir)
    .sort()
    .slice(0, limit)
    .map((f) => segmenter.segment(decodeHtmlPieces(gunzipSync(readFileSync(join(dir, f))), "").pieces));
}

/** Child: time the shipped model's feature extraction over the pages, texts as `variant` says. */
async function child(variant) {
  const docs = segmentPages();
  // A slice of a string that holds a character above Latin-1 is two bytes per character.
  for (const doc of docs) {
    for (const block of doc.blocks) {
      if (variant === "compact") continue;
      const wide = `\u0100${block.text}`.slice(1);
      // "rope": as the segmenter built texts before the copy, text node by text node (`+=`).
      const half = wide.length >> 1;
      block.text = variant === "rope" ? wide.slice(0, half) + wide.slice(half) : wide;
    }
  }
  const features = featureSetByName((await readModelInfo(builtinModelPath("mlp"))).featureSet);
  const rows = new Float32Array(features.size * 20000);
  const times = [];
  for (let r = 0; r <= rounds; r++) {
    const start = process.cpuUsage();
    for (const doc of docs) features.extract(doc, rows, 0);
    if (r > 0) times.push(cpuMs(start) / docs.length); // round 0 warms up
  }
  process.stdout.write(JSON.stringify(times));
}

if (process.argv.includes("--child")) {
  await child(flags.child);
} else {
  const self = fileURLToPath(import.meta.url);
  const run = (variant) =>
    JSON.parse(execFileSync(process.execPath, [self, "--child", variant, ...process.argv.slice(2)], { encoding: "utf8" }));
  const docs = segmentPages();
  const texts = docs.flatMap((d) => d.blocks.map((b) => `\u0100${b.text}`.slice(1)));
  const copy = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.cpuUsage();
    for (const t of texts) Buffer.from(t, "utf16le").toString("utf16le");
    copy.push(cpuMs(start) / docs.length);
  }
  const compact = run("compact");
  const wide = run("two-byte");
  const rope = run("rope");
  console.log(
    `${docs.length} pages, ${texts.length} blocks; feature extraction (the shipped model's set), CPU ms per page, median of ${rounds}:`,
  );
  console.log(`  texts as the segmenter gives them (one byte where they fit): ${median(compact).toFixed(3)}`);
  console.log(`  every text two bytes per character:                          ${median(wide).toFixed(3)}`);
  console.log(`  two bytes per character and a rope of two pieces:            ${median(rope).toFixed(3)}`);
  console.log(`  the copy that narrows them (compactCopy), from two-byte:      ${median(copy).toFixed(3)}`);
}
