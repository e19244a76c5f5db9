#!/usr/bin/env node
/**
 * Writers: documents/s and MB/s per output format on synthetic ~5 KB documents (moved here from
 * packages/writers/bench/measure.mjs). Also run as part of `node benchmarks/micro.js`.
 *
 *   node benchmarks/writers.js [docs]     (after npm run build)
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openWriter } from "@winnow/writers";

// Word list with some markup characters and non-ASCII; a PRNG keeps gzip ratios realistic.
// Blocks are built with join() so they are flat strings, as a segmenter hands them over
// (deep concatenation ropes would measure V8 flattening instead of the writer).
const WORDS = (
  "the of and to in a is that for it as was with be by on not he this are or his from at which but have an they " +
  "you were her all she there been one their we can has more will if no when out so said what up its about into " +
  "than them only other new some could time these two may then do first any my now such like our over man me even " +
  "most made after also did many before must through back years where much your way well down should because each " +
  'corpus web crawl text cleaning boilerplate Größe naïve café données année über señor <b> & "quoted" it\'s'
).split(" ");

function makeDocs(n) {
  let seed = 42;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / 16777216;
  const makeDoc = (i) => {
    const blocks = [];
    let len = 0;
    for (let k = 0; len < 5000; k++) {
      const count = 8 + Math.floor(rand() * 80);
      const words = new Array(count);
      // Cubing skews choices toward the head of the list, roughly like word frequencies in prose.
      for (let w = 0; w < count; w++) words[w] = WORDS[Math.floor(rand() ** 3 * WORDS.length)];
      // One document in ten carries CJK text, which makes its strings two-byte in V8.
      if (i % 10 === 0 && k === 1) words.push("東京の天気");
      const t = words.join(" ");
      blocks.push({ text: t, heading: k === 0 ? 2 : 0 });
      len += t.length + 2;
    }
    return {
      url: `https://www.example.com/news/${i}?ref=a&b=c`,
      recordId: `<urn:uuid:00000000-0000-4000-8000-${String(i).padStart(12, "0")}>`,
      date: "2024-05-01T12:00:00Z",
      contentType: "text/html",
      charset: "utf-8",
      title: `Article "${i}" & more`,
      blocks,
      blocksTotal: blocks.length + 9,
      source: "/data/crawl-00001.warc.gz",
    };
  };
  return Array.from({ length: n }, (_, i) => makeDoc(i));
}

async function timeWrite(format, path, list) {
  const t0 = process.hrtime.bigint();
  const w = await openWriter({ format, path });
  for (const d of list) await w.write(d);
  await w.close();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/** One row per format: { format, docsPerSecond, mbPerSecond, docs, mb, seconds, fileMb }. */
export async function measureWriters(n = 20000) {
  const docs = makeDocs(n);
  const dir = mkdtempSync(join(tmpdir(), "winnow-writers-bench-"));
  const rows = [];
  try {
    const plainBytes = {};
    for (const [label, format, name] of [
      ["jsonl", "jsonl", "out.jsonl"],
      ["xml", "xml", "out.xml"],
      ["text", "text", "out.txt"],
      ["jsonl.gz", "jsonl", "out.jsonl.gz"],
    ]) {
      const path = join(dir, name);
      await timeWrite(format, path, docs.slice(0, Math.min(2000, n))); // warm-up: JIT and first-touch costs
      const seconds = await timeWrite(format, path, docs);
      const bytes = statSync(path).size;
      plainBytes[label] = bytes;
      // For gzip, MB/s counts uncompressed JSONL bytes (the work done), the file size is shown apart.
      const mb = (label.endsWith(".gz") ? plainBytes[format] : bytes) / 1e6;
      rows.push({ format: label, docsPerSecond: n / seconds, mbPerSecond: mb / seconds, docs: n, mb, seconds, fileMb: bytes / 1e6 });
      rmSync(path);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const n = Number(process.argv[2] ?? 20000);
  for (const r of await measureWriters(n)) {
    console.log(
      `${r.format.padEnd(9)} ${r.docsPerSecond.toFixed(0).padStart(6)} docs/s ${r.mbPerSecond.toFixed(0).padStart(4)} MB/s` +
        `  (${r.docs} docs, ${r.mb.toFixed(1)} MB in ${r.seconds.toFixed(2)} s; file ${r.fileMb.toFixed(1)} MB)`,
    );
  }
}
