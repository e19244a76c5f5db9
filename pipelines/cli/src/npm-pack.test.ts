// SLOW (two minutes or more; uses the npm registry for third-party packages, as CI can): winnow
// packed as users install it. scripts/pack-cli.js makes one tarball, winnow-corpus-<version>.tgz,
// with the private workspace packages bundled inside; it is installed into a fresh folder, away
// from the checkout, and its `winnow clean` must write the very documents the checkout's does.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm pack (slow: installs from the registry)", () => {
  it("installs winnow-corpus into a fresh folder, whose winnow cleans as the checkout's does", async () => {
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

    const installed = spawnSync(winnow, ["clean", SAMPLE, "-o", join(dir, "installed.jsonl"), "--workers", "1"], {
      cwd: app,
      encoding: "utf8",
    });
    expect(installed.status).toBe(0);
    const checkout = await runWinnow(["clean", SAMPLE, "-o", join(dir, "checkout.jsonl"), "--workers", "1"], dir);
    expect(checkout.code).toBe(0);
    const documents = readFileSync(join(dir, "installed.jsonl"), "utf8");
    expect(documents.split("\n").filter((l) => l !== "")).toHaveLength(14);
    expect(documents).toBe(readFileSync(join(dir, "checkout.jsonl"), "utf8"));
  }, 900_000);
});
