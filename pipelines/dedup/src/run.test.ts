import { readdirSync, readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dedupInMemory, editWords, seededRandom, normalizeText, shingleJaccard, wordCount } from "@winnow/dedup";
import { UsageError } from "@winnow/errors";
import { type CleanDocument, openWriter, readCorpus } from "@winnow/writers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DedupSummary, runDedup, type TaskEvent } from "./index.js";

const fixtures = join(import.meta.dirname, "../../../fixtures");

/** The main text of every fixture page with a ground truth, at least 100 words long. */
function fixturePages(): string[] {
  const pages: string[] = [];
  for (const set of ["wcxb-sample", "magic-html-sample"]) {
    const dir = join(fixtures, set, "ground-truth");
    for (const name of readdirSync(dir).sort()) {
      const text = JSON.parse(readFileSync(join(dir, name), "utf8")).ground_truth.main_content as string;
      if (text.split(/\s+/).length >= 100) pages.push(text);
    }
  }
  return pages;
}

const BOILERPLATE = "We use cookies to improve your experience. By continuing you accept our cookie policy.";

/** Pages, planted copies (exact, near, far) and a boilerplate line in every other page. */
function corpus(): string[] {
  const pages = fixturePages();
  const random = seededRandom(5);
  // Every other page, and each of its copies, ends with the boilerplate line.
  const page = (p: number) => (p % 2 === 1 ? `${pages[p]}\n\n${BOILERPLATE}` : pages[p]);
  const texts = pages.map((_, p) => page(p));
  for (let p = 0; p < pages.length; p++) {
    texts.push(page(p).toLowerCase().replace(/ +/g, "  "));
    texts.push(editWords(page(p), 0.03, random));
    texts.push(editWords(page(p), 0.4, random));
  }
  return texts;
}

function doc(text: string, i: number): CleanDocument {
  return {
    url: `https://example.org/page/${i}`,
    recordId: `<urn:uuid:doc-${i}>`,
    date: "2026-01-01T00:00:00Z",
    contentType: "text/html",
    charset: "utf-8",
    title: `page ${i}`,
    blocks: text.split("\n\n").map((b) => ({ text: b, heading: 0 })),
    blocksTotal: 3,
    source: "fixture.warc.gz",
  };
}

const NAMES = ["a.jsonl", "b.jsonl.gz", "c.parquet"];
let dir: string;
let inputs: string[];
const texts = corpus();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "winnow-dedup-"));
  // Documents dealt round-robin over three inputs written as winnow clean writes them.
  inputs = NAMES.map((n) => join(dir, "in", n));
  for (let f = 0; f < NAMES.length; f++) {
    const writer = await openWriter({ format: NAMES[f].endsWith(".parquet") ? "parquet" : "jsonl", path: inputs[f] });
    for (let i = f; i < texts.length; i += NAMES.length) await writer.write(doc(texts[i], i));
    await writer.close();
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every output file's rows, by file name. */
async function outputs(out: string): Promise<Record<string, unknown[]>> {
  const all: Record<string, unknown[]> = {};
  for (const name of readdirSync(out)
    .filter((n) => !n.startsWith("."))
    .sort()) {
    all[name] = [];
    for await (const row of readCorpus(join(out, name))) all[name].push(row);
  }
  return all;
}

function docNumber(id: string): number {
  return Number(/doc-(\d+)/.exec(id)?.[1]);
}

/** The stable order: input by input, row by row. */
function stableOrder(): number[] {
  const order: number[] = [];
  for (let f = 0; f < NAMES.length; f++) for (let i = f; i < texts.length; i += NAMES.length) order.push(i);
  return order;
}

describe("winnow dedup stage", () => {
  let oneGo: DedupSummary;
  let oneGoOut: Record<string, unknown[]>;

  beforeAll(async () => {
    oneGo = await runDedup({ inputs, output: join(dir, "one-go"), rejectsPath: join(dir, "one-go.rejects.jsonl"), runEntries: 16 });
    oneGoOut = await outputs(join(dir, "one-go"));
  });

  it("keeps what the in-memory reference keeps, in the same stable order", () => {
    const order = stableOrder();
    const verdicts = dedupInMemory(order.map((i) => texts[i]));
    const expected = order.filter((_, k) => verdicts[k].of === null);
    const kept = Object.values(oneGoOut)
      .flat()
      .map((r) => docNumber((r as { warc_record_id: string }).warc_record_id));
    expect(kept.sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
    expect(Object.keys(oneGoOut)).toEqual(["a.jsonl", "b.jsonl.gz", "c.jsonl"]);
    expect(oneGo.documents).toBe(texts.length);
    expect(oneGo.kept + oneGo.dropped.exact + oneGo.dropped.near).toBe(texts.length);
    const pages = fixturePages().length;
    // Each page's exact copy, and most 3% copies (some short pages fall below Jaccard 0.7 with 3% edited).
    expect(oneGo.dropped.exact + oneGo.dropped.near).toBeGreaterThanOrEqual(1.5 * pages);
    expect(oneGo.dropped.exact).toBeGreaterThan(0);
    expect(oneGo.jaccard?.min).toBeGreaterThanOrEqual(0.7);
  });

  it("writes a rejects line per dropped document naming the document kept, which is similar", () => {
    const lines = readFileSync(join(dir, "one-go.rejects.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.length).toBe(oneGo.dropped.exact + oneGo.dropped.near);
    for (const line of lines) {
      expect(line.reason).toBe("duplicate");
      expect(["exact", "near"]).toContain(line.kind);
      const kept = docNumber(line.duplicate_of);
      const dropped = docNumber(line.id);
      expect(shingleJaccard(texts[kept], texts[dropped])).toBeGreaterThanOrEqual(line.kind === "exact" ? 0.99 : 0.5);
    }
  });

  it("gives the same outputs when each task runs on its own, pass by pass", async () => {
    const out = join(dir, "tasks");
    const state = join(dir, "tasks-state");
    for (let s = 0; s < 3; s++) await runDedup({ inputs, output: out, state, pass: "signatures", shards: [s], runEntries: 16 });
    // Later tasks find the inputs in the plan.
    for (const band of ["exact", ...Array.from({ length: 14 }, (_, b) => String(b))].reverse()) {
      await runDedup({ inputs: [], output: out, state, pass: "buckets", bands: [band] });
    }
    await runDedup({ inputs: [], output: out, state, pass: "clusters" });
    const last = await runDedup({ inputs: [], output: out, state, pass: "filter", shards: [2] });
    expect(last.passesDone).not.toContain("filter");
    await runDedup({ inputs: [], output: out, state, pass: "filter", shards: [1, 0] });
    expect(await outputs(out)).toEqual(oneGoOut);
  });

  it("resumes a run interrupted between passes, redoing nothing done", async () => {
    const out = join(dir, "resumed");
    const controller = new AbortController();
    const first = await runDedup({
      inputs,
      output: out,
      runEntries: 16,
      signal: controller.signal,
      onTask: (t: TaskEvent) => {
        if (t.pass === "buckets" && t.task === "5") controller.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    expect(first.passesDone).toEqual(["signatures"]);
    const events: TaskEvent[] = [];
    const second = await runDedup({ inputs, output: out, runEntries: 16, onTask: (t) => events.push(t) });
    expect(second.interrupted).toBe(false);
    expect(events.filter((e) => e.skipped).map((e) => `${e.pass}:${e.task}`)).toEqual([
      "signatures:0",
      "signatures:1",
      "signatures:2",
      "buckets:exact",
      ...Array.from({ length: 6 }, (_, b) => `buckets:${b}`),
    ]);
    expect(await outputs(out)).toEqual(oneGoOut);
  });

  it("removes lines in more than --line-threshold documents and drops documents left too short", async () => {
    const out = join(dir, "lines");
    const summary = await runDedup({
      inputs,
      output: out,
      rejectsPath: join(dir, "lines.rejects.jsonl"),
      settings: { kinds: ["exact", "minhash", "lines"], lineThreshold: 3, minWords: 200 },
    });
    const kept = Object.values(await outputs(out)).flat() as Array<{ text: string }>;
    const boilerplate = normalizeText(BOILERPLATE);
    expect(kept.filter((r) => r.text.split("\n").some((l) => normalizeText(l) === boilerplate))).toEqual([]);
    expect(summary.clusters?.frequentLines).toBeGreaterThanOrEqual(1);
    expect(summary.documentsEdited + summary.dropped.lines).toBeGreaterThan(0);
    const lines = readFileSync(join(dir, "lines.rejects.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const edited = lines.filter((l) => l.kind === "lines");
    expect(edited.length).toBe(summary.documentsEdited + summary.dropped.lines);
    expect(edited.every((l) => l.lines_removed >= 1 && l.reason === "duplicate")).toBe(true);
    const byId = new Map(kept.map((r) => [(r as unknown as { warc_record_id: string }).warc_record_id, r.text]));
    for (const l of edited) {
      if (l.kept) expect(wordCount(byId.get(l.id) as string)).toBeGreaterThanOrEqual(200);
      else expect(byId.has(l.id)).toBe(false);
    }
  });

  it("refuses other inputs or settings for a state folder, and a pass before the one it needs", async () => {
    const out = join(dir, "refused");
    await expect(runDedup({ inputs, output: out, pass: "buckets" })).rejects.toThrow(/needs every signature task done first/);
    await expect(runDedup({ inputs: [inputs[0]], output: out, pass: "signatures" })).rejects.toThrow(UsageError);
    await expect(runDedup({ inputs, output: out, settings: { minSimilarity: 0.5 } })).rejects.toThrow(/settings differ/);
    await expect(runDedup({ inputs: [join(dir, "missing.jsonl")], output: join(dir, "x") })).rejects.toThrow(/cannot open input/);
  });
});
