// A crawl of several WARCs made from fixtures/sample.warc.gz for the end-to-end test: its response
// records dealt round-robin into `parts` gzip WARCs (one gzip member per record, as crawlers
// write them), plus copies of some pages under new record ids and URLs in later parts, so that
// dedup has duplicates across inputs to remove. The records are cut here by their WARC
// Content-Length, independently of winnow's reader.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";

const SAMPLE = fileURLToPath(new URL("../../../fixtures/sample.warc.gz", import.meta.url));

interface WarcRecord {
  head: string;
  block: Buffer;
}

function readRecords(warc: Buffer): WarcRecord[] {
  const records: WarcRecord[] = [];
  let at = 0;
  while (at < warc.length) {
    const end = warc.indexOf("\r\n\r\n", at);
    if (end < 0) break;
    const head = warc.subarray(at, end).toString("latin1");
    const length = Number(/^Content-Length:\s*(\d+)/im.exec(head)?.[1]);
    if (!Number.isFinite(length)) throw new Error(`WARC record at ${at} without a Content-Length`);
    records.push({ head, block: warc.subarray(end + 4, end + 4 + length) });
    at = end + 4 + length + 4;
  }
  return records;
}

const header = (head: string, name: string): string | undefined => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim();

const withHeader = (head: string, name: string, value: string): string =>
  head.replace(new RegExp(`^${name}:.*$`, "im"), `${name}: ${value}`);

const member = (r: WarcRecord): Buffer =>
  gzipSync(Buffer.concat([Buffer.from(`${r.head}\r\n\r\n`, "latin1"), r.block, Buffer.from("\r\n\r\n")]));

export interface SplitCrawl {
  /** File name -> gzip WARC bytes, in paths-list order ("part-00.warc.gz", …). */
  files: Map<string, Buffer>;
  /** Response records written, copies included. */
  records: number;
  /** The record ids of the copies: pages whose text an earlier record already has. */
  copies: string[];
}

/**
 * `parts` WARCs from the sample; each of `copy` (indexes of response records) is written again,
 * as a new record with its own id and URL, into the part `copyShift` after its original's.
 */
export function splitSampleCrawl(parts: number, copy: readonly number[], copyShift = 3): SplitCrawl {
  const responses = readRecords(gunzipSync(readFileSync(SAMPLE))).filter((r) => header(r.head, "WARC-Type") === "response");
  const members: Buffer[][] = Array.from({ length: parts }, () => []);
  responses.forEach((r, i) => members[i % parts].push(member(r)));
  const copies: string[] = [];
  for (const i of copy) {
    const original = responses[i];
    const id = `<urn:uuid:00000000-e2e0-4000-8000-${String(i).padStart(12, "0")}>`;
    let head = withHeader(original.head, "WARC-Record-ID", id);
    head = withHeader(head, "WARC-Target-URI", `${header(original.head, "WARC-Target-URI")}?copy`);
    members[(i + copyShift) % parts].push(member({ head, block: original.block }));
    copies.push(id);
  }
  const files = new Map(members.map((m, p) => [`part-${String(p).padStart(2, "0")}.warc.gz`, Buffer.concat(m)]));
  return { files, records: responses.length + copy.length, copies };
}
