// What --rejects holds: records that failed, not the routine records a crawl also holds (#25).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runClean } from "../dist/run.js";
import { articleRecords } from "../test/test-warcs.js";

const SAMPLE = fileURLToPath(new URL("../../../fixtures/sample.warc.gz", import.meta.url));

interface Reject {
  source: string;
  offset: number;
  record_id: string;
  url: string;
  reason: string;
  detail: string;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-rejects-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rejectsOf = (path: string): Reject[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Reject);

describe("--rejects", () => {
  it("leaves out routine records (request, warcinfo, not HTML), which the summary still counts; --rejects-all writes them", async () => {
    const rejects = join(dir, "sample.rejects.jsonl");
    const summary = await runClean({
      inputs: [SAMPLE],
      output: join(dir, "sample.jsonl"),
      rejectsPath: rejects,
      model: "heuristic",
      workers: 0,
    });
    const routine = summary.skipped["not-response"] + summary.skipped["not-html"] + summary.skipped["http-status"];
    expect(summary.skipped["not-response"]).toBeGreaterThan(0);
    const lines = rejectsOf(rejects);
    expect(lines.filter((r) => ["not-response", "not-html", "http-status"].includes(r.reason))).toEqual([]);

    const all = join(dir, "sample.all.jsonl");
    const again = await runClean({
      inputs: [SAMPLE],
      output: join(dir, "sample-all.jsonl"),
      rejectsPath: all,
      rejectsAll: true,
      model: "heuristic",
      workers: 0,
    });
    const allLines = rejectsOf(all);
    expect(allLines.filter((r) => r.reason === "not-response").length).toBe(again.skipped["not-response"]);
    expect(allLines.length).toBe(lines.length + routine);
  });

  it("keeps failures: a record cut short inside a whole-file gzip is there, with offset -1", async () => {
    const records = articleRecords("whole", 3);
    const cut = records[2].subarray(0, records[2].length - 200);
    const input = join(dir, "whole.warc.gz");
    writeFileSync(input, gzipSync(Buffer.concat([records[0], records[1], cut])));
    const rejects = join(dir, "whole.rejects.jsonl");
    const summary = await runClean({
      inputs: [input],
      output: join(dir, "whole.jsonl"),
      rejectsPath: rejects,
      model: "heuristic",
      workers: 0,
    });
    expect(summary.documentsWritten).toBe(2);
    expect(rejectsOf(rejects)).toEqual([
      expect.objectContaining({ source: input, offset: -1, record_id: "<urn:test:whole-2>", reason: "truncated" }),
    ]);
  });
});
