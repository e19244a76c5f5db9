// `winnow clean --filter-config`, `--pii` and `--langs` as users run them, and `winnow stats --rules`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWinnow } from "../test/run-winnow.js";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/", import.meta.url));
const MAGIC = join(FIXTURES, "magic-html-sample/html");
// A listing of short lines that FineWeb's recipe refuses: since repeated blocks are kept once
// (issue 35), no magic-html sample page fails the recipe any more.
const SHORT_LINES = join(FIXTURES, "wcxb-sample/html/2911.html.gz");
/** A page that gives its mirrors' public and private addresses and whom to write to (fixtures/pii). */
const CONTACT = join(FIXTURES, "pii/mirror-contact.html");
const EXAMPLE_CONFIG = join(FIXTURES, "filter-config/fineweb.yaml");
const STACK_FRAME = /^\s+at /m;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-cli-filters-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const jsonl = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("--langs", () => {
  it.each([
    [["--langs", "eng"], "eng (did you mean en?): not a label of the language model"],
    [["--langs", "en,deu"], "deu (did you mean de?)"],
    [["--langs", "qqq"], "qqq: not a label of the language model"],
  ])("refuses %j, naming the nearest code, with exit status 2", async (flags, why) => {
    const r = await runWinnow(["clean", MAGIC, "-o", "l.jsonl", "--workers", "0", ...flags], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(why);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });
});

describe("--filter-config", () => {
  it.each([
    [
      "typo.yaml",
      "filters: [fineweb]\nc4:\n  min_sentences: 3\n",
      "unknown key c4.min_sentences; did you mean c4.min_num_sentences? (typo.yaml: c4.min_sentences)",
    ],
    ["type.yaml", "filters: [c4]\nc4:\n  filter_policy: 3\n", "expected true or false, got 3 (type.yaml: c4.filter_policy)"],
    [
      "range.json",
      '{"filters": ["fineweb"], "fineweb_quality": {"short_line_thr": 2}}',
      "2 is out of range: expected from 0 to 1 (null switches the rule off) (range.json: fineweb_quality.short_line_thr)",
    ],
    [
      "lang.yaml",
      "filters: [c4]\nlanguages:\n  eng: {}\n",
      "eng is not a language code of the language model (lid.176); did you mean en? (lang.yaml: languages.eng)",
    ],
    ["none.yaml", "c4: {}\n", "no filter is named"],
  ])("%s: one line naming the file and key, exit status 2", async (name, text, why) => {
    writeFileSync(join(dir, name), text);
    const r = await runWinnow(["clean", MAGIC, "-o", "f.jsonl", "--workers", "0", "--filter-config", name], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(why);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });

  it("a missing file is a usage error naming it", async () => {
    const r = await runWinnow(
      ["clean", MAGIC, "-o", "f.jsonl", "--workers", "0", "--filters", "c4", "--filter-config", "missing.yaml"],
      dir,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("cannot read the filter config: no such file or directory (missing.yaml)");
  });

  it("the complete example gives the same corpus as --filters fineweb", async () => {
    const a = await runWinnow(
      ["clean", MAGIC, SHORT_LINES, "-o", "preset.jsonl", "--workers", "0", "--filters", "fineweb", "--keep-filtered"],
      dir,
    );
    const b = await runWinnow(
      ["clean", MAGIC, SHORT_LINES, "-o", "file.jsonl", "--workers", "0", "--filter-config", EXAMPLE_CONFIG, "--keep-filtered"],
      dir,
    );
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    const preset = jsonl(join(dir, "preset.jsonl"));
    expect(jsonl(join(dir, "file.jsonl"))).toEqual(preset);
    expect(preset.some((d) => (d.filter_failed as unknown[]).length > 0)).toBe(true);
  });
});

describe("--pii", () => {
  it("masks e-mail and public IP addresses in text and Markdown, links included, and counts them", async () => {
    const r = await runWinnow(["clean", CONTACT, "-o", "pii.jsonl", "--workers", "0", "--markdown", "--links", "--pii"], dir);
    expect(r.code).toBe(0);
    // Two addresses in the text (a link's mailto: target is masked too, but counted with its text).
    expect(r.stderr).toContain("PII masked: 2 e-mail addresses, 2 IP addresses in 1 document");
    const [doc] = jsonl(join(dir, "pii.jsonl"));
    const text = doc.text as string;
    const markdown = doc.markdown as string;
    for (const out of [text, markdown]) {
      expect(out).not.toMatch(/mirrors@example-project|jane\.doe@|93\.184\.216\.34|2606:4700/);
      expect(out).toContain("10.0.0.5");
      expect(out).toContain("192.168.10.20");
    }
    expect(text).toContain("http://192.0.2.1/releases/");
    expect(text).toContain("http://[2001:db8::1]/releases/");
    expect(markdown).toContain("[email@example.com](mailto:email@example.com)");
  });

  it("is off by default: the same page keeps its addresses and the summary says nothing of PII", async () => {
    const r = await runWinnow(["clean", CONTACT, "-o", "raw.jsonl", "--workers", "0"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("PII");
    expect(jsonl(join(dir, "raw.jsonl"))[0].text).toContain("jane.doe@example-project.org");
  });
});

describe("winnow stats --rules", () => {
  it("reports what each rule would drop, by documents and words, as a table and as JSON", async () => {
    const clean = await runWinnow(["clean", MAGIC, "-o", "all.jsonl", "--workers", "0"], dir);
    expect(clean.code).toBe(0);
    const json = await runWinnow(["stats", "all.jsonl", "--rules", "--json"], dir);
    expect(json.code).toBe(0);
    const s = JSON.parse(json.stdout);
    expect(s.wouldDrop.documents).toBe(s.documents);
    expect(s.wouldDrop.words).toBeGreaterThan(0);
    expect(s.wouldDrop.rules).toHaveLength(27);
    // What --filters fineweb_quality drops in a clean run is what stats says it would.
    const fw = await runWinnow(["stats", "all.jsonl", "--filters", "fineweb_quality", "--json"], dir);
    const dropped = await runWinnow(["clean", MAGIC, "-o", "fw.jsonl", "--workers", "0", "--filters", "fineweb_quality"], dir);
    const kept = jsonl(join(dir, "fw.jsonl")).length;
    expect(JSON.parse(fw.stdout).wouldDrop.any.documents).toBe(s.documents - kept);
    expect(dropped.code).toBe(0);
    const table = await runWinnow(["stats", "all.jsonl", "--rules"], dir);
    expect(table.stdout).toMatch(/what each rule would drop, of \d+ documents and [\d,]+ words \(--rules\)/);
    expect(table.stdout).toMatch(/fineweb\.line_punct_ratio +<= 0\.12 +\d+ +[\d.]+%/);
  });
});
