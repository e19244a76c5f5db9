import fs from "node:fs";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { collect, fixture, httpResponse, page, tempFile, text } from "../test/helpers.js";
import { arcDateToIso, isArcHeaderLine, parseArcHeader } from "./arc.js";

describe("ARC fixtures", () => {
  it("example.arc: version block skipped, the page read with its ARC date", async () => {
    const { records, skips } = await collect(fixture("example.arc"));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      url: "http://example.com/",
      date: "2014-02-16T05:02:21Z",
      httpStatus: 200,
      contentType: "text/html",
      offset: 151,
      recordId: "<arc:151>",
    });
    expect(text(records[0].body)).toContain("<title>Example Domain</title>");
    expect(records[0].body.length).toBe(1270);
    expect(skips).toEqual([expect.objectContaining({ reason: "not-response", offset: 0, url: "filedesc://live-web-example.arc.gz" })]);
    const file = fs.readFileSync(fixture("example.arc"), "latin1");
    expect(file.slice(151, 170)).toBe("http://example.com/");
  });

  it("example.arc.gz: offsets are gzip member offsets", async () => {
    const { records, skips } = await collect(fixture("example.arc.gz"));
    expect(records.map((r) => [r.recordId, r.offset, r.url])).toEqual([["<arc:171>", 171, "http://example.com/"]]);
    expect(text(records[0].body)).toContain("Example Domain");
    expect(skips.map((s) => [s.reason, s.offset])).toEqual([["not-response", 0]]);
  });

  it("example-space-in-url.arc: the URL keeps its spaces (fields are read from the right)", async () => {
    const { records, skips } = await collect(fixture("example-space-in-url.arc"));
    expect(records).toHaveLength(1);
    expect(records[0].url).toBe("http://example.com/index.cfm?FuseAction=Email&EmailTitle=Examples From The Live Web&IsPopUp=False");
    // Its ARC length counted CRLFs the file no longer has; the HTTP Content-Length is met.
    expect(records[0].body.length).toBe(1270);
    expect(text(records[0].body)).toContain("<h1>Example Domain</h1>");
    expect(skips.map((s) => s.reason)).toEqual(["not-response"]);
  });

  it("bad.arc: bad lengths are corrupt, a non-HTTP body is bad-http, nothing throws", async () => {
    const { records, skips } = await collect(fixture("bad.arc"));
    expect(records).toEqual([]);
    expect(skips.map((s) => [s.reason, s.offset])).toEqual([
      ["corrupt", 0], // "filedesc://... -1": the version block and the "-1" record after it
      ["bad-http", 202], // length 1: a lone newline
      ["corrupt", 262], // length "abc"
    ]);
    expect(skips[1]).toMatchObject({ url: "http://example.com/", recordId: "<arc:202>" });
  });

  it("resynchronises at the next header line after a damaged record", async () => {
    const rec = (url: string, body: Buffer, len = body.length) =>
      Buffer.concat([Buffer.from(`${url} 10.0.0.1 20200102030405 text/html ${len}\n`), body, Buffer.from("\n")]);
    const file = Buffer.concat([
      Buffer.from("filedesc://t.arc 0.0.0.0 20200101000000 text/plain 16\n1 0 Test\nheader\n\n"),
      rec("http://a.example/", httpResponse(page(1))),
      Buffer.from("some garbage\nmore garbage that is long\n"),
      rec("http://b.example/", httpResponse(page(2)), 7), // length far too small
      rec("http://c.example/", httpResponse(page(3))),
      rec("dns:c.example", Buffer.from("20200102030405\nc.example. 300 IN A 10.0.0.3\n")),
      rec("http://d.example/", httpResponse(page(4), {}, "404 Not Found")),
      rec("http://e.example/", httpResponse(page(5))),
    ]);
    const { records, skips } = await collect(tempFile("resync.arc", file));
    expect(records.map((r) => r.url)).toEqual(["http://a.example/", "http://c.example/", "http://e.example/"]);
    expect(records[2].date).toBe("2020-01-02T03:04:05Z");
    expect(text(records[1].body)).toContain("page number 3");
    // b's length is wrong: b is reported once, and reading resumes just after its header line.
    expect(skips.map((s) => s.reason)).toEqual(["not-response", "corrupt", "corrupt", "not-response", "http-status"]);
    expect(skips[2]).toMatchObject({ url: "http://b.example/", detail: expect.stringContaining("wrong ARC length 7") });
    expect(skips[3].url).toBe("dns:c.example");
  });

  it("reads a per-record gzipped ARC cut off in its last member", async () => {
    const rec = (url: string, body: Buffer) =>
      Buffer.concat([Buffer.from(`${url} 10.0.0.1 20200102030405 text/html ${body.length}\n`), body, Buffer.from("\n")]);
    const members = [
      Buffer.from("filedesc://t.arc 0.0.0.0 20200101000000 text/plain 16\n1 0 Test\nheader\n\n"),
      rec("http://a.example/", httpResponse(page(1))),
      rec("http://b.example/", httpResponse(page(2))),
    ].map((m) => zlib.gzipSync(m));
    const whole = Buffer.concat(members);
    const cut = whole.subarray(0, whole.length - 20);
    const { records, skips } = await collect(tempFile("cut.arc.gz", cut));
    expect(records.map((r) => [r.url, r.offset])).toEqual([["http://a.example/", members[0].length]]);
    expect(skips.at(-1)).toMatchObject({ reason: "truncated", url: "http://b.example/", offset: members[0].length + members[1].length });
  });
});

describe("ARC damage", () => {
  const rec = (url: string, body: Buffer, len = body.length) =>
    Buffer.concat([Buffer.from(`${url} 10.0.0.1 20200102030405 text/html ${len}\n`), body, Buffer.from("\n")]);
  const filedesc = Buffer.from("filedesc://t.arc 0.0.0.0 20200101000000 text/plain 16\n1 0 Test\nheader\n\n");
  const pages = [1, 2, 3, 4].map((i) => rec(`http://p${i}.example/`, httpResponse(page(i))));
  const urls = (c: Awaited<ReturnType<typeof collect>>) => c.records.map((r) => r.url);

  it("garbage with no line end glued before a header, mid-file and at the start: the record is read", async () => {
    for (const junk of [Buffer.from([0, 1, 0xff, 0x20, 0x7f]), Buffer.from("junk")]) {
      const mid = Buffer.concat([filedesc, pages[0], junk, pages[1], pages[2]]);
      const c = await collect(tempFile("glued.arc", mid));
      expect(urls(c)).toEqual(["http://p1.example/", "http://p2.example/", "http://p3.example/"]);
      const at = filedesc.length + pages[0].length;
      expect(c.records[1]).toMatchObject({ offset: at + junk.length, recordId: `<arc:${at + junk.length}>` });
      expect(c.skips.filter((s) => s.reason === "corrupt")).toEqual([expect.objectContaining({ offset: at })]);
      const start = await collect(tempFile("glued-start.arc", Buffer.concat([junk, filedesc, pages[0], pages[1]])));
      expect(urls(start)).toEqual(["http://p1.example/", "http://p2.example/"]);
      expect(start.skips.map((s) => s.reason)).toEqual(["corrupt", "not-response"]);
    }
  });

  it.each([
    ["1e9", 1e9],
    ["1e15", 1e15],
    ["+100", 100],
  ])("an overstated length (%s) costs only its record, plain or gzipped per record", async (_, over) => {
    const bad = rec("http://bad.example/", httpResponse(page(9)), over >= 1e9 ? over : httpResponse(page(9)).length + over);
    const parts = [filedesc, pages[0], bad, pages[1], pages[2], pages[3]];
    const plain = await collect(tempFile("overstated.arc", Buffer.concat(parts)));
    expect(urls(plain)).toEqual(pages.map((_, i) => `http://p${i + 1}.example/`));
    expect(plain.skips.find((s) => s.url === "http://bad.example/")).toMatchObject({ reason: "corrupt" });
    const members = parts.map((p) => zlib.gzipSync(p));
    const gz = await collect(tempFile("overstated.arc.gz", Buffer.concat(members)));
    expect(urls(gz)).toEqual(pages.map((_, i) => `http://p${i + 1}.example/`));
    expect(gz.skips.find((s) => s.url === "http://bad.example/")).toMatchObject({
      reason: "truncated",
      offset: members[0].length + members[1].length,
    });
  });
});

describe("ARC header lines", () => {
  it("parses v1 lines from the right", () => {
    expect(parseArcHeader("http://x.example/a b c 1.2.3.4 20140216050221 text/html 42", 1)).toEqual({
      url: "http://x.example/a b c",
      date: "2014-02-16T05:02:21Z",
      contentType: "text/html",
      length: 42,
    });
  });

  it("parses v2 lines", () => {
    const line = "http://x.example/ 1.2.3.4 20140216050221 text/html 200 ABCDEF http://x.example/next 1234 file.arc 99";
    expect(parseArcHeader(line, 2)).toMatchObject({ url: "http://x.example/", length: 99, contentType: "text/html" });
    expect(isArcHeaderLine(line, 2)).toBe(true);
  });

  it("rejects lines that are not headers", () => {
    expect(parseArcHeader("1 0 LiveWeb Capture", 1)).toBeNull();
    expect(parseArcHeader("URL IP-address Archive-date Content-type Archive-length", 1)).toBeNull();
    expect(parseArcHeader("http://example.com/ 93.184.216.119 20140401000000 text/html -1", 1)).toBeNull();
    expect(parseArcHeader("http://example.com/ 93.184.216.119 20140401000000 text/html abc", 1)).toBeNull();
    expect(parseArcHeader("<html><body>", 1)).toBeNull();
  });

  it("converts ARC dates", () => {
    expect(arcDateToIso("20140216050221")).toBe("2014-02-16T05:02:21Z");
    expect(arcDateToIso("201402160502")).toBe("2014-02-16T05:02:00Z");
    expect(arcDateToIso("201404010000000000")).toBe("");
    expect(arcDateToIso("20149999999999")).toBe("");
  });
});
