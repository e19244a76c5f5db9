// `winnow clean`'s corpus flags and `winnow stats`: one run with filters into Parquet, its
// summary read back, and one clear line for each mistake.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWinnow } from "../test/run-winnow.js";

const MAGIC = fileURLToPath(new URL("../../../fixtures/magic-html-sample/html", import.meta.url));
const SAMPLE = fileURLToPath(new URL("../../../fixtures/sample.warc.gz", import.meta.url));
// A listing of short lines that FineWeb's recipe refuses: since repeated blocks are kept once
// (issue 35), no magic-html sample page fails a rule any more.
const SHORT_LINES = fileURLToPath(new URL("../../../fixtures/wcxb-sample/html/2911.html.gz", import.meta.url));
const STACK_FRAME = /^\s+at /m;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-cli-corpus-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("winnow clean with corpus flags, then winnow stats", () => {
  it("filters into Parquet and a rejects file, and stats reads both back", async () => {
    const clean = await runWinnow(
      [
        "clean",
        MAGIC,
        SHORT_LINES,
        "-o",
        "c.parquet",
        "--rejects",
        "r.jsonl",
        "--workers",
        "0",
        "--filters",
        "gopher,c4,fineweb",
        "--stats",
      ],
      dir,
    );
    expect(clean.code).toBe(0);
    expect(clean.stderr).toMatch(/wrote (\d+) documents \(parquet\) to c\.parquet .*skipped \d+ \(\d+ filter\)/);
    const rejects = readFileSync(join(dir, "r.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rejects.every((r) => r.reason === "filter" && typeof r.rule === "string")).toBe(true);

    const json = await runWinnow(["stats", "c.parquet", "--rejects", "r.jsonl", "--json"], dir);
    expect(json.code).toBe(0);
    const s = JSON.parse(json.stdout);
    expect(s.documents + rejects.length).toBe(17);
    expect(Object.keys(s.languages).sort()).toEqual(["ar", "en", "ja", "tr", "zh"]);
    expect(s.rejected).toEqual({ filter: rejects.length });
    expect(Object.values(s.droppedByRule as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(rejects.length);
    expect(s.wordsHistogram.count.reduce((a: number, b: number) => a + b, 0)).toBe(s.documents);

    const table = await runWinnow(["stats", "c.parquet", "--rejects", "r.jsonl"], dir);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^corpus\n {2}documents +\d+/);
    expect(table.stdout).toContain("languages\n");
    expect(table.stdout).toContain("documents dropped, by the first rule they failed (--rejects)");
    expect(table.stdout).toContain("words per document\n");
  });

  it("refuses a rejects file or a manifest given as the corpus, and a corpus given as rejects (exit 3, naming it)", async () => {
    writeFileSync(join(dir, "c.jsonl"), `${JSON.stringify({ url: "https://a.example/", text: "Ein Text 😀." })}\n`);
    writeFileSync(
      join(dir, "r2.jsonl"),
      `${JSON.stringify({ source: "x.warc", offset: 0, record_id: "<urn:x>", url: "u", reason: "not-html" })}\n`,
    );
    writeFileSync(join(dir, "c.jsonl.manifest"), `${JSON.stringify({ type: "input", run: "r1", part: "c.jsonl", path: "x.warc" })}\n`);
    const cases: Array<[string[], string]> = [
      [
        ["stats", "r2.jsonl"],
        "winnow: not a corpus written by winnow clean: this looks like a rejects file (winnow clean --rejects; give it with --rejects) (row 1) (r2.jsonl)",
      ],
      [
        ["stats", "c.jsonl.manifest"],
        "winnow: not a corpus written by winnow clean: this looks like a run manifest (winnow clean --resume) (row 1) (c.jsonl.manifest)",
      ],
      [
        ["stats", "c.jsonl", "--rejects", "c.jsonl"],
        "winnow: not a rejects file of winnow clean: this looks like a corpus (give it as an argument, not with --rejects) (row 1) (c.jsonl)",
      ],
    ];
    for (const [args, line] of cases) {
      const r = await runWinnow(args, dir);
      expect(r.code, args.join(" ")).toBe(3);
      expect(r.stderr.trim()).toBe(line);
      expect(r.stdout).toBe("");
    }
    // Characters are code points: "Ein Text 😀." is 11, not 12 UTF-16 units.
    const ok = await runWinnow(["stats", "c.jsonl", "--json"], dir);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ documents: 1, chars: 11 });
  });

  it.each([
    [["--filters", "refinedweb"], "unknown filter refinedweb"],
    [["--langs", "english"], "expected language codes"],
    [["--min-lang-score", "2"], "expected a number from 0 to 1"],
    [["--no-lang-id", "--langs", "en"], "--langs needs language identification"],
    [["-o", "out/{host}.jsonl"], "unknown field {host}"],
    [["--format", "csv"], "Allowed choices are jsonl, xml, text, markdown, parquet"],
  ])("refuses %j with one line and exit status 2", async (flags, why) => {
    const r = await runWinnow(["clean", MAGIC, "-o", "bad.jsonl", "--workers", "0", ...flags], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(why);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });

  it("stats reads a per-input tree: the outputs marked done, and says which it left out", async () => {
    const list = join(dir, "tree.paths");
    writeFileSync(list, `${SAMPLE}\n`);
    const clean = await runWinnow(["clean", "--paths-file", list, "-o", "tree", "--workers", "0"], dir);
    expect(clean.code).toBe(0);
    const single = await runWinnow(["stats", "--json", join("tree", `${SAMPLE.slice(1)}`.replace(/\.warc\.gz$/, ".jsonl.gz"))], dir);
    expect(single.code).toBe(0);
    const whole = await runWinnow(["stats", "--json", "tree"], dir);
    expect(whole.code).toBe(0);
    expect(JSON.parse(whole.stdout).documents).toBe(14);
    expect(JSON.parse(whole.stdout)).toEqual(JSON.parse(single.stdout));
    expect(whole.stderr).toBe("");
    // An output with no done marker (a task still running, or killed) is left out, and said.
    writeFileSync(join(dir, "tree", "unfinished.jsonl"), `${JSON.stringify({ url: "u", text: "t" })}\n`);
    const partial = await runWinnow(["stats", "--json", "tree"], dir);
    expect(partial.code).toBe(0);
    expect(JSON.parse(partial.stdout).documents).toBe(14);
    expect(partial.stderr).toMatch(/^winnow: 1 output\(s\) not marked done were left out .*unfinished\.jsonl/);
  });

  it("stats says which file it cannot read, with exit status 3", async () => {
    const r = await runWinnow(["stats", "missing.jsonl"], dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("cannot open input: no such file or directory (missing.jsonl)");
  });
});
