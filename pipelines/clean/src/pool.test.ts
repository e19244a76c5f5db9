import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const POOL = fileURLToPath(new URL("../dist/pool.js", import.meta.url));

/**
 * Opens a pool in a fresh `node` (the test forks run with flags of their own) whose threads
 * describe themselves by their execArgv, and prints what they said.
 */
function threadFlags(nodeFlags: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "winnow-pool-"));
  const worker = join(dir, "argv-worker.mjs");
  writeFileSync(
    worker,
    `export default async () => [];
export async function describeClassifier() { return { ok: true, name: process.execArgv.join(" "), threshold: 0.5 }; }
`,
  );
  const script = `const { openPoolCleaner } = await import(${JSON.stringify(POOL)});
const cleaner = await openPoolCleaner({ settings: { model: "heuristic" }, threads: 2, workerModule: ${JSON.stringify(worker)} });
console.log(JSON.stringify(cleaner.model));
await cleaner.close();`;
  // Without npm's NODE_OPTIONS (the project's .npmrc adds an --import preload): Node refuses a
  // preload in a thread whose execArgv, copied from this -e process, holds --input-type.
  const env = { ...process.env, NODE_OPTIONS: "" };
  const out = execFileSync(process.execPath, [...nodeFlags, "--input-type=module", "-e", script], { encoding: "utf8", env });
  return JSON.parse(out.trim().split("\n").pop() as string) as string;
}

describe("the pool's threads", () => {
  it("load their module without require(esm), whose interruption can abort the process", () => {
    expect(threadFlags([]).split(" ")).toContain("--no-experimental-require-module");
  });

  it("still start when the parent runs with flags a thread may not take (node --expose-gc)", () => {
    expect(threadFlags(["--expose-gc"]).split(" ")).not.toContain("--no-experimental-require-module");
  });
});
