// The pool's threads run under heap limits of their own (pool.ts, THREAD_RESOURCE_LIMITS): an
// old generation capped just under 2 GB (Node's default here: 4 GB), and a young generation
// (48 MB) that one large page outgrows many times while it is cleaned (its text alone is 16 MB).
// The largest page a run reads by default must still clean there, with every word, rather than
// end the thread with ERR_WORKER_OUT_OF_MEMORY.
//
// The compiled module is imported (run `npx tsc -b` first): worker threads load dist/worker.js.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MAX_PAGE_BYTES } from "@winnow/archive";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runClean } from "../dist/run.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-pool-memory-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Sentences of real-looking prose, numbered so that every paragraph's text is its own. */
function paragraph(n: number): string {
  return (
    `<p>Paragraph ${n} of the long report: the committee met on a Tuesday to read the figures again, ` +
    `and each member wrote down what the harbour had shipped that season, in tonnes and in crates, ` +
    `before the chair asked whether the numbers for the northern quay could be trusted at all.</p>\n`
  );
}

/** One page of `bytes` bytes at most: a title, a short menu, then paragraphs; returns it and its paragraph count. */
function largePage(bytes: number): { html: string; paragraphs: number } {
  const head = `<!doctype html><html><head><meta charset="utf-8"><title>The long report</title></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/about">About</a></li></ul></nav>
<article><h1>The long report</h1>\n`;
  const tail = "</article></body></html>\n";
  const parts = [head];
  let size = head.length + tail.length;
  let n = 0;
  for (;;) {
    const next = paragraph(n + 1);
    if (size + next.length > bytes) break;
    parts.push(next);
    size += next.length;
    n++;
  }
  parts.push(tail);
  return { html: parts.join(""), paragraphs: n };
}

describe("a pool thread under its heap limits", () => {
  it("cleans a page of the largest size read by default, which needs many times its young generation", async () => {
    const { html, paragraphs } = largePage(DEFAULT_MAX_PAGE_BYTES - 1024);
    const input = join(dir, "long-report.html");
    writeFileSync(input, html);
    expect(statSync(input).size).toBeGreaterThan(DEFAULT_MAX_PAGE_BYTES - 4096);
    const output = join(dir, "long-report.jsonl");
    // The shipped model with metadata and language ID, as a default run cleans.
    const summary = await runClean({
      inputs: [input],
      output,
      workers: 1,
      corpus: { langId: true, filters: [], stats: false, keepFiltered: false },
    });
    expect(summary.skipped.failed).toBe(0);
    expect(summary.documentsWritten).toBe(1);
    const lines = readFileSync(output, "utf8")
      .split("\n")
      .filter((line) => line !== "");
    expect(lines).toHaveLength(1);
    const doc = JSON.parse(lines[0]) as { text: string; lang: string };
    expect(doc.lang).toBe("en");
    // Every paragraph, in order, the last one included.
    const numbers = [...doc.text.matchAll(/Paragraph (\d+) of the long report/g)].map((m) => Number(m[1]));
    expect(numbers.length).toBe(paragraphs);
    expect(numbers.every((value, i) => value === i + 1)).toBe(true);
  }, 180_000);
});
