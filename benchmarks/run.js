#!/usr/bin/env node
/**
 * The whole benchmark, one command: `npm run bench` (builds first) or `node benchmarks/run.js`.
 *
 *   node benchmarks/run.js [--quick] [--micro] [--e2e] [--single] [--scaling] [--profile] [--memory] [--all]
 *                          [--data DIR] [--model PATH] [--workers LIST] [--runs R] [--repeat R]
 *
 * With no section flag: micro, end to end (single-threaded and scaling) and the profile; the
 * memory section is slow and runs only with --memory or --all. --quick uses 60 pages (a smoke
 * run of about two minutes). Inputs are generated from the WCXB dev pages (../shared/data/
 * wcxb-dev, or --data / WINNOW_BENCH_DATA) into benchmarks/data/ on first use. The report is
 * printed and written to benchmarks/results/<date>.md (and .json).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { endToEnd } from "./end-to-end.js";
import {
  DATA_DIR,
  QUICK_PAGES,
  RESULTS_DIR,
  ROOT,
  SUBSET_PAGES,
  SetupError,
  importBuilt,
  machineInfo,
  parseFlags,
  sourceDir,
} from "./lib/common.js";
import { DEFAULT_REPEAT, memory } from "./memory.js";
import { micro } from "./micro.js";
import { profile } from "./profile.js";

const SECTIONS = ["micro", "single", "scaling", "profile", "memory"];
const flags = parseFlags(process.argv.slice(2), ["quick", "all", "e2e", ...SECTIONS]);
if (flags.help || flags.h) {
  console.log(
    "usage: node benchmarks/run.js [--quick] [--micro] [--e2e] [--single] [--scaling] [--profile] [--memory] [--all] [--data DIR] [--model PATH] [--workers LIST] [--runs R] [--repeat R]",
  );
  process.exit(0);
}
const quick = flags.quick === true;
const picked = new Set(SECTIONS.filter((s) => flags[s] === true));
if (flags.e2e) picked.add("single").add("scaling");
if (flags.all) SECTIONS.forEach((s) => picked.add(s));
if (picked.size === 0) ["micro", "single", "scaling", "profile"].forEach((s) => picked.add(s));

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}

// Checked first, so a fresh clone without the data stops at once rather than minutes in.
const needed = [
  `wcxb-dev-${quick ? QUICK_PAGES : SUBSET_PAGES}.warc.gz`,
  ...(quick ? [] : ["wcxb-dev.warc.gz"]),
  ...(picked.has("memory") ? [`wcxb-dev-x${flags.repeat ?? DEFAULT_REPEAT}.warc.gz`] : []),
];
const missing = needed.filter((f) => !existsSync(join(DATA_DIR, f)));
try {
  if (missing.length > 0) sourceDir(flags.data);
  await importBuilt("@winnow/clean");
} catch (error) {
  if (error instanceof SetupError) fail(`${error.message}${missing.length ? ` (needed to generate ${missing.join(", ")})` : ""}`);
  throw error;
}

const started = new Date();
const machine = machineInfo();
const report = { started: started.toISOString(), quick, sections: [...picked], machine, results: {} };
const md = [
  `# winnow benchmark${quick ? " (quick)" : ""}, ${started.toISOString().slice(0, 16).replace("T", " ")} UTC`,
  `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.ramGiB} GiB RAM, Node ${machine.node} (${machine.platform}); load average ${machine.load1} at start.`,
  `Command: \`node benchmarks/run.js ${process.argv.slice(2).join(" ")}\``.replace(/ `$/, "`"),
];
const log = (line) => console.error(line);
const common = { quick, data: flags.data, model: flags.model, baselineModel: flags["baseline-model"] };

try {
  if (picked.has("micro")) {
    const r = await micro(common, log);
    report.results.micro = r;
    md.push(`## Micro-benchmarks (tinybench)\n\n${r.markdown}`);
  }
  if (picked.has("single") || picked.has("scaling")) {
    const r = await endToEnd(
      { ...common, single: picked.has("single"), scaling: picked.has("scaling"), workers: flags.workers, runs: flags.runs },
      log,
    );
    report.results.endToEnd = r;
    md.push(`## End to end\n\n${r.markdown}`);
  }
  if (picked.has("profile")) {
    const r = await profile(common, log);
    report.results.profile = r;
    md.push(`## Profile: single-threaded winnow MLP\n\n${r.markdown}`);
  }
  if (picked.has("memory")) {
    const r = await memory({ ...common, repeat: flags.repeat, workers: flags["memory-workers"] }, log);
    report.results.memory = r;
    md.push(`## Memory\n\n${r.markdown}`);
  }
} catch (error) {
  if (error instanceof SetupError) fail(error.message);
  throw error;
}

md.push(`Finished in ${((Date.now() - started.getTime()) / 60000).toFixed(1)} min.`);
const text = `${md.join("\n\n")}\n`;
mkdirSync(RESULTS_DIR, { recursive: true });
const stamp = started.toISOString().replace(/[:.]/g, "-").slice(0, 19) + (quick ? "-quick" : "");
writeFileSync(join(RESULTS_DIR, `${stamp}.md`), text);
writeFileSync(join(RESULTS_DIR, `${stamp}.json`), JSON.stringify(report, null, 2));
console.log(text);
console.error(`bench: report written to ${relative(ROOT, join(RESULTS_DIR, `${stamp}.md`))}`);
