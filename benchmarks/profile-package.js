#!/usr/bin/env node
/**
 * Where one package's own code spends its self time in `winnow clean`, by function and by line:
 * one `node --cpu-prof` run of the build's CLI (or a .cpuprofile already made), the samples whose
 * innermost frame lies under the package's dist/ summed per function, and each function's hot
 * lines from V8's positionTicks. profile-clean.js says which stage is large; this says which
 * function and line of that stage to look at.
 *
 *   node benchmarks/profile-package.js --input WARC [--build .] [--package segment] [--interval 100]
 *        [--top 25] [--lines 4] [--keep FILE.cpuprofile] [-- clean flags]
 *   node benchmarks/profile-package.js --profile FILE.cpuprofile [--build .] [--package segment]
 *   (clean flags default to --workers 0: one thread, so one profile holds the whole run)
 *
 * Lines are those of the compiled JavaScript (packages/NAME/dist/*.js); their source maps lead
 * back to the TypeScript. A line's ms is its share of its function's ticks times that function's
 * self time, so short functions read coarse at the default 1 ms sampling: --interval 100 (µs)
 * samples ten times as often.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { parseFlags } from "./lib/common.js";

const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const flags = parseFlags(dash < 0 ? argv : argv.slice(0, dash), []);
const cleanFlags = dash < 0 ? ["--workers", "0"] : argv.slice(dash + 1);
const build = resolve(flags.build ?? ".");
const packageDir = `packages/${flags.package ?? "segment"}/dist/`;
const top = Number(flags.top ?? 25);
const linesPerFunction = Number(flags.lines ?? 4);

/** Runs the CLI under the profiler and returns the profile's path (copied to --keep when given). */
function profileRun() {
  if (flags.input === undefined) throw new Error("--input WARC or --profile FILE is needed");
  const dir = mkdtempSync(join(tmpdir(), "winnow-package-profile-"));
  const args = [
    "--cpu-prof",
    `--cpu-prof-dir=${dir}`,
    `--cpu-prof-interval=${flags.interval ?? 1000}`,
    join(build, "pipelines", "cli", "bin", "winnow.js"),
    "clean",
    flags.input,
    "-o",
    join(dir, "out.jsonl"),
    ...cleanFlags,
  ];
  const run = spawnSync(process.execPath, args, { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`winnow clean failed: ${run.stderr.slice(-400)}`);
  const file = join(dir, readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))[0]);
  if (flags.keep !== undefined) copyFileSync(file, flags.keep);
  return { file, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const { file, cleanup } = flags.profile !== undefined ? { file: flags.profile, cleanup: () => {} } : profileRun();
const profile = JSON.parse(readFileSync(file, "utf8"));
cleanup();

// Self time per node: timeDeltas[i] is the time before sample i (V8's convention, as cpuprofile.js).
const selfUs = new Map();
let busyUs = 0;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
for (let i = 0; i < profile.samples.length; i++) {
  const dt = Math.max(0, profile.timeDeltas[i] ?? 0);
  const node = byId.get(profile.samples[i]);
  if (node.callFrame.functionName === "(idle)") continue;
  busyUs += dt;
  selfUs.set(node.id, (selfUs.get(node.id) ?? 0) + dt);
}

// Per function of the package (name, file, line), summed over every node (call path) of it.
const functions = new Map();
for (const node of profile.nodes) {
  const { url, functionName, lineNumber } = node.callFrame;
  const path = url.startsWith("file://") ? decodeURIComponent(url.slice(7)) : url;
  const at = path.indexOf(packageDir);
  if (at < 0) continue;
  const us = selfUs.get(node.id) ?? 0;
  if (us === 0) continue;
  const fileName = path.slice(at + packageDir.length);
  const key = `${functionName || "(anonymous)"}\t${fileName}:${lineNumber + 1}`;
  let f = functions.get(key);
  if (f === undefined) {
    f = { key, us: 0, lines: new Map() };
    functions.set(key, f);
  }
  f.us += us;
  // Spread the node's self time over its lines in proportion to their ticks.
  const ticks = node.positionTicks ?? [];
  const sum = ticks.reduce((a, t) => a + t.ticks, 0);
  for (const t of ticks) f.lines.set(t.line, (f.lines.get(t.line) ?? 0) + (us * t.ticks) / sum);
}

const packageUs = [...functions.values()].reduce((a, f) => a + f.us, 0);
const where = flags.profile ?? `winnow clean ${flags.input} ${cleanFlags.join(" ")}`;
console.log(`${packageDir} self time in ${relative(process.cwd(), where) || where}, build ${build}`);
console.log(
  `busy ${(busyUs / 1000).toFixed(0)} ms (all samples but idle); the package's own ${(packageUs / 1000).toFixed(0)} ms (${((100 * packageUs) / busyUs).toFixed(1)}%)`,
);
console.log("| function (dist file:line) | self ms | % of package | hot lines: line ms |");
console.log("| --- | ---: | ---: | --- |");
for (const f of [...functions.values()].sort((a, b) => b.us - a.us).slice(0, top)) {
  const lines = [...f.lines]
    .sort((a, b) => b[1] - a[1])
    .slice(0, linesPerFunction)
    .map(([line, us]) => `${line}: ${(us / 1000).toFixed(0)}`)
    .join(", ");
  const [name, loc] = f.key.split("\t");
  console.log(`| ${name} (${loc}) | ${(f.us / 1000).toFixed(0)} | ${((100 * f.us) / packageUs).toFixed(1)} | ${lines} |`);
}
