// Test helpers: build WARC/ARC bytes, write temp files, collect what readRecords gives.
// Lives outside src/ so it is neither built nor collected as a test file.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { readRecords } from "../src/index.js";
import type { ArchiveRecord, ReadOptions, SkipEvent } from "../src/index.js";

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../fixtures/warc");
export const fixture = (name: string) => path.join(FIXTURES, name);

export interface Collected {
  records: ArchiveRecord[];
  skips: SkipEvent[];
  progress: number[];
  /** Record ids of records and skips, in the order they were met. */
  order: string[];
}

export async function collect(input: string, options: ReadOptions = {}): Promise<Collected> {
  const skips: SkipEvent[] = [];
  const progress: number[] = [];
  const records: ArchiveRecord[] = [];
  const order: string[] = [];
  for await (const r of readRecords(input, {
    ...options,
    onSkip: (e) => {
      skips.push(e);
      order.push(e.recordId);
    },
    onProgress: (n) => progress.push(n),
  })) {
    records.push(r);
    order.push(r.recordId);
  }
  return { records, skips, progress, order };
}

export const text = (b: Uint8Array) => Buffer.from(b).toString("utf8");

let tmp: string | undefined;
export function tempFile(name: string, data: Uint8Array | string): string {
  tmp ??= fs.mkdtempSync(path.join(os.tmpdir(), "winnow-archive-"));
  const p = path.join(tmp, name);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, data);
  return p;
}

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "winnow-archive-dir-"));
}

export function httpResponse(body: Uint8Array | string, headers: Record<string, string> = {}, status = "200 OK"): Buffer {
  const b = typeof body === "string" ? Buffer.from(body) : Buffer.from(body);
  const fields = { "Content-Type": "text/html; charset=utf-8", "Content-Length": String(b.length), ...headers };
  const head = [`HTTP/1.1 ${status}`, ...Object.entries(fields).map(([k, v]) => `${k}: ${v}`), "", ""].join("\r\n");
  return Buffer.concat([Buffer.from(head, "latin1"), b]);
}

export interface WarcSpec {
  type?: string;
  id: string;
  uri?: string;
  date?: string;
  contentType?: string;
  block: Uint8Array | string;
  /** Overrides the Content-Length written. */
  length?: string;
}

export function warcRecord(spec: WarcSpec): Buffer {
  const block = typeof spec.block === "string" ? Buffer.from(spec.block) : Buffer.from(spec.block);
  const type = spec.type ?? "response";
  const lines = ["WARC/1.1", `WARC-Type: ${type}`, `WARC-Record-ID: ${spec.id}`, `WARC-Date: ${spec.date ?? "2024-05-01T12:00:00Z"}`];
  if (spec.uri) lines.push(`WARC-Target-URI: ${spec.uri}`);
  lines.push(
    `Content-Type: ${spec.contentType ?? (type === "request" ? "application/http; msgtype=request" : "application/http; msgtype=response")}`,
  );
  lines.push(`Content-Length: ${spec.length ?? block.length}`, "", "");
  return Buffer.concat([Buffer.from(lines.join("\r\n")), block, Buffer.from("\r\n\r\n")]);
}

/** A small HTML page whose text identifies it. */
export function page(i: number): string {
  return `<!doctype html><html><head><title>Page ${i}</title></head><body><p>Body of page number ${i}.</p></body></html>\n`;
}

/** n response records (each with a request before it), as separate WARC records. */
export function sampleRecords(n: number): { records: Buffer[]; ids: string[] } {
  const records: Buffer[] = [];
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const uri = `http://example.org/page/${i}`;
    records.push(warcRecord({ type: "request", id: `<urn:req:${i}>`, uri, block: `GET /page/${i} HTTP/1.1\r\nHost: example.org\r\n\r\n` }));
    const id = `<urn:resp:${i}>`;
    ids.push(id);
    records.push(warcRecord({ id, uri, block: httpResponse(page(i)) }));
  }
  return { records, ids };
}

/** Gzips each record as its own member; returns the file and each member's offset. */
export function gzipEach(records: Buffer[]): { file: Buffer; offsets: number[] } {
  const members = records.map((r) => zlib.gzipSync(r));
  const offsets: number[] = [];
  let at = 0;
  for (const m of members) {
    offsets.push(at);
    at += m.length;
  }
  return { file: Buffer.concat(members), offsets };
}

/** Pages whose record ids were yielded, as numbers, in order. */
export function pageNumbers(c: Collected): number[] {
  return c.records.map((r) => Number(/Body of page number (\d+)/.exec(text(r.body))?.[1]));
}
