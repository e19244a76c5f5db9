#!/usr/bin/env node
/**
 * Several builds of winnow over one input, runs interleaved (build A, B, C, then A, B, C again),
 * each run a fresh `winnow clean` process; per run the docs per CPU-second from the run's own
 * summary and from the whole process (user + system CPU from /proc, which also counts loading
 * modules and models; its CPU seconds too, for a one-page start-up series), and the process's peak RSS; medians at the end, with the ratio of each to
 * a bare htmlparser2 parse of the same records (`--floor`: benchmarks/lib/method.js --method
 * parse, run in the same rotation). compare-builds.sh is the two-build form of this.
 *
 *   node benchmarks/builds-series.js --builds OLD1,OLD2,. --input WARC [--runs 5] [--floor] [-- clean flags]
 *   e.g. node benchmarks/builds-series.js --builds ../b-7aa2dc6,../b-fd8a7cf,. --input benchmarks/data/cleaneval.warc.gz --runs 7 --floor -- --workers 0
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BENCH_DIR, buildsCommandLine, median } from "./lib/common.js";

const { flags, builds, cleanFlags } = buildsCommandLine(process.argv.slice(2), [], ["floor"]);
const runs = Number(flags.runs ?? 5);
const out = mkdtempSync(join(tmpdir(), "winnow-series-"));

/** Runs a node process to its end under GNU time: its CPU (user + system, all threads) and peak RSS. */
function run(args) {
  return new Promise((resolveRun, reject) => {
    const child = spawn("/usr/bin/time", ["-f", "process %U %S %M", process.execPath, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    let stdout = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      err += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const proc = /process ([\d.]+) ([\d.]+) (\d+)/.exec(err);
      if (code !== 0 || proc === null) return reject(new Error(`${args.join(" ")} failed (${code}): ${err.slice(-500)}`));
      resolveRun({ text: err, stdout, cpu: Number(proc[1]) + Number(proc[2]), rssMb: Number(proc[3]) / 1024 });
    });
  });
}

const rows = new Map();
const sides = [
  ...builds.map((b) => ({ name: b, kind: "build" })),
  ...(flags.floor ? [{ name: "htmlparser2 parse (floor)", kind: "floor" }] : []),
];
for (const side of sides) rows.set(side.name, []);
try {
  for (let i = 1; i <= runs; i++) {
    for (const side of sides) {
      if (side.kind === "floor") {
        const r = await run([join(BENCH_DIR, "lib", "method.js"), "--method", "parse", "--input", flags.input]);
        const { records, cpuSeconds } = JSON.parse(r.stdout.split("\n").find((l) => l.startsWith("{")));
        const m = { summary: records / cpuSeconds, whole: records / r.cpu, cpu: r.cpu, rssMb: r.rssMb };
        rows.get(side.name).push(m);
        console.log(
          `${side.name}\trun ${i}\t${m.summary.toFixed(1)} docs/CPU-s\t${m.whole.toFixed(1)} whole process\t${m.cpu.toFixed(2)} CPU s\t${m.rssMb.toFixed(0)} MB`,
        );
        continue;
      }
      const cli = join(side.name, "pipelines", "cli", "bin", "winnow.js");
      const r = await run([cli, "clean", flags.input, "-o", join(out, "out.jsonl"), ...cleanFlags]);
      const line = r.text.split("\n").find((l) => /winnow: wrote|"msg":"wrote/.test(l)) ?? "";
      const s = /from (\d+) HTML records?.* ([\d.]+) CPU s/.exec(line);
      const j = /"recordsRead":(\d+).*"cpuSeconds":([\d.]+)/.exec(line);
      const records = Number(j?.[1] ?? s?.[1]);
      const m = { summary: records / Number(j?.[2] ?? s?.[2]), whole: records / r.cpu, cpu: r.cpu, rssMb: r.rssMb };
      rows.get(side.name).push(m);
      console.log(
        `${side.name}\trun ${i}\t${m.summary.toFixed(1)} docs/CPU-s\t${m.whole.toFixed(1)} whole process\t${m.cpu.toFixed(2)} CPU s\t${m.rssMb.toFixed(0)} MB`,
      );
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
const floor = flags.floor ? median(rows.get("htmlparser2 parse (floor)").map((m) => m.summary)) : null;
console.log(`\nmedians of ${runs} runs (${flags.input}${cleanFlags.length ? `, ${cleanFlags.join(" ")}` : ""}):`);
console.log(`build\tdocs/CPU-s (summary)\tdocs/CPU-s (whole process)\tprocess CPU s\tpeak RSS MB${floor ? "\t× floor (summary)" : ""}`);
for (const [name, ms] of rows) {
  const s = median(ms.map((m) => m.summary));
  // The process's CPU seconds read a short run (a one-page start-up series) where docs per second round away.
  const cpu = median(ms.map((m) => m.cpu)).toFixed(2);
  const cells = [name, s.toFixed(1), median(ms.map((m) => m.whole)).toFixed(1), cpu, median(ms.map((m) => m.rssMb)).toFixed(0)];
  if (floor) cells.push((s / floor).toFixed(2));
  console.log(cells.join("\t"));
}
