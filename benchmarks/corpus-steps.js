/**
 * What the corpus steps cost end to end: `winnow clean` on one worker over the same WARC, with
 * language identification and --filters gopher,c4,fineweb against --no-lang-id and no filters,
 * RUNS runs of each, interleaved so that a busy machine slows both alike. Throughput is pages per
 * CPU-second of the whole process (worker thread included), from the run's JSON summary: pages
 * are the documents written plus those the steps dropped (language and filter skips), so that
 * dropping documents does not count as speed.
 *
 *   node benchmarks/corpus-steps.js [--warc FILE] [--runs 3]
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { busyWarning, ensureWarc, machineInfo, parseFlags, ROOT, table } from "./lib/common.js";

const flags = parseFlags(process.argv.slice(2));
const warc = flags.warc ?? ensureWarc({ limit: 300 });
const runs = Number(flags.runs ?? 3);
const CLI = join(ROOT, "pipelines", "cli", "bin", "winnow.js");
const BASE = ["clean", warc, "-o", "/dev/null", "--workers", "1", "--no-progress"];
const VARIANTS = {
  "no lang id, no filters": ["--no-lang-id"],
  "lang id + gopher,c4,fineweb": ["--filters", "gopher,c4,fineweb"],
};

/** One run: its JSON summary record, which pino writes on stderr when it is not a terminal. */
function once(extra) {
  const child = spawnSync(process.execPath, [CLI, ...BASE, ...extra], { encoding: "utf8", maxBuffer: 64 << 20 });
  if (child.status !== 0) throw new Error(`winnow clean ${extra.join(" ")} exited ${child.status}:\n${child.stderr}`);
  const line = child.stderr.split("\n").find((l) => l.includes('"msg":"summary"'));
  const { summary } = JSON.parse(line);
  const pages = summary.documentsWritten + summary.skipped.language + summary.skipped.filter;
  return { pages, cpu: summary.cpuSeconds, rate: pages / summary.cpuSeconds, written: summary.documentsWritten };
}

const warning = busyWarning();
if (warning) console.error(warning);
const results = Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, []]));
for (let r = 0; r < runs; r++) {
  for (const [name, extra] of Object.entries(VARIANTS)) {
    const result = once(extra);
    results[name].push(result);
    console.error(
      `run ${r + 1}/${runs} ${name}: ${result.rate.toFixed(1)} pages/CPU-s (${result.pages} pages, ${result.written} written, ${result.cpu.toFixed(2)} CPU s)`,
    );
  }
}
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const rows = Object.entries(results).map(([name, rs]) => [
  name,
  rs.map((r) => r.rate.toFixed(1)).join(", "),
  mean(rs.map((r) => r.rate)).toFixed(1),
]);
const [off, on] = Object.values(results).map((rs) => mean(rs.map((r) => r.rate)));
console.log(`${machineInfo().cpu ?? ""}\nwinnow clean ${warc} --workers 1, ${runs} runs each, interleaved\n`);
console.log(table(["variant", "pages/CPU-s per run", "mean"], rows));
console.log(`\nwith the corpus steps: ${((100 * on) / off).toFixed(1)}% of the throughput without them`);
