#!/usr/bin/env node
/**
 * Builds benchmarks/data/device/ (gitignored): everything benchmarks/device/scaling.sh needs on a
 * machine that has neither Node nor network nor this repo's build outputs:
 *
 *   node.xz              this Node binary, xz-compressed
 *   node_modules.tar.xz  only the runtime dependency closure of the benchmark, with the
 *                        @winnow/* workspace packages as real folders (package.json + dist +
 *                        assets), onnxruntime-node's linux-x64 binaries only, no typings/maps
 *   wcxb-dev-300.warc.gz the first 300 dev pages (the subset the end-to-end compares on)
 *   model.onnx           the default model if present, else the benchmark's quick model
 *   manifest.json        what is in it, sizes, and where it came from
 *
 *   node benchmarks/device/prepare.js [--pages N] [--model PATH] [--data DIR]
 *
 * Run after `npm run build`. The run tool carries this one folder: `carry: ["benchmarks/data/device"]`.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { DATA_DIR, ROOT, SUBSET_PAGES, benchModel, ensureWarc, parseFlags } from "../lib/common.js";

const flags = parseFlags(process.argv.slice(2));
const OUT = join(DATA_DIR, "device");
const STAGE = join(DATA_DIR, "device-stage");
const LIMIT = 64 * 2 ** 20;

/** Packages the benchmark imports at run time; everything else is reached through their dependencies. */
const ROOTS = ["@winnow/clean", "@mozilla/readability", "linkedom", "tinybench"];

/** Never needed to run (typings, source maps, docs) or not for linux-x64. */
function keep(path) {
  const p = path.split(sep).join("/");
  if (/\.(map|d\.ts|d\.mts|d\.cts|tsbuildinfo|md|markdown)$/i.test(p)) return false;
  if (/\/onnxruntime-node\/bin\/napi-v\d+\/(?!linux(\/|$))/.test(p)) return false;
  if (/\/onnxruntime-node\/bin\/napi-v\d+\/linux\/(?!x64(\/|$))/.test(p)) return false;
  if (/\/onnxruntime-node\/(lib|script)(\/|$)/.test(p)) return false;
  return true;
}

const workspaceDirs = new Map(); // realpath of a workspace package → its name
for (const group of ["packages", "pipelines"]) {
  for (const d of readdirSync(join(ROOT, group))) {
    const pkg = join(ROOT, group, d, "package.json");
    if (existsSync(pkg)) workspaceDirs.set(realpathSync(join(ROOT, group, d)), JSON.parse(readFileSync(pkg, "utf8")).name);
  }
}

/** Node's lookup: node_modules/NAME in the folder and each parent, up to the repo root. */
function resolveFrom(dir, name) {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    if (at === ROOT || dirname(at) === at) return null;
  }
}

/**
 * Where a package goes in the slim tree, mirroring its place in the real one so the same
 * lookups find it: ROOT/node_modules/X → X; a workspace package → @winnow/NAME; a workspace
 * package's own node_modules/Y → @winnow/NAME/node_modules/Y.
 */
function destination(real) {
  const hoisted = join(ROOT, "node_modules") + sep;
  if (real.startsWith(hoisted)) return real.slice(hoisted.length);
  for (const [dir, name] of workspaceDirs) {
    if (real === dir) return name;
    if (real.startsWith(dir + sep)) return join(name, relative(dir, real));
  }
  throw new Error(`cannot place ${real} in the slim node_modules`);
}

function collect() {
  const seen = new Map(); // realpath → destination
  const queue = [];
  const add = (real) => {
    if (real && !seen.has(real)) {
      seen.set(real, destination(real));
      queue.push(real);
    }
  };
  for (const name of ROOTS) {
    const real = resolveFrom(ROOT, name);
    if (!real) throw new Error(`${name} is not installed (npm install at the root)`);
    add(real);
  }
  while (queue.length > 0) {
    const dir = queue.shift();
    const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const deps = { ...meta.dependencies, ...meta.optionalDependencies, ...meta.peerDependencies };
    for (const name of Object.keys(deps)) {
      if (name.startsWith("@types/")) continue; // typings only
      const real = resolveFrom(dir, name);
      if (real) add(real);
      else if (!(name in (meta.optionalDependencies ?? {})) && !(name in (meta.peerDependencies ?? {}))) {
        console.error(`prepare: warning: ${meta.name} needs ${name}, which is not installed`);
      }
    }
  }
  return seen;
}

function copyPackage(real, dest) {
  if (workspaceDirs.has(real)) {
    if (!existsSync(join(real, "dist"))) throw new Error(`${workspaceDirs.get(real)} is not built: run npm run build first`);
    mkdirSync(dest, { recursive: true });
    copyFileSync(join(real, "package.json"), join(dest, "package.json"));
    for (const part of ["dist", "assets"]) {
      if (existsSync(join(real, part)))
        cpSync(join(real, part), join(dest, part), { recursive: true, filter: (src) => keep(src) && !/\.test\.js$/.test(src) });
    }
    return;
  }
  // Nested node_modules are packages of their own, copied when something resolves to them.
  cpSync(real, dest, {
    recursive: true,
    filter: (src) => keep(src) && !src.slice(real.length).includes(`${sep}node_modules${sep}`) && !src.endsWith(`${sep}node_modules`),
  });
}

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"], ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (exit ${r.status})`);
}

function duBytes(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((a, f) => a + duBytes(join(path, f)), 0);
}

const mib = (b) => `${(b / 2 ** 20).toFixed(1)} MiB`;

try {
  rmSync(STAGE, { recursive: true, force: true });
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(join(STAGE, "node_modules"), { recursive: true });
  mkdirSync(OUT, { recursive: true });

  const model = flags.model ? { path: flags.model, kind: "given" } : await benchModel({ data: flags.data });
  const packages = collect();
  for (const [real, dest] of packages) copyPackage(real, join(STAGE, "node_modules", dest));
  // The build may change under us (others rebuilding): the model must load with the copied dist.
  // A child process, so the copied packages (not this process's) are the ones loaded.
  const check = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const m = await import(${JSON.stringify(pathToFileURL(join(STAGE, "node_modules", "@winnow", "models", "dist", "index.js")).href)});
     await (await m.loadMlpClassifier(${JSON.stringify(model.path)})).close();`,
    ],
    { encoding: "utf8" },
  );
  if (check.status !== 0) {
    throw new Error(
      `the model does not load with the copied build; rebuild, then run prepare again:\n${check.stderr.trim().split("\n").slice(-3).join("\n")}`,
    );
  }
  const slimBytes = duBytes(join(STAGE, "node_modules"));
  console.error(
    `prepare: ${packages.size} packages, ${mib(slimBytes)} uncompressed (root node_modules: ${mib(duBytes(join(ROOT, "node_modules")))})`,
  );

  // xz, not gzip: the Node binary and libonnxruntime are most of the carry (gzip would exceed it).
  run("tar", ["-C", STAGE, "-cf", join(OUT, "node_modules.tar"), "node_modules"]);
  run("xz", ["-9", "-T0", "-f", join(OUT, "node_modules.tar")]);
  // The compressed Node binary is cached: it only changes with the Node version.
  const nodeCache = join(DATA_DIR, `node-${process.version}-${process.platform}-${process.arch}-${statSync(process.execPath).size}.xz`);
  if (!existsSync(nodeCache)) {
    copyFileSync(process.execPath, join(OUT, "node"));
    run("xz", ["-9", "-T0", "-f", join(OUT, "node")]);
    copyFileSync(join(OUT, "node.xz"), nodeCache);
  } else {
    copyFileSync(nodeCache, join(OUT, "node.xz"));
  }

  const pages = Number(flags.pages ?? SUBSET_PAGES);
  const warc = ensureWarc({ limit: pages, data: flags.data });
  const warcName = `wcxb-dev-${pages}.warc.gz`;
  copyFileSync(warc, join(OUT, warcName));
  copyFileSync(model.path, join(OUT, "model.onnx"));

  const files = Object.fromEntries(readdirSync(OUT).map((f) => [f, statSync(join(OUT, f)).size]));
  const total = Object.values(files).reduce((a, b) => a + b, 0);
  writeFileSync(
    join(OUT, "manifest.json"),
    JSON.stringify(
      {
        created: new Date().toISOString(),
        node: process.version,
        nodeBytes: statSync(process.execPath).size,
        platform: `${process.platform}-${process.arch}`,
        slimNodeModulesBytes: slimBytes,
        packages: [...packages.values()].sort(),
        warc: warcName,
        pages,
        model: { source: relative(ROOT, model.path), kind: model.kind },
        files,
      },
      null,
      2,
    ),
  );
  rmSync(STAGE, { recursive: true, force: true });

  for (const [f, size] of Object.entries(files)) console.error(`  ${f.padEnd(28)} ${mib(size)}`);
  console.error(`prepare: benchmarks/data/device is ${mib(total)}; the carry limit is ${mib(LIMIT)} including the working tree`);
  if (total > LIMIT - 4 * 2 ** 20) {
    console.error("prepare: too big to carry with the working tree; use fewer --pages");
    process.exit(1);
  }
} catch (error) {
  console.error(`prepare: ${error.message}`);
  process.exit(1);
}
