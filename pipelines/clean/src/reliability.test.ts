// "Robust to bad archives and bad HTML: nothing lost, nothing crashes": every case of the issue,
// on damaged files made here from the fixtures, through runClean and through the CLI.
//
// The compiled modules are used (run `npx tsc -b` first): worker threads load dist/worker.js,
// and the CLI runs from pipelines/cli/dist (turbo.json makes this package's tests wait for its build).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { DECODER_LIMIT, readRecords, type ArchiveRecord } from "@winnow/archive";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runClean, type CleanRunOptions, type CleanRunSummary } from "../dist/run.js";
import { partPath } from "./manifest.js";
import { articlePage, articleRecords, pageUrl, recordId, warcResponse } from "../test/test-warcs.js";

const SAMPLE = fileURLToPath(new URL("../../../fixtures/sample.warc.gz", import.meta.url));
const BIN = fileURLToPath(new URL("../../cli/bin/winnow.js", import.meta.url));

/** stderr as people read it: the CLI's JSON log records (stderr is a pipe here) as "winnow: <message>". */
const stderrMessages = (stderr: string): string[] =>
  stderr
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => (l.startsWith("{") ? `winnow: ${(JSON.parse(l) as { msg: string }).msg}` : l));
const WORKER = fileURLToPath(new URL("../dist/worker.js", import.meta.url));

interface Doc {
  url: string;
  warc_record_id: string;
  text: string;
  charset: string;
  source: string;
}
interface Reject {
  source: string;
  offset: number;
  record_id: string;
  url: string;
  reason: string;
  detail: string;
}
interface Outcome {
  summary: CleanRunSummary;
  docs: Doc[];
  rejects: Reject[];
}

let dir: string;
/** The sample's HTML records as the reader gives them (their offsets are their gzip members'). */
let sampleRecords: ArchiveRecord[];
/** The documents of a clean run over the intact sample. */
let sampleDocs: Doc[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "winnow-reliability-"));
  sampleRecords = [];
  for await (const record of readRecords(SAMPLE)) sampleRecords.push(record);
  sampleDocs = (await clean("intact", [SAMPLE])).docs;
  expect(sampleRecords).toHaveLength(14);
  expect(sampleDocs.length).toBeGreaterThanOrEqual(10);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const jsonLines = <T>(path: string): T[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as T);

function file(name: string, bytes: Buffer | string): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

async function clean(name: string, inputs: string[], options: Partial<CleanRunOptions> = {}): Promise<Outcome> {
  const output = join(dir, `${name}.jsonl`);
  const rejectsPath = join(dir, `${name}.rejects.jsonl`);
  // Every record accounted for: routine skips (request records, ...) are written too.
  const summary = await runClean({ inputs, output, rejectsPath, rejectsAll: true, model: "heuristic", workers: 0, ...options });
  return { summary, docs: jsonLines<Doc>(output), rejects: jsonLines<Reject>(rejectsPath) };
}

/** No lone surrogates: they would not survive a round trip through UTF-8. */
const wellFormed = (text: string): boolean => Buffer.from(text, "utf8").toString("utf8") === text;

const ids = (docs: Doc[]): string[] => docs.map((d) => d.warc_record_id);
/** The sample's documents, less those of the given records. */
const sampleDocsWithout = (...lost: string[]): string[] => ids(sampleDocs).filter((id) => !lost.includes(id));

/** Every record of a plain WARC of article pages that should be, written or rejected by id. */
function expectAccounted(out: Outcome, names: string[]): void {
  const seen = new Set([...ids(out.docs), ...out.rejects.map((r) => r.record_id)]);
  for (const name of names) expect(seen.has(recordId(name)), `${name} neither written nor rejected`).toBe(true);
}

describe("damaged archives", () => {
  it("a corrupt gzip member in the middle of a per-record gzip WARC costs only its record", async () => {
    const bytes = readFileSync(SAMPLE);
    const hit = sampleRecords[6];
    const end = sampleRecords[7].offset;
    bytes.fill(0xa5, hit.offset + 200, Math.min(end - 20, hit.offset + 400));
    const out = await clean("corrupt-member", [file("corrupt-member.warc.gz", bytes)]);
    expect(ids(out.docs)).toEqual(sampleDocsWithout(hit.recordId));
    expect(out.rejects).toContainEqual(
      expect.objectContaining({ source: join(dir, "corrupt-member.warc.gz"), offset: hit.offset, reason: "corrupt" }),
    );
    expect(out.summary.skipped.corrupt).toBe(1);
  });

  it("a truncated file: complete records are written, the cut one is in the rejects as truncated", async () => {
    const cut = sampleRecords[9];
    const bytes = readFileSync(SAMPLE).subarray(0, cut.offset + Math.floor((sampleRecords[10].offset - cut.offset) / 2));
    const out = await clean("truncated", [file("truncated.warc.gz", bytes)]);
    const before = new Set(sampleRecords.slice(0, 9).map((r) => r.recordId));
    expect(ids(out.docs)).toEqual(ids(sampleDocs).filter((id) => before.has(id)));
    expect(out.rejects.filter((r) => r.reason === "truncated")).toEqual([
      expect.objectContaining({ offset: cut.offset, record_id: cut.recordId, url: cut.url }),
    ]);
  });

  it("a wrong WARC Content-Length, too short or too long: resynchronised at the next record, reported", async () => {
    const names = Array.from({ length: 8 }, (_, i) => `cl-${i}`);
    const records = names.map((name) => warcResponse({ id: recordId(name), url: pageUrl(name), body: articlePage(name) }));
    const wrong = (i: number, lengthError: number): Buffer =>
      warcResponse({ id: recordId(names[i]), url: pageUrl(names[i]), body: articlePage(names[i]), lengthError });
    records[2] = wrong(2, -30);
    records[5] = wrong(5, +40);
    const out = await clean("content-length", [file("content-length.warc", Buffer.concat(records))]);
    // Either way the block does not end where its length says: the record is reported, and
    // reading resumes just after its head, so the record after it (cl-6 too) is written.
    expect(ids(out.docs)).toEqual(["cl-0", "cl-1", "cl-3", "cl-4", "cl-6", "cl-7"].map(recordId));
    expect(out.rejects.map((r) => [r.record_id, r.reason])).toEqual([
      [recordId("cl-2"), "corrupt"],
      [recordId("cl-5"), "corrupt"],
    ]);
    for (const r of out.rejects) expect(r.detail).toMatch(/^wrong Content-Length \d+: /);
    expect(out.summary.skipped.corrupt).toBe(2);
  });

  it("garbage between records: reported once, at its offset; every record written", async () => {
    const records = articleRecords("junk", 6);
    const at = records.slice(0, 3).reduce((n, r) => n + r.length, 0);
    const garbage = Buffer.from("\x00\x01\x02 this is not a WARC record\r\nWARC/ nor is this\r\n\xff\xfe".repeat(20), "latin1");
    const out = await clean("garbage", [file("garbage.warc", Buffer.concat([...records.slice(0, 3), garbage, ...records.slice(3)]))]);
    expect(ids(out.docs)).toEqual(Array.from({ length: 6 }, (_, i) => recordId(`junk-${i}`)));
    expect(out.rejects).toEqual([expect.objectContaining({ offset: at, reason: "corrupt", source: join(dir, "garbage.warc") })]);
  });

  it("zero-length records and missing headers: each passed over and counted, the next record read", async () => {
    const good = articleRecords("hdr", 5);
    const head = (fields: string): string => `WARC/1.0\r\nWARC-Record-ID: <urn:test:bad>\r\n${fields}\r\n`;
    const http = `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>hello</p>`;
    const bad = [
      `${head("WARC-Type: response\r\nContent-Length: 0\r\n")}\r\n\r\n`, // zero-length block
      `${head(`WARC-Type: response\r\nContent-Length: ${"HTTP/1.1 200 OK\r\n\r\n".length}\r\n`)}HTTP/1.1 200 OK\r\n\r\n\r\n\r\n`, // zero-length payload
      `${head("WARC-Type: response\r\n") + http}\r\n\r\n`, // no Content-Length
      `${head(`Content-Length: ${http.length}\r\n`) + http}\r\n\r\n`, // no WARC-Type
      `${head(`WARC-Type: response\r\nContent-Length: 12\r\n`)}<p>hello</p>\r\n\r\n`, // no HTTP head
    ];
    const parts = good.flatMap((record, i) => (i < bad.length ? [record, Buffer.from(bad[i], "latin1")] : [record]));
    const out = await clean("headers", [file("headers.warc", Buffer.concat(parts))]);
    expect(ids(out.docs)).toEqual(Array.from({ length: 5 }, (_, i) => recordId(`hdr-${i}`)));
    expect(out.rejects.map((r) => r.reason)).toEqual(["bad-http", "empty", "corrupt", "not-response", "bad-http"]);
  });
});

describe("hostile pages", () => {
  it("a binary body labelled text/html is accounted for, and the output stays valid JSON lines", async () => {
    let seed = 7;
    const noise = Buffer.alloc(40_000, 0).map(() => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 24) & 0xff);
    const records = [
      warcResponse({ id: recordId("bin-0"), url: pageUrl("bin-0"), body: articlePage("bin-0") }),
      warcResponse({ id: recordId("binary"), url: pageUrl("binary"), body: noise }),
      warcResponse({
        id: recordId("half"),
        url: pageUrl("half"),
        body: Buffer.concat([Buffer.from(articlePage("half").slice(0, 300)), noise.subarray(0, 2000)]),
      }),
      warcResponse({ id: recordId("bin-1"), url: pageUrl("bin-1"), body: articlePage("bin-1") }),
    ];
    const out = await clean("binary", [file("binary.warc", Buffer.concat(records))], { workers: 2 });
    expectAccounted(out, ["bin-0", "binary", "half", "bin-1"]);
    expect(ids(out.docs)).toContain(recordId("bin-1"));
    for (const doc of out.docs) expect(wellFormed(doc.text)).toBe(true);
  });

  it("invalid UTF-8 and a lying charset: decoded with what the bytes say, text intact", async () => {
    const page = (text: string): string => articlePage("charset").replace("<p>", `<p>${text} `);
    const records = [
      // Labelled UTF-8, written in windows-1252.
      warcResponse({ id: recordId("cp1252"), url: pageUrl("cp1252"), body: Buffer.from(page("Un café déjà vu"), "latin1") }),
      // Labelled Shift_JIS, written in UTF-8.
      warcResponse({
        id: recordId("utf8"),
        url: pageUrl("utf8"),
        body: Buffer.from(page("naïve café"), "utf8"),
        contentType: "text/html; charset=shift_jis",
      }),
      // UTF-8 with a few bytes that cannot be (few next to its many good ones: it is still UTF-8).
      warcResponse({
        id: recordId("broken"),
        url: pageUrl("broken"),
        body: Buffer.concat([Buffer.from(page("Ελληνικά résumé ".repeat(4)), "utf8"), Buffer.from([0xc3, 0x28, 0xff])]),
      }),
    ];
    const out = await clean("charsets", [file("charsets.warc", Buffer.concat(records))]);
    const byId = new Map(out.docs.map((d) => [d.warc_record_id, d]));
    expect(byId.get(recordId("cp1252"))).toMatchObject({ charset: "windows-1252", text: expect.stringContaining("Un café déjà vu") });
    expect(byId.get(recordId("utf8"))).toMatchObject({ charset: "utf-8", text: expect.stringContaining("naïve café") });
    expect(byId.get(recordId("broken"))).toMatchObject({ charset: "utf-8", text: expect.stringContaining("Ελληνικά résumé") });
    for (const doc of out.docs) expect(wellFormed(doc.text)).toBe(true);
  });

  it("a page over --max-page-bytes is skipped and in the rejects as too-large", async () => {
    const big = articlePage("big").replace("</body>", `<p>${"padding ".repeat(20_000)}</p></body>`);
    const records = [
      ...articleRecords("size", 2),
      warcResponse({ id: recordId("big"), url: pageUrl("big"), body: big }),
      ...articleRecords("after", 1),
    ];
    const out = await clean("too-large", [file("too-large.warc", Buffer.concat(records))], { maxPageBytes: 100_000 });
    expect(ids(out.docs)).toEqual([recordId("size-0"), recordId("size-1"), recordId("after-0")]);
    expect(out.rejects).toEqual([
      expect.objectContaining({
        record_id: recordId("big"),
        url: pageUrl("big"),
        reason: "too-large",
        offset: records[0].length + records[1].length,
      }),
    ]);
  });

  it("a page past the decoder's limit (with --max-page-bytes raised above it) is in the rejects as too-large; the run goes on", async () => {
    // A 600 MB page used to end the run ("Invalid string length", exit 4). The limit is V8's
    // longest string; lowered here (the reader runs on this thread) to reach the same checks.
    const saved = DECODER_LIMIT.chars;
    DECODER_LIMIT.chars = 100_000;
    try {
      const big = articlePage("huge-page").replace("</body>", `<p>${"padding ".repeat(20_000)}</p></body>`);
      const records = [
        ...articleRecords("limit", 2),
        warcResponse({ id: recordId("huge-page"), url: pageUrl("huge-page"), body: big }),
        ...articleRecords("past", 1),
      ];
      const out = await clean("decoder-limit", [file("decoder-limit.warc", Buffer.concat(records))], { maxPageBytes: 1 << 30, workers: 2 });
      expect(ids(out.docs)).toEqual([recordId("limit-0"), recordId("limit-1"), recordId("past-0")]);
      expect(out.rejects).toEqual([
        expect.objectContaining({
          record_id: recordId("huge-page"),
          reason: "too-large",
          detail: expect.stringMatching(/exceeds the decoder limit/),
        }),
      ]);
    } finally {
      DECODER_LIMIT.chars = saved;
    }
  });

  it("100,000-deep nesting and a 10 MB text node: bounded time, the run completes, the next page is written", async () => {
    const records = [
      warcResponse({
        id: recordId("deep"),
        url: pageUrl("deep"),
        body: `<html><body>${"<div>".repeat(100_000)}<p>deep down</p></body></html>`,
      }),
      warcResponse({
        id: recordId("deep-after-text"),
        url: pageUrl("deep-after-text"),
        body: `<html><body><p>${"words above the deep part ".repeat(20)}</p>${"<div>".repeat(100_000)}<p>deep down</p></body></html>`,
      }),
      warcResponse({ id: recordId("huge"), url: pageUrl("huge"), body: `<html><body><p>${"word ".repeat(2_000_000)}</p></body></html>` }),
      ...articleRecords("next", 1),
    ];
    const started = performance.now();
    const out = await clean("hostile", [file("hostile.warc", Buffer.concat(records))], { workers: 2, batchSize: 1 });
    expect(performance.now() - started).toBeLessThan(30_000);
    expectAccounted(out, ["deep", "deep-after-text", "huge", "next-0"]);
    expect(ids(out.docs)).toContain(recordId("next-0"));
    expect(out.summary.skipped.failed).toBe(0);
    // The deep page's text lies below the nesting guard, and its reject says why.
    const deep = out.rejects.find((r) => r.record_id === recordId("deep"));
    expect(deep).toMatchObject({ reason: "too-deep" });
    expect(deep?.detail).toMatch(/nesting deeper than 4096 levels before any text/);
    // Text above the cut is not written as if it were the whole page (#31.6): rejected, counted.
    expect(ids(out.docs)).not.toContain(recordId("deep-after-text"));
    const cut = out.rejects.find((r) => r.record_id === recordId("deep-after-text"));
    expect(cut).toMatchObject({ reason: "too-deep" });
    expect(cut?.detail).toMatch(/nesting deeper than 4096 levels after 1 block; the parse was cut off there/);
    expect(out.summary.skipped["too-deep"]).toBe(2);
  });
});

describe("worker faults", () => {
  it("a worker that throws, exits or dies of an uncaught error fails only its pages; the pool replaces it and goes on", async () => {
    const names = Array.from({ length: 14 }, (_, i) => `fault-${i}`);
    const markers: Record<number, string> = {
      2: "WINNOW-TEST-THROW",
      5: "WINNOW-TEST-EXIT",
      8: "WINNOW-TEST-UNCAUGHT",
      10: "WINNOW-TEST-EXIT",
    };
    const records = names.map((name, i) =>
      warcResponse({ id: recordId(name), url: pageUrl(name), body: articlePage(`${name} ${markers[i] ?? ""}`) }),
    );
    // winnow's own worker, except for pages carrying a marker. Four faults on two threads: the
    // later pages are written only if dead threads are replaced.
    const workerModule = file(
      "faulty-worker.mjs",
      `import cleanTask, { describeClassifier } from ${JSON.stringify(pathToFileURL(WORKER).href)};
export { describeClassifier };
export default async function (task) {
  const text = Buffer.concat(task.bodies).toString("latin1");
  if (text.includes("WINNOW-TEST-THROW")) throw new Error("injected fault");
  if (text.includes("WINNOW-TEST-EXIT")) process.exit(3);
  if (text.includes("WINNOW-TEST-UNCAUGHT")) {
    setImmediate(() => { throw new Error("uncaught in worker"); });
    return new Promise(() => {});
  }
  return cleanTask(task);
}
`,
    );
    const out = await clean("faults", [file("faults.warc", Buffer.concat(records))], { workers: 2, batchSize: 1, workerModule });
    expect(out.summary.skipped.failed).toBe(4);
    expect(ids(out.docs)).toEqual(names.filter((_, i) => markers[i] === undefined).map(recordId));
    expect(out.rejects.map((r) => [r.record_id, r.reason, r.detail])).toEqual([
      [recordId("fault-2"), "failed", "worker failed: injected fault"],
      [recordId("fault-5"), "failed", "worker failed: worker exited with code: 3"],
      [recordId("fault-8"), "failed", "worker failed: uncaught in worker"],
      [recordId("fault-10"), "failed", "worker failed: worker exited with code: 3"],
    ]);
  });
});

describe("the rejects file", () => {
  it("names the file, offset, record id, URL and reason of every record that was not written", async () => {
    const plain = gunzipSync(readFileSync(SAMPLE));
    const records = articleRecords("rej", 3);
    const trunc = file("rej-trunc.warc", Buffer.concat([...records, records[0].subarray(0, 200)]));
    const sample = file("rej-plain.warc", plain);
    const out = await clean("rejects", [trunc, sample]);
    expect(out.rejects).toContainEqual({
      source: trunc,
      offset: records[0].length * 3,
      record_id: recordId("rej-0"),
      url: pageUrl("rej-0"),
      reason: "truncated",
      detail: expect.stringContaining("input ends"),
    });
    expect(out.rejects).toContainEqual(
      expect.objectContaining({ source: sample, offset: 0, reason: "not-response", detail: "WARC-Type warcinfo" }),
    );
    const emptied = out.rejects.filter((r) => r.reason === "empty-after-cleaning");
    expect(emptied).toHaveLength(2);
    for (const r of emptied) {
      const record = sampleRecords.find((s) => s.recordId === r.record_id);
      expect(record?.url).toBe(r.url);
      // In the plain copy, the record is where its text starts.
      expect(plain.toString("latin1", r.offset, r.offset + 5)).toBe("WARC/");
    }
    const total = Object.values(out.summary.skipped).reduce((a, b) => a + b, 0);
    expect(out.rejects).toHaveLength(total);
  });
});

// ---------------------------------------------------------------------------------------------

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  pid: number | undefined;
}

/** Runs the winnow CLI; `during` may signal it while it runs. */
function winnow(args: string[], during?: (child: ReturnType<typeof spawn>) => void): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stderr, pid: child.pid }));
    during?.(child);
  });
}

/** Resolves once `path` has a line containing `text` (polling: the file is written by another process). */
async function lineIn(path: string, text: string): Promise<void> {
  for (let i = 0; i < 1_000; i++) {
    if (existsSync(path) && readFileSync(path, "utf8").includes(text)) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no line with ${text} in ${path}`);
}

describe("the CLI", () => {
  it("exits 0 when the run completed with records skipped", async () => {
    const bytes = readFileSync(SAMPLE).subarray(0, sampleRecords[12].offset + 100);
    const r = await winnow([
      "clean",
      file("cli-damaged.warc.gz", bytes),
      "-o",
      "cli-damaged.jsonl",
      "--model",
      "heuristic",
      "--workers",
      "0",
    ]);
    expect(r.code).toBe(0);
    expect(stderrMessages(r.stderr).join("\n")).toMatch(/^winnow: wrote \d+ documents .* skipped \d+ \(.*1 truncated/m);
  });

  it("exits 3 when nothing can be read", async () => {
    mkdirSync(join(dir, "no-archives"));
    writeFileSync(join(dir, "no-archives", "notes.txt"), "not an archive");
    const none = await winnow(["clean", "no-archives", "missing.warc", "-o", "cli-none.jsonl", "--model", "heuristic"]);
    expect(none.code).toBe(3);
    expect(stderrMessages(none.stderr)).toContain("winnow: cannot open input: no such file or directory (missing.warc)");
    expect(existsSync(join(dir, "cli-none.jsonl"))).toBe(false);
    // A file that opens but cannot be read (Linux: reading address 0 of a process fails); CI
    // (Linux) must check it, so there a missing /proc fails rather than passes unchecked.
    if (!existsSync("/proc/self/mem") && process.env.CI !== "true") return;
    const unreadable = await winnow(["clean", "/proc/self/mem", "-o", "cli-unreadable.jsonl", "--model", "heuristic", "--workers", "0"]);
    expect(unreadable.code).toBe(3);
    expect(stderrMessages(unreadable.stderr)).toContain("winnow: cannot read input: read failed: EIO: i/o error, read (/proc/self/mem)");
  });

  it("exits 4 when the output cannot be written", async () => {
    file("cli-blocker", "a file where a folder should be");
    const r = await winnow(["clean", SAMPLE, "-o", "cli-blocker/out.jsonl", "--model", "heuristic", "--workers", "0"]);
    expect(r.code).toBe(4);
    expect(stderrMessages(r.stderr)).toContain("winnow: cannot create output: a path component is not a directory (cli-blocker/out.jsonl)");
  });

  describe("interrupted", () => {
    let inputs: string[];
    let reference: string[];
    beforeAll(async () => {
      inputs = [0, 1, 2, 3].map((n) => file(`big-${n}.warc`, Buffer.concat(articleRecords(`big${n}`, 400))));
      // As the command line runs it: language identification is on by default there.
      const corpus = { langId: true, filters: [], stats: false, keepFiltered: false };
      await runClean({ inputs, output: join(dir, "big-reference.jsonl"), model: "heuristic", workers: 0, corpus });
      reference = readFileSync(join(dir, "big-reference.jsonl"), "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .sort();
      expect(reference).toHaveLength(1600);
    });

    const args = (output: string): string[] => [
      "clean",
      ...inputs,
      "-o",
      output,
      "--model",
      "heuristic",
      "--workers",
      "1",
      "--batch-size",
      "4",
      "--resume",
    ];
    /** Every part of `output`, each line checked to be JSON, sorted. */
    function parts(output: string): string[] {
      const all: string[] = [];
      for (let n = 1; existsSync(join(dir, partPath(output, n))); n++) {
        for (const line of readFileSync(join(dir, partPath(output, n)), "utf8").split("\n")) {
          if (line === "") continue;
          expect(() => JSON.parse(line)).not.toThrow();
          all.push(line);
        }
      }
      return all.sort();
    }

    it("by SIGINT: exits 130 with a valid JSONL output; --resume then completes it, every document once", async () => {
      const first = await winnow(args("sigint.jsonl"), (child) => {
        void lineIn(join(dir, "sigint.jsonl.manifest"), '"type":"input"').then(() => child.kill("SIGINT"));
      });
      expect(first.code).toBe(130);
      expect(stderrMessages(first.stderr).join("\n")).toMatch(/^winnow: interrupted: wrote \d+ documents/m);
      const written = parts("sigint.jsonl");
      expect(written.length).toBeGreaterThanOrEqual(400);
      expect(written.length).toBeLessThan(1600);

      const second = await winnow(args("sigint.jsonl"));
      expect(second.code).toBe(0);
      expect(second.stderr).toMatch(/to sigint\.part2\.jsonl .*resumed: \d+ inputs? done before/);
      expect(parts("sigint.jsonl")).toEqual(reference);
    });

    it("by SIGKILL: the run's part is lost, --resume writes it again, every document once", async () => {
      const first = await winnow(args("sigkill.jsonl"), (child) => {
        void lineIn(join(dir, "sigkill.jsonl.manifest"), '"type":"input"').then(() => child.kill("SIGKILL"));
      });
      expect(first.signal).toBe("SIGKILL");
      expect(existsSync(join(dir, "sigkill.jsonl"))).toBe(false);
      // The killed run could not remove its temporary file (#21.5), nor its locks (#30.5)...
      const leftovers = (): string[] => readdirSync(dir).filter((name) => name.startsWith(".sigkill."));
      expect(leftovers().sort()).toEqual([
        ".sigkill.jsonl.lock",
        ".sigkill.jsonl.manifest.lock",
        expect.stringMatching(new RegExp(`^\\.sigkill\\.jsonl\\.tmp-${first.pid}-\\d+$`)),
      ]);
      expect(JSON.parse(readFileSync(join(dir, ".sigkill.jsonl.lock"), "utf8"))).toMatchObject({ pid: first.pid });

      const second = await winnow(args("sigkill.jsonl"));
      expect(second.code).toBe(0);
      expect(parts("sigkill.jsonl")).toEqual(reference);
      expect(existsSync(join(dir, "sigkill.part2.jsonl"))).toBe(false);
      // ...so the resumed run did, its process being gone: it took the stale locks over and released them.
      expect(leftovers()).toEqual([]);
    });
  });
});
