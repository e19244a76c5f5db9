import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { DecodeError, dechunk, decodeContent, parseContentType, parseResponseHead } from "./http.js";

const html = "<!doctype html><html><body><p>Hello, chunked and compressed world.</p></body></html>\n".repeat(20);

describe("parseResponseHead", () => {
  it("reads the status and fields (case-folded, folded lines joined, repeats merged)", () => {
    const head = Buffer.from(
      "HTTP/1.1 200 OK\r\nContent-Type: text/html;\r\n charset=UTF-8\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\nX-Empty:\r\nno colon line\r\n\r\n",
    );
    const h = parseResponseHead(head);
    expect(h?.status).toBe(200);
    expect(h?.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(h?.headers.get("set-cookie")).toBe("a=1, b=2");
    expect(h?.headers.get("x-empty")).toBe("");
  });

  it("accepts LF-only heads, HTTP/1.0 and HTTP/2, and a status without a reason", () => {
    expect(parseResponseHead(Buffer.from("HTTP/1.0 404 Not Found\nContent-Type: text/html\n\n"))?.status).toBe(404);
    expect(parseResponseHead(Buffer.from("HTTP/2 204\r\n\r\n"))?.status).toBe(204);
  });

  it("rejects what is not a response head", () => {
    expect(parseResponseHead(Buffer.from("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))).toBeNull();
    expect(parseResponseHead(Buffer.from("<html>\n\n"))).toBeNull();
    expect(parseResponseHead(Buffer.from("HTTP/1.1 2000 OK\r\n\r\n"))).toBeNull();
  });
});

describe("parseContentType", () => {
  it.each([
    ["text/html; charset=UTF-8", "text/html", "utf-8"],
    ['Text/HTML; Charset="ISO-8859-1"', "text/html", "iso-8859-1"],
    ["text/html;charset='shift_jis';foo=bar", "text/html", "shift_jis"],
    ["application/xhtml+xml", "application/xhtml+xml", ""],
    ["text/plain, text/html; charset=gbk", "text/html", "gbk"],
    ["", "", ""],
  ])("%s", (value, mime, charset) => {
    expect(parseContentType(value)).toEqual({ mime, charset });
  });
});

describe("dechunk", () => {
  it("joins chunks, ignoring extensions and trailers", () => {
    const body = Buffer.from("5;ext=1\r\nHello\r\n7\r\n, world\r\n0\r\nTrailer: x\r\n\r\n");
    expect(dechunk(body).toString()).toBe("Hello, world");
  });

  it("a body that is not chunked after all is left alone", () => {
    const body = Buffer.from("<html>already de-chunked</html>");
    expect(dechunk(body)).toBe(body);
  });

  it("keeps what it decoded when the chunk stream breaks off", () => {
    expect(dechunk(Buffer.from("5\r\nHello\r\n10\r\n, wor")).toString()).toBe("Hello, wor");
    expect(dechunk(Buffer.from("5\r\nHello\r\nzz\r\n")).toString()).toBe("Hello");
  });
});

describe("decodeContent", () => {
  const MAX = 1 << 20;

  it.each([
    ["gzip", zlib.gzipSync(html)],
    ["x-gzip", zlib.gzipSync(html)],
    ["deflate", zlib.deflateSync(html)],
    ["deflate", zlib.deflateRawSync(html)], // raw deflate, as some servers send it
    ["br", zlib.brotliCompressSync(html)],
    ["identity", Buffer.from(html)],
    ["gzip, br", zlib.brotliCompressSync(zlib.gzipSync(html))],
  ])("undoes %s", (coding, body) => {
    expect(decodeContent(body, coding, MAX).toString()).toBe(html);
  });

  it("keeps what a truncated gzip stream holds", () => {
    const gz = zlib.gzipSync(html);
    const out = decodeContent(gz.subarray(0, gz.length - 6), "gzip", MAX).toString();
    expect(out.length).toBeGreaterThan(html.length / 2);
    expect(html.startsWith(out)).toBe(true);
  });

  it("passes through a body stored already decoded", () => {
    expect(decodeContent(Buffer.from(html), "gzip", MAX).toString()).toBe(html);
    expect(decodeContent(Buffer.from(html), "br", MAX).toString()).toBe(html);
  });

  it("reports bad and unsupported encodings", () => {
    const bad = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff, 0xff]);
    expect(failure(() => decodeContent(bad, "gzip", MAX))).toBe("bad-encoding");
    expect(failure(() => decodeContent(Buffer.from("\x00\x01binary"), "br", MAX))).toBe("bad-encoding");
    expect(failure(() => decodeContent(Buffer.from("\x00\x01binary"), "deflate", MAX))).toBe("bad-encoding");
    expect(() => decodeContent(Buffer.from("xyz"), "compress", MAX)).toThrow(/unsupported content-encoding "compress"/);
  });

  it("stops at the size limit (a zip bomb does not get inflated whole)", () => {
    const bomb = zlib.gzipSync(Buffer.alloc(8 << 20));
    expect(bomb.length).toBeLessThan(MAX / 50);
    expect(failure(() => decodeContent(bomb, "gzip", MAX))).toBe("too-large");
    expect(failure(() => decodeContent(zlib.brotliCompressSync(Buffer.alloc(2 << 20)), "br", MAX))).toBe("too-large");
  });
});

function failure(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    return err instanceof DecodeError ? err.reason : `other: ${(err as Error).message}`;
  }
  return "no error";
}
