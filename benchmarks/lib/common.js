/**
 * What every benchmark section shares: where the data lives and how it is made, which model the
 * MLP rows use, the machine description, child processes, and table formatting.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const BENCH_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
export const ROOT = dirname(BENCH_DIR);
/** Generated inputs and the fallback model: gitignored, rebuilt when missing. */
export const DATA_DIR = join(BENCH_DIR, "data");
export const RESULTS_DIR = join(BENCH_DIR, "results");
/** The shared dev split, beside the repository as in every checkout of this project. */
export const DEFAULT_SOURCE = join(dirname(ROOT), "shared", "data", "wcxb-dev");
const CLI = join(ROOT, "pipelines", "cli", "bin", "winnow.js");

/** A setup problem the user must fix (missing data, unbuilt repo); printed without a stack. */
export class SetupError extends Error {}

/** Pages in the subset every method (Readability included) runs on. */
export const SUBSET_PAGES = 300;
/** Pages used by --quick, for a smoke run that finishes in about a minute. */
export const QUICK_PAGES = 60;

/**
 * The WCXB-layout folder the WARCs are made from: --data, else $WINNOW_BENCH_DATA, else the
 * shared dev split. Only needed when a WARC has to be generated.
 */
export function sourceDir(explicit) {
  const dir = explicit ?? process.env.WINNOW_BENCH_DATA ?? DEFAULT_SOURCE;
  if (!existsSync(join(dir, "html"))) {
    const hint =
      dir === DEFAULT_SOURCE
        ? `${dir} is missing on this machine: the benchmark needs the WCXB dev pages (html/*.html.gz). `
        : `${dir} has no html/ folder (expected the WCXB layout). `;
    throw new SetupError(`${hint}Point --data DIR (or WINNOW_BENCH_DATA) at a WCXB-layout folder.`);
  }
  return dir;
}

/**
 * Path of a generated WARC, made with benchmarks/make-warc.js when missing. Written under a
 * temporary name first so an interrupted run never leaves a truncated input behind.
 */
export function ensureWarc({ limit, repeat = 1, data, log = console.error } = {}) {
  const name = `wcxb-dev${limit ? `-${limit}` : ""}${repeat > 1 ? `-x${repeat}` : ""}.warc.gz`;
  const path = join(DATA_DIR, name);
  if (existsSync(path)) return path;
  const src = sourceDir(data);
  mkdirSync(DATA_DIR, { recursive: true });
  const partial = `${path}.partial`;
  const args = [join(BENCH_DIR, "make-warc.js"), src, partial];
  if (limit) args.push("--limit", String(limit));
  if (repeat > 1) args.push("--repeat", String(repeat));
  log(`bench: generating ${relative(ROOT, path)} ...`);
  const r = spawnSync(process.execPath, args, { stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0) {
    rmSync(partial, { force: true });
    throw new SetupError(`make-warc failed (exit ${r.status}) for ${relative(ROOT, path)}`);
  }
  renameSync(partial, path);
  return path;
}

/**
 * The model the MLP rows use: the shipped default when present, else a quick model trained
 * here once (200 dev pages) and kept in benchmarks/data. A cached model that this build refuses
 * (feature set changed since) is retrained.
 */
export async function benchModel({ data, log = console.error } = {}) {
  const models = await importBuilt("@winnow/models");
  const shipped = models.builtinModelPath(models.DEFAULT_MODEL);
  if (existsSync(shipped)) return { path: shipped, kind: "default" };
  const path = join(DATA_DIR, "bench-model.onnx");
  if (existsSync(path)) {
    try {
      const c = await models.loadMlpClassifier(path);
      await c.close();
      return { path, kind: "bench (default model missing)" };
    } catch (error) {
      log(`bench: cached ${relative(ROOT, path)} is unusable (${error.message}); retraining`);
    }
  }
  const src = sourceDir(data);
  mkdirSync(DATA_DIR, { recursive: true });
  log("bench: the default model is missing; training a quick one on 200 dev pages (~1 min) ...");
  const r = spawnSync(process.execPath, [CLI, "train", "--data", src, "--limit", "200", "-o", path], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (r.status !== 0) throw new SetupError(`winnow train failed (exit ${r.status})`);
  return { path, kind: "bench (default model missing)" };
}

/** Imports a workspace package, turning "not built" into a clear message. */
export async function importBuilt(name) {
  try {
    return await import(name);
  } catch (error) {
    if (error?.code === "ERR_MODULE_NOT_FOUND") {
      throw new SetupError(`${name} is not built or not linked (${error.message}); run "npm run build" (or npx tsc -b) first`);
    }
    throw error;
  }
}

/** HTML records and their payload bytes (uncompressed) in a WARC, cached next to it. */
export async function warcStats(path) {
  const cache = `${path}.stats.json`;
  const { mtimeMs, size } = statSync(path);
  if (existsSync(cache)) {
    const s = JSON.parse(readFileSync(cache, "utf8"));
    if (s.mtimeMs === mtimeMs && s.size === size) return s;
  }
  const { readRecords } = await importBuilt("@winnow/archive");
  let records = 0;
  let payloadBytes = 0;
  for await (const r of readRecords(path)) {
    records++;
    payloadBytes += r.body.byteLength;
  }
  const stats = { records, payloadBytes, compressedBytes: size, mtimeMs, size };
  try {
    writeFileSync(cache, JSON.stringify(stats));
  } catch {
    // A read-only data folder (device carry) only costs a rescan next time.
  }
  return stats;
}

export function machineInfo() {
  let model = cpus()[0]?.model ?? "unknown";
  const lscpu = spawnSync("lscpu", [], { encoding: "utf8" });
  if (lscpu.status === 0) model = /^Model name:\s*(.+)$/m.exec(lscpu.stdout)?.[1]?.trim() ?? model;
  return {
    cpu: model,
    cores: availableParallelism(),
    ramGiB: +(totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    load1: +loadavg()[0].toFixed(2),
    date: new Date().toISOString(),
  };
}

/**
 * Other processes sharing the CPUs skew wall-clock figures (CPU-second figures much less);
 * returns a warning to print with the results, or null.
 */
export function busyWarning() {
  const load = loadavg()[0];
  const cores = availableParallelism();
  if (load < 0.5 * cores) return null;
  return `load average ${load.toFixed(2)} on ${cores} cores at start: other processes share the CPUs, so wall-clock figures (docs/s, scaling) are pessimistic; docs per CPU-second are the more reliable figures`;
}

/**
 * Runs a benchmark child (one method, one process, so peak RSS and JIT state are its own) and
 * returns the JSON it prints as its last stdout line.
 */
export function runChild(script, args, { nodeArgs = [], env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
      stdio: ["ignore", "pipe", "inherit"],
      env: env ?? process.env,
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const last = out.trim().split("\n").pop() ?? "";
      if (code !== 0) return reject(new Error(`${relative(ROOT, script)} ${args.join(" ")} failed (${signal ?? `exit ${code}`})`));
      try {
        resolve(JSON.parse(last));
      } catch {
        reject(new Error(`${relative(ROOT, script)} printed no result: ${last.slice(0, 200)}`));
      }
    });
  });
}

/** The median of `xs` (the mean of the two middle values when their count is even). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Markdown table; numbers are expected pre-formatted. */
export function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
  return [line(headers), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...rows.map(line)].join("\n");
}

export const fmt = {
  n: (x, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : "–"),
  mb: (bytes) => (bytes / 1e6).toFixed(0),
  ratio: (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : "–"),
  pct: (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(0)}%` : "–"),
};

/**
 * The command line of a script that runs several builds' `winnow clean` over one input: its own
 * flags before "--" (`--input WARC`, required; `--builds A,B`, this checkout when absent) and the
 * clean flags after it (`defaultCleanFlags` when there is no "--").
 */
export function buildsCommandLine(argv, defaultCleanFlags = [], booleans = []) {
  const dash = argv.indexOf("--");
  const cleanFlags = dash < 0 ? [...defaultCleanFlags] : argv.slice(dash + 1);
  const flags = parseFlags(dash < 0 ? argv : argv.slice(0, dash), booleans);
  if (flags.input === undefined) throw new Error("--input WARC is needed");
  const builds = (flags.builds ?? ".").split(",").map((b) => resolve(b));
  return { flags, builds, cleanFlags };
}

/** Minimal flag parser: --name value, --name=value, bare --flag → true. */
export function parseFlags(argv, booleans = []) {
  const flags = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) {
      flags._.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = a.slice(2, eq < 0 ? undefined : eq);
    if (eq >= 0) flags[name] = a.slice(eq + 1);
    else if (booleans.includes(name)) flags[name] = true;
    else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) flags[name] = argv[++i];
    else flags[name] = true;
  }
  return flags;
}

/** "1,2,4" → [1,2,4]; "1..N" → 1..N. */
export function parseList(text, max) {
  const range = /^(\d+)\.\.(\d+|N)$/.exec(text);
  if (range) {
    const hi = range[2] === "N" ? max : Number(range[2]);
    return Array.from({ length: hi - Number(range[1]) + 1 }, (_, i) => Number(range[1]) + i);
  }
  return text
    .split(",")
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n >= 0);
}

/**
 * htmlparser2 as winnow's segmenter loads it (v12, nested under @winnow/segment), not the v10
 * that linkedom hoists to the root: the floor must be the parser winnow actually runs.
 */
export async function segmentsHtmlparser2() {
  let dir = dirname(fileURLToPath(import.meta.resolve("@winnow/segment")));
  for (;;) {
    const pkg = join(dir, "node_modules", "htmlparser2", "package.json");
    if (existsSync(pkg)) {
      const meta = JSON.parse(readFileSync(pkg, "utf8"));
      const entry = meta.exports?.["."]?.default ?? meta.exports?.["."]?.import ?? meta.main;
      return { module: await import(pathToFileURL(join(dirname(pkg), entry)).href), version: meta.version };
    }
    const up = dirname(dir);
    if (up === dir) throw new Error("htmlparser2 not found from @winnow/segment");
    dir = up;
  }
}
