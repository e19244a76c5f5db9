// s3:// inputs against a local S3-compatible server (s3rver), behind a proxy that misbehaves on
// purpose (SlowDown, a body cut mid-way): every record of the fixture comes out exactly once.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
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
/** GETs seen per key, through the proxy. */
const gets = new Map<string, number>();

beforeAll(async () => {
  // The SDK's credential chain reads these; s3rver knows this key pair.
  process.env.AWS_ACCESS_KEY_ID = "S3RVER";
  process.env.AWS_SECRET_ACCESS_KEY = "S3RVER";
  dir = mkdtempSync(join(tmpdir(), "winnow-s3-"));
  s3rver = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: dir });
  const { port } = await s3rver.run();
  proxy = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
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
