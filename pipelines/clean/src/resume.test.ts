// Resumable runs: interrupted (once, or again and again) and resumed, the parts together must
// hold exactly the documents of one uninterrupted run, and the rejects files its rejects.
//
// The compiled module is imported (run `npx tsc -b` first), as in run.test.ts: worker threads
// load dist/worker.js with plain Node.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "@winnow/errors";
import { runClean, type CleanRunOptions } from "../dist/run.js";
import type { CleanRunSummary } from "../dist/summary.js";
import { partPath, readManifest, type InputLine, type PartLine } from "./manifest.js";
import { articleRecords, gzipEach } from "../test/test-warcs.js";

const SAMPLE = new URL("../../../fixtures/sample.warc.gz", import.meta.url).pathname;
const DAMAGED = new URL("../../../fixtures/warc/example-trunc.warc", import.meta.url).pathname;

let dir: string;
let inputs: string[];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-resume-"));
  const a = join(dir, "a.warc");
  const b = join(dir, "b.warc.gz");
  const c = join(dir, "c.warc");
  writeFileSync(a, Buffer.concat(articleRecords("a", 30)));
  writeFileSync(b, gzipEach(articleRecords("b", 25)).file);
  writeFileSync(c, Buffer.concat(articleRecords("c", 20)));
  // Real pages, and damaged records whose rejects must not repeat either.
  inputs = [a, b, SAMPLE, DAMAGED, c];
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const lines = (path: string): string[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "");

/** The lines of every part of `output` (out.jsonl, out.part2.jsonl, ...; rejects.jsonl, ...), sorted. */
function allParts(output: string): { parts: string[]; lines: string[] } {
  const parts: string[] = [];
  for (let n = 1; existsSync(partPath(output, n)); n++) parts.push(partPath(output, n));
  return { parts, lines: parts.flatMap(lines).sort() };
}

let reference: { documents: string[]; rejects: string[] } | undefined;
/** One uninterrupted run over the inputs: what the parts must add up to. */
async function uninterrupted(): Promise<{ documents: string[]; rejects: string[] }> {
  if (reference === undefined) {
    const out = join(dir, "reference", "out.jsonl");
    const rejects = join(dir, "reference", "rejects.jsonl");
    await runClean({ inputs, output: out, rejectsPath: rejects, model: "heuristic", workers: 0 });
    reference = { documents: lines(out).sort(), rejects: lines(rejects).sort() };
    expect(reference.documents.length).toBeGreaterThan(80);
  }
  return reference;
}

/** A resumable run into `name`/out.jsonl, aborted once `stopAfter` documents are written. */
function resumable(name: string, stopAfter: number | null, options: Partial<CleanRunOptions> = {}): Promise<CleanRunSummary> {
  const controller = new AbortController();
  mkdirSync(join(dir, name), { recursive: true });
  return runClean({
    inputs,
    output: join(dir, name, "out.jsonl"),
    rejectsPath: join(dir, name, "rejects.jsonl"),
    model: "heuristic",
    workers: 0,
    batchSize: 4,
    resume: true,
    signal: controller.signal,
    onProgress: (p) => {
      if (stopAfter !== null && p.documentsWritten >= stopAfter) controller.abort();
    },
    ...options,
  });
}

async function manifestLines(name: string): Promise<Array<InputLine | PartLine>> {
  return lines(join(dir, name, "out.jsonl.manifest")).map((l) => JSON.parse(l) as InputLine | PartLine);
}

describe("runClean --resume", () => {
  it("aborted after its first input, then resumed: every document exactly once, no reject twice", async () => {
    const { documents, rejects } = await uninterrupted();
    const first = await resumable("once", 30);
    expect(first.interrupted).toBe(true);
    expect(first.output).toBe(join(dir, "once", "out.jsonl"));
    expect(first.resume).toMatchObject({ part: 1, inputsDone: 0, recordsPassedOver: 0 });

    const manifest = await manifestLines("once");
    const inputLines = manifest.filter((l): l is InputLine => l.type === "input");
    expect(inputLines[0]).toMatchObject({ path: inputs[0], complete: true, records: 30, documents: 30, part: "out.jsonl" });
    expect(inputLines.every((l) => l.size > 0 && l.mtimeMs > 0)).toBe(true);
    expect(manifest.at(-1)).toMatchObject({
      type: "part",
      part: "out.jsonl",
      number: 1,
      documents: first.documentsWritten,
      interrupted: true,
    });

    const second = await resumable("once", null);
    expect(second.interrupted).toBe(false);
    expect(second.output).toBe(join(dir, "once", "out.part2.jsonl"));
    expect(second.resume?.part).toBe(2);
    expect(second.resume?.inputsDone).toBeGreaterThanOrEqual(1);
    expect(first.documentsWritten + second.documentsWritten).toBe(documents.length);

    const { parts, lines: union } = allParts(join(dir, "once", "out.jsonl"));
    expect(parts).toHaveLength(2);
    expect(union).toEqual(documents);
    expect(allParts(join(dir, "once", "rejects.jsonl")).lines).toEqual(rejects);
  });

  it.each([
    ["in order, inline", { workers: 0 }],
    ["unordered, on two workers", { workers: 2, unordered: true, batchSize: 3 }],
  ])("interrupted again and again (%s), the parts still add up to one run", async (_, options) => {
    const { documents, rejects } = await uninterrupted();
    const name = `often-${options.workers}`;
    let written = 0;
    for (let runs = 1; ; runs++) {
      // Each run stops after a few more documents, inside inputs as often as between them.
      const s = await resumable(name, 11, options);
      written += s.documentsWritten;
      if (!s.interrupted) break;
      expect(runs).toBeLessThan(40);
    }
    expect(written).toBe(documents.length);
    expect(allParts(join(dir, name, "out.jsonl")).lines).toEqual(documents);
    expect(allParts(join(dir, name, "rejects.jsonl")).lines).toEqual(rejects);
  });

  it("a run that never committed its part counts for nothing: the next one writes that part again", async () => {
    const { documents, rejects } = await uninterrupted();
    await resumable("crashed", 40);
    // As if the process died after renaming its part but before committing it.
    const manifest = join(dir, "crashed", "out.jsonl.manifest");
    const kept = lines(manifest).filter((l) => !l.includes('"type":"part"'));
    writeFileSync(manifest, `${kept.join("\n")}\n{"type":"input","torn`);
    expect((await readManifest(manifest))?.nextPart).toBe(1);

    const again = await resumable("crashed", null);
    expect(again.resume).toMatchObject({ part: 1, inputsDone: 0, recordsPassedOver: 0 });
    const { parts, lines: union } = allParts(join(dir, "crashed", "out.jsonl"));
    expect(parts).toHaveLength(1);
    expect(union).toEqual(documents);
    // The rejects of the part written again replace those of the run that crashed.
    expect(allParts(join(dir, "crashed", "rejects.jsonl")).lines).toEqual(rejects);
  });

  it("refuses to go on with other settings than the earlier runs', naming what differs; the same settings on other workers go on", async () => {
    const { documents } = await uninterrupted();
    await resumable("settings", 30);
    const commit = (await manifestLines("settings")).at(-1) as PartLine;
    expect(commit.settings).toMatchObject({ format: "jsonl", model: "heuristic" });
    const refused = resumable("settings", null, {
      comments: true,
      corpus: { langId: false, filters: ["c4"], stats: false, keepFiltered: false },
    });
    await expect(refused).rejects.toThrow(UsageError);
    await expect(resumable("settings", null, { comments: true })).rejects.toThrow(
      /^cannot resume: the earlier runs were made with other settings \(comments: default → true\): a resumed run must be given the same; --overwrite starts again with the new ones/,
    );
    // Nothing was written by the refused runs: the one part of the first run, and its commit.
    expect(allParts(join(dir, "settings", "out.jsonl")).parts).toHaveLength(1);
    const again = await resumable("settings", null, { workers: 2, batchSize: 7 });
    expect(again.resume?.part).toBe(2);
    expect(allParts(join(dir, "settings", "out.jsonl")).lines).toEqual(documents);
  });

  it("has nothing left to do once every input is complete, and writes no part", async () => {
    await resumable("done", null);
    const again = await resumable("done", null);
    expect(again.documentsWritten).toBe(0);
    expect(again.resume).toMatchObject({ part: 0, inputsDone: inputs.length });
    expect(allParts(join(dir, "done", "out.jsonl")).parts).toHaveLength(1);
  });

  it("warns about an input that changed since it was read, and does not read it again", async () => {
    await resumable("changed", null);
    const touched = inputs[0];
    const later = new Date(Date.now() + 60_000);
    utimesSync(touched, later, later);
    const warnings: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => warnings.push(JSON.parse(line).msg as string) });
    const again = await resumable("changed", null, { logger });
    expect(again.documentsWritten).toBe(0);
    expect(warnings).toEqual([`input changed since an earlier run read it; not read again (${touched})`]);
  });

  it("warns when none of the inputs is in the manifest (moved inputs would be read again)", async () => {
    await resumable("moved", null);
    const warnings: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => warnings.push(JSON.parse(line).msg as string) });
    const moved = join(dir, "moved", "a-moved.warc");
    writeFileSync(moved, readFileSync(inputs[0]));
    await resumable("moved", null, { logger, inputs: [moved] });
    expect(warnings).toEqual([
      `none of the inputs is in the manifest; all are read again (were they moved?) (${join(dir, "moved", "out.jsonl.manifest")})`,
    ]);
  });

  it("refuses what cannot be resumed: standard output, and a part replaced since", async () => {
    const toStdout = await runClean({
      inputs,
      output: "-",
      model: "heuristic",
      workers: 0,
      resume: true,
      manifestPath: join(dir, "m"),
    }).catch((e: unknown) => e);
    expect(toStdout).toBeInstanceOf(UsageError);
    expect(toStdout).toMatchObject({
      kind: "usage",
      what: "cannot resume: resuming needs an output file, as each run writes a part of its own",
    });

    await resumable("replaced", 20);
    writeFileSync(join(dir, "replaced", "out.jsonl"), "not what the run wrote\n");
    const error = await resumable("replaced", null).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "usage", where: join(dir, "replaced", "out.jsonl.manifest") });
    expect((error as Error).message).toMatch(/out\.jsonl is not the file an earlier run wrote/);
    expect(readdirSync(join(dir, "replaced"))).not.toContain("out.part2.jsonl");
  });
});

describe("a plain run over a resumed output (#25)", () => {
  it("refuses, naming the parts and the manifest and both ways on; --overwrite removes them; --resume still goes on", async () => {
    await resumable("mixed", 20);
    await resumable("mixed", 20);
    const out = join(dir, "mixed", "out.jsonl");
    expect(existsSync(partPath(out, 2))).toBe(true);
    const before = readdirSync(join(dir, "mixed")).sort();
    const plain = { inputs, output: out, rejectsPath: join(dir, "mixed", "rejects.jsonl"), model: "heuristic" as const, workers: 0 };
    const error = await runClean(plain).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ kind: "usage", where: `-o ${out}` });
    const message = (error as Error).message;
    for (const name of ["out.jsonl.manifest", "out.part2.jsonl", "rejects.part2.jsonl"])
      expect(message).toContain(join(dir, "mixed", name));
    expect(message).toMatch(/--resume .* --overwrite/);
    expect(readdirSync(join(dir, "mixed")).sort()).toEqual(before);

    const summary = await runClean({ ...plain, overwrite: true });
    expect(readdirSync(join(dir, "mixed")).sort()).toEqual(["out.jsonl", "rejects.jsonl"]);
    expect(lines(out).sort()).toEqual((await uninterrupted()).documents);
    expect(summary.documentsWritten).toBe(lines(out).length);
  });
});

describe("partPath", () => {
  it("numbers parts before the format's extension, and keeps .gz last", () => {
    expect(partPath("out.jsonl", 1)).toBe("out.jsonl");
    expect(partPath("out.jsonl", 2)).toBe("out.part2.jsonl");
    expect(partPath("/data/corpus.v1.xml.gz", 12)).toBe("/data/corpus.v1.part12.xml.gz");
    expect(partPath("corpus", 3)).toBe("corpus.part3");
  });
});
