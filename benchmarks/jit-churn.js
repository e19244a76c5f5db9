#!/usr/bin/env node
/**
 * How often V8's optimising compiler (TurboFan) compiles each function of a `winnow clean` run,
 * and where and why the optimised code is thrown away again. A function optimised before all
 * its paths have run deoptimises when it reaches one it has no type feedback for, and pays its
 * whole compile again on the platform threads; this counts that churn per function, build by
 * build, so that a change meant to cut it is measured rather than guessed.
 *
 * Each build runs `winnow clean INPUT --workers 0` once per run under `--trace-opt
 * --trace-deopt-verbose` (the flags slow the run and change nothing it writes; the counts, not
 * the times, are the measurement). Per function name: compiles (OSR included), the optimisation
 * phases' milliseconds summed as V8 prints them, and deoptimisations; then each build's deopt
 * sites in winnow's own code (file:line:column of the compiled JavaScript, innermost first, with
 * the reason). With several runs the figures are medians per function.
 *
 *   node benchmarks/jit-churn.js --builds /work/b-958,. --input WARC [--runs 1] [--top 30]
 *     [--sites 25] [--keep DIR] [-- more clean flags]
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";

const dash = process.argv.indexOf("--");
const own = dash < 0 ? process.argv.slice(2) : process.argv.slice(2, dash);
const extra = dash < 0 ? [] : process.argv.slice(dash + 1);
const opt = (name, fallback) => (own.includes(name) ? own[own.indexOf(name) + 1] : fallback);
const builds = opt("--builds", ".")
  .split(",")
  .map((b) => resolve(b));
const input = opt("--input");
const runs = Number(opt("--runs", "1"));
const top = Number(opt("--top", "30"));
const siteRows = Number(opt("--sites", "25"));
const keep = opt("--keep");
if (!input) {
  console.error(
    "usage: node benchmarks/jit-churn.js --builds A,B --input WARC [--runs N] [--top N] [--sites N] [--keep DIR] [-- clean flags]",
  );
  process.exit(2);
}

/** One traced run of a build: the trace's text (stdout, where V8 prints it). */
function tracedRun(build) {
  const dir = mkdtempSync(join(tmpdir(), "winnow-jit-churn-"));
  const args = [
    "--trace-opt",
    "--trace-deopt-verbose",
    join(build, "pipelines/cli/bin/winnow.js"),
    "clean",
    resolve(input),
    "--workers",
    "0",
    ...extra,
    "-o",
    join(dir, "out.jsonl"),
  ];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  const chunks = [];
  let log = "";
  child.stdout.on("data", (c) => chunks.push(c));
  child.stderr.on("data", (c) => {
    log += c;
  });
  return new Promise((res, rej) =>
    child.on("close", (code) => {
      rmSync(dir, { recursive: true, force: true });
      if (code !== 0) rej(new Error(`${build}: winnow clean exited ${code}\n${log.slice(-2000)}`));
      else res(Buffer.concat(chunks).toString("utf8"));
    }),
  );
}

const FN = /<JSFunction ([^ >]*) ?\(sfi = (0x[0-9a-f]+)\)>/;
const COMPLETED = /^\[completed compiling .* \(target TURBOFAN\)( OSR)? - took ([\d.]+), ([\d.]+), ([\d.]+) ms\]/;
const BAILOUT = /^\[bailout \(kind: ([^,]+), reason: ([^)]*)\): begin\./;
const AT = /;;; deoptimize at <file:\/\/([^>]+)>((?: inlined at <file:\/\/[^>]+>)*)/;

/**
 * Per function name: compiles, optimisation ms, deopts; and the deopt sites. A name is what the
 * trace prints (anonymous functions are "(anonymous)"); functions sharing a name are summed.
 */
function parseTrace(text, build) {
  const fns = new Map();
  const sites = new Map();
  const fn = (name) => {
    let f = fns.get(name);
    if (!f) {
      f = { compiles: 0, ms: 0, deopts: 0 };
      fns.set(name, f);
    }
    return f;
  };
  let pending = null; // a bailout whose "deoptimize at" line follows
  const strip = (p) => (p.startsWith(build) ? p.slice(build.length + 1) : p);
  for (const line of text.split("\n")) {
    if (line.startsWith("[completed compiling")) {
      const m = COMPLETED.exec(line);
      const f = FN.exec(line);
      if (m && f) {
        const r = fn(f[1] || "(anonymous)");
        r.compiles++;
        r.ms += Number(m[2]) + Number(m[3]) + Number(m[4]);
      }
    } else if (line.startsWith("[bailout")) {
      const m = BAILOUT.exec(line);
      const f = FN.exec(line);
      if (m && f) {
        const name = f[1] || "(anonymous)";
        fn(name).deopts++;
        pending = { name, reason: m[2] };
      }
    } else if (pending && line.includes(";;; deoptimize at")) {
      const m = AT.exec(line);
      if (m) {
        const chain = [m[1], ...[...m[2].matchAll(/<file:\/\/([^>]+)>/g)].map((x) => x[1])].map(strip);
        if (!chain[0].includes("node_modules") && !chain[0].startsWith("node:")) {
          const key = `${pending.name}\t${pending.reason}\t${chain.join(" <- ")}`;
          sites.set(key, (sites.get(key) ?? 0) + 1);
        }
      }
      pending = null;
    }
  }
  return { fns, sites };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const results = [];
for (const build of builds) {
  const perRun = [];
  for (let r = 0; r < runs; r++) {
    process.stderr.write(`jit-churn: ${build} run ${r + 1}/${runs}\n`);
    const text = await tracedRun(build);
    if (keep) {
      mkdirSync(keep, { recursive: true });
      writeFileSync(join(keep, `${basename(build)}-${r + 1}.trace.txt`), text);
    }
    perRun.push(parseTrace(text, build));
  }
  const names = new Set(perRun.flatMap((p) => [...p.fns.keys()]));
  const fns = new Map();
  for (const name of names) {
    const pick = (k) => median(perRun.map((p) => p.fns.get(name)?.[k] ?? 0));
    fns.set(name, { compiles: pick("compiles"), ms: pick("ms"), deopts: pick("deopts") });
  }
  const totals = perRun.map((p) => {
    let compiles = 0;
    let ms = 0;
    let deopts = 0;
    for (const f of p.fns.values()) {
      compiles += f.compiles;
      ms += f.ms;
      deopts += f.deopts;
    }
    return { compiles, ms, deopts };
  });
  results.push({ build, fns, sites: perRun[0].sites, totals });
}

const label = (b) => (b === process.cwd() ? "." : b);
console.log(`input ${input}, ${runs} traced run(s) per build, --workers 0 ${extra.join(" ")}`);
console.log("\nwhole run (each run: compiles, optimisation ms, deopts)");
for (const r of results) {
  const each = r.totals.map((t) => `${t.compiles} / ${t.ms.toFixed(0)} ms / ${t.deopts}`).join("; ");
  console.log(`  ${label(r.build)}: ${each}`);
}

const first = results[0].fns;
const ranked = [...first].sort((a, b) => b[1].ms - a[1].ms).slice(0, top);
console.log(`\nfunctions by optimisation ms in ${label(results[0].build)} (compiles, ms, deopts per build)`);
console.log(["function", ...results.map((r) => label(r.build))].join("\t"));
for (const [name] of ranked) {
  const cells = results.map((r) => {
    const f = r.fns.get(name);
    return f ? `${f.compiles}, ${f.ms.toFixed(0)}, ${f.deopts}` : "-";
  });
  console.log([name, ...cells].join("\t"));
}

for (const r of results) {
  const rows = [...r.sites].sort((a, b) => b[1] - a[1]).slice(0, siteRows);
  console.log(`\ndeopt sites in winnow's code, ${label(r.build)}, first run (count, function, reason, where)`);
  for (const [key, n] of rows) console.log(`${n}\t${key}`);
}
