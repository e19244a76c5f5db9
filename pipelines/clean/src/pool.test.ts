import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ResourceLimits } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { THREAD_RESOURCE_LIMITS } from "../dist/pool.js";

const POOL = fileURLToPath(new URL("../dist/pool.js", import.meta.url));

/**
 * Opens a pool in a fresh `node` (the test forks run with flags of their own) whose threads
 * describe themselves by `describe`, an expression evaluated in the thread, and prints what
 * they said.
 */
function threadSays(nodeFlags: string[], describe: string): string {
  const dir = mkdtempSync(join(tmpdir(), "winnow-pool-"));
  const worker = join(dir, "describe-worker.mjs");
  writeFileSync(
    worker,
    `import { resourceLimits } from "node:worker_threads";
export default async () => [];
export async function describeClassifier() { return { ok: true, name: ${describe}, threshold: 0.5 }; }
`,
  );
  const script = `const { openPoolCleaner } = await import(${JSON.stringify(POOL)});
const cleaner = await openPoolCleaner({ settings: { model: "heuristic" }, threads: 2, workerModule: ${JSON.stringify(worker)} });
console.log(JSON.stringify(cleaner.model));
await cleaner.close();`;
  const out = execFileSync(process.execPath, [...nodeFlags, "--input-type=module", "-e", script], { encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop() as string) as string;
}

/** The execArgv of the pool's threads, space-separated. */
const threadFlags = (nodeFlags: string[]): string => threadSays(nodeFlags, `process.execArgv.join(" ")`);

/** The V8 heap limits the pool's threads run under. */
const threadLimits = (nodeFlags: string[]): ResourceLimits => JSON.parse(threadSays(nodeFlags, "JSON.stringify(resourceLimits)"));

describe("the pool's threads", () => {
  it("load their module without require(esm), whose interruption can abort the process", () => {
    expect(threadFlags([]).split(" ")).toContain("--no-experimental-require-module");
  });

  it("still start when the parent runs with flags a thread may not take (node --expose-gc)", () => {
    expect(threadFlags(["--expose-gc"]).split(" ")).not.toContain("--no-experimental-require-module");
  });

  it("run under the pool's heap limits, not the process's (a 4x growing old generation)", () => {
    const limits = threadLimits([]);
    expect(limits.maxOldGenerationSizeMb).toBe(THREAD_RESOURCE_LIMITS.maxOldGenerationSizeMb);
    // Below 2 GB, where V8 lets an old generation grow to less than 4x its live size.
    expect(limits.maxOldGenerationSizeMb).toBeLessThan(2048);
    expect(limits.maxOldGenerationSizeMb).toBeGreaterThanOrEqual(512);
  });

  it("never get more heap than the process has (node --max-old-space-size=700)", () => {
    // The process's heap limit: its old generation and its young one (48 MB).
    expect(threadLimits(["--max-old-space-size=700"]).maxOldGenerationSizeMb).toBeLessThanOrEqual(700 + 48);
  });

  it("keep those limits when the parent's flags are refused to threads", () => {
    const limits = threadLimits(["--expose-gc"]);
    expect(limits.maxOldGenerationSizeMb).toBe(THREAD_RESOURCE_LIMITS.maxOldGenerationSizeMb);
    expect(limits.maxOldGenerationSizeMb).toBeLessThan(2048);
  });
});
