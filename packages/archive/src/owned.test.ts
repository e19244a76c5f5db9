import fs from "node:fs";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { fixture, tempFile } from "../test/helpers.js";
import { transferableBuffer } from "./owned.js";
import { readRecords } from "./read.js";
import type { ArchiveRecord } from "./types.js";

async function readAll(path: string): Promise<ArchiveRecord[]> {
  const records: ArchiveRecord[] = [];
  for await (const r of readRecords(path)) records.push(r);
  return records;
}

describe("transferableBuffer", () => {
  it("hands over the buffer of each record of a per-record gzip WARC once the reader has moved past it", async () => {
    const records = await readAll(fixture("../sample.warc.gz"));
    expect(records).toHaveLength(14);
    const buffers = records.map((r) => transferableBuffer(r.body));
    // All but one: the first 64 KB are read joined, to sniff the format, and the fourth record
    // shares that joined buffer with the third.
    expect(buffers.filter((b) => b === null)).toHaveLength(1);
    expect(new Set(buffers.filter((b) => b !== null)).size).toBe(buffers.filter((b) => b !== null).length);
    for (let i = 0; i < records.length; i++) {
      const buffer = buffers[i];
      if (buffer === null) continue;
      // The body is a view of it, and the buffer holds no more than this record's member inflated.
      expect(records[i].body.buffer).toBe(buffer);
      expect(buffer.byteLength).toBeLessThan(records[i].body.byteLength + 4096);
    }
    const text = Buffer.from(records[0].body).toString("latin1");
    const buffer = buffers[0] as ArrayBuffer;
    const moved = structuredClone(buffer, { transfer: [buffer] });
    expect(records[0].body.byteLength).toBe(0);
    expect(Buffer.from(moved, records[0].body.byteOffset).toString("latin1").startsWith(text.slice(0, 100))).toBe(true);
  });

  it("hands over no buffer that holds other records or the reader's look-ahead", async () => {
    const perRecord = fs.readFileSync(fixture("../sample.warc.gz"));
    // The same records, inflated: one plain file, and one gzip member for the whole file.
    const plain = zlib.gunzipSync(perRecord);
    for (const path of [tempFile("owned/plain.warc", plain), tempFile("owned/whole.warc.gz", zlib.gzipSync(plain))]) {
      const records = await readAll(path);
      expect(records).toHaveLength(14);
      // Bodies there are views of chunks holding several records, or copies into buffers of their own.
      for (const r of records) {
        if (transferableBuffer(r.body) === null) continue;
        expect(r.body.byteOffset).toBe(0);
        expect(r.body.byteLength).toBe(r.body.buffer.byteLength);
      }
    }
  });

  it("never hands over a body that is a copy inside a shared buffer, nor an empty one", () => {
    expect(transferableBuffer(Buffer.from("<p>x</p>"))).toBeNull();
    expect(transferableBuffer(new Uint8Array(0))).toBeNull();
  });
});
