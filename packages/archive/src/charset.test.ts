import fs from "node:fs";
import zlib from "node:zlib";
import fc from "fast-check";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { collect, fixture, httpResponse, tempFile, warcRecord } from "../test/helpers.js";
import { PIECE_BYTES, decodeHtml, decodeHtmlPieces, normalizeCharset, prescanCharset } from "./charset.js";

/** Real text in each encoding's script, and the WHATWG name decodeHtml should report. */
const SAMPLES: { encoding: string; whatwg: string; text: string }[] = [
  { encoding: "windows-1252", whatwg: "windows-1252", text: "Café crème brûlée — « naïve » façade, 5 € “quoted”" },
  { encoding: "iso-8859-2", whatwg: "iso-8859-2", text: "Zażółć gęślą jaźń. Příliš žluťoučký kůň úpěl ďábelské ódy." },
  { encoding: "iso-8859-5", whatwg: "iso-8859-5", text: "Съешь же ещё этих мягких французских булок, да выпей чаю." },
  { encoding: "iso-8859-7", whatwg: "iso-8859-7", text: "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία." },
  { encoding: "iso-8859-15", whatwg: "iso-8859-15", text: "Œuvre d'art à 20 €, ça coûte cher." },
  {
    encoding: "windows-1251",
    whatwg: "windows-1251",
    text: "Широкая электрификация южных губерний даст мощный толчок подъёму сельского хозяйства.",
  },
  { encoding: "shift_jis", whatwg: "shift_jis", text: "日本語のテキスト。いろはにほへと ちりぬるを、カタカナも漢字も。" },
  { encoding: "gbk", whatwg: "gbk", text: "我能吞下玻璃而不伤身体。中文网页的正文内容。" },
  { encoding: "gb18030", whatwg: "gb18030", text: "我能吞下玻璃而不伤身体。𠀀 ① 龘" },
  { encoding: "euc-kr", whatwg: "euc-kr", text: "다람쥐 헌 쳇바퀴에 타고파. 한국어 웹 페이지." },
  { encoding: "big5", whatwg: "big5", text: "我能吞下玻璃而不傷身體。繁體中文。" },
  { encoding: "euc-jp", whatwg: "euc-jp", text: "日本語のテキスト、EUC-JPで書かれたページ。" },
  { encoding: "koi8-r", whatwg: "koi8-r", text: "Съешь же ещё этих мягких французских булок." },
];

const page = (text: string, head = "") => `<!DOCTYPE html>\n<html><head>${head}<title>t</title></head><body><p>${text}</p></body></html>\n`;

describe("decodeHtml", () => {
  describe.each(SAMPLES)("$encoding", ({ encoding, whatwg, text }) => {
    it("by HTTP header", () => {
      const r = decodeHtml(iconv.encode(page(text), encoding), encoding);
      expect(r).toEqual({ html: page(text), charset: whatwg });
    });

    it("by <meta charset>", () => {
      const html = page(text, `<meta charset="${encoding}">`);
      const r = decodeHtml(iconv.encode(html, encoding), "");
      expect(r.charset).toBe(whatwg);
      expect(r.html).toBe(html);
    });

    it("by <meta http-equiv>", () => {
      const html = page(text, `<meta http-equiv="Content-Type" content="text/html; charset=${encoding.toUpperCase()}">`);
      const r = decodeHtml(iconv.encode(html, encoding), "");
      expect(r.charset).toBe(whatwg);
      expect(r.html).toContain(text);
    });

    it("with a header that wrongly says UTF-8", () => {
      const html = page(text, `<meta charset="${encoding}">`);
      const r = decodeHtml(iconv.encode(html, encoding), "utf-8");
      expect(r.charset).toBe(whatwg);
      expect(r.html).toContain(text);
    });

    it("with a header label nobody knows", () => {
      const html = page(text, `<meta charset="${encoding}">`);
      expect(decodeHtml(iconv.encode(html, encoding), "x-no-such-charset").html).toContain(text);
    });
  });

  it("the header wins over <meta> when both are plausible", () => {
    const text = SAMPLES[1].text; // Polish in ISO-8859-2
    const html = page(text, '<meta charset="windows-1252">');
    const r = decodeHtml(iconv.encode(html, "iso-8859-2"), "ISO-8859-2");
    expect(r).toEqual({ html, charset: "iso-8859-2" });
  });

  it("UTF-8 bytes behind a legacy header are read as UTF-8", () => {
    for (const { text } of SAMPLES) {
      const html = page(text, '<meta charset="iso-8859-1">');
      const r = decodeHtml(Buffer.from(html), "iso-8859-1");
      expect(r).toEqual({ html, charset: "utf-8" });
    }
  });

  it("windows-1252 bytes behind a UTF-8 header, no <meta>: windows-1252", () => {
    const text = SAMPLES[0].text;
    const r = decodeHtml(iconv.encode(page(text), "windows-1252"), "utf-8");
    expect(r).toEqual({ html: page(text), charset: "windows-1252" });
  });

  it("a UTF-8 page with one stray byte stays UTF-8", () => {
    const text = "日本語のテキストです。".repeat(20);
    const bytes = Buffer.concat([Buffer.from(page(text).slice(0, 60)), Buffer.from([0xff]), Buffer.from(page(text).slice(60))]);
    const r = decodeHtml(bytes, "utf-8");
    expect(r.charset).toBe("utf-8");
    expect(r.html).toContain(text);
  });

  it.each([
    ["utf-16le", [0xff, 0xfe]],
    ["utf-16be", [0xfe, 0xff]],
  ] as const)("%s with a BOM, whatever the labels say", (encoding, bom) => {
    const text = "Grüße, 日本語, Ελληνικά";
    const html = page(text, '<meta charset="windows-1252">');
    const bytes = Buffer.concat([Buffer.from(bom), iconv.encode(html, encoding)]);
    expect(decodeHtml(bytes, "iso-8859-1")).toEqual({ html, charset: encoding });
  });

  it("utf-16le without a BOM, by header", () => {
    const html = page("Grüße aus Köln");
    expect(decodeHtml(iconv.encode(html, "utf-16le"), "utf-16le")).toEqual({ html, charset: "utf-16le" });
  });

  describe("UTF-16 without a BOM, told by its NUL bytes: a real page in a WARC", () => {
    // An nginx documentation page (English, with Russian in it), as UTF-16 without a BOM.
    const original = zlib.gunzipSync(fs.readFileSync(fixture("../wcxb-sample/html/0684.html.gz"))).toString("utf8");
    const encodings = {
      "utf-16le": Buffer.from(original, "utf16le"),
      "utf-16be": Buffer.from(original, "utf16le").swap16(),
    };
    const labels = ["text/html", "text/html; charset=iso-8859-1", "text/html; charset=utf-8", "application/octet-stream"];

    it.each(Object.entries(encodings))("%s: read, and decoded to the page, whatever the labels say", async (encoding, bytes) => {
      expect(original).toContain("русский");
      const records = labels.map((type, i) =>
        warcRecord({ id: `<urn:u16:${i}>`, uri: `http://example.org/${i}`, block: httpResponse(bytes, { "Content-Type": type }) }),
      );
      const c = await collect(tempFile(`${encoding}.warc`, Buffer.concat(records)));
      expect(c.skips).toEqual([]);
      expect(c.records).toHaveLength(labels.length);
      for (const r of c.records) {
        const { pieces, charset } = decodeHtmlPieces(r.body, r.charset);
        expect(charset).toBe(encoding);
        expect(pieces.join("")).toBe(original);
      }
    });

    it("NULs at even and odd offsets alike (UTF-32) cannot be read as text: rejected as bad-encoding", async () => {
      const utf32 = Buffer.alloc(original.length * 4);
      for (let i = 0; i < original.length; i++) utf32.writeUInt32LE(original.charCodeAt(i), i * 4);
      const block = httpResponse(utf32, { "Content-Type": "text/html" });
      const c = await collect(tempFile("utf-32.warc", warcRecord({ id: "<urn:u32>", uri: "http://example.org/", block })));
      expect(c.records).toEqual([]);
      expect(c.skips).toEqual([
        expect.objectContaining({ recordId: "<urn:u32>", reason: "bad-encoding", detail: expect.stringContaining("NUL") }),
      ]);
    });

    it("8-bit pages with a few NULs are not taken for UTF-16", () => {
      const html = Buffer.from(page("a stray \u0000 NUL and \u0000 another"));
      expect(decodeHtml(html, "").charset).toBe("utf-8");
    });
  });

  it("a UTF-16 header on a single-byte page is ignored", () => {
    const html = page("plain ASCII text");
    expect(decodeHtml(Buffer.from(html), "utf-16")).toEqual({ html, charset: "utf-8" });
  });

  it("UTF-8 BOM is dropped and wins over a lying header", () => {
    const html = page("naïve café");
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(html)]);
    expect(decodeHtml(bytes, "windows-1252")).toEqual({ html, charset: "utf-8" });
  });

  it("with no label at all: UTF-8 if valid, else windows-1252", () => {
    const text = SAMPLES[0].text;
    expect(decodeHtml(Buffer.from(page(text)), "")).toEqual({ html: page(text), charset: "utf-8" });
    expect(decodeHtml(iconv.encode(page(text), "windows-1252"), "")).toEqual({ html: page(text), charset: "windows-1252" });
  });

  it("ASCII-only pages keep their declared (ASCII-compatible) charset", () => {
    const html = page("just ASCII", '<meta charset="shift_jis">');
    expect(decodeHtml(Buffer.from(html), "")).toEqual({ html, charset: "shift_jis" });
    expect(decodeHtml(Buffer.from(html), "latin1").charset).toBe("windows-1252");
  });

  it("ISO-2022-JP, a 7-bit encoding, is decoded when declared", () => {
    // "日本" in ISO-2022-JP: ESC $ B, JIS X 0208 pairs, ESC ( B
    const bytes = Buffer.concat([
      Buffer.from("<p>"),
      Buffer.from([0x1b, 0x24, 0x42, 0x46, 0x7c, 0x4b, 0x5c, 0x1b, 0x28, 0x42]),
      Buffer.from("</p>"),
    ]);
    expect(decodeHtml(bytes, "iso-2022-jp")).toEqual({ html: "<p>日本</p>", charset: "iso-2022-jp" });
  });

  it("never throws on junk, empty input, or odd labels", () => {
    const junk = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    for (const label of ["", "utf-8", "replacement", "x-user-defined", "utf-16be", "iso-2022-kr", "\u0000", "%%%"]) {
      expect(() => decodeHtml(junk, label)).not.toThrow();
      expect(decodeHtml(new Uint8Array(0), label).html).toBe("");
    }
  });

  it("accepts a plain Uint8Array view", () => {
    const buf = Buffer.from(`xx${page("héllo")}`);
    const view = new Uint8Array(buf.buffer, buf.byteOffset + 2, buf.length - 2);
    expect(decodeHtml(view, "utf-8").html).toBe(page("héllo"));
  });
});

describe("decodeHtmlPieces", () => {
  // A real-looking long page: multi-byte text in every paragraph, markup between.
  const paragraphs = Array.from({ length: 900 }, (_, i) => `<p class="c${i % 7}">Zażółć gęślą jaźń ${i} — 日本語 𝄞 “quoted”</p>\n`);
  const longPage = page(paragraphs.join(""));

  it("cuts a long UTF-8 page into pieces of at most PIECE_BYTES, each ending before a `<`", () => {
    const bytes = Buffer.from(longPage);
    const { pieces, charset } = decodeHtmlPieces(bytes, "");
    expect(charset).toBe("utf-8");
    expect(pieces.length).toBeGreaterThanOrEqual(Math.ceil(bytes.length / PIECE_BYTES));
    expect(pieces.join("")).toBe(longPage);
    for (const p of pieces) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(PIECE_BYTES);
    for (const p of pieces.slice(1)) expect(p[0]).toBe("<");
  });

  it("cuts between characters where no `<` is near, and never splits a surrogate pair", () => {
    const text = "ż𝄞日".repeat(30_000); // 2-, 4- and 3-byte characters, no markup at all
    const { pieces } = decodeHtmlPieces(Buffer.from(text), "utf-8");
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe(text);
    for (const p of pieces) {
      expect(p).not.toContain("\ufffd");
      expect(Buffer.byteLength(p)).toBeLessThanOrEqual(PIECE_BYTES);
    }
  });

  it("cuts ASCII pages too, and decodes other encodings in one piece", () => {
    const ascii = page("plain words ".repeat(10_000));
    const a = decodeHtmlPieces(Buffer.from(ascii), "");
    expect(a.pieces.length).toBeGreaterThan(1);
    expect(a.pieces.join("")).toBe(ascii);
    const cyrillic = page("Съешь же ещё этих мягких французских булок. ".repeat(2_000));
    const k = decodeHtmlPieces(iconv.encode(cyrillic, "koi8-r"), "koi8-r");
    expect(k).toEqual({ pieces: [cyrillic], charset: "koi8-r" });
  });

  it("decodes a long BOM page with broken UTF-8 whole, with WHATWG's replacement characters", () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("<p>"), Buffer.alloc(100_000, 0x80), Buffer.from("</p>")]);
    const { pieces, charset } = decodeHtmlPieces(body, "");
    expect(charset).toBe("utf-8");
    expect(pieces).toEqual([new TextDecoder().decode(body.subarray(3))]);
  });

  it("joins back to what TextDecoder reads, on any mix of markup and 1- to 4-byte characters", () => {
    const unit = fc.constantFrom("<", ">", "a", "é", "日", "𝄞", "&amp;", " ", "<p>", "</div>\n");
    const run = fc.tuple(unit, fc.integer({ min: 1, max: 3000 })).map(([u, n]) => u.repeat(n));
    fc.assert(
      fc.property(fc.array(run, { maxLength: 60 }), (runs) => {
        const bytes = Buffer.from(runs.join(""));
        const { pieces } = decodeHtmlPieces(bytes, "");
        expect(pieces.join("")).toBe(new TextDecoder().decode(bytes));
        for (const p of pieces) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(PIECE_BYTES);
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it("gives decodeHtml's text and charset for every sample encoding", () => {
    for (const { encoding, text } of SAMPLES) {
      const bytes = iconv.encode(page(text.repeat(800)), encoding);
      const { pieces, charset } = decodeHtmlPieces(bytes, encoding);
      expect({ html: pieces.join(""), charset }).toEqual(decodeHtml(bytes, encoding));
    }
  });
});

describe("labels", () => {
  it("normalizes labels to WHATWG names", () => {
    expect(normalizeCharset("UTF8")).toBe("utf-8");
    expect(normalizeCharset("latin1")).toBe("windows-1252");
    expect(normalizeCharset("x-sjis")).toBe("shift_jis");
    expect(normalizeCharset("gb2312")).toBe("gbk");
    expect(normalizeCharset(" ISO_8859-2 ")).toBe("iso-8859-2");
    expect(normalizeCharset("bogus")).toBeNull();
    expect(normalizeCharset("")).toBeNull();
  });

  it("prescans <meta> and XML declarations", () => {
    expect(prescanCharset(Buffer.from('<html><head><meta charset="euc-kr">'))).toBe("euc-kr");
    expect(prescanCharset(Buffer.from('<?xml version="1.0" encoding="Shift_JIS"?><html>'))).toBe("shift_jis");
    expect(prescanCharset(Buffer.from("<html><head><title>x</title>"))).toBeNull();
    // A <meta> after a long <head> prelude is still found.
    const late = `<html><head><script>${"x".repeat(2000)}</script><meta charset="koi8-r">`;
    expect(prescanCharset(Buffer.from(late))).toBe("koi8-r");
  });
});
