#!/usr/bin/env node
/**
 * Where a `winnow clean` run's CPU goes, thread by thread: the main thread, the pool's threads,
 * and the process's other threads (V8's platform threads, which run the concurrent and parallel
 * parts of garbage collection and compilation, and libuv's pool, which inflates the large gzip
 * members read ahead). A run's summary gives one CPU figure for the whole process; this splits it,
 * to see what a pooled run costs beyond an inline one (`--workers 0`) and on which thread.
 *
 * It polls /proc/PID/task/TID/stat (Linux only) every 50 ms and keeps each thread's last reading,
 * so a thread that ends between two polls loses at most 50 ms. Threads carry no names here
 * (Node names none of them), so the pool's threads are taken to be the `--workers` busiest
 * threads other than the main one; with `--workers 0` there are none.
 *
 *   node benchmarks/thread-cpu.js [--runs 3] [--builds A,B] -- INPUT [winnow clean flags, e.g. --workers 1]
 *
 * Prints each run's split and the medians; the output goes to a temporary folder. With
 * `--builds`, each build's `winnow clean` (a checkout, built) runs in turn within every round, so
 * that the machine's load falls on all of them alike, and the medians are per build.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ROOT } from "./lib/common.js";

const dash = process.argv.indexOf("--");
if (dash < 0 || dash + 1 >= process.argv.length) {
  console.error("usage: node benchmarks/thread-cpu.js [--runs N] -- INPUT [winnow clean flags]");
  process.exit(2);
}
const own = process.argv.slice(2, dash);
const runs = own.includes("--runs") ? Number(own[own.indexOf("--runs") + 1]) : 3;
const builds = own.includes("--builds") ? own[own.indexOf("--builds") + 1].split(",").map((b) => resolve(b)) : [ROOT];
const cleanArgs = process.argv.slice(dash + 1);
const workersAt = cleanArgs.indexOf("--workers");
const workersFlag = workersAt >= 0 ? Number(cleanArgs[workersAt + 1]) : undefined;
const TICKS = 100; // USER_HZ: /proc's CPU times are in 1/100 s on Linux

/** CPU seconds of each thread of `pid` now (utime + stime), by thread id. */
function threadTimes(pid) {
  const out = new Map();
  let tids;
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(Number(tid), (Number(fields[11]) + Number(fields[12])) / TICKS);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

async function oneRun(build) {
  const dir = mkdtempSync(join(tmpdir(), "winnow-thread-cpu-"));
  const child = spawn(process.execPath, [join(build, "pipelines/cli/bin/winnow.js"), "clean", ...cleanArgs, "-o", join(dir, "out.jsonl")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr.on("data", (chunk) => {
    log += chunk;
  });
  const last = new Map();
  const poll = setInterval(() => {
    for (const [tid, seconds] of threadTimes(child.pid)) last.set(tid, seconds);
  }, 50);
  const code = await new Promise((resolve) => child.on("close", resolve));
  clearInterval(poll);
  rmSync(dir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`winnow clean exited ${code}:\n${log.slice(-2000)}`);
  const summary = /"summary":(\{.*?"interrupted":(?:true|false)\})/.exec(log);
  const workers = workersFlag ?? (summary ? JSON.parse(summary[1]).workers : 0);
  const main = last.get(child.pid) ?? 0;
  const others = [...last]
    .filter(([tid]) => tid !== child.pid)
    .map(([, s]) => s)
    .sort((a, b) => b - a);
  const pool = others.slice(0, workers).reduce((a, s) => a + s, 0);
  const rest = others.slice(workers).reduce((a, s) => a + s, 0);
  const docs = summary ? JSON.parse(summary[1]).documentsWritten : Number.NaN;
  return { docs, main, pool, rest, total: main + pool + rest, workers };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = new Map(builds.map((b) => [b, []]));
const name = (b) => (builds.length === 1 ? "" : `${b === ROOT ? "." : b}\t`);
console.log(`winnow clean ${cleanArgs.join(" ")}: CPU seconds by thread`);
console.log(`${builds.length === 1 ? "" : "build\t"}run\tdocs\tmain\tpool threads\tother threads\ttotal\tdocs/CPU-s`);
for (let r = 1; r <= runs; r++) {
  // Alternate rounds run the builds in reverse order, so that neither always runs first.
  for (const build of r % 2 === 1 ? builds : [...builds].reverse()) {
    const row = await oneRun(build);
    rows.get(build).push(row);
    console.log(
      `${name(build)}${r}\t${row.docs}\t${row.main.toFixed(2)}\t${row.pool.toFixed(2)} (${row.workers})\t${row.rest.toFixed(2)}\t${row.total.toFixed(2)}\t${(row.docs / row.total).toFixed(1)}`,
    );
  }
}
for (const build of builds) {
  const m = (key) => median(rows.get(build).map((r) => r[key]));
  console.log(
    `${name(build)}median\t${m("docs")}\t${m("main").toFixed(2)}\t${m("pool").toFixed(2)}\t${m("rest").toFixed(2)}\t${m("total").toFixed(2)}\t${(m("docs") / m("total")).toFixed(1)}`,
  );
}
