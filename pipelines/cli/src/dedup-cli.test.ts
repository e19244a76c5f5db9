// `winnow dedup` over two outputs of `winnow clean` of the same pages: every document of the
// second is an exact duplicate of one in the first; and one clear line for each mistake, of
// winnow dedup and of winnow clean --dedup.
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWinnow } from "../test/run-winnow.js";

const MAGIC = fileURLToPath(new URL("../../../fixtures/magic-html-sample/html", import.meta.url));
const SAMPLE = fileURLToPath(new URL("../../../fixtures/sample.warc.gz", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("../../../fixtures/warc/example.warc.gz", import.meta.url));
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
    const again = await runWinnow(["dedup", "a.jsonl", "b.jsonl.gz", "-o", "out", "--json"], dir);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/0 tasks run, 20 done before/);
    // The process's peak memory, also when there was nothing left to do.
    expect(summary.peakRssBytes).toBeGreaterThan(20e6);
    expect(JSON.parse(again.stdout).peakRssBytes).toBeGreaterThan(20e6);
    expect(again.stderr).toMatch(/peak RSS [1-9]\d* MB/);
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
    for (const flag of ["--rank <r>", "--world-size <n>", "--skip-incomplete"]) expect(r.stdout).toContain(flag);
    expect(r.stdout).toMatch(/^Array tasks \(--pass P --world-size N\):/m);
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
    [["dedup", "a.jsonl", "-o", "o6", "--world-size", "2", "--rank", "0"], 2, "give --pass too"],
    [
      ["dedup", "a.jsonl", "-o", "o7", "--pass", "signatures", "--world-size", "2", "--rank", "2"],
      2,
      "the rank must be an integer from 0 to 1",
    ],
    [["dedup", "a.jsonl", "-o", "o8", "--pass", "clusters", "--world-size", "3", "--rank", "0"], 2, "the clusters pass is one task"],
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

/** Every file below `out` outside its hidden folders, by its path relative to `out`: base64 of its bytes. */
function filesBelow(out: string): Record<string, string> {
  return Object.fromEntries(
    (readdirSync(out, { recursive: true }) as string[])
      .filter((p) => !p.split(/[/\\]/).some((part) => part.startsWith(".")) && statSync(join(out, p)).isFile())
      .sort()
      .map((p) => [p, readFileSync(join(out, p)).toString("base64")]),
  );
}

const gunzipped = (path: string): string => gunzipSync(readFileSync(path)).toString("utf8");

describe("winnow dedup over the tree of a clean --paths-file run", () => {
  const PASSES = ["signatures", "buckets", "clusters", "filter"];
  const TASKS: Record<string, number> = { signatures: 2, buckets: 4, clusters: 1, filter: 3 };
  let tree: string;

  beforeAll(async () => {
    // Three WARCs, two of them the same pages: one clean task per input, nested outputs with done markers.
    mkdirSync(join(dir, "mirror", "seg"), { recursive: true });
    copyFileSync(SAMPLE, join(dir, "mirror", "seg", "a.warc.gz"));
    copyFileSync(SAMPLE, join(dir, "mirror", "seg", "b.warc.gz"));
    copyFileSync(EXAMPLE, join(dir, "mirror", "c.warc.gz"));
    writeFileSync(join(dir, "warc.paths"), "seg/a.warc.gz\nseg/b.warc.gz\nc.warc.gz\n");
    tree = join(dir, "crawl");
    const quick = ["--model", "heuristic", "--workers", "0", "--no-lang-id"];
    const r = await runWinnow(["clean", "--paths-file", "warc.paths", "--base-url", "mirror/", "-o", tree, ...quick], dir);
    expect(r.code).toBe(0);
    expect(readdirSync(join(tree, "seg")).sort()).toEqual(["a.jsonl.gz", "a.jsonl.gz.done", "b.jsonl.gz", "b.jsonl.gz.done"]);
  });

  it("winnow dedup crawl -o d writes what the same files named one by one give", async () => {
    const r = await runWinnow(["dedup", "crawl", "-o", "tree-d", "--rejects", "tree-r.jsonl", "--json"], dir);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(r.code).toBe(0);
    // The tree's order: the bytes of the paths inside it.
    const files = ["crawl/c.jsonl.gz", "crawl/seg/a.jsonl.gz", "crawl/seg/b.jsonl.gz"];
    const flat = await runWinnow(["dedup", ...files, "-o", "flat-d", "--rejects", "flat-r.jsonl", "--json"], dir);
    expect(flat.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    const sample = gunzipped(join(tree, "seg", "a.jsonl.gz"))
      .trim()
      .split("\n").length;
    expect(summary).toMatchObject({ inputs: 3, kept: JSON.parse(flat.stdout).kept, dropped: { exact: sample, near: 0 } });
    expect(Object.keys(filesBelow(join(dir, "tree-d")))).toEqual(["c.jsonl.gz", "seg/a.jsonl.gz", "seg/b.jsonl.gz"]);
    for (const name of ["c", "a", "b"]) {
      const nested = name === "c" ? "c.jsonl.gz" : `seg/${name}.jsonl.gz`;
      expect(gunzipped(join(dir, "tree-d", nested))).toBe(gunzipped(join(dir, "flat-d", `${name}.jsonl.gz`)));
    }
    expect(gunzipped(join(dir, "tree-d", "seg", "a.jsonl.gz"))).toBe(gunzipped(join(tree, "seg", "a.jsonl.gz")));
    expect(gunzipped(join(dir, "tree-d", "seg", "b.jsonl.gz"))).toBe("");
    expect(readFileSync(join(dir, "tree-r.jsonl"), "utf8")).toBe(readFileSync(join(dir, "flat-r.jsonl"), "utf8"));
  });

  it("runs each pass as concurrent array tasks (child processes, ranks 0..N-1) with byte-identical outputs", async () => {
    const one = await runWinnow(["dedup", "crawl", "-o", "one-d", "--rejects", "one-r.jsonl"], dir);
    expect(one.code).toBe(0);
    for (const pass of PASSES) {
      const n = TASKS[pass];
      const runs = Array.from({ length: n }, (_, rank) => {
        const args = ["dedup", ...(pass === "signatures" ? ["crawl"] : []), "-o", "array-d", "--pass", pass, "--rejects", "array-r.jsonl"];
        // The last rank from Slurm's environment, as an array job starts it; the others from the flags.
        if (rank === n - 1 && n > 1)
          return runWinnow(args, dir, undefined, { ...process.env, SLURM_ARRAY_TASK_ID: String(rank), SLURM_ARRAY_TASK_COUNT: String(n) });
        return runWinnow([...args, "--rank", String(rank), "--world-size", String(n)], dir);
      });
      const results = await Promise.all(runs);
      for (const [rank, r] of results.entries()) {
        expect(r.stderr).not.toMatch(STACK_FRAME);
        expect(r.code).toBe(0);
        if (n > 1) expect(r.stderr).toMatch(new RegExp(`task ${rank} of ${n} \\((flags|SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT)\\)`));
      }
    }
    expect(filesBelow(join(dir, "array-d"))).toEqual(filesBelow(join(dir, "one-d")));
    expect(readFileSync(join(dir, "array-r.jsonl"), "utf8")).toBe(readFileSync(join(dir, "one-r.jsonl"), "utf8"));
    // Every task found its items done: a second round of the same tasks runs nothing.
    const again = await runWinnow(["dedup", "-o", "array-d", "--pass", "buckets", "--rank", "1", "--world-size", "4"], dir);
    expect(again.stderr).toMatch(/0 tasks run, 4 done before/);
  });

  it("refuses an input changed between passes with exit status 3, and writes nothing of it", async () => {
    for (const [name, change] of [
      ["same-size", (p: string) => flipLastDataByte(p)],
      ["other-size", (p: string) => writeFileSync(p, readFileSync(p).subarray(0, 200))],
    ] as const) {
      const copy = join(dir, `crawl-${name}`);
      cpSync(tree, copy, { recursive: true });
      for (const p of ["c.jsonl.gz", "seg/a.jsonl.gz", "seg/b.jsonl.gz"]) utimesSync(join(copy, p), 1_700_000_000, 1_700_000_000);
      const out = `changed-${name}`;
      for (const pass of ["signatures", "buckets", "clusters"]) {
        const r = await runWinnow(["dedup", ...(pass === "signatures" ? [copy] : []), "-o", out, "--pass", pass], dir);
        expect(r.code).toBe(0);
      }
      change(join(copy, "seg", "a.jsonl.gz"));
      const r = await runWinnow(["dedup", "-o", out, "--pass", "filter"], dir);
      expect(r.code).toBe(3);
      expect(r.stderr).not.toMatch(STACK_FRAME);
      expect(r.stderr).toMatch(/this input changed since the dedup plan was made \(.*\).*new --state/);
      expect(r.stderr).toContain(join(copy, "seg", "a.jsonl.gz"));
      expect(r.stderr).toMatch(name === "same-size" ? /content hash differs/ : /size \d+ -> 200 bytes/);
      expect(existsSync(join(dir, out, "seg", "a.jsonl.gz"))).toBe(false);
    }
  });

  it("refuses outputs not marked done unless --skip-incomplete, and reads a file named twice once", async () => {
    const copy = join(dir, "crawl-incomplete");
    cpSync(tree, copy, { recursive: true });
    unlinkSync(join(copy, "seg", "b.jsonl.gz.done"));
    const refused = await runWinnow(["dedup", "crawl-incomplete", "-o", "incomplete-d"], dir);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/1 output\(s\) of a per-input run are not marked done .*seg\/b\.jsonl\.gz; .*--skip-incomplete/);
    const skipped = await runWinnow(["dedup", "crawl-incomplete", "-o", "incomplete-d", "--skip-incomplete", "--json"], dir);
    expect(skipped.code).toBe(0);
    expect(JSON.parse(skipped.stdout).inputs).toBe(2);
    expect(skipped.stderr).toMatch(/left out 1 output\(s\) not marked done/);

    const twice = await runWinnow(["dedup", "crawl", "crawl/seg/a.jsonl.gz", "-o", "twice-d", "--json"], dir);
    expect(twice.code).toBe(0);
    expect(JSON.parse(twice.stdout)).toMatchObject({ inputs: 3, repeated: [join(tree, "seg", "a.jsonl.gz")] });
    expect(filesBelow(join(dir, "twice-d"))).toEqual(filesBelow(join(dir, "tree-d")));
  });

  it("refuses a --text-field that no row has, naming the fields there are (exit status 2)", async () => {
    const r = await runWinnow(["dedup", "crawl", "-o", "field-d", "--text-field", "body"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(r.stderr).toMatch(
      /no row of .*c\.jsonl\.gz has the text field \\"body\\"; its rows have: .*\btext\b.*\burl\b.*\(--text-field body\)/,
    );
  });
});

/** The last byte of a gzip file's compressed data flipped: the same size, and the same time put back. */
function flipLastDataByte(path: string): void {
  const bytes = readFileSync(path);
  bytes[bytes.length - 9] ^= 0xff;
  writeFileSync(path, bytes);
  utimesSync(path, 1_700_000_000, 1_700_000_000);
}
