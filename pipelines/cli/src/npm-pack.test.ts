// SLOW (four minutes or more; uses the npm registry for third-party packages, as CI can): winnow
// packed as users install it. scripts/pack-cli.js makes one tarball, winnow-corpus-<version>.tgz,
// with the private workspace packages bundled inside; it is installed into a fresh folder, and
// globally (npm install -g, under a prefix of its own), away from the checkout, and each
// installed `winnow clean` must write the very documents the checkout's does.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWinnow } from "../test/run-winnow.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SAMPLE = join(ROOT, "fixtures", "sample.warc.gz");

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-npm-pack-"));
});
// Two installed trees (onnxruntime-node's binaries among them): more than the default minute on a busy disk.
afterAll(() => rmSync(dir, { recursive: true, force: true }), 300_000);

describe("npm pack (slow: installs from the registry)", () => {
  it("installs winnow-corpus into a fresh folder and globally, and each winnow cleans as the checkout's does", async () => {
    const tarball = execFileSync(process.execPath, [join(ROOT, "scripts", "pack-cli.js"), join(dir, "pack")], { encoding: "utf8" }).trim();
    expect(tarball).toMatch(/winnow-corpus-\d+\.\d+\.\d+\.tgz$/);
    const listing = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" }).split("\n");
    // The models ship inside, and no test or source file.
    expect(listing).toContain("package/node_modules/@winnow/models/assets/default-mlp.onnx");
    expect(listing.filter((f) => /\.test\.|\/src\/.*\.ts$/.test(f))).toEqual([]);
    const manifest = JSON.parse(execFileSync("tar", ["xzf", tarball, "-O", "package/package.json"], { encoding: "utf8" }));
    expect(manifest.name).toBe("winnow-corpus");
    expect(manifest.bin).toEqual({ winnow: "bin/winnow.js" });
    expect(manifest.private).toBeUndefined();
    // A bundled package names only bundled ones as dependencies: npm would take any other for part
    // of the bundle where it lands beside them (everywhere, with -g) and never unpack it.
    const archive = JSON.parse(
      execFileSync("tar", ["xzf", tarball, "-O", "package/node_modules/@winnow/archive/package.json"], { encoding: "utf8" }),
    );
    expect(Object.keys(archive.dependencies)).toEqual(["@winnow/errors"]);
    expect(manifest.dependencies["zstd-napi"]).toBeDefined();

    const app = join(dir, "app");
    execFileSync("mkdir", ["-p", app]);
    writeFileSync(join(app, "package.json"), '{ "private": true }\n');
    // Away from the checkout's .npmrc: onnxruntime-node must be told not to download CUDA libraries.
    const install = spawnSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], {
      cwd: app,
      encoding: "utf8",
      env: { ...process.env, npm_config_onnxruntime_node_install: "skip" },
    });
    expect(install.stderr.split("\n").filter((l) => /ERR!|npm error/.test(l))).toEqual([]);
    expect(install.status).toBe(0);
    const winnow = join(app, "node_modules", ".bin", "winnow");
    expect(existsSync(winnow)).toBe(true);
    // The workspace packages come from inside the tarball, not from the registry.
    expect(readdirSync(join(app, "node_modules", "winnow-corpus", "node_modules", "@winnow"))).toContain("clean");

    // Globally, as on a node without a shared software folder: `npm install -g` puts every
    // dependency inside winnow-corpus/node_modules, beside the bundled packages.
    const prefix = join(dir, "global");
    const global = spawnSync("npm", ["install", "-g", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", tarball], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, npm_config_onnxruntime_node_install: "skip" },
    });
    expect(global.stderr.split("\n").filter((l) => /ERR!|npm error/.test(l))).toEqual([]);
    expect(global.status).toBe(0);
    const globalWinnow = join(prefix, "bin", "winnow");
    expect(existsSync(join(prefix, "lib", "node_modules", "winnow-corpus", "node_modules", "zstd-napi", "binding.gyp"))).toBe(true);

    const checkout = await runWinnow(["clean", SAMPLE, "-o", join(dir, "checkout.jsonl.zst"), "--workers", "1"], dir);
    expect(checkout.code).toBe(0);
    const expected = execFileSync("zstd", ["-dc", join(dir, "checkout.jsonl.zst")], { encoding: "utf8" });
    expect(expected.split("\n").filter((l) => l !== "")).toHaveLength(14);
    // Written with zstd, which needs zstd-napi's native binding: what the global install broke.
    for (const [name, bin] of [
      ["installed", winnow],
      ["global", globalWinnow],
    ]) {
      const out = join(dir, `${name}.jsonl.zst`);
      const installed = spawnSync(bin, ["clean", SAMPLE, "-o", out, "--workers", "1"], { cwd: dir, encoding: "utf8" });
      expect([name, installed.status, installed.stderr.split("\n").filter((l) => /winnow:|Error/.test(l))]).toEqual([name, 0, []]);
      expect(execFileSync("zstd", ["-dc", out], { encoding: "utf8" })).toBe(expected);
    }
  }, 1_200_000);
});
