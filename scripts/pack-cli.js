#!/usr/bin/env node
// Packs winnow's command line as one npm tarball, winnow-corpus-<version>.tgz, that installs on a
// node or in a container: npm install -g ./winnow-corpus-<version>.tgz gives `winnow`, and so does
// an install into a folder.
//
// The workspace packages (@winnow/*) are private and never published (the npm name "winnow"
// and the @winnow scope are not ours), so the tarball carries them inside as bundled
// dependencies; their third-party dependencies are the tarball's own, installed from the
// registry. The built dist/ folders are packed as they are: run `npm run build` first.
//
// Usage: node scripts/pack-cli.js [destination folder]   (prints the tarball's path)
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The package's name on the registry: `npm view winnow-corpus` answered 404 (free) when chosen. */
const NAME = "winnow-corpus";
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = "@winnow/cli";

const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));

/** Every workspace package by name, with its folder. */
function workspaces() {
  const found = new Map();
  for (const group of ["packages", "pipelines"]) {
    for (const entry of readdirSync(join(ROOT, group))) {
      const dir = join(ROOT, group, entry);
      if (existsSync(join(dir, "package.json"))) found.set(readJson(join(dir, "package.json")).name, dir);
    }
  }
  return found;
}

/** The workspace packages the CLI needs, itself included, and their third-party dependencies. */
function closure(all) {
  const needed = new Map();
  const external = {};
  const visit = (name) => {
    if (needed.has(name)) return;
    const dir = all.get(name);
    if (dir === undefined) throw new Error(`${name} is not a workspace package`);
    const pkg = readJson(join(dir, "package.json"));
    needed.set(name, { dir, pkg });
    for (const [dep, range] of Object.entries(pkg.dependencies ?? {})) {
      if (all.has(dep)) visit(dep);
      else if (external[dep] !== undefined && external[dep] !== range) {
        // One copy at the top serves every bundled package: two ranges would need two copies.
        throw new Error(`${dep} is wanted as ${external[dep]} and as ${range}: give every package the same range`);
      } else external[dep] = range;
    }
  };
  visit(CLI);
  return { needed, external };
}

/** What of a built package goes in: its package.json for running, dist/ without tests, and bin/ and assets/. */
function copyBuilt(from, to, pkg, extra) {
  mkdirSync(to, { recursive: true });
  if (!existsSync(join(from, "dist"))) throw new Error(`${pkg.name} is not built: run npm run build first`);
  for (const part of ["dist", "bin", "assets"]) {
    if (!existsSync(join(from, part))) continue;
    cpSync(join(from, part), join(to, part), {
      recursive: true,
      filter: (src) => !/\.test\.(js|d\.ts)(\.map)?$|\.tsbuildinfo$|test-report\.json$/.test(src),
    });
  }
  const { scripts, devDependencies, private: _private, ...kept } = pkg;
  writeFileSync(join(to, "package.json"), `${JSON.stringify({ ...kept, ...extra }, null, 2)}\n`);
}

/**
 * A bundled package's dependencies as packed: only the other bundled packages. Its third-party
 * ones are the tarball's own (one range each, checked by closure), found by Node's lookup up the
 * folders. Were they listed here too, npm would count each as part of the bundle wherever it
 * lands beside the bundled packages, which `npm install -g` does with every dependency (they go
 * into winnow-corpus/node_modules): it then never unpacks them and runs their install scripts on
 * an empty folder (zstd-napi: "prebuild-install: not found", "binding.gyp not found").
 */
function workspaceOnly(dependencies, needed) {
  return Object.fromEntries(Object.entries(dependencies ?? {}).filter(([name]) => needed.has(name)));
}

const destination = resolve(process.argv[2] ?? ".");
const { needed, external } = closure(workspaces());
const stage = mkdtempSync(join(tmpdir(), "winnow-pack-"));
try {
  const cli = needed.get(CLI);
  const bundled = [...needed.keys()].filter((name) => name !== CLI).sort();
  const rootPkg = readJson(join(ROOT, "package.json"));
  copyBuilt(cli.dir, stage, cli.pkg, {
    name: NAME,
    description: rootPkg.description,
    license: rootPkg.license,
    engines: rootPkg.engines,
    keywords: ["web corpus", "boilerplate removal", "warc", "common crawl", "text extraction"],
    // Bundled packages must be dependencies too; their own dependencies come from the registry.
    dependencies: { ...Object.fromEntries(bundled.map((name) => [name, needed.get(name).pkg.version])), ...external },
    bundleDependencies: bundled,
    files: ["bin", "dist", "README.md"],
  });
  for (const name of bundled) {
    const { dir, pkg } = needed.get(name);
    copyBuilt(dir, join(stage, "node_modules", name), pkg, { dependencies: workspaceOnly(pkg.dependencies, needed) });
  }
  cpSync(join(ROOT, "README.md"), join(stage, "README.md"));
  mkdirSync(destination, { recursive: true });
  const [packed] = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", destination], { cwd: stage, encoding: "utf8" }));
  process.stdout.write(`${join(destination, packed.filename)}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
