// Micro-measure, not a test: documents/s and MB/s per format on synthetic ~5 KB documents.
// Run after `npx tsc -b packages/writers`:  node packages/writers/bench/measure.mjs [docs]
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openWriter } from "../dist/index.js";

const N = Number(process.argv[2] ?? 20000);
// Word list with some markup characters and non-ASCII; a PRNG keeps gzip ratios realistic.
// Blocks are built with join() so they are flat strings, as a segmenter hands them over
// (deep concatenation ropes would measure V8 flattening instead of the writer).
const WORDS = (
  "the of and to in a is that for it as was with be by on not he this are or his from at which but have an they " +
  "you were her all she there been one their we can has more will if no when out so said what up its about into " +
  "than them only other new some could time these two may then do first any my now such like our over man me even " +
  "most made after also did many before must through back years where much your way well down should because each " +
  "corpus web crawl text cleaning boilerplate Größe naïve café données année über señor <b> & \"quoted\" it's"
).split(" ");
let seed = 42;
const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / 16777216;

function makeDoc(i) {
  const blocks = [];
  let len = 0;
  for (let k = 0; len < 5000; k++) {
    const n = 8 + Math.floor(rand() * 80);
    const words = new Array(n);
    // Cubing skews choices toward the head of the list, roughly like word frequencies in prose.
    for (let w = 0; w < n; w++) words[w] = WORDS[Math.floor(rand() ** 3 * WORDS.length)];
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
}

const docs = Array.from({ length: N }, (_, i) => makeDoc(i));
const dir = mkdtempSync(join(tmpdir(), "winnow-writers-bench-"));

async function run(format, path, list) {
  const t0 = process.hrtime.bigint();
  const w = await openWriter({ format, path });
  for (const d of list) await w.write(d);
  await w.close();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

try {
  const plainBytes = {};
  for (const [label, format, name] of [
    ["jsonl", "jsonl", "out.jsonl"],
    ["xml", "xml", "out.xml"],
    ["text", "text", "out.txt"],
    ["jsonl.gz", "jsonl", "out.jsonl.gz"],
  ]) {
    const path = join(dir, name);
    await run(format, path, docs.slice(0, 2000)); // warm-up: JIT and first-touch costs
    const s = await run(format, path, docs);
    const bytes = statSync(path).size;
    plainBytes[label] = bytes;
    // For gzip, MB/s counts uncompressed JSONL bytes (the work done), the file size is shown apart.
    const mb = (label.endsWith(".gz") ? plainBytes[format] : bytes) / 1e6;
    console.log(
      `${label.padEnd(9)} ${(N / s).toFixed(0).padStart(6)} docs/s ${(mb / s).toFixed(0).padStart(4)} MB/s` +
        `  (${N} docs, ${mb.toFixed(1)} MB in ${s.toFixed(2)} s; file ${(bytes / 1e6).toFixed(1)} MB)`,
    );
    rmSync(path);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
