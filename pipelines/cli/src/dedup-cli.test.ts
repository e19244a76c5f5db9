// `winnow dedup` over two outputs of `winnow clean` of the same pages: every document of the
// second is an exact duplicate of one in the first; and one clear line for each mistake, of
// winnow dedup and of winnow clean --dedup.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWinnow } from "../test/run-winnow.js";

const MAGIC = fileURLToPath(new URL("../../../fixtures/magic-html-sample/html", import.meta.url));
const STACK_FRAME = /^\s+at /m;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "winnow-cli-dedup-"));
  for (const out of ["a.jsonl", "b.jsonl.gz"]) {
    const r = await runWinnow(["clean", MAGIC, "-o", out, "--workers", "0", "--no-lang-id"], dir);
    expect(r.code).toBe(0);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("winnow dedup", () => {
  it("keeps the first input's documents and names them in the rejects of the second's", async () => {
    const r = await runWinnow(["dedup", "a.jsonl", "b.jsonl.gz", "-o", "out", "--rejects", "r.jsonl", "--json"], dir);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    const a = readFileSync(join(dir, "a.jsonl"), "utf8").trim().split("\n");
    expect(summary.documents).toBe(2 * a.length);
    expect(summary.kept).toBe(a.length);
    expect(summary.dropped.exact).toBe(a.length);
    expect(r.stderr).toMatch(new RegExp(`dedup: read ${2 * a.length} documents, kept ${a.length}; dropped ${a.length} exact`));
    expect(readdirSync(join(dir, "out")).sort()).toEqual([".dedup", "a.jsonl", "b.jsonl.gz"]);
    expect(
      readFileSync(join(dir, "out", "a.jsonl"), "utf8")
        .trim()
        .split("\n"),
    ).toEqual(a);
    const rejects = readFileSync(join(dir, "r.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const ids = new Set(a.map((l) => JSON.parse(l).warc_record_id));
    expect(rejects.length).toBe(a.length);
    for (const line of rejects) {
      expect(line).toMatchObject({ reason: "duplicate", kind: "exact" });
      expect(ids.has(line.duplicate_of)).toBe(true);
      expect(line.duplicate_of).toBe(line.id);
    }
    // Run again: every task is done, nothing is redone.
    const again = await runWinnow(["dedup", "a.jsonl", "b.jsonl.gz", "-o", "out"], dir);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/0 tasks run, 20 done before/);
  });

  it("clean --dedup counts a page given twice as one exact duplicate, in the summary line", async () => {
    // A copy, not the same file named twice: that one is read once (#31.7).
    copyFileSync(join(MAGIC, "0007.html.gz"), join(dir, "0007-copy.html.gz"));
    const r = await runWinnow(
      ["clean", MAGIC, join(dir, "0007-copy.html.gz"), "-o", "twice.jsonl", "--workers", "0", "--no-lang-id", "--dedup", "minhash"],
      dir,
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/wrote 16 documents .*skipped 1 \(1 duplicate\).*; duplicates: 1 exact, 0 near/);
  });

  it("documents every flag, the passes and the exit statuses", async () => {
    const r = await runWinnow(["dedup", "--help"], dir);
    expect(r.code).toBe(0);
    for (const flag of ["--output", "--state", "--kinds", "--pass", "--shard", "--band", "--bands", "--rows", "--shingle", "--seed"]) {
      expect(r.stdout).toContain(flag);
    }
    for (const flag of ["--min-similarity", "--line-threshold", "--min-words", "--text-field", "--rejects", "--json"])
      expect(r.stdout).toContain(flag);
    expect(r.stdout).toMatch(/^Passes \(docs\/dedup\.md\):\n {2}signatures/m);
    expect(r.stdout).toMatch(/^ {2}141 /m);
    const clean = await runWinnow(["clean", "--help"], dir);
    expect(clean.stdout).toContain("--dedup <mode>");
  });

  it.each([
    [["dedup", "a.jsonl", "-o", "o1", "--pass", "buckets"], 2, "needs every signature task done first"],
    [["dedup", "missing.jsonl", "-o", "o2"], 3, "cannot open input: no such file or directory (missing.jsonl)"],
    [["dedup", "a.jsonl", "-o", "o3", "--pass", "signatures", "--shard", "4"], 2, "no input 4"],
    [["dedup", "a.jsonl", "-o", "o4", "--kinds", "simhash"], 2, "expected a list of exact, minhash, lines"],
    [["dedup", "a.jsonl", "-o", "o5", "--min-similarity", "1.5"], 2, "expected a number from 0 to 1"],
    [["dedup", "a.jsonl", "-o", "."], 2, "is also an input (input a.jsonl): writing it would destroy the input"],
    [["clean", MAGIC, "-o", "c.jsonl", "--dedup", "simhash"], 2, "Allowed choices are exact, minhash"],
    [["clean", MAGIC, "-o", "c.jsonl", "--dedup", "exact", "--resume"], 2, "--dedup keeps its index in memory for one run"],
  ])("refuses %j with one line and exit status %i", async (args, code, why) => {
    const r = await runWinnow(args as string[], dir);
    expect(r.code).toBe(code);
    expect(r.stderr).toContain(why);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });
});
