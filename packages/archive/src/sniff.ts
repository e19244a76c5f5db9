// Content sniffing: does a payload look like HTML (after the WHATWG MIME-sniffing patterns),
// and which media types count as HTML, as "unknown, look inside", or as something else.

/** Tags that open HTML documents (WHATWG MIME sniffing, "text/html" patterns, plus a few). */
const HTML_OPENERS = [
  "!doctype html",
  "html",
  "head",
  "body",
  "script",
  "iframe",
  "h1",
  "div",
  "font",
  "table",
  "a",
  "style",
  "title",
  "b",
  "br",
  "p",
  "meta",
  "link",
  "!--",
];

const SNIFF_BYTES = 1024;
/** How many first bytes the NUL pattern of UTF-16 without a BOM is looked for in. */
const UTF16_PROBE = 512;

/**
 * The UTF-16 of a payload without a BOM, told by its NUL bytes: markup is ASCII, and an ASCII
 * character in UTF-16 is a NUL and the byte, NUL second in little-endian, first in big-endian.
 * "mixed" when NULs are common at even and odd offsets alike (UTF-32, or binary): no text
 * encoding that HTML is written in reads those. null when NULs are rare: 8-bit text.
 */
export function sniffUtf16(bytes: Uint8Array): "utf-16le" | "utf-16be" | "mixed" | null {
  const n = Math.min(bytes.length, UTF16_PROBE) & ~1;
  const probe = Buffer.from(bytes.buffer, bytes.byteOffset, n);
  // Pages without a NUL (nearly all) are told apart natively, without a loop.
  if (probe.indexOf(0) < 0) return null;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (probe[i] === 0) even++;
    if (probe[i + 1] === 0) odd++;
  }
  const pairs = n / 2;
  if ((even + odd) * 8 < pairs) return null;
  // Characters U+xx00 put a few NULs on the other side (CJK "一" is U+4E00).
  if (odd * 4 >= pairs && even * 16 <= odd) return "utf-16le";
  if (even * 4 >= pairs && odd * 16 <= even) return "utf-16be";
  return "mixed";
}

/**
 * True if the bytes look like the start of an HTML document: after an optional BOM and
 * whitespace, a tag such as <!doctype html>, <html>, <head>, <body>, <p> or a comment; or an
 * XML prolog followed by an <html> element (XHTML). UTF-16 with or without a BOM is understood too.
 */
export function sniffIsHtml(bytes: Uint8Array): boolean {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let text: string;
  const utf16 = sniffUtf16(buf);
  if (buf[0] === 0xff && buf[1] === 0xfe) text = buf.subarray(2, 2 + SNIFF_BYTES * 2).toString("utf16le");
  else if (buf[0] === 0xfe && buf[1] === 0xff) text = swap16(buf.subarray(2, 2 + SNIFF_BYTES * 2)).toString("utf16le");
  else if (utf16 === "utf-16le") text = buf.subarray(0, SNIFF_BYTES * 2).toString("utf16le");
  else if (utf16 === "utf-16be") text = swap16(buf.subarray(0, SNIFF_BYTES * 2)).toString("utf16le");
  else text = buf.subarray(buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0, SNIFF_BYTES).toString("latin1");
  const s = text.trimStart().toLowerCase();
  if (s.startsWith("<?xml")) return /<(?:!doctype\s+html|html)[\s>]/.test(s);
  if (s[0] !== "<") return false;
  for (const tag of HTML_OPENERS) {
    if (s.startsWith(tag, 1)) {
      if (tag === "!--") return true;
      const after = s.charCodeAt(1 + tag.length);
      // The tag name must end there: "<a>" and "<a href" yes, "<abbr" and "<applet" no.
      if (after === 0x20 || after === 0x3e || after === 0x09 || after === 0x0a || after === 0x0d || after === 0x2f) return true;
    }
  }
  return false;
}

function swap16(b: Buffer): Buffer {
  const c = Buffer.from(b.subarray(0, b.length & ~1));
  return c.swap16();
}

export type MimeClass = "html" | "unknown" | "other";

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml", "application/vnd.wap.xhtml+xml"]);
const UNKNOWN_TYPES = new Set([
  "",
  "application/octet-stream",
  "binary/octet-stream",
  "application/unknown",
  "application/x-unknown",
  "unknown/unknown",
  "application/binary",
  "*/*",
  "no-type", // what ARC writers put when there was none
]);

/** HTML, nothing useful said (sniff the body), or a type that is not HTML. */
export function classifyMime(mime: string): MimeClass {
  if (HTML_TYPES.has(mime)) return "html";
  if (UNKNOWN_TYPES.has(mime) || !mime.includes("/")) return "unknown";
  return "other";
}
