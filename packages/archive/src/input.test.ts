import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { collect, fixture, page, sampleRecords, tempDir, tempFile, text } from "../test/helpers.js";
import { ArchiveOpenError, expandInputs } from "./index.js";
import { detectFormat } from "./read.js";
import { classifyMime, sniffIsHtml } from "./sniff.js";

describe("expandInputs", () => {
  it("walks directories recursively, keeps archive and HTML files, sorted", async () => {
    const dir = tempDir();
    const files = [
      "b.warc.gz",
      "a.warc",
      "sub/c.arc.gz",
      "sub/deeper/d.html",
      "e.htm",
      "f.html.gz",
      "g.arc",
      "notes.txt",
      "x.gz",
      "sub/img.png",
    ];
    for (const f of files) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), "x");
    }
    const out = await expandInputs([dir]);
    expect(out.map((p) => path.relative(dir, p))).toEqual([
      "a.warc",
      "b.warc.gz",
      "e.htm",
      "f.html.gz",
      "g.arc",
      path.join("sub", "c.arc.gz"),
      path.join("sub", "deeper", "d.html"),
    ]);
  });

  it("follows linked directories once, without looping, and reads files whose names are not UTF-8", async () => {
    const dir = tempDir();
    const warc = fs.readFileSync(fixture("example.warc"));
    const real = path.join(dir, "real");
    fs.mkdirSync(path.join(real, "sub"), { recursive: true });
    fs.mkdirSync(path.join(dir, "outside"));
    fs.writeFileSync(path.join(real, "sub", "a.warc"), warc);
    fs.writeFileSync(path.join(dir, "outside", "b.warc"), warc);
    // "café.warc" in Latin-1: the byte 0xE9 alone is not UTF-8.
    fs.writeFileSync(Buffer.concat([Buffer.from(`${real}/caf`), Buffer.from([0xe9]), Buffer.from(".warc")]), warc);
    fs.symlinkSync(path.join(dir, "outside"), path.join(real, "linked"));
    fs.symlinkSync(real, path.join(real, "sub", "loop")); // a cycle
    fs.symlinkSync(path.join(real, "sub"), path.join(real, "again")); // sub, a second way
    const found = await expandInputs([real]);
    expect(found).toEqual([path.join(real, "caf\udce9.warc"), path.join(real, "linked", "b.warc"), path.join(real, "sub", "a.warc")]);
    for (const input of found) {
      const { records, skips } = await collect(input);
      expect(records.map((r) => [r.source, r.recordId])).toEqual([[input, "<urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005>"]]);
      expect(skips.map((s) => s.reason)).not.toContain("unreadable");
    }
  });

  it("keeps files given by name whatever they are called, and '-' for stdin, in order", async () => {
    const odd = tempFile("input.bin", "x");
    expect(await expandInputs([fixture("example.warc"), "-", odd])).toEqual([fixture("example.warc"), "-", odd]);
  });

  it("rejects a path that does not exist with a typed error naming it", async () => {
    const missing = path.join(tempDir(), "nope.warc.gz");
    const err = await expandInputs([fixture("example.warc"), missing]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArchiveOpenError);
    expect((err as ArchiveOpenError).path).toBe(missing);
    expect((err as ArchiveOpenError).code).toBe("ENOENT");
    expect((err as Error).message).toBe(`cannot open input: no such file or directory (${missing})`);
  });
});

describe("readRecords: opening", () => {
  it("rejects with ArchiveOpenError when the file cannot be opened", async () => {
    const missing = path.join(tempDir(), "missing.warc");
    const err = await collect(missing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArchiveOpenError);
    expect((err as Error).message).toContain(missing);
    expect((err as ArchiveOpenError).code).toBe("ENOENT");
  });

  it("rejects a directory", async () => {
    const dir = tempDir();
    const err = await collect(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArchiveOpenError);
    expect((err as Error).message).toBe(`cannot open input: is a directory (${dir})`);
  });

  // Linux only; CI (Linux) must run it, so there a missing /proc fails it rather than skip it.
  it.runIf((process.platform === "linux" && fs.existsSync("/proc/self/mem")) || process.env.CI === "true")(
    "a read that fails after opening is reported as unreadable, not thrown",
    async () => {
      // /proc/self/mem opens fine but fails every read at offset 0 with EIO.
      const { records, skips } = await collect("/proc/self/mem");
      expect(records).toEqual([]);
      expect(skips[0]).toMatchObject({ reason: "unreadable", source: "/proc/self/mem" });
      expect(skips[0].detail).toContain("EIO");
    },
  );

  it("reports progress up to the file size", async () => {
    const { progress } = await collect(fixture("example.warc"));
    expect(progress.at(-1)).toBe(fs.statSync(fixture("example.warc")).size);
  });
});

describe("plain HTML inputs", () => {
  it("a .html file is one record with a file: URL and no capture date", async () => {
    const p = tempFile("doc.html", page(7));
    const { records, skips } = await collect(p);
    expect(skips).toEqual([]);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      source: p,
      offset: 0,
      recordId: `<file:${p}>`,
      url: pathToFileURL(p).href,
      date: "",
      httpStatus: 0,
      contentType: "",
      charset: "",
    });
    expect(text(records[0].body)).toBe(page(7));
  });

  it("a gzipped .html.gz file is decompressed", async () => {
    const { records } = await collect(tempFile("doc.html.gz", zlib.gzipSync(page(8))));
    expect(text(records[0].body)).toBe(page(8));
  });

  it("a file of another name is taken if it looks like HTML, else skipped", async () => {
    expect((await collect(tempFile("page.txt", page(9)))).records).toHaveLength(1);
    const pdf = await collect(tempFile("doc.pdf", "%PDF-1.4\n%âãÏÓ\n1 0 obj"));
    expect(pdf.records).toEqual([]);
    expect(pdf.skips.map((s) => s.reason)).toEqual(["not-html"]);
  });

  it("an empty file and an oversized file are skipped", async () => {
    expect((await collect(tempFile("empty.html", ""))).skips.map((s) => s.reason)).toEqual(["empty"]);
    const big = await collect(tempFile("big.html", `<html>${"x".repeat(5000)}</html>`), { maxPageBytes: 1000 });
    expect(big.skips.map((s) => s.reason)).toEqual(["too-large"]);
  });

  it("content decides over the name: a WARC called .html is read as a WARC", async () => {
    const { records } = await collect(tempFile("mislabelled.html", fs.readFileSync(fixture("example.warc"))));
    expect(records.map((r) => r.recordId)).toEqual(["<urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005>"]);
  });
});

describe("stdin", () => {
  const original = Object.getOwnPropertyDescriptor(process, "stdin");
  afterEach(() => {
    if (original) Object.defineProperty(process, "stdin", original);
  });
  const feed = (chunks: Buffer[]) => Object.defineProperty(process, "stdin", { value: Readable.from(chunks), configurable: true });

  it("reads a per-record gzip WARC from '-', in small chunks", async () => {
    const file = fs.readFileSync(fixture("example.warc.gz"));
    const chunks: Buffer[] = [];
    for (let i = 0; i < file.length; i += 97) chunks.push(file.subarray(i, i + 97));
    feed(chunks);
    const { records, skips } = await collect("-");
    expect(records.map((r) => [r.source, r.offset, r.url])).toEqual([["-", 784, "http://example.com/"]]);
    expect(skips).toHaveLength(5);
  });

  it("reads HTML from '-'", async () => {
    feed([Buffer.from(page(3))]);
    const { records } = await collect("-");
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ source: "-", recordId: "<file:->", url: "" });
    expect(text(records[0].body)).toBe(page(3));
  });

  it("reads an ARC from '-' without its version block", async () => {
    const arc = fs.readFileSync(fixture("example.arc"), "latin1");
    feed([Buffer.from(arc.slice(arc.indexOf("http://example.com/")), "latin1")]);
    const { records } = await collect("-");
    expect(records.map((r) => r.url)).toEqual(["http://example.com/"]);
  });
});

describe("chunk boundaries", () => {
  it("records split anywhere across reads parse the same", async () => {
    const { records: recs } = sampleRecords(3);
    const whole = Buffer.concat(recs);
    const starts: number[] = [];
    recs.reduce((at, r) => (starts.push(at), at + r.length), 0);
    const original = Object.getOwnPropertyDescriptor(process, "stdin");
    try {
      for (const size of [1, 2, 3, 5, 64, 1000]) {
        const chunks: Buffer[] = [];
        for (let i = 0; i < whole.length; i += size) chunks.push(whole.subarray(i, i + size));
        Object.defineProperty(process, "stdin", { value: Readable.from(chunks), configurable: true });
        const c = await collect("-");
        expect(c.records.map((r) => [r.recordId, r.offset])).toEqual([0, 1, 2].map((i) => [`<urn:resp:${i}>`, starts[2 * i + 1]]));
        expect(pageNumbersOf(c.records.map((r) => text(r.body)))).toEqual([0, 1, 2]);
      }
    } finally {
      if (original) Object.defineProperty(process, "stdin", original);
    }
  });
});

const pageNumbersOf = (bodies: string[]) => bodies.map((b) => Number(/page number (\d+)/.exec(b)?.[1]));

describe("sniffing", () => {
  it.each([
    "<!DOCTYPE html><html>",
    "  \n<html lang=en>",
    "\ufeff<!doctype html>",
    "<HEAD><TITLE>x</TITLE>",
    "<body>",
    "<!-- comment --><p>",
    "<p>text",
    '<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN">',
    '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">',
  ])("%j is HTML", (s) => {
    expect(sniffIsHtml(Buffer.from(s))).toBe(true);
  });

  it.each(["", "%PDF-1.4", '{"a": 1}', '<?xml version="1.0"?><rss>', "<abbr>", "\x89PNG\r\n", "plain text <html>"])(
    "%j is not HTML",
    (s) => {
      expect(sniffIsHtml(Buffer.from(s, "latin1"))).toBe(false);
    },
  );

  it("understands UTF-16 with a BOM", () => {
    expect(sniffIsHtml(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("<html>", "utf16le")]))).toBe(true);
    expect(sniffIsHtml(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from("<html>", "utf16le").swap16()]))).toBe(true);
  });

  it("classifies media types", () => {
    expect(classifyMime("text/html")).toBe("html");
    expect(classifyMime("application/xhtml+xml")).toBe("html");
    expect(classifyMime("application/octet-stream")).toBe("unknown");
    expect(classifyMime("")).toBe("unknown");
    expect(classifyMime("text/plain")).toBe("other");
    expect(classifyMime("image/png")).toBe("other");
  });

  it("detects formats from the first bytes", () => {
    expect(detectFormat(Buffer.from("WARC/1.1\r\n"))).toBe("warc");
    expect(detectFormat(Buffer.from("\r\nWARC/1.0\r\n"))).toBe("warc");
    expect(detectFormat(Buffer.from("filedesc://x.arc 0.0.0.0 20200101000000 text/plain 10\n"))).toBe("arc");
    expect(detectFormat(Buffer.from("http://a.example/ 1.2.3.4 20200101000000 text/html 10\nHTTP/1.1"))).toBe("arc");
    expect(detectFormat(Buffer.from("<html>"))).toBe("html");
    expect(detectFormat(Buffer.from("garbage"), "warc")).toBe("warc");
  });
});
