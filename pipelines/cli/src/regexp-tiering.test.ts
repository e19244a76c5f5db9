// The winnow process keeps a regular expression interpreted for its first executions (see
// regexp-tiering.ts): V8's own trace of its tier-up says when it compiles one.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { REGEXP_TIER_UP_TICKS } from "./regexp-tiering.js";

const TIERING = new URL("../dist/regexp-tiering.js", import.meta.url).href;
const MAIN = new URL("../dist/main.js", import.meta.url);

/**
 * Whether V8 compiled one new pattern to machine code in a fresh node that (with `setting`)
 * imports the module first, then runs the pattern `times` times on a short string, in the main
 * thread or a worker thread (a pool thread shares the process's setting). The trace names each
 * pattern by address: ours is the one whose bytecode is far larger than any of Node's own.
 */
function compiled(setting: boolean, times: number, inWorker = false): boolean {
  const runs = `const words = Array.from({ length: 600 }, (_, i) => "winnow" + i).join("|");
const pattern = new RegExp("(?:" + words + ")tier");
for (let i = 0; i < ${times}; i++) pattern.exec("x winnow599tier y");`;
  const body = inWorker ? `import { Worker } from "node:worker_threads"; new Worker(${JSON.stringify(runs)}, { eval: true });` : runs;
  const script = `${setting ? `await import(${JSON.stringify(TIERING)});` : ""}\n${body}`;
  const child = spawnSync(process.execPath, ["--trace-regexp-tier-up", "--input-type=module", "-e", script], { encoding: "utf8" });
  if (child.status !== 0) throw new Error(`the child failed (${child.status}): ${child.stderr}`);
  const lines = child.stdout.split("\n");
  const ours = lines
    .map((line) => /^JSRegExp object (\S+) bytecode size: (\d+)$/.exec(line))
    .find((match) => match !== null && Number(match[2]) > 5000);
  if (ours === undefined) throw new Error(`the pattern's bytecode is not in the trace:\n${child.stdout}`);
  return lines.includes(`JSRegExp object ${ours[1]} needs tier-up compilation`);
}

describe("regular expressions compiled after their tenth execution", () => {
  it("is not what V8 does by itself: it compiles a pattern on its second execution", () => {
    expect(compiled(false, 2)).toBe(true);
  });

  it("keeps a pattern interpreted for its first executions, then compiles it", () => {
    expect(REGEXP_TIER_UP_TICKS).toBe(10);
    expect(compiled(true, REGEXP_TIER_UP_TICKS)).toBe(false);
    expect(compiled(true, REGEXP_TIER_UP_TICKS + 2)).toBe(true);
  });

  it("holds in a pool thread too", () => {
    expect(compiled(false, 2, true)).toBe(true);
    expect(compiled(true, REGEXP_TIER_UP_TICKS, true)).toBe(false);
  });

  it("is the first thing the executable's entry imports", () => {
    expect(readFileSync(MAIN, "utf8").match(/^import .*$/m)?.[0]).toBe('import "./regexp-tiering.js";');
  });
});
