#!/usr/bin/env node
/**
 * Where `winnow clean` (the default path: MLP, metadata, language ID) spends its CPU, stage by
 * stage: one `node --cpu-prof` run of each build's CLI over the same input, summarised side by
 * side. A busy machine stretches every stage alike, so compare shares, or rerun.
 *
 *   node benchmarks/profile-clean.js --builds OLD_CHECKOUT,. --input WARC [-- clean flags]
 *   (clean flags default to --workers 0: one thread, so one profile holds the whole run)
 *
 * profile.js profiles the MLP through benchmarks/lib/method.js, without language ID or the
 * corpus steps; this one runs the command a user runs.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { summarizeProfile } from "./lib/cpuprofile.js";
import { buildsCommandLine } from "./lib/common.js";

const { flags, builds, cleanFlags } = buildsCommandLine(process.argv.slice(2), ["--workers", "0"], []);

/** Inclusive time of the costliest function matching `match`: a stage's entry point. */
const entry = (match) => (rows) => rows.filter(match).sort((a, b) => b.totalMs - a.totalMs)[0]?.totalMs ?? 0;
/** Self time summed over matching functions. */
const selfSum = (match) => (rows) => rows.filter(match).reduce((a, r) => a + r.selfMs, 0);

const STAGES = [
  ["read + gunzip", entry((r) => r.name === "pieces" && r.where.includes("archive/dist/gunzip"))],
  ["decode to text", entry((r) => r.name === "decodeHtmlPieces")],
  ["segment (parse, segmenter, metadata observer)", entry((r) => r.name === "segmentHtml")],
  ["  htmlparser2 + entities (self)", selfSum((r) => /node_modules\/(htmlparser2|entities)\//.test(r.where))],
  ["  segmenter (self)", selfSum((r) => r.where.includes("segment/dist/"))],
  ["  metadata collector (self, with its finish after the pass)", selfSum((r) => r.where.includes("metadata/dist/"))],
  ["prose dates (chrono-node, self; in the collector's finish)", selfSum((r) => r.where.includes("node_modules/chrono-node/"))],
  ["features", entry((r) => r.name === "extract" && r.where.includes("features/dist/feature-sets"))],
  [
    "BiLSTM token slots (BlockEncoder)",
    entry((r) => /^encode(ByPath)?$/.test(r.name) && r.where.includes("models/dist/bilstm/vocabulary")),
  ],
  ["scoring (ONNX Runtime, self)", selfSum((r) => /onnxruntime-(node|common)\//.test(r.where) && r.name !== "initOrt")],
  ["language ID", entry((r) => r.where.includes("pipelines/clean/dist/steps") && r.name === "run")],
  ["  fastText WebAssembly (self)", selfSum((r) => r.where.startsWith("wasm://"))],
  ["write (JSONL)", entry((r) => r.name === "write" && r.where.includes("writers/dist/stream-writer"))],
  ["garbage collector", selfSum((r) => r.name === "(garbage collector)")],
  ["loading modules (self)", selfSum((r) => r.where.startsWith("node:internal/modules"))],
];

const columns = [];
for (const build of builds) {
  const dir = mkdtempSync(join(tmpdir(), "winnow-profile-"));
  try {
    const args = ["--cpu-prof", `--cpu-prof-dir=${dir}`, join(build, "pipelines", "cli", "bin", "winnow.js"), "clean", flags.input];
    const run = spawnSync(process.execPath, [...args, "-o", join(dir, "out.jsonl"), ...cleanFlags], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`${build}: winnow clean failed: ${run.stderr.slice(-400)}`);
    const cpu = /([\d.]+) CPU s/.exec(run.stderr)?.[1];
    const file = readdirSync(dir)
      .filter((f) => f.endsWith(".cpuprofile"))
      .sort()[0];
    const summary = summarizeProfile(join(dir, file), { root: build });
    const busy = summary.rows.filter((r) => r.name !== "(idle)" && r.name !== "(root)").reduce((a, r) => a + r.selfMs, 0);
    columns.push({ build, cpu, busy, stages: STAGES.map(([, measure]) => measure(summary.rows)) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(
  `\`winnow clean ${flags.input} ${cleanFlags.join(" ")}\`, one CPU profile per build; ms of the main thread's samples, and share of its busy time`,
);
console.log(`| stage | ${columns.map((c) => `${c.build} ms | %`).join(" | ")} |`);
console.log(`| --- | ${columns.map(() => "---: | ---:").join(" | ")} |`);
STAGES.forEach(([name], i) => {
  console.log(
    `| ${name} | ${columns.map((c) => `${c.stages[i].toFixed(0)} | ${((100 * c.stages[i]) / c.busy).toFixed(1)}`).join(" | ")} |`,
  );
});
console.log(`| busy (all samples but idle) | ${columns.map((c) => `${c.busy.toFixed(0)} | 100`).join(" | ")} |`);
console.log(`| the run's summary, CPU s (all threads) | ${columns.map((c) => `${c.cpu} | `).join(" | ")} |`);
