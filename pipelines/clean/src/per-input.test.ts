// Sharded runs with one output per input: the outputs of all tasks together must hold exactly
// the documents of one single-process run; a re-run redoes only inputs not marked done; two
// tasks on the same input leave a whole output; an input that cannot be read (locally, or over
// https from a server that stays down) is reported and the others are still done.
//
// The compiled modules are imported (run `npx tsc -b` first), as in run.test.ts.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PerInputRunOptions, runCleanPerInput } from "../dist/per-input.js";
import { runClean } from "../dist/run.js";
import { articleRecords, gzipEach } from "../test/test-warcs.js";

const SAMPLE = new URL("../../../fixtures/sample.warc.gz", import.meta.url).pathname;
const NAMES = ["a.warc", "b.warc.gz", "sample.warc.gz", "c.warc", "d.warc"];
const FAST = { tries: 3, baseDelayMs: 1, maxDelayMs: 5 };

let dir: string;
let src: string;
let paths: string;
let reference: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "winnow-per-input-"));
  src = join(dir, "src");
  mkdirSync(join(src, "seg"), { recursive: true });
  writeFileSync(join(src, "seg", "a.warc"), Buffer.concat(articleRecords("a", 12)));
  writeFileSync(join(src, "seg", "b.warc.gz"), gzipEach(articleRecords("b", 9)).file);
  copyFileSync(SAMPLE, join(src, "seg", "sample.warc.gz"));
  writeFileSync(join(src, "seg", "c.warc"), Buffer.concat(articleRecords("c", 7)));
  writeFileSync(join(src, "seg", "d.warc"), Buffer.concat(articleRecords("d", 5)));
  // Relative lines, as Common Crawl's warc.paths.gz, joined to a base.
  paths = join(dir, "warc.paths.gz");
  writeFileSync(paths, gzipSync(NAMES.map((n) => `seg/${n}`).join("\n")));
  const single = join(dir, "single.jsonl");
  await runClean({ inputs: NAMES.map((n) => join(src, "seg", n)), output: single, model: "heuristic", workers: 0 });
  reference = lines(single).sort();
  expect(reference.length).toBeGreaterThan(30);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lines(path: string): string[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "");
}

/** Every file under `root`, relative to it, sorted. */
function tree(root: string): string[] {
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true }) as string[]).filter((f) => statSync(join(root, f)).isFile()).sort();
}

/** The documents of every output under `out` marked done, with `source` made the same as a local run's. */
function union(out: string, base: string): string[] {
  const files = tree(out);
  return files
    .filter((f) => files.includes(`${f}.done`))
    .flatMap((f) => lines(join(out, f)))
    .map((l) => l.replaceAll(base, src))
    .sort();
}

function task(out: string, rank: number, worldSize: number, extra: Partial<PerInputRunOptions> = {}) {
  return runCleanPerInput({
    inputs: [],
    pathsFile: paths,
    baseUrl: src,
    shard: { rank, worldSize },
    env: {},
    outputDir: out,
    format: "jsonl",
    compression: null,
    retry: FAST,
    model: "heuristic",
    workers: 0,
    ...extra,
  });
}

describe("one output per input, sharded", () => {
  it("four tasks together write exactly the documents of one run, one output and done marker per input", async () => {
    const out = join(dir, "out4");
    const summaries = await Promise.all([0, 1, 2, 3].map((rank) => task(out, rank, 4)));
    expect(summaries.map((s) => s.assigned)).toEqual([2, 1, 1, 1]);
    expect(summaries.every((s) => s.failed.length === 0 && s.done === s.assigned)).toBe(true);
    const expected = NAMES.map((n) => `seg/${n.replace(/\.warc(\.gz)?$/, ".jsonl")}`);
    expect(tree(out)).toEqual([...expected, ...expected.map((n) => `${n}.done`)].sort());
    expect(union(out, src)).toEqual(reference);
    const marker = JSON.parse(readFileSync(join(out, "seg/b.jsonl.done"), "utf8"));
    expect(marker).toMatchObject({ input: join(src, "seg/b.warc.gz"), documents: lines(join(out, "seg/b.jsonl")).length });
  });

  it("a re-run redoes only the inputs not marked done", async () => {
    const out = join(dir, "rerun");
    await task(out, 0, 1);
    // As a task killed before it finished c.warc: no marker, a staged file left behind.
    unlinkSync(join(out, "seg/c.jsonl.done"));
    writeFileSync(join(out, "seg/.c.jsonl.otherhost-1-00000000.staging.jsonl"), "half a line");
    const here = hostname().replace(/[^A-Za-z0-9-]/g, "_");
    const dead = join(out, `seg/.c.jsonl.${here}-999999999-00000000.staging.jsonl`);
    writeFileSync(dead, "half a line");
    const before = statSync(join(out, "seg/a.jsonl")).mtimeMs;
    const again = await task(out, 0, 1);
    expect(again).toMatchObject({ assigned: 5, alreadyDone: 4, done: 1 });
    expect(statSync(join(out, "seg/a.jsonl")).mtimeMs).toBe(before);
    expect(union(out, src)).toEqual(reference);
    // This machine's dead task's file is removed; another machine's may belong to a live task.
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(join(out, "seg/.c.jsonl.otherhost-1-00000000.staging.jsonl"))).toBe(true);
    const third = await task(out, 0, 1, { skipDone: false });
    expect(third).toMatchObject({ alreadyDone: 0, done: 5 });
    expect(union(out, src)).toEqual(reference);
  });

  it("the same task twice at once (a job submitted twice): each input written once, both tasks end well", async () => {
    const out = join(dir, "twice");
    const [a, b] = await Promise.all([task(out, 0, 1), task(out, 0, 1)]);
    // Exactly once: every input done by one task; the other found it done, before or after
    // waiting for its twin's lock.
    expect(a.done + b.done).toBe(5);
    expect(a.alreadyDone + b.alreadyDone).toBe(5);
    expect([...a.failed, ...b.failed]).toEqual([]);
    expect(union(out, src)).toEqual(reference);
    expect(tree(out).filter((f) => f.endsWith(".lock"))).toEqual([]);
    expect(tree(out).filter((f) => f.includes(".staging") || f.includes(".tmp-"))).toEqual([]);
  });

  it("compressed outputs and per-input rejects", async () => {
    const out = join(dir, "gz");
    const rejects = join(dir, "gz-rejects");
    const summary = await task(out, 0, 1, { compression: "gzip", rejectsDir: rejects });
    expect(summary.done).toBe(5);
    expect(tree(out).filter((f) => f.endsWith(".jsonl.gz"))).toHaveLength(5);
    expect(tree(rejects)).toEqual(NAMES.map((n) => `seg/${n.replace(/\.warc(\.gz)?$/, ".rejects.jsonl")}`).sort());
  });

  it("an input that cannot be read is reported, not marked done, and the task goes on", async () => {
    const list = join(dir, "with-missing.paths");
    writeFileSync(list, ["seg/a.warc", "seg/missing.warc", "seg/d.warc"].join("\n"));
    const out = join(dir, "missing");
    const rejects = join(dir, "missing-rejects");
    const summary = await task(out, 0, 1, { pathsFile: list, rejectsDir: rejects });
    expect(summary.done).toBe(2);
    expect(summary.failed).toEqual([{ input: join(src, "seg/missing.warc"), reason: expect.stringMatching(/no such file/) }]);
    expect(existsSync(join(out, "seg/missing.jsonl"))).toBe(false);
    expect(JSON.parse(lines(join(rejects, "seg/missing.rejects.jsonl"))[0])).toMatchObject({ reason: "unreadable" });
  });

  it("records what each output was made with, and a task run again with other settings refuses before it cleans anything", async () => {
    const out = join(dir, "settings");
    await task(out, 0, 1);
    const marker = JSON.parse(readFileSync(join(out, "seg/a.jsonl.done"), "utf8"));
    expect(marker.settings).toMatchObject({ format: "jsonl", compression: null, model: "heuristic" });
    // As a task killed before it finished d.warc: its output is not there, nor its marker.
    unlinkSync(join(out, "seg/d.jsonl.done"));
    unlinkSync(join(out, "seg/d.jsonl"));
    const refused = task(out, 0, 1, {
      comments: true,
      corpus: { langId: false, filters: ["gopher"], stats: false, keepFiltered: false },
    });
    await expect(refused).rejects.toMatchObject({
      name: "UsageError",
      what: expect.stringMatching(
        /^4 outputs are marked done with other settings than this run's \(comments: default → true; corpus: default → .*"gopher"/,
      ),
      where: `${join(out, "seg/a.jsonl")} and 3 more`,
    });
    // Nothing was cleaned with the new settings.
    expect(existsSync(join(out, "seg/d.jsonl"))).toBe(false);
    // A model is known by its bytes: the shipped MLP is not the heuristic.
    await expect(task(out, 0, 1, { model: "mlp" })).rejects.toThrow(/model: "heuristic" → "sha256:[0-9a-f]{64}"/);
    // The same settings, or only the workers, the batch size and the order changed: it goes on.
    const again = await task(out, 0, 1, { batchSize: 3, unordered: true });
    expect(again).toMatchObject({ alreadyDone: 4, done: 1 });
    expect(union(out, src)).toEqual(reference);
    // A marker written before markers held settings (or one that holds no JSON) is not compared.
    writeFileSync(join(out, "seg/a.jsonl.done"), '{"input":"a.warc","documents":12}\n');
    writeFileSync(join(out, "seg/b.jsonl.done"), "");
    for (const name of ["c", "d", "sample"]) unlinkSync(join(out, `seg/${name}.jsonl.done`));
    const legacy = await task(out, 0, 1, { comments: true });
    expect(legacy).toMatchObject({ alreadyDone: 2, done: 3 });
    // Told to redo everything (skipDone false), the markers are not read.
    expect(await task(out, 0, 1, { skipDone: false, comments: false })).toMatchObject({ done: 5 });
  });

  it("refuses two inputs that would write the same output", async () => {
    const list = join(dir, "clash.paths");
    writeFileSync(list, "seg/a.warc\nseg/a.warc.gz\n");
    await expect(task(join(dir, "clash"), 0, 1, { pathsFile: list })).rejects.toThrow(
      /two inputs would write the same output seg\/a.jsonl/,
    );
  });
});

describe("one output per input, over https", () => {
  let server: Server;
  let base: string;
  const requests = new Map<string, number>();
  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const n = (requests.get(path) ?? 0) + 1;
      requests.set(path, n);
      if (path.endsWith("/d.warc")) return void res.writeHead(503).end(); // stays down
      const data = readFileSync(join(src, path));
      const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? "")?.[1] ?? 0);
      const headers = { "accept-ranges": "bytes", "content-length": data.length - from };
      if (from > 0) {
        if (from >= data.length) return void res.writeHead(416).end();
        res.writeHead(206, { ...headers, "content-range": `bytes ${from}-${data.length - 1}/${data.length}` });
        return void res.end(data.subarray(from));
      }
      res.writeHead(200, headers);
      // The first answer for each file is cut a third of the way in.
      if (n === 1) {
        res.write(data.subarray(0, Math.floor(data.length / 3)));
        return void setImmediate(() => req.socket.destroy());
      }
      res.end(data);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("connections cut mid-body are resumed; the input whose server stays down fails alone", async () => {
    const out = join(dir, "https");
    const summaries = await Promise.all([0, 1].map((rank) => task(out, rank, 2, { baseUrl: base })));
    const failed = summaries.flatMap((s) => s.failed);
    expect(failed).toEqual([{ input: `${base}/seg/d.warc`, reason: expect.stringMatching(/HTTP 503 \(gave up after 3 tries\)/) }]);
    expect(summaries.reduce((n, s) => n + s.done, 0)).toBe(4);
    expect(existsSync(join(out, "seg/d.jsonl.done"))).toBe(false);
    const d = new Set(lines(join(dir, "single.jsonl")).filter((l) => l.includes("/seg/d.warc")));
    expect(union(out, base)).toEqual(reference.filter((l) => !d.has(l)));
    expect(relative(dir, out)).toBe("https");
  });
});

describe("one output per input, s3:// in and out", () => {
  let s3rver: S3rver;
  let s3dir: string;
  let endpoint: string;
  let client: S3Client;
  beforeAll(async () => {
    process.env.AWS_ACCESS_KEY_ID = "S3RVER";
    process.env.AWS_SECRET_ACCESS_KEY = "S3RVER";
    s3dir = mkdtempSync(join(tmpdir(), "winnow-per-input-s3-"));
    s3rver = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: s3dir });
    const { port } = await s3rver.run();
    endpoint = `http://127.0.0.1:${port}`;
    client = new S3Client({ endpoint, forcePathStyle: true, region: "us-east-1" });
    await client.send(new CreateBucketCommand({ Bucket: "crawl" }));
    for (const name of NAMES) {
      await client.send(new PutObjectCommand({ Bucket: "crawl", Key: `cc/seg/${name}`, Body: readFileSync(join(src, "seg", name)) }));
    }
  });
  afterAll(async () => {
    await s3rver.close();
    rmSync(s3dir, { recursive: true, force: true });
  });

  async function text(key: string): Promise<string> {
    const got = await client.send(new GetObjectCommand({ Bucket: "crawl", Key: key }));
    return (got.Body as { transformToString(): Promise<string> }).transformToString();
  }

  it("reads s3:// inputs and uploads each output, then its done marker; a second run skips them", async () => {
    const run = (rank: number) => task("s3://crawl/out/", rank, 2, { baseUrl: "s3://crawl/cc/", s3Endpoint: endpoint });
    const summaries = await Promise.all([run(0), run(1)]);
    expect(summaries.map((s) => [s.done, s.failed.length])).toEqual([
      [3, 0],
      [2, 0],
    ]);
    const listed = await client.send(new ListObjectsV2Command({ Bucket: "crawl", Prefix: "out/" }));
    const keys = (listed.Contents ?? []).map((o) => o.Key as string).sort();
    const expected = NAMES.map((n) => `out/seg/${n.replace(/\.warc(\.gz)?$/, ".jsonl")}`);
    expect(keys).toEqual([...expected, ...expected.map((k) => `${k}.done`)].sort());
    const documents: string[] = [];
    for (const key of expected) documents.push(...(await text(key)).split("\n").filter((l) => l !== ""));
    expect(documents.map((l) => l.replaceAll("s3://crawl/cc", src)).sort()).toEqual(reference);
    expect(JSON.parse(await text(`${expected[0]}.done`))).toMatchObject({ input: "s3://crawl/cc/seg/a.warc" });
    const again = await run(0);
    expect(again).toMatchObject({ alreadyDone: 3, done: 0 });
    // The markers are read back from the store: other settings are refused there too.
    await expect(task("s3://crawl/out/", 0, 2, { baseUrl: "s3://crawl/cc/", s3Endpoint: endpoint, links: true })).rejects.toThrow(
      /^3 outputs are marked done with other settings than this run's \(links: default → true\)/,
    );
  });

  it("writes each object only where none is: a twin's finished output is kept, and the task ends well", async () => {
    // s3rver writes over an object whatever If-None-Match says, so a proxy in front of it answers
    // a conditional write as S3 does: 412 when the key holds an object.
    const conditional: string[] = [];
    const proxy = createServer(async (req, res) => {
      const key = new URL(req.url ?? "/", "http://x").pathname;
      if (req.method === "PUT" && req.headers["if-none-match"] !== undefined) {
        conditional.push(`${req.headers["if-none-match"]} ${key}`);
        const there = await fetch(`${endpoint}${key}`, { method: "HEAD" });
        if (there.ok) {
          req.resume();
          return void res
            .writeHead(412, { "content-type": "application/xml" })
            .end(
              "<Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>",
            );
        }
      }
      const { port } = new URL(endpoint);
      const upstream = request({ host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const through = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      // The twin's output is there, whole, but not yet marked done (it is about to, or died first).
      const twins = "This is the twin's output.\n";
      await client.send(new PutObjectCommand({ Bucket: "crawl", Key: "twin/seg/a.jsonl", Body: twins }));
      const run = (rank: number) => task("s3://crawl/twin/", rank, 5, { baseUrl: "s3://crawl/cc/", s3Endpoint: through });
      const second = await run(0);
      expect(second).toMatchObject({ done: 0, alreadyDone: 1, failed: [] });
      expect(await text("twin/seg/a.jsonl")).toBe(twins);
      // Marked done for the next run, by whichever of the two comes first.
      expect(JSON.parse(await text("twin/seg/a.jsonl.done"))).toMatchObject({ input: "s3://crawl/cc/seg/a.warc" });
      expect(conditional).toEqual(["* /crawl/twin/seg/a.jsonl", "* /crawl/twin/seg/a.jsonl.done"]);
      // A key with nothing there is written as before.
      expect(await run(1)).toMatchObject({ done: 1, alreadyDone: 0, failed: [] });
      expect(await text("twin/seg/b.jsonl")).toContain('"url"');
      expect(conditional.slice(2)).toEqual(["* /crawl/twin/seg/b.jsonl", "* /crawl/twin/seg/b.jsonl.done"]);
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});
