// runClean end to end over the sample archives, inline and on a worker pool.
//
// The compiled module is imported (run `npx tsc -b` first): worker threads load dist/worker.js
// with plain Node, which cannot run the TypeScript sources vitest serves.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { TEXREX37 } from "@winnow/features";
import { mlpToOnnx, type MlpWeights } from "@winnow/models";
import { Parser } from "htmlparser2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError, ModelError, UsageError } from "@winnow/errors";
import { runClean, type CleanRunOptions } from "../dist/run.js";
import type { CleanRunSummary } from "../dist/summary.js";

const WARC = new URL("../../../fixtures/warc/", import.meta.url).pathname;
const SAMPLES = ["example.warc.gz", "example.arc", "example-iana.org-chunked.warc", "example-trunc.warc", "example-bad.warc.gz.bad"].map(
  (name) => WARC + name,
);
const EXAMPLE_TEXT = "This domain is established to be used for illustrative examples in documents.";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-run-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const clean = (options: Partial<CleanRunOptions> & { output: string }): Promise<CleanRunSummary> =>
  runClean({ inputs: SAMPLES, model: "heuristic", workers: 0, ...options });

const jsonLines = (path: string): Array<Record<string, unknown>> =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Fails on anything that is not well-formed; returns each <doc>'s attributes. */
function xmlDocs(xml: string): Array<Record<string, string>> {
  const open: string[] = [];
  const docs: Array<Record<string, string>> = [];
  let roots = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (open.length === 0) roots++;
        open.push(name);
        if (name === "doc") docs.push(attrs);
      },
      onclosetag(name, implied) {
        if (implied || open.pop() !== name) throw new Error(`badly nested </${name}>`);
      },
      onerror(error) {
        throw error;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(xml);
  expect(open).toEqual([]);
  expect(roots).toBe(1);
  return docs;
}

/** A WARC of `count` HTML responses, page i saying "page-i"; `extra(i)` adds text to page i. */
function syntheticWarc(path: string, count: number, extra: (i: number) => string = () => ""): void {
  const parts: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const html =
      `<html><head><title>Page ${i}</title></head><body><h1>Heading of page-${i}</h1>` +
      `<p>This is the main text of page-${i}. It is long enough to read like a real paragraph of prose, ` +
      `with several clauses, commas and a full stop, so that a content classifier keeps it.${extra(i)}</p>` +
      `<div><a href="/">Home</a> | <a href="/about">About</a></div></body></html>`;
    const http = Buffer.from(
      `HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(html)}\r\n\r\n${html}`,
    );
    const head =
      `WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-${String(i).padStart(12, "0")}>\r\n` +
      `WARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: http://test.example/page-${i}\r\n` +
      `Content-Type: application/http; msgtype=response\r\nContent-Length: ${http.length}\r\n\r\n`;
    parts.push(Buffer.from(head), http, Buffer.from("\r\n\r\n"));
  }
  writeFileSync(path, Buffer.concat(parts));
}

describe("runClean over the sample archives", () => {
  const expectSampleSummary = (s: CleanRunSummary): void => {
    expect(s.inputs).toBe(5);
    expect(s.inputsFailed).toEqual([]);
    // example-trunc.warc's response has a Content-Length 2 bytes short: reported as corrupt.
    expect(s.recordsRead).toBe(4);
    expect(s.documentsWritten).toBe(4);
    expect(s.skipped["not-response"]).toBe(15);
    expect(s.skipped["http-status"]).toBe(1);
    expect(s.skipped.corrupt).toBe(1);
    expect(s.skipped.failed).toBe(0);
    expect(s.model).toBe("heuristic");
    expect(s.interrupted).toBe(false);
    expect(s.elapsedSeconds).toBeGreaterThan(0);
    expect(s.cpuSeconds).toBeGreaterThan(0);
    expect(s.peakRssBytes).toBeGreaterThan(10e6);
  };

  it("writes the same JSONL inline and on two workers, in input order", async () => {
    const inline = await clean({ output: join(dir, "w0.jsonl"), workers: 0 });
    const pooled = await clean({ output: join(dir, "w2.jsonl"), workers: 2 });
    expectSampleSummary(inline);
    expectSampleSummary(pooled);
    expect(inline.workers).toBe(0);
    expect(pooled.workers).toBe(2);
    expect(inline.format).toBe("jsonl");
    expect(readFileSync(join(dir, "w2.jsonl"), "utf8")).toBe(readFileSync(join(dir, "w0.jsonl"), "utf8"));

    const docs = jsonLines(join(dir, "w0.jsonl"));
    expect(docs.map((d) => d.url)).toEqual([
      "http://example.com/",
      "http://example.com/",
      "http://www.iana.org/",
      "http://example.com?example=1",
    ]);
    expect(docs.map((d) => d.source)).toEqual(SAMPLES.filter((s) => !s.endsWith("example-trunc.warc")));
    expect(docs[0].title).toBe("Example Domain");
    expect(docs[0].text).toContain(EXAMPLE_TEXT);
    expect(docs[2].text).toContain("Internet Assigned Numbers Authority");
  });

  it("writes well-formed XML, the same on both modes", async () => {
    const inline = await clean({ output: join(dir, "w0.xml"), workers: 0 });
    await clean({ output: join(dir, "w2.xml"), workers: 2 });
    expect(inline.format).toBe("xml");
    const xml = readFileSync(join(dir, "w0.xml"), "utf8");
    expect(readFileSync(join(dir, "w2.xml"), "utf8")).toBe(xml);
    const docs = xmlDocs(xml);
    expect(docs.map((d) => d.url)).toEqual(jsonLines(join(dir, "w0.jsonl")).map((d) => d.url));
    expect(docs[0].title).toBe("Example Domain");
    expect(xml).toContain(EXAMPLE_TEXT);
  });

  it("writes a text folder with index.jsonl, refuses it on a second run, and replaces it with overwrite (#25)", async () => {
    const folder = `${join(dir, "text-folder")}/`;
    const first = await clean({ output: folder });
    const names = readdirSync(folder).sort();
    expect(names).toContain("index.jsonl");
    const index = readFileSync(join(folder, "index.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { file: string; url: string; id: string });
    expect(index.map((e) => e.file)).toEqual(names.filter((n) => n !== "index.jsonl"));
    expect(index).toHaveLength(first.documentsWritten);
    expect(index[0].url).toMatch(/^https?:\/\//);
    await expect(clean({ output: folder })).rejects.toThrow(UsageError);
    expect(readdirSync(folder).sort()).toEqual(names);
    await clean({ output: folder, overwrite: true });
    expect(readdirSync(folder).sort()).toEqual(names);
  });

  it("writes plain text, the same on both modes", async () => {
    const inline = await clean({ output: join(dir, "w0.txt"), workers: 0 });
    await clean({ output: join(dir, "w2.txt"), workers: 2, format: "text" });
    expect(inline.format).toBe("text");
    const text = readFileSync(join(dir, "w0.txt"), "utf8");
    expect(readFileSync(join(dir, "w2.txt"), "utf8")).toBe(text);
    expect(text.split(EXAMPLE_TEXT).length - 1).toBe(3);
    expect(text).toContain("Internet Assigned Numbers Authority");
  });

  it("writes one rejects line per skipped record with --rejects-all, with its reason and place", async () => {
    const rejects = join(dir, "rejects.jsonl");
    const s = await clean({ output: join(dir, "r.jsonl"), rejectsPath: rejects, rejectsAll: true });
    const lines = jsonLines(rejects);
    const total = Object.values(s.skipped).reduce((a, b) => a + b, 0);
    expect(lines.length).toBe(total);
    expect(Object.keys(lines[0]).sort()).toEqual(["detail", "offset", "reason", "record_id", "source", "url"]);
    const status = lines.find((l) => l.reason === "http-status");
    expect(status).toMatchObject({ url: "http://www.iana.org/domains/example", detail: "HTTP status 302" });
    expect(lines.find((l) => l.reason === "corrupt")).toMatchObject({
      source: `${WARC}example-trunc.warc`,
      offset: 1197,
      detail: expect.stringContaining("wrong Content-Length 973"),
    });
  });

  it("goes on without an input that cannot be opened, and lists it", async () => {
    const missing = join(dir, "missing.warc");
    const s = await runClean({ inputs: [missing, `${WARC}example.warc.gz`], output: join(dir, "m.jsonl"), model: "heuristic", workers: 0 });
    expect(s.inputs).toBe(2);
    expect(s.inputsFailed).toEqual([{ input: missing, reason: "no such file or directory" }]);
    expect(s.documentsWritten).toBe(1);
  });
});

describe("runClean refuses to start", () => {
  it("when no input can be opened, before creating the output", async () => {
    const output = join(dir, "none.jsonl");
    const error = await runClean({ inputs: [join(dir, "nope.warc")], output, model: "heuristic" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ kind: "input", what: "cannot open input: no such file or directory", where: join(dir, "nope.warc") });
    expect(existsSync(output)).toBe(false);
  });

  it.each([0, 2])("when the model file is unusable (workers %i), before creating the output", async (workers) => {
    const model = join(dir, "not-a-model.onnx");
    writeFileSync(model, "this is not ONNX");
    const output = join(dir, `bad-model-${workers}.jsonl`);
    const error = await clean({ output, model, workers }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: "model", where: model });
    expect(existsSync(output)).toBe(false);
  });

  it("when the worker threads cannot start, instead of waiting for them forever", async () => {
    const workerModule = join(dir, "broken-worker.mjs");
    writeFileSync(workerModule, 'throw new Error("this worker cannot start");\n');
    const output = join(dir, "broken-worker.jsonl");
    await expect(clean({ output, workers: 2, workerModule })).rejects.toThrow("this worker cannot start");
    expect(existsSync(output)).toBe(false);
  });

  it("when the output cannot be created", async () => {
    // Missing folders are created, so block the path with a file where a folder should be.
    writeFileSync(join(dir, "a-file"), "");
    const output = join(dir, "a-file", "out.jsonl");
    const error = await clean({ output }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "output", where: output });
    expect((error as Error).message).toMatch(/^cannot create output: /);
  });

  it("creates missing output folders", async () => {
    const output = join(dir, "new", "deeper", "out.jsonl");
    const summary = await clean({ output });
    expect(summary.documentsWritten).toBeGreaterThan(0);
    expect(readFileSync(output, "utf8")).toContain('"url"');
  });
});

describe("runClean on many pages", () => {
  let warc: string;
  beforeAll(() => {
    warc = join(dir, "many.warc");
    syntheticWarc(warc, 120);
  });

  it("keeps input order across batches and inputs on a pool; unordered writes the same documents", async () => {
    // The same file named twice is read once (by device and inode), where it first comes.
    const inputs = [warc, `${WARC}example.warc.gz`, warc];
    const ordered = await runClean({ inputs, output: join(dir, "many.jsonl"), model: "heuristic", workers: 2, batchSize: 3 });
    const urls = jsonLines(join(dir, "many.jsonl")).map((d) => d.url as string);
    const pages = Array.from({ length: 120 }, (_, i) => `http://test.example/page-${i}`);
    expect(urls).toEqual([...pages, "http://example.com/"]);
    expect(ordered.documentsWritten).toBe(121);

    const unordered = await runClean({
      inputs,
      output: join(dir, "many-u.jsonl"),
      model: "heuristic",
      workers: 2,
      batchSize: 3,
      unordered: true,
    });
    expect(unordered.documentsWritten).toBe(121);
    const sorted = (path: string): string[] => readFileSync(path, "utf8").split("\n").sort();
    expect(sorted(join(dir, "many-u.jsonl"))).toEqual(sorted(join(dir, "many.jsonl")));
  });

  it("records a worker that throws or dies as failed pages and carries on", async () => {
    const faulty = join(dir, "many-faulty.warc");
    syntheticWarc(faulty, 12, (i) => (i === 3 ? " WINNOW-TEST-CRASH" : i === 7 ? " WINNOW-TEST-THROW" : ""));
    // A stand-in worker module: winnow's own, except for pages carrying a marker.
    const workerModule = join(dir, "faulty-worker.mjs");
    writeFileSync(
      workerModule,
      `import cleanTask, { describeClassifier } from ${JSON.stringify(pathToFileURL(new URL("../dist/worker.js", import.meta.url).pathname).href)};
export { describeClassifier };
export default async function (task) {
  const text = Buffer.concat(task.bodies).toString("latin1");
  if (text.includes("WINNOW-TEST-CRASH")) process.exit(3);
  if (text.includes("WINNOW-TEST-THROW")) throw new Error("injected fault");
  return cleanTask(task);
}
`,
    );
    const rejects = join(dir, "faulty-rejects.jsonl");
    const s = await runClean({
      inputs: [faulty],
      output: join(dir, "faulty.jsonl"),
      model: "heuristic",
      workers: 2,
      batchSize: 1,
      workerModule,
      rejectsPath: rejects,
    });
    expect(s.skipped.failed).toBe(2);
    expect(s.documentsWritten).toBe(10);
    const urls = jsonLines(join(dir, "faulty.jsonl")).map((d) => d.url);
    expect(urls).not.toContain("http://test.example/page-3");
    expect(urls).toContain("http://test.example/page-11");
    const failed = jsonLines(rejects).filter((l) => l.reason === "failed");
    expect(failed.map((l) => [l.url, l.detail])).toEqual([
      ["http://test.example/page-3", "worker failed: worker exited with code: 3"],
      ["http://test.example/page-7", "worker failed: injected fault"],
    ]);
  });

  it("stops reading when aborted and leaves a valid output", async () => {
    const controller = new AbortController();
    const output = join(dir, "aborted.jsonl");
    const s = await runClean({
      inputs: [warc, warc, warc],
      output,
      model: "heuristic",
      workers: 0,
      batchSize: 2,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.documentsWritten >= 10) controller.abort();
      },
    });
    expect(s.interrupted).toBe(true);
    expect(s.documentsWritten).toBeGreaterThanOrEqual(10);
    expect(s.documentsWritten).toBeLessThan(360);
    expect(s.documentsWritten).toBe(s.recordsRead);
    expect(jsonLines(output).length).toBe(s.documentsWritten);
  });

  it("runs an MLP model file on the pool exactly as inline", async () => {
    const size = TEXREX37.size;
    const hidden = 4;
    // Fixed small weights: any model will do, the point is that both modes agree.
    const weights: MlpWeights = {
      inputSize: size,
      hiddenSize: hidden,
      inputShift: new Float32Array(size),
      inputFactor: new Float32Array(size).fill(1),
      w1: Float32Array.from({ length: hidden * size }, (_, i) => Math.sin(i) * 0.3),
      b1: new Float32Array(hidden),
      w2: Float32Array.from({ length: hidden }, (_, i) => (i % 2 === 0 ? 1 : -0.5)),
      b2: 0.1,
      activation: "tanh",
    };
    const model = join(dir, "tiny.onnx");
    writeFileSync(
      model,
      mlpToOnnx(weights, {
        kind: "mlp",
        featureSet: TEXREX37.name,
        featureSetVersion: TEXREX37.version,
        inputSize: size,
        threshold: 0.5,
        trainingFingerprint: "test",
        notes: "",
      }),
    );
    const inputs = [warc, ...SAMPLES];
    const inline = await runClean({ inputs, output: join(dir, "mlp0.jsonl"), model, workers: 0 });
    const pooled = await runClean({ inputs, output: join(dir, "mlp2.jsonl"), model, workers: 2, batchSize: 5 });
    expect(pooled.model).toBe(model);
    expect(pooled.skipped.failed).toBe(0);
    expect(pooled.documentsWritten + pooled.skipped["empty-after-cleaning"]).toBe(124);
    expect(pooled.documentsWritten).toBe(inline.documentsWritten);
    expect(readFileSync(join(dir, "mlp2.jsonl"), "utf8")).toBe(readFileSync(join(dir, "mlp0.jsonl"), "utf8"));
  });
});
