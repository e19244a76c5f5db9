// s3:// inputs against a local S3-compatible server (s3rver), behind a proxy that misbehaves on
// purpose (SlowDown, a body cut mid-way): every record of the fixture comes out exactly once.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { type ArchiveRecord, readRecords, type SkipEvent } from "@winnow/archive";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { remoteOpener } from "./open.js";
import { parseS3Url, s3Exists, s3Put, s3Upload } from "./s3.js";

const FIXTURE = fileURLToPath(new URL("../../../fixtures/sample.warc.gz", import.meta.url));
const FAST = { tries: 4, baseDelayMs: 1, maxDelayMs: 5 };
const SLOW_DOWN =
  '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message><RequestId>1</RequestId></Error>';

let dir: string;
let s3rver: S3rver;
let proxy: Server;
let endpoint: string;
/** s3rver's own endpoint, not through the proxy. */
let direct: string;
/** GETs seen per key, through the proxy. */
const gets = new Map<string, number>();
/** Writes seen through the proxy: method, key (and ?uploadId for a multipart's end), If-None-Match. */
const writes: string[] = [];
/** Keys whose next conditional write the proxy answers 409 ConditionalRequestConflict, as S3 does when two race. */
const conflictOnce = new Set<string>();
const s3Error = (code: string) => `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`;

beforeAll(async () => {
  // The SDK's credential chain reads these; s3rver knows this key pair.
  process.env.AWS_ACCESS_KEY_ID = "S3RVER";
  process.env.AWS_SECRET_ACCESS_KEY = "S3RVER";
  dir = mkdtempSync(join(tmpdir(), "winnow-s3-"));
  s3rver = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: dir });
  const { port } = await s3rver.run();
  direct = `http://127.0.0.1:${port}`;
  proxy = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname;
    const condition = req.headers["if-none-match"];
    if (req.method === "PUT" || req.method === "POST") {
      const upload = url.searchParams.has("uploadId") ? (req.method === "POST" ? "?complete" : "?part") : "";
      writes.push(`${req.method} ${path}${upload}${condition === undefined ? "" : ` If-None-Match: ${condition}`}`);
    }
    if (req.method === "DELETE" && url.searchParams.has("uploadId")) writes.push(`DELETE ${path}?abort`);
    // s3rver writes whatever If-None-Match says; S3 answers a conditional write to a key that
    // holds an object with 412, so the proxy does what S3 would.
    if (condition === "*" && (req.method === "PUT" || req.method === "POST")) {
      const reply = (status: number, code: string) => {
        req.resume();
        res.writeHead(status, { "content-type": "application/xml" }).end(s3Error(code));
      };
      if (conflictOnce.delete(path)) return reply(409, "ConditionalRequestConflict");
      if ((await fetch(`http://127.0.0.1:${port}${path}`, { method: "HEAD" })).ok) return reply(412, "PreconditionFailed");
    }
    const n = req.method === "GET" ? (gets.get(path) ?? 0) + 1 : 0;
    if (req.method === "GET") gets.set(path, n);
    const misbehave = path.includes("flaky");
    if (misbehave && n === 1) return void res.writeHead(503, { "content-type": "application/xml" }).end(SLOW_DOWN);
    const upstream = request({ host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      if (misbehave && n === 2) {
        // Half the body, then the connection goes.
        let sent = 0;
        answer.on("data", (chunk: Buffer) => {
          if (sent > 30_000) return;
          sent += chunk.length;
          res.write(chunk);
          if (sent > 30_000) setImmediate(() => req.socket.destroy());
        });
        return;
      }
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const client = new S3Client({ endpoint: `http://127.0.0.1:${port}`, forcePathStyle: true, region: "us-east-1" });
  await client.send(new CreateBucketCommand({ Bucket: "crawl" }));
  for (const key of ["seg/sample.warc.gz", "seg/flaky.warc.gz"]) {
    await client.send(new PutObjectCommand({ Bucket: "crawl", Key: key, Body: readFileSync(FIXTURE) }));
  }
});
afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await s3rver.close();
  rmSync(dir, { recursive: true, force: true });
});

const fingerprint = (r: ArchiveRecord): string => `${r.recordId} ${createHash("sha1").update(r.body).digest("hex")}`;

async function read(input: string, remote: boolean): Promise<{ records: string[]; skips: SkipEvent[] }> {
  const skips: SkipEvent[] = [];
  const records: string[] = [];
  const open = remote ? remoteOpener({ retry: FAST }, { endpoint }) : undefined;
  for await (const r of readRecords(input, { open, onSkip: (e) => skips.push(e) })) records.push(fingerprint(r));
  return { records, skips };
}

describe("s3:// inputs", () => {
  it("reads every record exactly once, through SlowDown and a body cut mid-way", async () => {
    const local = await read(FIXTURE, false);
    for (const key of ["seg/sample.warc.gz", "seg/flaky.warc.gz"]) {
      const remote = await read(`s3://crawl/${key}`, true);
      expect(remote.records).toEqual(local.records);
      expect(remote.skips.map((s) => s.reason)).toEqual(local.skips.map((s) => s.reason));
    }
    // SlowDown, the cut body, the rest from a Range request, and the request past the end.
    expect(gets.get("/crawl/seg/flaky.warc.gz")).toBe(4);
  });

  it("a missing key cannot be opened, and is not retried", async () => {
    gets.delete("/crawl/seg/none.warc.gz");
    await expect(read("s3://crawl/seg/none.warc.gz", true)).rejects.toThrow(/NoSuchKey/);
    expect(gets.get("/crawl/seg/none.warc.gz")).toBe(1);
  });

  it("a store that refuses connections (no HTTP answer, but passing trouble) is retried, then given up", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const retries: string[] = [];
    const open = remoteOpener({ retry: FAST, onRetry: (what) => retries.push(what) }, { endpoint: `http://127.0.0.1:${port}` });
    await expect(readRecords("s3://crawl/seg/sample.warc.gz", { open }).next()).rejects.toThrow(
      /S3 request failed: ECONNREFUSED \(gave up after 4 tries\)/,
    );
    expect(retries).toHaveLength(3);
  });

  it("uploads an output, then its marker", async () => {
    const settings = { endpoint };
    expect(await s3Exists("s3://crawl/out/x.jsonl.gz.done", settings, FAST)).toBe(false);
    await s3Upload(FIXTURE, "s3://crawl/out/x.jsonl.gz", settings, FAST);
    await s3Put("s3://crawl/out/x.jsonl.gz.done", "{}\n", settings, FAST);
    expect(await s3Exists("s3://crawl/out/x.jsonl.gz.done", settings, FAST)).toBe(true);
    const client = new S3Client({ endpoint, forcePathStyle: true, region: "us-east-1" });
    const got = await client.send(new GetObjectCommand({ Bucket: "crawl", Key: "out/x.jsonl.gz" }));
    expect(Buffer.from(await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray())).toEqual(
      readFileSync(FIXTURE),
    );
    expect(parseS3Url("s3://b/k/e/y")).toEqual({ bucket: "b", key: "k/e/y" });
  });
});

describe("s3:// outputs written only where none is (If-None-Match: *)", () => {
  const settings = () => ({ endpoint });
  const client = () => new S3Client({ endpoint, forcePathStyle: true, region: "us-east-1" });
  async function bytesOf(key: string): Promise<Buffer> {
    const got = await client().send(new GetObjectCommand({ Bucket: "crawl", Key: key }));
    return Buffer.from(await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
  }

  it("s3rver itself does not honour the header: it writes over the object (why the proxy answers as S3)", async () => {
    const s3 = new S3Client({ endpoint: direct, forcePathStyle: true, region: "us-east-1" });
    await s3.send(new PutObjectCommand({ Bucket: "crawl", Key: "plain/x", Body: "first" }));
    await s3.send(new PutObjectCommand({ Bucket: "crawl", Key: "plain/x", Body: "second", IfNoneMatch: "*" }));
    expect((await bytesOf("plain/x")).toString()).toBe("second");
  });

  it("a small output and its marker: sent with the header, and a 412 is 'exists', the first object kept", async () => {
    writes.length = 0;
    const put = (body: string) => s3Put("s3://crawl/cond/x.jsonl.done", body, settings(), FAST, { ifAbsent: true });
    expect(await put("first\n")).toBe("written");
    expect(await put("second\n")).toBe("exists");
    expect((await bytesOf("cond/x.jsonl.done")).toString()).toBe("first\n");
    expect(await s3Upload(FIXTURE, "s3://crawl/cond/x.jsonl", settings(), FAST, { ifAbsent: true })).toBe("written");
    expect(await s3Upload(FIXTURE, "s3://crawl/cond/x.jsonl", settings(), FAST, { ifAbsent: true })).toBe("exists");
    expect(writes).toEqual([
      "PUT /crawl/cond/x.jsonl.done If-None-Match: *",
      "PUT /crawl/cond/x.jsonl.done If-None-Match: *",
      "PUT /crawl/cond/x.jsonl If-None-Match: *",
      "PUT /crawl/cond/x.jsonl If-None-Match: *",
    ]);
    // Without ifAbsent, as before: no header, and the object is replaced.
    expect(await s3Put("s3://crawl/cond/x.jsonl.done", "third\n", settings(), FAST)).toBe("written");
    expect(writes.at(-1)).toBe("PUT /crawl/cond/x.jsonl.done");
    expect((await bytesOf("cond/x.jsonl.done")).toString()).toBe("third\n");
  });

  it("a multipart upload carries the header on its completion; refused there, the upload is aborted and the object kept", async () => {
    // Larger than one 16 MiB part, so lib-storage uploads it in parts.
    const big = join(dir, "big.jsonl");
    writeFileSync(big, Buffer.alloc(17 << 20, "a"));
    writes.length = 0;
    expect(await s3Upload(big, "s3://crawl/cond/big.jsonl", settings(), FAST, { ifAbsent: true })).toBe("written");
    expect(writes.filter((w) => w.includes("?complete"))).toEqual(["POST /crawl/cond/big.jsonl?complete If-None-Match: *"]);
    expect(writes.filter((w) => w.includes("?part"))).toHaveLength(2);
    writeFileSync(big, Buffer.alloc(17 << 20, "b"));
    writes.length = 0;
    expect(await s3Upload(big, "s3://crawl/cond/big.jsonl", settings(), FAST, { ifAbsent: true })).toBe("exists");
    expect(writes.filter((w) => !w.includes("?part"))).toEqual([
      "POST /crawl/cond/big.jsonl",
      "POST /crawl/cond/big.jsonl?complete If-None-Match: *",
      "DELETE /crawl/cond/big.jsonl?abort",
    ]);
    expect((await bytesOf("cond/big.jsonl")).subarray(0, 4).toString()).toBe("aaaa");
  });

  it("a 409 (another conditional write under way) is tried again, and then finds that one's object", async () => {
    conflictOnce.add("/crawl/cond/raced.jsonl");
    writes.length = 0;
    expect(await s3Put("s3://crawl/cond/raced.jsonl", "mine\n", settings(), FAST, { ifAbsent: true })).toBe("written");
    expect(writes).toHaveLength(2);
    conflictOnce.add("/crawl/cond/raced.jsonl");
    expect(await s3Put("s3://crawl/cond/raced.jsonl", "late\n", settings(), FAST, { ifAbsent: true })).toBe("exists");
    expect((await bytesOf("cond/raced.jsonl")).toString()).toBe("mine\n");
  });
});
