import fs from "node:fs";
import { WARCParser } from "warcio";
import { describe, expect, it } from "vitest";
import { collect, fixture, tempFile, text } from "../test/helpers.js";
import { parseWarcHead } from "./warc.js";

const EXAMPLE_RESPONSE = "<urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005>";
const EXAMPLE_SKIPS = [
  ["<urn:uuid:e9a0cecc-0221-11e7-adb1-0242ac120008>", "not-response"],
  ["<urn:uuid:e9a0ee48-0221-11e7-adb1-0242ac120008>", "not-response"],
  ["<urn:uuid:a9c5c23a-0221-11e7-8fe3-0242ac120007>", "not-response"], // request
  ["<urn:uuid:e6e395ca-0221-11e7-a18d-0242ac120005>", "not-response"], // revisit
  ["<urn:uuid:e6e41fea-0221-11e7-8fe3-0242ac120007>", "not-response"], // request
];

describe("WARC fixtures", () => {
  it("example.warc: the one response, gzip content-encoding undone, raw offsets", async () => {
    const { records, skips } = await collect(fixture("example.warc"));
    expect(records).toHaveLength(1);
    const r = records[0];
    expect(r).toMatchObject({
      recordId: EXAMPLE_RESPONSE,
      url: "http://example.com/",
      date: "2017-03-06T04:02:06Z",
      httpStatus: 200,
      contentType: "text/html",
      charset: "",
      offset: 1197,
    });
    expect(r.source).toBe(fixture("example.warc"));
    const html = text(r.body);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("<title>Example Domain</title>");
    expect(html.trimEnd()).toMatch(/<\/html>$/);
    expect(r.body.length).toBe(1270);
    expect(skips.map((s) => [s.recordId, s.reason])).toEqual(EXAMPLE_SKIPS);
    expect(skips.map((s) => s.offset)).toEqual([0, 488, 2566, 3370, 4316]);
    expect(skips[3].detail).toContain("revisit");
    // Offsets point at the record's first byte.
    const file = fs.readFileSync(fixture("example.warc"));
    expect(file.toString("latin1", r.offset, r.offset + 8)).toBe("WARC/1.0");
  });

  it("example.warc.gz: per-record gzip, offsets are the members' compressed offsets", async () => {
    const { records, skips, progress } = await collect(fixture("example.warc.gz"));
    expect(records.map((r) => [r.recordId, r.offset])).toEqual([[EXAMPLE_RESPONSE, 784]]);
    expect(text(records[0].body)).toContain("This domain is established to be used for illustrative examples");
    expect(skips.map((s) => [s.recordId, s.reason])).toEqual(EXAMPLE_SKIPS);
    expect(skips.map((s) => s.offset)).toEqual([0, 353, 2012, 2621, 3207]);
    const file = fs.readFileSync(fixture("example.warc.gz"));
    expect(file[784]).toBe(0x1f);
    expect(file[785]).toBe(0x8b);
    expect(progress.at(-1)).toBe(file.length);
  });

  it("whole-file gzip (example-bad-non-chunked.warc.gz): same records, offsets unknown past the first", async () => {
    const { records, skips } = await collect(fixture("example-bad-non-chunked.warc.gz"));
    expect(records.map((r) => [r.recordId, r.offset])).toEqual([[EXAMPLE_RESPONSE, -1]]);
    expect(text(records[0].body)).toContain("Example Domain");
    expect(skips.map((s) => [s.recordId, s.reason])).toEqual(EXAMPLE_SKIPS);
    expect(skips[0].offset).toBe(0);
    expect(skips.slice(1).every((s) => s.offset === -1)).toBe(true);
  });

  it("a plain WARC named .warc.gz is still read as plain (its payloads hold gzip data)", async () => {
    const c = await collect(tempFile("plain-named.warc.gz", fs.readFileSync(fixture("example.warc"))));
    expect(c.records.map((r) => [r.recordId, r.offset])).toEqual([[EXAMPLE_RESPONSE, 1197]]);
  });

  it("example-bad.warc.gz.bad (a whole-file gzip): the 200 page is read, the 302 skipped", async () => {
    const { records, skips } = await collect(fixture("example-bad.warc.gz.bad"));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      recordId: "<urn:uuid:6d058047-ede2-4a13-be79-90c17c631dd4>",
      url: "http://example.com?example=1",
      httpStatus: 200,
    });
    expect(text(records[0].body)).toContain("<h1>Example Domain</h1>");
    expect(skips.map((s) => s.reason)).toEqual(["not-response", "not-response", "not-response", "not-response", "http-status"]);
    const redirect = skips[4];
    expect(redirect).toMatchObject({
      url: "http://www.iana.org/domains/example",
      recordId: "<urn:uuid:1d673b2a-c593-402e-8973-3950d0bc6163>",
    });
    expect(redirect.detail).toContain("302");
  });

  it("example-iana.org-chunked.warc: chunked transfer coding undone", async () => {
    const { records, skips } = await collect(fixture("example-iana.org-chunked.warc"));
    expect(records).toHaveLength(1);
    const r = records[0];
    expect(r).toMatchObject({
      recordId: "<urn:uuid:a96ae1a5-931d-4c45-96f3-98576d155f8b>",
      url: "http://www.iana.org/",
      charset: "utf-8",
      contentType: "text/html",
      offset: 405,
    });
    const html = text(r.body);
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain("<title>Internet Assigned Numbers Authority</title>");
    expect(html).not.toContain("001c37"); // the chunk-size line
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
    expect(r.body.length).toBe(0x1c37);
    expect(skips.map((s) => s.reason)).toEqual(["not-response", "not-response"]);
  });

  it("example-trunc.warc: a Content-Length 2 bytes short; the record is reported, the one after it survives", async () => {
    const { records, skips } = await collect(fixture("example-trunc.warc"));
    // Its block does not end where its Content-Length says, so the length is wrong and the
    // record is not trusted (its page would lack the gzip trailer's last 2 bytes).
    expect(records).toEqual([]);
    expect(skips.map((s) => [s.reason, s.offset])).toEqual([
      ["not-response", 0],
      ["not-response", 488],
      ["corrupt", 1197],
      ["not-response", 2566],
    ]);
    expect(skips[2]).toMatchObject({ recordId: EXAMPLE_RESPONSE, detail: expect.stringContaining("wrong Content-Length 973") });
    expect(skips[3].recordId).toBe("<urn:uuid:a9c5c23a-0221-11e7-8fe3-0242ac120007>");
  });

  it("example-wrong-chunks.warc.gz: gzip members that split records still read", async () => {
    const { records, skips } = await collect(fixture("example-wrong-chunks.warc.gz"));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      recordId: "<urn:uuid:80d63307-60af-43e0-903f-574b2f432b7e>",
      offset: 0,
      charset: "utf-8",
      date: "2018-11-02T18:55:11Z",
    });
    expect(text(records[0].body)).toContain("<title>Example Domain</title>");
    expect(skips).toHaveLength(1);
    // The request starts inside the third member: no compressed offset can address it.
    expect(skips[0]).toMatchObject({ reason: "not-response", offset: -1, recordId: "<urn:uuid:f5086dcf-3c9b-463e-8532-68cecd628908>" });
  });

  it("example-resource.warc.gz: resource records are not responses", async () => {
    const { records, skips } = await collect(fixture("example-resource.warc.gz"));
    expect(records).toEqual([]);
    expect(skips.map((s) => [s.reason, s.offset])).toEqual([
      ["not-response", 0],
      ["not-response", 361],
      ["not-response", 802],
    ]);
    expect(skips[2]).toMatchObject({ url: "http://example.com/", recordId: "<urn:uuid:6e7f60da-2c7b-11e7-aaf7-0242ac120007>" });
    expect(skips[2].detail).toContain("resource");
  });

  it("post-test.warc.gz: JSON responses are not HTML", async () => {
    const { records, skips } = await collect(fixture("post-test.warc.gz"));
    expect(records).toEqual([]);
    expect(skips.map((s) => s.reason)).toEqual(["not-html", "not-response", "not-html", "not-response", "not-html", "not-response"]);
    expect(skips[0]).toMatchObject({ url: "http://httpbin.org/post", recordId: "<urn:uuid:f6271bbf-d071-434a-8075-aa3a294d8004>" });
    expect(skips[0].detail).toContain("application/json");
    expect(skips[4].url).toBe("http://httpbin.org/post?foo=bar");
  });

  it("example-wget-bad-target-uri.warc.gz: angle brackets around the URI are dropped", async () => {
    const { records, skips } = await collect(fixture("example-wget-bad-target-uri.warc.gz"));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      url: "http://example.com/",
      recordId: "<urn:uuid:FD8A6D04-AF8A-4A36-A889-8094487CDF2D>",
      offset: 824,
    });
    expect(text(records[0].body)).toContain("Example Domain");
    expect(skips.map((s) => s.url)).toContain("metadata://gnu.org/software/wget/warc/MANIFEST.txt");
  });

  it("example-space-in-target-uri.warc.gz: URIs with spaces are kept whole", async () => {
    const { records, skips } = await collect(fixture("example-space-in-target-uri.warc.gz"));
    expect(records).toEqual([]);
    expect(skips[1]).toMatchObject({ url: "file:///example with spaces.png", reason: "not-response" });
  });

  it("example-digest.warc: four request records, nothing to yield", async () => {
    const { records, skips } = await collect(fixture("example-digest.warc"));
    expect(records).toEqual([]);
    expect(skips.map((s) => s.reason)).toEqual(Array(4).fill("not-response"));
    expect(skips.map((s) => s.offset)).toEqual([0, 922, 1840, 2758]);
  });

  // warcio is the reference here: every record it parses, we meet too, in the same order.
  it.each([
    "example.warc",
    "example.warc.gz",
    "example-iana.org-chunked.warc",
    "example-resource.warc.gz",
    "post-test.warc.gz",
    "example-wget-bad-target-uri.warc.gz",
    "example-digest.warc",
  ])("agrees with warcio's WARCParser on %s", async (name) => {
    const theirs: string[] = [];
    for await (const rec of new WARCParser(fs.createReadStream(fixture(name)))) {
      theirs.push(rec.warcHeader("WARC-Record-ID") ?? "");
    }
    expect(theirs.length).toBeGreaterThan(1);
    expect((await collect(fixture(name))).order).toEqual(theirs);
  });
});

describe("parseWarcHead", () => {
  it("reads the named fields, case-insensitively", () => {
    const head = parseWarcHead(
      Buffer.from(
        "WARC/1.1\r\nwarc-type: Response\r\nWARC-Record-ID: <urn:x>\r\nWARC-Target-URI: http://a.example/é\r\nContent-Length: 12\r\ncontent-type: application/http;msgtype=response\r\n\r\n",
      ),
    );
    expect(head).toEqual({
      type: "response",
      recordId: "<urn:x>",
      url: "http://a.example/é",
      date: "",
      contentType: "application/http;msgtype=response",
      length: 12,
    });
  });

  it("marks a missing or malformed Content-Length as -1", () => {
    expect(parseWarcHead(Buffer.from("WARC/1.0\r\nContent-Length: 12x\r\n\r\n")).length).toBe(-1);
    expect(parseWarcHead(Buffer.from("WARC/1.0\r\nWARC-Type: request\r\n\r\n")).length).toBe(-1);
  });
});
