// Damaged inputs built in the tests: every intact record before and after the damage must
// come out, the damage must be reported with the right reason and offset, nothing may throw.

import crypto from "node:crypto";
import fs from "node:fs";
import zlib from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collect, fixture, gzipEach, httpResponse, page, pageNumbers, sampleRecords, tempFile, text, warcRecord } from "../test/helpers.js";
import { DECODER_LIMIT, DecoderLimitError, decodeHtmlPieces } from "./charset.js";
import { readRecords } from "./read.js";

const N = 6;
const ALL = [0, 1, 2, 3, 4, 5];
const { records: RECORDS } = sampleRecords(N);
/** Index in RECORDS of page i's response (each page has a request before it). */
const resp = (i: number) => 2 * i + 1;

describe("per-record gzip WARC, damaged", () => {
  const { file, offsets } = gzipEach(RECORDS);

  it("reads the intact file", async () => {
    const c = await collect(tempFile("ok.warc.gz", file));
    expect(pageNumbers(c)).toEqual(ALL);
    expect(c.records.map((r) => r.offset)).toEqual(ALL.map((i) => offsets[resp(i)]));
    expect(c.skips.map((s) => s.reason)).toEqual(Array(N).fill("not-response"));
  });

  it("a corrupt member in the middle loses only its record", async () => {
    const bad = Buffer.from(file);
    const m = resp(2);
    const mid = offsets[m] + 30;
    bad.fill(0xa5, mid, mid + 40);
    const c = await collect(tempFile("corrupt-middle.warc.gz", bad));
    expect(pageNumbers(c)).toEqual([0, 1, 3, 4, 5]);
    const corrupt = c.skips.filter((s) => s.reason === "corrupt");
    expect(corrupt).toHaveLength(1);
    expect(corrupt[0].offset).toBe(offsets[m]);
    // Records after the damage keep their exact offsets.
    expect(c.records.at(-1)?.offset).toBe(offsets[resp(5)]);
  });

  it("a member whose deflate data is valid but wrong is caught by its CRC", async () => {
    // Stored (level 0) deflate blocks hold the bytes as they are: a flipped byte inflates fine.
    const members = RECORDS.map((r) => zlib.gzipSync(r, { level: 0 }));
    const m = resp(3);
    const at = members[m].indexOf("page number 3");
    expect(at).toBeGreaterThan(0);
    members[m][at] ^= 0x20;
    const c = await collect(tempFile("crc.warc.gz", Buffer.concat(members)));
    expect(pageNumbers(c)).toEqual([0, 1, 2, 4, 5]);
    expect(c.records.every((r) => !text(r.body).includes("Page number 3"))).toBe(true);
    const corrupt = c.skips.filter((s) => s.reason === "corrupt");
    expect(corrupt).toHaveLength(1);
    expect(corrupt[0].detail).toContain("CRC");
    expect(corrupt[0].offset).toBe(members.slice(0, m).reduce((a, b) => a + b.length, 0));
  });

  it("garbage between members is reported once and skipped", async () => {
    const junk = Buffer.from("this is not gzip data\r\n".repeat(5));
    const at = offsets[resp(1) + 1];
    const bad = Buffer.concat([file.subarray(0, at), junk, file.subarray(at)]);
    const c = await collect(tempFile("garbage.warc.gz", bad));
    expect(pageNumbers(c)).toEqual(ALL);
    const corrupt = c.skips.filter((s) => s.reason === "corrupt");
    expect(corrupt).toHaveLength(1);
    expect(corrupt[0].offset).toBe(at);
    expect(corrupt[0].detail).toContain(`${junk.length} bytes`);
    expect(c.records[2].offset).toBe(offsets[resp(2)] + junk.length);
  });

  it("a file cut in half: records before the cut come out, the cut one is truncated", async () => {
    const m = resp(3);
    const cut = offsets[m] + Math.floor((offsets[m + 1] - offsets[m]) / 2);
    const c = await collect(tempFile("half.warc.gz", file.subarray(0, cut)));
    expect(pageNumbers(c)).toEqual([0, 1, 2]);
    const last = c.skips.at(-1);
    expect(last?.reason).toBe("truncated");
    expect(last?.offset).toBe(offsets[m]);
  });

  it("a damaged header flag that makes the header run off the end does not stop reading", async () => {
    const bad = Buffer.from(file);
    bad[3] ^= 4; // FEXTRA: the header now claims a length field read from the deflate data
    const c = await collect(tempFile("flag.warc.gz", bad));
    expect(pageNumbers(c)).toEqual(ALL);
    expect(c.skips[0]).toMatchObject({ reason: "corrupt", offset: 0 });
  });

  it("a damaged member whose deflate data runs on to just before the end does not hide the members after it", async () => {
    // A stored deflate block whose length covers every member after it but the last 4 bytes:
    // it inflates without error, and only its trailer seems cut off. (Found by intact.test.ts,
    // with a member cut short whose deflate data ran on like this.)
    const rest = file.subarray(offsets[2]);
    const len = rest.length - 4;
    const stored = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 0x01, len & 0xff, len >> 8, ~len & 0xff, (~len >> 8) & 0xff]);
    const c = await collect(tempFile("runs-on-to-end.warc.gz", Buffer.concat([file.subarray(0, offsets[2]), stored, rest])));
    expect(pageNumbers(c)).toEqual(ALL);
    expect(c.skips.filter((s) => s.reason === "corrupt")).toEqual([expect.objectContaining({ offset: offsets[2] })]);
  });

  it("zero padding after the last member is not damage", async () => {
    const c = await collect(tempFile("padded.warc.gz", Buffer.concat([file, Buffer.alloc(512)])));
    expect(pageNumbers(c)).toEqual(ALL);
    expect(c.skips.filter((s) => s.reason !== "not-response")).toEqual([]);
  });

  it("example.warc.gz with its middle member (the revisit) corrupted", async () => {
    const bad = Buffer.from(fs.readFileSync(fixture("example.warc.gz")));
    bad.fill(0, 2621 + 100, 2621 + 160);
    const c = await collect(tempFile("example-corrupt.warc.gz", bad));
    expect(c.records.map((r) => r.recordId)).toEqual(["<urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005>"]);
    expect(c.skips.map((s) => [s.reason, s.offset])).toEqual([
      ["not-response", 0],
      ["not-response", 353],
      ["not-response", 2012],
      ["corrupt", 2621],
      ["not-response", 3207],
    ]);
  });

  it("never throws and keeps every untouched record, whatever byte is hit", async () => {
    const path = tempFile("fuzz.warc.gz", file);
    const originals = new Map(ALL.map((i) => [`<urn:resp:${i}>`, page(i)]));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: file.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, xor) => {
        const bad = Buffer.from(file);
        bad[at] ^= xor;
        fs.writeFileSync(path, bad);
        const c = await collect(path);
        // Every body that comes out is exactly the original (CRC-checked)...
        for (const r of c.records) expect(text(r.body)).toBe(originals.get(r.recordId));
        // ...and one damaged byte costs at most one page.
        expect(c.records.length).toBeGreaterThanOrEqual(N - 1);
      }),
      { numRuns: 100 },
    );
  });

  it("never throws on a cut at any point, and keeps every member before it", async () => {
    const path = tempFile("fuzz-cut.warc.gz", file);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: file.length }), async (cut) => {
        fs.writeFileSync(path, file.subarray(0, cut));
        const c = await collect(path);
        const whole = ALL.filter((i) => offsets[resp(i) + 1] !== undefined && offsets[resp(i) + 1] <= cut);
        expect(pageNumbers(c).slice(0, whole.length)).toEqual(whole);
      }),
      { numRuns: 60 },
    );
  });
});

describe("plain WARC, damaged", () => {
  const file = Buffer.concat(RECORDS);
  const starts: number[] = [];
  RECORDS.reduce((at, r) => (starts.push(at), at + r.length), 0);

  it("garbage between records is reported once, at its offset", async () => {
    const at = starts[resp(2) + 1];
    const junk = Buffer.from("\x00\x01garbage\r\nWARCish but not WARC/\r\n");
    const bad = Buffer.concat([file.subarray(0, at), junk, file.subarray(at)]);
    const c = await collect(tempFile("garbage.warc", bad));
    expect(pageNumbers(c)).toEqual(ALL);
    const corrupt = c.skips.filter((s) => s.reason === "corrupt");
    expect(corrupt).toHaveLength(1);
    expect(corrupt[0].offset).toBe(at);
    expect(c.records[3].offset).toBe(starts[resp(3)] + junk.length);
  });

  it("a record with an unreadable Content-Length is corrupt; reading resumes at the next WARC/ line", async () => {
    const recs = RECORDS.slice();
    recs[resp(1)] = warcRecord({ id: "<urn:resp:1>", uri: "http://example.org/page/1", block: httpResponse(page(1)), length: "12x" });
    const c = await collect(tempFile("bad-length.warc", Buffer.concat(recs)));
    expect(pageNumbers(c)).toEqual([0, 2, 3, 4, 5]);
    expect(c.skips.filter((s) => s.reason === "corrupt")).toEqual([
      expect.objectContaining({ recordId: "<urn:resp:1>", offset: starts[resp(1)] }),
    ]);
  });

  it("a Content-Length that is too small leaves stray bytes, reported; the next record is read", async () => {
    const recs = RECORDS.slice();
    const block = httpResponse(page(2));
    recs[resp(2)] = warcRecord({ id: "<urn:resp:2>", uri: "http://example.org/page/2", block, length: String(block.length - 10) });
    const c = await collect(tempFile("short-length.warc", Buffer.concat(recs)));
    expect(pageNumbers(c).filter((n) => n !== 2)).toEqual([0, 1, 3, 4, 5]);
    expect(c.skips.filter((s) => s.reason === "corrupt")).toHaveLength(1);
  });

  it("a file cut inside a payload: the records before come out, the cut one is truncated", async () => {
    const cut = starts[resp(4)] + RECORDS[resp(4)].length - 40;
    const c = await collect(tempFile("cut.warc", file.subarray(0, cut)));
    expect(pageNumbers(c)).toEqual([0, 1, 2, 3]);
    expect(c.skips.at(-1)).toMatchObject({ reason: "truncated", recordId: "<urn:resp:4>", offset: starts[resp(4)] });
  });

  it("a file cut inside a WARC head names the record if it can", async () => {
    const cut = starts[resp(5)] + 80;
    const c = await collect(tempFile("cut-head.warc", file.subarray(0, cut)));
    expect(pageNumbers(c)).toEqual([0, 1, 2, 3, 4]);
    expect(c.skips.at(-1)).toMatchObject({ reason: "truncated", recordId: "<urn:resp:5>", offset: starts[resp(5)] });
  });

  it("example.warc cut inside the request after the response", async () => {
    const whole = fs.readFileSync(fixture("example.warc"));
    const c = await collect(tempFile("example-cut.warc", whole.subarray(0, 3072)));
    expect(c.records.map((r) => r.recordId)).toEqual(["<urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005>"]);
    expect(c.skips.at(-1)).toMatchObject({ reason: "truncated", recordId: "<urn:uuid:a9c5c23a-0221-11e7-8fe3-0242ac120007>" });
  });

  it("never throws on random damage", async () => {
    const path = tempFile("fuzz.warc", file);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: file.length - 1 }),
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.boolean(),
        async (at, junk, insert) => {
          const bad = insert
            ? Buffer.concat([file.subarray(0, at), junk, file.subarray(at)])
            : Buffer.concat([file.subarray(0, at), junk, file.subarray(at + junk.length)]);
          fs.writeFileSync(path, bad);
          const c = await collect(path);
          // Records wholly before the damage always come out.
          const before = ALL.filter((i) => starts[resp(i)] + RECORDS[resp(i)].length <= at);
          expect(pageNumbers(c).slice(0, before.length)).toEqual(before);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("whole-file gzip and large members", () => {
  it("a whole-file gzip cut short keeps what came before", async () => {
    const plain = Buffer.concat(RECORDS);
    const gz = zlib.gzipSync(plain);
    // Later records compress to little (they repeat the first), so cut near the end.
    const c = await collect(tempFile("whole-cut.warc.gz", gz.subarray(0, gz.length - 30)));
    expect(c.records.length).toBeGreaterThanOrEqual(3);
    expect(pageNumbers(c)).toEqual(ALL.slice(0, c.records.length));
    expect(c.skips.at(-1)?.reason).toBe("truncated");
  });

  it("members too big for the one-shot path are streamed, offsets stay exact", async () => {
    const big = crypto.randomBytes(1_500_000); // incompressible: a member over 1 MiB
    const recs = [
      ...RECORDS.slice(0, 2),
      warcRecord({ id: "<urn:big>", uri: "http://example.org/big.png", block: httpResponse(big, { "Content-Type": "image/png" }) }),
      ...RECORDS.slice(2),
    ];
    const { file, offsets } = gzipEach(recs);
    const c = await collect(tempFile("big-member.warc.gz", file));
    expect(pageNumbers(c)).toEqual(ALL);
    expect(c.records[1].offset).toBe(offsets[3 + 1]);
    expect(c.skips.find((s) => s.recordId === "<urn:big>")).toMatchObject({ reason: "not-html", offset: offsets[2] });
  });

  it("a streamed member cut short reports the record it held", async () => {
    const big = crypto.randomBytes(1_500_000);
    const recs = [RECORDS[0], RECORDS[1], warcRecord({ id: "<urn:big>", uri: "http://example.org/big", block: httpResponse(big) })];
    const { file, offsets } = gzipEach(recs);
    const c = await collect(tempFile("big-cut.warc.gz", file.subarray(0, file.length - 1000)));
    expect(pageNumbers(c)).toEqual([0]);
    expect(c.skips.at(-1)).toMatchObject({ reason: "truncated", recordId: "<urn:big>", offset: offsets[2] });
  });

  it("pages over maxPageBytes are skipped as too-large, raw or once decoded", async () => {
    const huge = `<html><body>${"x".repeat(300_000)}</body></html>`;
    const recs = [
      warcRecord({ id: "<urn:raw>", uri: "http://example.org/raw", block: httpResponse(huge) }),
      warcRecord({
        id: "<urn:bomb>",
        uri: "http://example.org/bomb",
        block: httpResponse(zlib.gzipSync(huge), { "Content-Encoding": "gzip" }),
      }),
      ...RECORDS.slice(0, 2),
    ];
    const c = await collect(tempFile("too-large.warc", Buffer.concat(recs)), { maxPageBytes: 100_000 });
    expect(pageNumbers(c)).toEqual([0]);
    expect(c.skips.filter((s) => s.reason === "too-large").map((s) => s.recordId)).toEqual(["<urn:raw>", "<urn:bomb>"]);
  });

  it("a page past the decoder's limit (a raised maxPageBytes) is skipped as too-large, the next read", async () => {
    // The real limit is V8's longest string (about 512 MiB of text): lowered here, so that the
    // same checks are reached without building such a page.
    const saved = DECODER_LIMIT.chars;
    DECODER_LIMIT.chars = 50_000;
    try {
      const big = `<html><body>${"<p>word word word</p>\n".repeat(5_000)}</body></html>`;
      const recs = [
        ...RECORDS.slice(0, 2),
        warcRecord({ id: "<urn:big>", uri: "http://example.org/big", block: httpResponse(big) }),
        warcRecord({
          id: "<urn:gz>",
          uri: "http://example.org/gz",
          block: httpResponse(zlib.gzipSync(big), { "Content-Encoding": "gzip" }),
        }),
        ...RECORDS.slice(2, 4),
      ];
      const c = await collect(tempFile("decoder-limit.warc", Buffer.concat(recs)), { maxPageBytes: 1 << 30 });
      expect(pageNumbers(c)).toEqual([0, 1]);
      const detail = `page of ${big.length} bytes exceeds the decoder limit: its text would not fit in one string (at most 50000 characters)`;
      expect(c.skips.filter((s) => s.reason === "too-large")).toEqual([
        expect.objectContaining({ recordId: "<urn:big>", detail }),
        expect.objectContaining({ recordId: "<urn:gz>", detail }),
      ]);
      const file = await collect(tempFile("decoder-limit.html", big), { maxPageBytes: 1 << 30 });
      expect(file.skips).toEqual([expect.objectContaining({ reason: "too-large", detail })]);
      // The decoder refuses it too, before making any string; UTF-16 makes one unit of two bytes.
      expect(() => decodeHtmlPieces(Buffer.from(big))).toThrow(DecoderLimitError);
      expect(decodeHtmlPieces(Buffer.from(big.slice(0, 45_000), "utf16le")).charset).toBe("utf-16le");
    } finally {
      DECODER_LIMIT.chars = saved;
    }
  });

  it("a consumer that stops early ends reading cleanly", async () => {
    const gz = zlib.gzipSync(
      Buffer.concat([...RECORDS, warcRecord({ id: "<urn:x>", block: httpResponse(crypto.randomBytes(3_000_000)) })]),
    );
    const path = tempFile("early.warc.gz", gz);
    let n = 0;
    for await (const r of readRecords(path)) {
      expect(r.recordId).toBe("<urn:resp:0>");
      n++;
      break;
    }
    expect(n).toBe(1);
  });
});

describe("garbage with no line end before a record (resynchronised at any byte offset)", () => {
  const plain = Buffer.concat(RECORDS);
  const starts: number[] = [];
  RECORDS.reduce((at, r) => (starts.push(at), at + r.length), 0);
  /** Bytes glued straight before a record's "WARC/1.1": no CR or LF, and some "WARC/" that is not a version line. */
  const junk = Buffer.from("\x00\x01\xffjunkWARC/x\x7f", "latin1");

  it("between records, in a plain WARC: the record after it is read", async () => {
    const at = starts[resp(2)];
    const c = await collect(tempFile("glued.warc", Buffer.concat([plain.subarray(0, at), junk, plain.subarray(at)])));
    expect(pageNumbers(c)).toEqual(ALL);
    expect(c.records[2].offset).toBe(at + junk.length);
    expect(c.skips.filter((s) => s.reason === "corrupt")).toEqual([
      expect.objectContaining({ offset: at, detail: `skipped ${junk.length} bytes that are not a WARC record` }),
    ]);
  });

  it("at the very start of a plain WARC: the first record is read", async () => {
    const c = await collect(tempFile("glued-start.warc", Buffer.concat([junk, plain])));
    expect(pageNumbers(c)).toEqual(ALL);
    expect(c.skips[0]).toMatchObject({ reason: "corrupt", offset: 0 });
    // The first record is the request before page 0: read, and reported as such.
    expect(c.skips[1]).toMatchObject({ reason: "not-response", recordId: "<urn:req:0>", offset: junk.length });
    expect(c.records[0].offset).toBe(starts[resp(0)] + junk.length);
  });

  it("at the very start of an input whose name says nothing, or of a .warc.gz before its first member", async () => {
    const unnamed = await collect(tempFile("glued-start.bin", Buffer.concat([junk, plain])));
    expect(pageNumbers(unnamed)).toEqual(ALL);
    // Garbage that starts like HTML or like a WARC does not make a gzip file read as plain.
    for (const lead of ["<junk\x00", "WARC/x "]) {
      const gz = await collect(tempFile("glued-start.warc.gz", Buffer.concat([Buffer.from(lead, "latin1"), gzipEach(RECORDS).file])));
      expect(pageNumbers(gz), lead).toEqual(ALL);
    }
  });

  it("inside a whole-file gzip, and at the start of a member of a per-record gzip", async () => {
    const at = starts[resp(3)];
    const whole = await collect(tempFile("glued.warc.gz", zlib.gzipSync(Buffer.concat([plain.subarray(0, at), junk, plain.subarray(at)]))));
    expect(pageNumbers(whole)).toEqual(ALL);
    const members = RECORDS.map((r, i) => (i === resp(3) ? Buffer.concat([junk, r]) : r));
    const each = await collect(tempFile("glued-member.warc.gz", gzipEach(members).file));
    expect(pageNumbers(each)).toEqual(ALL);
    expect(each.skips.filter((s) => s.reason === "corrupt")).toHaveLength(1);
  });
});

describe("an overstated Content-Length does not swallow the records after it", () => {
  /** The records with page 2's response given a wrong Content-Length. */
  const withLength = (length: (real: number) => string) =>
    RECORDS.map((r, i) => {
      if (i !== resp(2)) return r;
      const block = httpResponse(page(2));
      return warcRecord({ id: "<urn:resp:2>", uri: "http://example.org/page/2", block, length: length(block.length) });
    });
  const cases: Array<[string, (real: number) => string]> = [
    ["1e9", () => "1000000000"],
    ["1e15", () => "1000000000000000"],
    ["+100", (n) => String(n + 100)],
    ["-30", (n) => String(n - 30)],
  ];
  const others = ALL.filter((i) => i !== 2);

  it.each(cases)("per-record gzip, %s: the member ends the record, which is reported; every other page is read", async (_, length) => {
    const recs = withLength(length);
    const { file, offsets } = gzipEach(recs);
    const c = await collect(tempFile("overstated.warc.gz", file));
    expect(pageNumbers(c)).toEqual(others);
    expect(c.records.map((r) => r.offset)).toEqual(others.map((i) => offsets[resp(i)]));
    const bad = c.skips.filter((s) => s.recordId === "<urn:resp:2>");
    expect(bad).toHaveLength(1);
    expect(bad[0].offset).toBe(offsets[resp(2)]);
    if (_ === "-30") expect(bad[0]).toMatchObject({ reason: "corrupt", detail: expect.stringContaining("wrong Content-Length") });
    else expect(bad[0]).toMatchObject({ reason: "truncated", detail: expect.stringMatching(/gzip member ends \d+ bytes into the block/) });
    // Nothing else is reported as damaged: the resync starts just after the bad record's head.
    expect(c.skips.filter((s) => s.reason === "corrupt" || s.reason === "truncated")).toHaveLength(1);
  });

  it.each(cases)("plain and whole-file gzip, %s: the record is reported as corrupt; every other page is read", async (_, length) => {
    const recs = withLength(length);
    const plain = Buffer.concat(recs);
    for (const [name, bytes] of [
      ["overstated.warc", plain],
      ["overstated-whole.warc.gz", zlib.gzipSync(plain)],
    ] as const) {
      const c = await collect(tempFile(name, bytes));
      expect(pageNumbers(c), name).toEqual(others);
      const bad = c.skips.filter((s) => s.reason === "corrupt" || s.reason === "truncated");
      expect(bad, name).toEqual([
        expect.objectContaining({ recordId: "<urn:resp:2>", reason: "corrupt", detail: expect.stringContaining("wrong Content-Length") }),
      ]);
    }
  });

  it("a huge stated length is not allocated or buffered: a response claiming 1e15 bytes among big records", async () => {
    // Records over the look-ahead are skipped with a scan that stops at the next record.
    const big = crypto.randomBytes(3 << 20);
    const recs = [
      ...RECORDS.slice(0, 2),
      warcRecord({ id: "<urn:huge>", uri: "http://example.org/huge", block: httpResponse(page(99)), length: "1000000000000000" }),
      warcRecord({ id: "<urn:big>", uri: "http://example.org/big.bin", block: httpResponse(big, { "Content-Type": "image/png" }) }),
      ...RECORDS.slice(2),
    ];
    const c = await collect(tempFile("huge-length.warc", Buffer.concat(recs)), { maxPageBytes: 1 << 20 });
    expect(pageNumbers(c)).toEqual(ALL);
    expect(c.skips.find((s) => s.recordId === "<urn:huge>")).toMatchObject({ reason: "corrupt" });
    expect(c.skips.find((s) => s.recordId === "<urn:big>")).toMatchObject({ reason: "not-html" });
  });
});
