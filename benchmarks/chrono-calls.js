#!/usr/bin/env node
/**
 * How many strings reach chrono-node in `winnow clean` (the default path, one thread), and why:
 * each build's CLI runs over each input with this file preloaded (`node --import`), which wraps
 * the `parse` of each locale's strict parser of that build's chrono-node and records every call:
 * the locale, the step of @winnow/metadata that asked (bestDate: a ranked candidate in finish();
 * headlineDate: a date line beside the headline; dateShownIn: the main text's head, in
 * chooseByMainText), and whether the parse found a whole day (day, month and year certain).
 * Per build and input: calls per page, by locale, by step, with a day found, distinct strings,
 * and the locales loaded at all (each costs its load and its patterns' first compiling, which
 * in a run of a few hundred pages is most of what chrono-node costs).
 *
 * With `--cold N`, what those parses cost a fresh process: the build's calls parsed again, in
 * order, in N processes of their own (the same locales' strict parsers, the reference dates.ts
 * passes), CPU from the first locale's load to the last parse; then its English parses alone. A
 * run of a few hundred pages pays this about once per thread: chrono-node's patterns are
 * compiled the first time each runs, and the same parses in a warm process cost a tenth of it.
 *
 *   node benchmarks/chrono-calls.js --builds /work/b-6db,. --input benchmarks/data/cleaneval.warc.gz [--cold 3] [--keep FILE.json]
 *   --keep: every call of every run (build, input, locale, step, day found, the string), as JSON.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const LOCALES = ["en", "de", "fr", "es", "pt", "it", "nl", "ru", "uk", "sv", "fi", "ja", "zh"];
const STEPS = ["dateShownIn", "headlineDate", "bestDate"];
const SELF = fileURLToPath(import.meta.url);
// Preloaded, this file is imported with the build and the output file in its URL's query.
const preloaded = new URL(import.meta.url).searchParams;

if (preloaded.has("out")) record(preloaded.get("build") ?? ".", preloaded.get("out") ?? "");
else if (process.argv[2] === "--replay") replay(process.argv[3], process.argv[4]);
else await main();

/** In a fresh process: the calls in `file` parsed again by `build`'s chrono-node, CPU ms from the first load to the last parse. */
function replay(build, file) {
  const require = createRequire(join(resolve(build), "packages", "metadata", "package.json"));
  const calls = JSON.parse(readFileSync(file, "utf8"));
  const reference = { instant: new Date(Date.UTC(2000, 0, 1)), timezone: 0 }; // as dates.ts's REFERENCE
  const start = process.cpuUsage();
  const strict = {};
  for (const c of calls) {
    strict[c.locale] ??= require(`chrono-node/${c.locale}`).strict;
    strict[c.locale].parse(c.text, reference);
  }
  const used = process.cpuUsage(start);
  console.log(((used.user + used.system) / 1000).toFixed(1));
}

/** CPU ms of `calls` parsed in a fresh process, `runs` times. */
function coldRuns(build, calls, runs) {
  const file = join(tmpdir(), `chrono-calls-replay-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(calls));
  const ms = [];
  for (let r = 0; r < runs; r++) {
    const run = spawnSync(process.execPath, [SELF, "--replay", build, file], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`replay in ${build}: ${run.stderr.slice(-500)}`);
    ms.push(Number(run.stdout.trim()));
  }
  rmSync(file);
  return ms;
}

/** Preloaded into the CLI: wraps each locale's strict parse of the build's chrono-node, writes the calls at exit. */
function record(build, out) {
  const require = createRequire(join(resolve(build), "packages", "metadata", "package.json"));
  const calls = [];
  for (const locale of LOCALES) {
    const strict = require(`chrono-node/${locale}`).strict;
    const parse = strict.parse;
    strict.parse = function (text, ...rest) {
      const stack = new Error().stack ?? "";
      const results = parse.call(this, text, ...rest);
      const day = results.some((r) => r.start.isCertain("day") && r.start.isCertain("month") && r.start.isCertain("year"));
      calls.push({ locale, step: STEPS.find((s) => stack.includes(s)) ?? "other", day, text });
      return results;
    };
  }
  process.on("exit", () => writeFileSync(out, JSON.stringify(calls)));
}

async function main() {
  const { parseFlags } = await import("./lib/common.js");
  const flags = parseFlags(process.argv.slice(2), []);
  if (flags.builds === undefined || flags.input === undefined) throw new Error("--builds DIR[,DIR] and --input WARC[,WARC] are needed");
  const kept = [];
  for (const input of flags.input.split(",")) {
    for (const build of flags.builds.split(",")) {
      const out = join(tmpdir(), `chrono-calls-${process.pid}.json`);
      const cli = join(resolve(build), "pipelines", "cli", "bin", "winnow.js");
      const preload = `${pathToFileURL(SELF).href}?${new URLSearchParams({ build, out })}`;
      const run = spawnSync(process.execPath, ["--import", preload, cli, "clean", input, "-o", "/dev/null", "--workers", "0"], {
        encoding: "utf8",
      });
      if (run.status !== 0) throw new Error(`${build} on ${input}: ${run.stderr.slice(-500)}`);
      const summary = JSON.parse(run.stderr.trim().split("\n").at(-1)).summary;
      const calls = JSON.parse(readFileSync(out, "utf8"));
      rmSync(out);
      const pages = summary.recordsRead;
      const count = (key) => {
        const by = {};
        for (const c of calls) by[c[key]] = (by[c[key]] ?? 0) + 1;
        return by;
      };
      const perPage = (n) => (n / pages).toFixed(3);
      console.log(
        `${build} on ${input}: ${pages} pages, ${calls.length} parses (${perPage(calls.length)} per page), ` +
          `${calls.filter((c) => c.day).length} finding a day, ${new Set(calls.map((c) => c.text)).size} distinct strings, ` +
          `${new Set(calls.map((c) => c.locale)).size} locales used`,
      );
      console.log(`  by locale ${JSON.stringify(count("locale"))}`);
      console.log(`  by step   ${JSON.stringify(count("step"))}`);
      if (flags.cold !== undefined) {
        const runs = Number(flags.cold);
        const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
        const all = coldRuns(build, calls, runs);
        const english = coldRuns(
          build,
          calls.filter((c) => c.locale === "en"),
          runs,
        );
        console.log(
          `  in a fresh process, CPU ms: all ${all.join(", ")} (median ${median(all)}); English alone ${english.join(", ")} (median ${median(english)})`,
        );
      }
      if (flags.keep !== undefined) kept.push(...calls.map((c) => ({ build, input, ...c })));
    }
  }
  if (flags.keep !== undefined) writeFileSync(flags.keep, `${JSON.stringify(kept, null, 1)}\n`);
}
