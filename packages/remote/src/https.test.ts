// https inputs against a local server that misbehaves on purpose: every intact record of the
// fixture must come out exactly once, whatever the connection does.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { type ArchiveRecord, readRecords, type SkipEvent } from "@winnow/archive";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compress } from "zstd-napi";
import { remoteOpener } from "./open.js";

const FIXTURE = fileURLToPath(new URL("../../../fixtures/sample.warc.gz", import.meta.url));
const DATA = readFileSync(FIXTURE);
// The same records as one zstd frame: .warc.zst comes through the same streams.
const ZST = compress(gunzipSync(DATA));
const FAST = { tries: 4, baseDelayMs: 1, maxDelayMs: 5 };
// The same records as a plain WARC, sent with Content-Encoding: gzip (as an object stored with
// that header is): Range offsets then count the encoded bytes.
const ENCODED = gzipSync(gunzipSync(DATA));
/** The Range starts and Accept-Encoding headers of the requests for the encoded object. */
const encodedRequests: { from: number; acceptEncoding: string | undefined }[] = [];
/** What the server saw as the Authorization of the request for /private.warc.gz. */
let authorization: string | undefined;

/** Requests seen per path, so each path can misbehave on its nth request. */
const seen = new Map<string, number>();
let server: Server;
let base: string;

function rangeStart(req: IncomingMessage): number {
  const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
  return m === null ? 0 : Number(m[1]);
}

/** Writes a raw response so that the head can lie (a wrong Content-Length) and the socket can be cut. */
function raw(req: IncomingMessage, from: number, declared: number, send: number): void {
  const status = from > 0 ? "206 Partial Content" : "200 OK";
  const range = from > 0 ? `Content-Range: bytes ${from}-${DATA.length - 1}/${DATA.length}\r\n` : "";
  req.socket.write(`HTTP/1.1 ${status}\r\nContent-Length: ${declared}\r\nAccept-Ranges: bytes\r\n${range}Connection: close\r\n\r\n`);
  req.socket.end(DATA.subarray(from, from + send));
}

function honest(req: IncomingMessage, res: ServerResponse): void {
  const from = rangeStart(req);
  if (from >= DATA.length) {
    res.writeHead(416, { "content-range": `bytes */${DATA.length}` }).end();
    return;
  }
  const body = DATA.subarray(from);
  const headers: Record<string, string | number> = { "content-length": body.length, "accept-ranges": "bytes", etag: '"v1"' };
  if (from > 0) headers["content-range"] = `bytes ${from}-${DATA.length - 1}/${DATA.length}`;
  res.writeHead(from > 0 ? 206 : 200, headers).end(body);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const n = (seen.get(path) ?? 0) + 1;
    seen.set(path, n);
    const from = rangeStart(req);
    switch (path) {
      case "/ok.warc.gz":
        return honest(req, res);
      case "/503-twice.warc.gz":
        if (n <= 2) return void res.writeHead(503, { "retry-after": "0" }).end("slow down");
        return honest(req, res);
      case "/cut.warc.gz":
        // Cut twice mid-body, a 503 between, then served honestly from where the reader asks.
        if (n === 1) return raw(req, from, DATA.length, 40_000);
        if (n === 2) return void res.writeHead(503).end();
        if (n === 3) return raw(req, from, DATA.length - from, 30_001);
        return honest(req, res);
      case "/long-length.warc.gz":
        // Declares more than there is and closes: the end is found with a Range request (416).
        if (from === 0) return raw(req, 0, DATA.length + 5000, DATA.length);
        return honest(req, res);
      case "/short-length.warc.gz":
        // Declares less than there is: the body looks complete, the rest comes from asking past it.
        if (from === 0) return raw(req, 0, 50_000, 50_000);
        return honest(req, res);
      case "/cut.warc.zst":
        // Cut mid-body, then served from where the reader asks.
        if (n === 1) {
          req.socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${ZST.length}\r\nAccept-Ranges: bytes\r\nConnection: close\r\n\r\n`);
          return void req.socket.end(ZST.subarray(0, ZST.length >> 1));
        }
        if (from >= ZST.length) return void res.writeHead(416).end();
        res.writeHead(206, { "content-range": `bytes ${from}-${ZST.length - 1}/${ZST.length}`, "content-length": ZST.length - from });
        return void res.end(ZST.subarray(from));
      case "/cut-then-down.warc.gz":
        if (n === 1) return raw(req, from, DATA.length, 60_000);
        return void res.writeHead(503).end();
      case "/stall-body.warc.gz":
        // Sends part of the body, then nothing (the socket stays open): timed out, resumed with Range.
        if (n === 1) {
          req.socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${DATA.length}\r\nAccept-Ranges: bytes\r\n\r\n`);
          return void req.socket.write(DATA.subarray(0, 40_000));
        }
        return honest(req, res);
      case "/stall-head.warc.gz":
        // The first request is never answered.
        if (n === 1) return;
        return honest(req, res);
      case "/encoded.warc":
        encodedRequests.push({ from, acceptEncoding: req.headers["accept-encoding"] });
        if (from >= ENCODED.length) return void res.writeHead(416).end();
        // Each answer is cut part way, after the headers of a complete one.
        req.socket.write(
          `HTTP/1.1 ${from > 0 ? "206 Partial Content" : "200 OK"}\r\nContent-Encoding: gzip\r\nContent-Length: ${ENCODED.length - from}\r\n` +
            `Accept-Ranges: bytes\r\n${from > 0 ? `Content-Range: bytes ${from}-${ENCODED.length - 1}/${ENCODED.length}\r\n` : ""}Connection: close\r\n\r\n`,
        );
        return void req.socket.end(ENCODED.subarray(from, n < 3 ? from + 25_000 : ENCODED.length));
      case "/private.warc.gz":
        authorization = req.headers.authorization;
        if (authorization === undefined) return void res.writeHead(401).end();
        return honest(req, res);
      case "/always-503.warc.gz":
        return void res.writeHead(503).end();
      default:
        return void res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      // The stalled answers hold their sockets open.
      server.closeAllConnections();
    }),
);

interface Read {
  records: string[];
  skips: SkipEvent[];
}

function fingerprint(r: ArchiveRecord): string {
  return `${r.recordId} ${createHash("sha1").update(r.body).digest("hex")}`;
}

async function read(input: string, remote: boolean, readTimeoutMs?: number): Promise<Read> {
  const skips: SkipEvent[] = [];
  const records: string[] = [];
  const open = remote ? remoteOpener({ retry: FAST, readTimeoutMs }) : undefined;
  for await (const r of readRecords(input, { open, onSkip: (e) => skips.push(e) })) records.push(fingerprint(r));
  return { records, skips };
}

describe("https inputs from a misbehaving server", () => {
  let local: Read;
  beforeAll(async () => {
    local = await read(FIXTURE, false);
    expect(local.records.length).toBeGreaterThan(10);
  });

  it.each(["ok", "503-twice", "cut", "long-length", "short-length"])("%s: every record exactly once", async (name) => {
    const remote = await read(`${base}/${name}.warc.gz`, true);
    expect(remote.records).toEqual(local.records);
    expect(remote.skips.map((s) => s.reason)).toEqual(local.skips.map((s) => s.reason));
  });

  it(".warc.zst over https, cut mid-body: every record exactly once", async () => {
    const remote = await read(`${base}/cut.warc.zst`, true);
    expect(remote.records).toEqual(local.records);
    expect(seen.get("/cut.warc.zst")).toBe(3);
  });

  it("resumes with Range requests from the last byte read", async () => {
    seen.delete("/cut.warc.gz");
    await read(`${base}/cut.warc.gz`, true);
    // 1 cut, 1 503, 1 cut, 1 honest, 1 probe past the end (416).
    expect(seen.get("/cut.warc.gz")).toBe(5);
  });

  it("a server that stays down mid-body: the records before are kept, the input is reported unreadable", async () => {
    const remote = await read(`${base}/cut-then-down.warc.gz`, true);
    expect(remote.records.length).toBeGreaterThan(0);
    expect(remote.records.length).toBeLessThan(local.records.length);
    expect(remote.records).toEqual(local.records.slice(0, remote.records.length));
    expect(remote.skips.some((s) => s.reason === "unreadable" && /503/.test(s.detail))).toBe(true);
  });

  it("a body that stalls is timed out and resumed from the last byte read", async () => {
    seen.delete("/stall-body.warc.gz");
    const started = Date.now();
    const remote = await read(`${base}/stall-body.warc.gz`, true, 300);
    expect(remote.records).toEqual(local.records);
    expect(remote.skips.map((s) => s.reason)).toEqual(local.skips.map((s) => s.reason));
    // The stalled request, then one from byte 40000 read to the end, and the probe past it.
    expect(seen.get("/stall-body.warc.gz")).toBe(3);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("a request left unanswered is timed out and made again", async () => {
    seen.delete("/stall-head.warc.gz");
    const remote = await read(`${base}/stall-head.warc.gz`, true, 300);
    expect(remote.records).toEqual(local.records);
    expect(seen.get("/stall-head.warc.gz")).toBe(3);
  });

  it("a body that keeps stalling: the records before are kept, the input is reported cut short", async () => {
    seen.delete("/stall-always.warc.gz");
    const skips: SkipEvent[] = [];
    const open = remoteOpener({ retry: { tries: 2, baseDelayMs: 1, maxDelayMs: 1 }, readTimeoutMs: 200 });
    const stalling = createServer((req) => {
      // Always 30000 bytes more from where it is asked, then nothing.
      const from = rangeStart(req);
      const range = from > 0 ? `Content-Range: bytes ${from}-${DATA.length - 1}/${DATA.length}\r\n` : "";
      req.socket.write(
        `HTTP/1.1 ${from > 0 ? "206 Partial Content" : "200 OK"}\r\nContent-Length: ${DATA.length - from}\r\nAccept-Ranges: bytes\r\n${range}\r\n`,
      );
      req.socket.write(DATA.subarray(from, Math.min(from + 30_000, 70_000)));
    });
    await new Promise<void>((resolve) => stalling.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}/a.warc.gz`;
      const records: string[] = [];
      for await (const r of readRecords(url, { open, onSkip: (e) => skips.push(e) })) records.push(fingerprint(r));
      expect(records.length).toBeGreaterThan(0);
      expect(records).toEqual(local.records.slice(0, records.length));
      const unreadable = skips.filter((s) => s.reason === "unreadable");
      expect(unreadable).toHaveLength(1);
      expect(unreadable[0].detail).toMatch(/at byte 70000 2 times in a row: no bytes came for 0.2 s/);
    } finally {
      stalling.closeAllConnections();
      stalling.close();
    }
  });

  it("a body sent with Content-Encoding: gzip and cut twice is resumed at the offset of the encoded bytes", async () => {
    const remote = await read(`${base}/encoded.warc`, true);
    expect(remote.records).toEqual(local.records);
    // Cut after 25000 encoded bytes twice, then read to the end, then the probe past it (416).
    expect(encodedRequests.map((r) => r.from)).toEqual([0, 25_000, 50_000, ENCODED.length]);
    expect(encodedRequests.every((r) => r.acceptEncoding === "identity")).toBe(true);
  });

  it("a user and password in the URL become Basic authentication", async () => {
    const remote = await read(`${base.replace("//", "//alice:p%40ss@")}/private.warc.gz`, true);
    expect(remote.records).toEqual(local.records);
    expect(authorization).toBe(`Basic ${Buffer.from("alice:p@ss").toString("base64")}`);
  });

  it("a server that never answers: the input cannot be opened, after the tries", async () => {
    seen.delete("/always-503.warc.gz");
    await expect(read(`${base}/always-503.warc.gz`, true)).rejects.toThrow(/HTTP 503 \(gave up after 4 tries\)/);
    expect(seen.get("/always-503.warc.gz")).toBe(4);
  });

  it("a missing object is not retried", async () => {
    seen.delete("/missing.warc.gz");
    await expect(read(`${base}/missing.warc.gz`, true)).rejects.toThrow(/HTTP 404/);
    expect(seen.get("/missing.warc.gz")).toBe(1);
  });
});
