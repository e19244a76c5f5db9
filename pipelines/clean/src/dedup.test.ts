// `winnow clean --dedup`: the same pages read twice, and one page again with a paragraph more;
// the copies become "duplicate" skips whose rejects lines name the document kept.
//
// The compiled module is imported (run `npx tsc -b` first), as in run.test.ts.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { UsageError } from "@winnow/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runClean } from "../dist/run.js";

const MAGIC = new URL("../../../fixtures/magic-html-sample/html", import.meta.url).pathname;
let dir: string;
let copy: string;
let edited: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-clean-dedup-"));
  copy = join(dir, "copy");
  cpSync(MAGIC, copy, { recursive: true });
  // One English page again with a paragraph more.
  edited = join(dir, "edited");
  mkdirSync(edited);
  const name = readdirSync(MAGIC).find(
    (n) =>
      n.endsWith(".html.gz") &&
      gunzipSync(readFileSync(join(MAGIC, n)))
        .toString()
        .includes("</body>"),
  );
  const html = gunzipSync(readFileSync(join(MAGIC, name as string))).toString();
  writeFileSync(join(edited, "page.html"), html.replace("</body>", "<p>Updated on Tuesday with a short note from the editors.</p></body>"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const corpus = { langId: false, filters: [], stats: false, keepFiltered: false };

function rejects(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

describe("clean --dedup", () => {
  it("exact: writes each page once and names the first copy in the rejects of the second", async () => {
    const out = join(dir, "exact.jsonl");
    const r = join(dir, "exact.rejects.jsonl");
    const summary = await runClean({
      inputs: [MAGIC, copy],
      output: out,
      rejectsPath: r,
      workers: 0,
      corpus: { ...corpus, dedup: "exact" },
    });
    const once = await runClean({ inputs: [MAGIC], output: join(dir, "once.jsonl"), workers: 0, corpus });
    expect(summary.documentsWritten).toBe(once.documentsWritten);
    expect(summary.skipped.duplicate).toBe(once.documentsWritten);
    expect(summary.duplicates).toEqual({ exact: once.documentsWritten, near: 0 });
    const dups = rejects(r).filter((l) => l.reason === "duplicate");
    expect(dups.length).toBe(once.documentsWritten);
    for (const d of dups) {
      expect(d.kind).toBe("exact");
      expect(String(d.record_id).replace(copy, MAGIC)).toBe(d.duplicate_of);
    }
  });

  it("minhash: also drops the page with a paragraph more, on a worker thread", async () => {
    const out = join(dir, "minhash.jsonl");
    const r = join(dir, "minhash.rejects.jsonl");
    const summary = await runClean({
      inputs: [MAGIC, edited],
      output: out,
      rejectsPath: r,
      workers: 1,
      corpus: { ...corpus, dedup: "minhash" },
    });
    expect(summary.skipped.duplicate).toBe(1);
    expect((summary.duplicates?.exact ?? 0) + (summary.duplicates?.near ?? 0)).toBe(1);
    const [dup] = rejects(r).filter((l) => l.reason === "duplicate");
    expect(String(dup.duplicate_of).startsWith(`<file:${MAGIC}`)).toBe(true);
    expect(["exact", "near"]).toContain(dup.kind);
  });

  it("is refused with --resume", async () => {
    await expect(
      runClean({ inputs: [MAGIC], output: join(dir, "r.jsonl"), resume: true, workers: 0, corpus: { ...corpus, dedup: "exact" } }),
    ).rejects.toThrow(UsageError);
  });
});
