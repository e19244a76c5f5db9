/**
 * Deduplication: detection against a planted truth, signature speed, and the memory of each pass
 * of `winnow dedup` at a million documents. Inputs are generated at run time into
 * benchmarks/data/dedup/ (gitignored) from the main text of real pages (the ground truth of
 * ../shared/data/*, or --data DIR..., or the fixtures when neither is there); nothing is committed
 * but the report.
 *
 * Part A, quality and speed, on real pages: every page once, and for every second page one planted
 * copy: the same text with case and spacing changed (exact), 1-5% of its words edited (near),
 * or 30-50% edited (far); each copy's true Jaccard with its page is measured on the shingle sets.
 * All documents are shuffled (so a copy may come before its page) and dealt into 4 JSONL shards,
 * then `winnow dedup`'s passes run in process. A planted pair counts as detected when both
 * documents end in the same cluster (kept one, or both kept through the same document).
 * Signature speed is documents per CPU-second: of MinHash alone (normalise, hash words,
 * 112 minima, 14 band keys), and of the whole signature pass (reading the JSONL, exact and line
 * hashes, writing the sorted runs).
 *
 * Part B, memory: --docs documents (default 1,000,000) of 60-120 words drawn at random from the
 * same pages' words, 5% exact and 10% near copies (3% of words edited), in 20 shards; each pass
 * runs in a child process of its own and reports its peak RSS (getrusage maxrss) and CPU seconds.
 *
 *   node benchmarks/dedup.js [--docs 1000000] [--quick] [--data DIR...] [--no-save]
 *
 * CPU time, not wall time, throughout: the machine may be shared.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { busyWarning, DATA_DIR, importBuilt, machineInfo, parseFlags, RESULTS_DIR, ROOT, table } from "./lib/common.js";

const flags = parseFlags(process.argv.slice(2), ["quick", "no-save"]);
const dedup = await importBuilt("@winnow/dedup");
const stage = await importBuilt("@winnow/dedup-stage");

if (flags["child-pass"] !== undefined) {
  // One pass of part B in a process of its own, so its peak RSS is its own.
  const cpu = process.cpuUsage();
  const summary = await stage.runDedup({ inputs: [], output: flags.output, state: flags.state, pass: flags["child-pass"] });
  const used = process.cpuUsage(cpu);
  console.log(
    JSON.stringify({
      pass: flags["child-pass"],
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      cpuSeconds: (used.user + used.system) / 1e6,
      tasks: summary.tasksRun,
    }),
  );
  process.exit(0);
}

const WORK = join(DATA_DIR, "dedup");
// ../shared/data beside the checkout, or beside the folder of worktrees.
const SHARED = [join(ROOT, "..", "shared", "data"), join(ROOT, "..", "..", "shared", "data")].find((d) => existsSync(d)) ?? "";
const quick = flags.quick === true;
const docsB = Number(flags.docs ?? (quick ? 50_000 : 1_000_000));
const random = dedup.seededRandom(20261125);

/** Main texts of real pages with at least 50 words, from WCXB-layout folders. */
function sourcePages() {
  const given = flags.data === undefined ? [] : [flags.data, ...flags._];
  const dirs =
    given.length > 0
      ? given
      : SHARED !== ""
        ? readdirSync(SHARED)
            .map((d) => join(SHARED, d))
            .filter((d) => existsSync(join(d, "ground-truth")))
        : [];
  const roots = dirs.length > 0 ? dirs : ["wcxb-sample", "magic-html-sample"].map((d) => join(ROOT, "fixtures", d));
  const pages = [];
  for (const root of roots) {
    const gt = join(root, "ground-truth");
    if (!existsSync(gt)) continue;
    for (const name of readdirSync(gt).sort()) {
      const text = JSON.parse(readFileSync(join(gt, name), "utf8")).ground_truth?.main_content;
      if (typeof text === "string" && text.split(/\s+/).length >= 50) pages.push(text);
    }
  }
  return { pages, from: dirs.length > 0 ? dirs.map((d) => basename(d)).join(", ") : "the fixtures (no ../shared/data)" };
}

function shuffle(xs) {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

function writeShards(dir, docs, shards) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = [];
  const per = Math.ceil(docs.length / shards);
  for (let s = 0; s < shards; s++) {
    const file = join(dir, `shard-${String(s).padStart(3, "0")}.jsonl`);
    const lines = [];
    for (const d of docs.slice(s * per, (s + 1) * per))
      lines.push(JSON.stringify({ warc_record_id: d.id, url: `https://example.org/${d.id}`, text: d.text }));
    writeFileSync(file, `${lines.join("\n")}\n`);
    files.push(file);
  }
  return files;
}

const cpuSeconds = (from) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1e6;
};

// ---- Part A: planted duplicates of real pages ----
const { pages, from } = sourcePages();
const docsA = pages.map((text, i) => ({ id: `page-${i}`, text }));
const planted = [];
const KINDS = ["exact", "near", "near", "far"];
for (let p = 0; p < pages.length; p += 2) {
  const kind = KINDS[(p / 2) % 4];
  let text;
  if (kind === "exact") text = `${pages[p].toLowerCase().replace(/ +/g, "  ")}\n`;
  else if (kind === "near") text = dedup.editWords(pages[p], [0.01, 0.02, 0.03, 0.05][Math.floor(random() * 4)], random);
  else text = dedup.editWords(pages[p], 0.3 + 0.2 * random(), random);
  const id = `copy-${p}`;
  docsA.push({ id, text });
  planted.push({ copy: id, page: `page-${p}`, kind, jaccard: dedup.shingleJaccard(pages[p], text) });
}
shuffle(docsA);
console.error(`part A: ${pages.length} pages from ${from}, ${planted.length} planted copies, ${docsA.length} documents`);
const filesA = writeShards(join(WORK, "a-in"), docsA, 4);
const outA = join(WORK, "a-out");
rmSync(outA, { recursive: true, force: true });
const summaryA = await stage.runDedup({ inputs: filesA, output: outA });
const stateA = join(outA, ".dedup");
const readJson = (p) => JSON.parse(readFileSync(p, "utf8"));
// CPU seconds of the signature tasks, as each recorded in its done marker.
const sigCpuA = readdirSync(join(stateA, "signatures"))
  .filter((n) => /^\d+\.json$/.test(n))
  .reduce((sum, n) => sum + readJson(join(stateA, "signatures", n)).cpuMs / 1000, 0);
const keeper = new Map();
for (let s = 0; s < filesA.length; s++) {
  for (const line of readFileSync(join(stateA, "filter", `${s}.rejects.jsonl`), "utf8").split("\n")) {
    if (line === "") continue;
    const r = JSON.parse(line);
    keeper.set(r.id, r.duplicate_of);
  }
}
const keptAs = (id) => keeper.get(id) ?? id;
const textOf = new Map(docsA.map((d) => [d.id, d.text]));

function score(keptOf, dropped) {
  const high = planted.filter((p) => p.jaccard >= 0.8);
  const low = planted.filter((p) => p.jaccard < 0.5);
  const mid = planted.filter((p) => p.jaccard >= 0.5 && p.jaccard < 0.8);
  const together = (p) => keptOf(p.copy) === keptOf(p.page);
  const pairOf = new Map(planted.map((p) => [p.copy, p]));
  let plantedRight = 0;
  let natural = 0;
  let wrong = 0;
  for (const [id, of] of dropped) {
    const p = pairOf.get(id) ?? planted.find((q) => q.page === id && q.copy === of);
    if (p !== undefined && p.jaccard >= 0.5 && (of === p.page || of === p.copy || keptOf(p.page) === keptOf(p.copy))) plantedRight++;
    else if (dedup.shingleJaccard(textOf.get(id), textOf.get(of)) >= 0.5) natural++;
    else wrong++;
  }
  return {
    pairsHigh: high.length,
    recallHigh: high.filter(together).length / high.length,
    pairsMid: mid.length,
    recallMid: mid.length === 0 ? Number.NaN : mid.filter(together).length / mid.length,
    pairsLow: low.length,
    falseLow: low.filter(together).length,
    dropped: dropped.size,
    precisionPlanted: plantedRight / dropped.size,
    naturalDuplicates: natural,
    precisionVerified: (plantedRight + natural) / dropped.size,
    wrongDrops: wrong,
  };
}
const qualityStage = score(keptAs, keeper);

// The same documents in the same order through clean --dedup's one-pass deduper.
const ordered = filesA.flatMap((f) =>
  readFileSync(f, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l)),
);
const maker = new dedup.DedupKeyMaker({ mode: "minhash" });
const streaming = new dedup.StreamingDeduper({ mode: "minhash" });
const streamKeeper = new Map();
for (let i = 0; i < ordered.length; i++) {
  const m = streaming.check(maker.keys(ordered[i].text));
  if (m !== null) streamKeeper.set(ordered[i].warc_record_id, ordered[m.of].warc_record_id);
}
const qualityStream = score((id) => streamKeeper.get(id) ?? id, streamKeeper);

// MinHash alone: normalise, signature, band keys, over every document of part A, three rounds.
const hasher = new dedup.MinHasher();
const texts = docsA.map((d) => d.text);
let best = Number.POSITIVE_INFINITY;
for (let round = 0; round < 3; round++) {
  const t = process.cpuUsage();
  for (const text of texts) {
    const sig = hasher.signature(dedup.wordsOf(dedup.normalizeText(text)));
    if (sig !== null) hasher.bandKeys(sig);
  }
  best = Math.min(best, cpuSeconds(t));
}
const words = texts.reduce((n, t) => n + t.split(/\s+/).length, 0);
const minhashRate = texts.length / best;
const sigPassRate = docsA.length / sigCpuA;
console.error(`part A: MinHash ${minhashRate.toFixed(0)} docs/CPU-s, signature pass ${sigPassRate.toFixed(0)} docs/CPU-s`);

// ---- Part B: a million documents, each pass in its own process ----
const pool = pages
  .join(" ")
  .split(/\s+/)
  .filter((w) => w !== "");
const docsB_ = [];
const plantedB = { exact: 0, near: 0 };
for (let i = 0; i < docsB; i++) {
  const r = random();
  if (i > 100 && r < 0.05) {
    plantedB.exact++;
    docsB_.push({ id: `b-${i}`, text: docsB_[Math.floor(random() * i)].text.toUpperCase() });
  } else if (i > 100 && r < 0.15) {
    plantedB.near++;
    docsB_.push({ id: `b-${i}`, text: dedup.editWords(docsB_[Math.floor(random() * i)].text, 0.03, random) });
  } else {
    // Words drawn one by one (windows of the pool would overlap and be near duplicates of each other).
    const len = 60 + Math.floor(random() * 61);
    const words = new Array(len);
    for (let w = 0; w < len; w++) words[w] = pool[Math.floor(random() * pool.length)];
    docsB_.push({ id: `b-${i}`, text: words.join(" ") });
  }
}
const filesB = writeShards(join(WORK, "b-in"), docsB_, 20);
docsB_.length = 0;
const bytesB = filesB.reduce((n, f) => n + statSync(f).size, 0);
console.error(`part B: ${docsB} documents in ${filesB.length} shards, ${(bytesB / 1e6).toFixed(0)} MB`);
const outB = join(WORK, "b-out");
const stateB = join(WORK, "b-state");
rmSync(outB, { recursive: true, force: true });
rmSync(stateB, { recursive: true, force: true });
// The plan first (a signatures run over no shard), so each child finds the inputs in it.
await stage.runDedup({ inputs: filesB, output: outB, state: stateB, pass: "signatures", shards: [] });
const passes = [];
for (const pass of stage.DEDUP_PASSES) {
  const child = spawnSync(
    process.execPath,
    [new URL(import.meta.url).pathname, "--child-pass", pass, "--output", outB, "--state", stateB],
    {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  if (child.status !== 0) throw new Error(`pass ${pass} failed (exit ${child.status})`);
  const result = JSON.parse(child.stdout.trim().split("\n").pop());
  passes.push(result);
  console.error(`part B: ${pass}: ${result.cpuSeconds.toFixed(1)} CPU s, peak RSS ${(result.maxRssBytes / 1e6).toFixed(0)} MB`);
}
const clustersB = readJson(join(stateB, "clusters", "summary.json"));
const stateBytes = (dir) =>
  readdirSync(dir, { recursive: true }).reduce((n, f) => n + (statSync(join(dir, f)).isFile() ? statSync(join(dir, f)).size : 0), 0);
const stateSize = stateBytes(stateB);

// ---- Report ----
const machine = machineInfo();
const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "–");
const qualityRows = [
  ["winnow dedup (stage)", qualityStage],
  ["winnow clean --dedup minhash (one pass)", qualityStream],
].map(([name, q]) => [
  name,
  `${pct(q.recallHigh)} of ${q.pairsHigh}`,
  `${pct(q.recallMid)} of ${q.pairsMid}`,
  `${q.falseLow} of ${q.pairsLow}`,
  String(q.dropped),
  pct(q.precisionPlanted),
  `${pct(q.precisionVerified)} (${q.naturalDuplicates} natural)`,
]);
const report = `# Dedup benchmark, ${machine.date.slice(0, 16)}

\`node benchmarks/dedup.js${process.argv.slice(2).length > 0 ? ` ${process.argv.slice(2).join(" ")}` : ""}\` on ${machine.cpu}, ${machine.cores} cores (shared with other
work: figures are CPU seconds, not wall time), Node ${machine.node}. Default settings: exact and minhash,
word 5-gram shingles, 14 bands x 8 rows, candidates kept at estimated Jaccard >= 0.7.
${busyWarning() ?? ""}

## A. Planted duplicates of ${pages.length} real pages (${from})

${docsA.length} documents: every page, and ${planted.length} planted copies (exact: case and spacing
changed; near: 1-5% of words edited; far: 30-50% edited), shuffled into 4 shards. Recall counts
planted pairs that end in one cluster; precision counts dropped documents that belong to a
planted pair at Jaccard >= 0.5, then also those whose true Jaccard with the document kept is at
least 0.5 (duplicates already in the source sets).

${table(["deduper", "recall, J >= 0.8", "recall, 0.5 <= J < 0.8", "pairs joined, J < 0.5", "dropped", "precision vs planted", "precision, verified"], qualityRows)}

Stage's estimated Jaccard of dropped near duplicates with the document kept (sample of
${summaryA.jaccard?.pairs ?? 0}): min ${summaryA.jaccard?.min.toFixed(2)}, 5th percentile ${summaryA.jaccard?.p05.toFixed(2)}, median ${summaryA.jaccard?.median.toFixed(2)}.

Signature speed (${(words / texts.length).toFixed(0)} words per document on average):

| what | docs per CPU-second | against clean's 145 docs/CPU-s |
| --- | --- | --- |
| MinHash alone (normalise, 112 minima, 14 band keys; best of 3) | ${minhashRate.toFixed(0)} | ${(minhashRate / 145).toFixed(1)}x |
| whole signature pass (read JSONL, exact hash, signature, sorted runs written) | ${sigPassRate.toFixed(0)} | ${(sigPassRate / 145).toFixed(1)}x |

## B. ${docsB.toLocaleString("en-US")} documents, each pass in its own process

${docsB.toLocaleString("en-US")} documents of 60-120 words drawn at random from the same pages (${plantedB.exact.toLocaleString("en-US")} exact and
${plantedB.near.toLocaleString("en-US")} near copies, 3% of words edited, of earlier ones), ${filesB.length} JSONL shards, ${(bytesB / 1e6).toFixed(0)} MB; state folder ${(stateSize / 1e6).toFixed(0)} MB after all passes.
Found: ${clustersB.exact.toLocaleString("en-US")} exact and ${clustersB.near.toLocaleString("en-US")} near duplicates in ${clustersB.clusters.toLocaleString("en-US")} clusters.

${table(
  ["pass", "CPU seconds", "peak RSS (MB)", "docs per CPU-second"],
  passes.map((p) => [p.pass, p.cpuSeconds.toFixed(1), (p.maxRssBytes / 1e6).toFixed(0), (docsB / p.cpuSeconds).toFixed(0)]),
)}
`;
console.log(report);
if (flags["no-save"] !== true) {
  const stamp = machine.date.slice(0, 16).replace(":", "-");
  writeFileSync(join(RESULTS_DIR, `${stamp}-dedup.md`), report);
  writeFileSync(
    join(RESULTS_DIR, `${stamp}-dedup.json`),
    `${JSON.stringify({ machine, partA: { pages: pages.length, from, documents: docsA.length, planted: planted.length, stage: qualityStage, streaming: qualityStream, jaccard: summaryA.jaccard, minhashDocsPerCpuSecond: minhashRate, signaturePassDocsPerCpuSecond: sigPassRate }, partB: { documents: docsB, planted: plantedB, bytes: bytesB, stateBytes: stateSize, clusters: clustersB, passes } }, null, 2)}\n`,
  );
  console.error(`written: benchmarks/results/${stamp}-dedup.md and .json`);
}
