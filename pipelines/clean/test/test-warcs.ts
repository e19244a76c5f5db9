/**
 * WARC records built in memory, for the pipeline's reliability and resume tests. (Test support
 * only; it sits in src/ because that is where this package's tests live.)
 */
import { gzipSync } from "node:zlib";

export interface ResponseSpec {
  id: string;
  url: string;
  /** The HTTP payload. */
  body: string | Buffer;
  /** HTTP Content-Type; default "text/html; charset=utf-8". */
  contentType?: string;
  /** How far the WARC Content-Length written is off the true length; default 0. */
  lengthError?: number;
}

/** One WARC response record, with the blank lines that end it. */
export function warcResponse(spec: ResponseSpec): Buffer {
  const body = typeof spec.body === "string" ? Buffer.from(spec.body) : spec.body;
  const http = Buffer.concat([
    Buffer.from(
      `HTTP/1.1 200 OK\r\nContent-Type: ${spec.contentType ?? "text/html; charset=utf-8"}\r\nContent-Length: ${body.length}\r\n\r\n`,
      "latin1",
    ),
    body,
  ]);
  const head =
    `WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: ${spec.id}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n` +
    `WARC-Target-URI: ${spec.url}\r\nContent-Type: application/http; msgtype=response\r\n` +
    `Content-Length: ${http.length + (spec.lengthError ?? 0)}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), http, Buffer.from("\r\n\r\n")]);
}

/** A page a content classifier keeps, saying `name` in its text. */
export function articlePage(name: string): string {
  return (
    `<html><head><title>${name}</title></head><body><h1>About ${name}</h1>` +
    `<p>This is the main text of ${name}. It is long enough to read like a real paragraph of prose, ` +
    `with several clauses, commas and a full stop, so that a content classifier keeps it.</p>` +
    `<div><a href="/">Home</a> | <a href="/about">About</a></div></body></html>`
  );
}

export const recordId = (name: string): string => `<urn:test:${name}>`;
export const pageUrl = (name: string): string => `http://test.example/${name}`;

/** `count` response records of article pages named `${prefix}-0`, `${prefix}-1`, ... */
export function articleRecords(prefix: string, count: number): Buffer[] {
  return Array.from({ length: count }, (_, i) => {
    const name = `${prefix}-${i}`;
    return warcResponse({ id: recordId(name), url: pageUrl(name), body: articlePage(name) });
  });
}

/** Each record as its own gzip member (per-record gzip, as crawlers write); with member offsets. */
export function gzipEach(records: readonly Buffer[]): { file: Buffer; offsets: number[] } {
  const members = records.map((r) => gzipSync(r));
  const offsets: number[] = [];
  let at = 0;
  for (const m of members) {
    offsets.push(at);
    at += m.length;
  }
  return { file: Buffer.concat(members), offsets };
}
