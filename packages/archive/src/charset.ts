// Payload bytes to text. Which encoding: a BOM, then UTF-16 told by its NUL bytes, then the
// HTTP charset, then <meta> (the WHATWG prescan, from encoding-sniffer), then the WHATWG
// default, with the bytes as a check on labels:
// a body that is valid UTF-8 with non-ASCII in it is UTF-8 whatever a legacy label says (legacy
// text is practically never valid UTF-8), and a body labelled UTF-8 that is not is decoded with
// the other label or windows-1252, unless nearly all of it is UTF-8.
// Decoding: TextDecoder for UTF-8, iconv-lite for the rest, TextDecoder (ICU) for the few
// encodings iconv-lite lacks. Never throws, but for a page past the decoder's limit (which the
// reader never yields: it reports such a page as too-large).

import { constants, isAscii, isUtf8 } from "node:buffer";
import { ResultType, Sniffer } from "encoding-sniffer/sniffer";
import iconv from "iconv-lite";
import { sniffUtf16 } from "./sniff.js";
import type { DecodedHtml, DecodedHtmlPieces } from "./types.js";

/**
 * The decoder's limit: the most UTF-16 code units a page's text may have, V8's longest string
 * (2^29 - 24 on 64-bit). A page over it cannot be one string: joining its pieces, decoding it
 * whole in an encoding other than UTF-8, or writing its text out in one line all fail with
 * "Invalid string length". An object, so that tests can lower it.
 */
export const DECODER_LIMIT = { chars: constants.MAX_STRING_LENGTH };

/** Thrown by decodeHtmlPieces for a page past DECODER_LIMIT. */
export class DecoderLimitError extends RangeError {
  override readonly name = "DecoderLimitError";
}

/**
 * Most UTF-16 code units a payload can decode to: no encoding makes more than one per byte, and
 * UTF-16 makes one per two.
 */
export function decodedLengthBound(body: Uint8Array): number {
  const utf16 = (body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff) || sniffUtf16(body)?.startsWith("utf-16");
  return utf16 ? Math.ceil(body.length / 2) : body.length;
}

/** Why a page past DECODER_LIMIT is not decoded, for people. */
export function decoderLimitDetail(bytes: number): string {
  return `page of ${bytes} bytes exceeds the decoder limit: its text would not fit in one string (at most ${DECODER_LIMIT.chars} characters)`;
}

/** How far to look for <meta charset>. WHATWG says 1024; real pages put it later often enough. */
const PRESCAN_BYTES = 4096;

const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** WHATWG name (lowercased) for a label, or null if the label is unknown. Cached: labels repeat. */
const labelCache = new Map<string, string | null>();
export function normalizeCharset(label: string): string | null {
  const key = label.trim().toLowerCase();
  if (!key) return null;
  let name = labelCache.get(key);
  if (name === undefined) {
    const s = new Sniffer({ transportLayerEncodingLabel: key });
    name = s.resultType === ResultType.PASSED ? s.encoding.toLowerCase() : null;
    if (labelCache.size < 1000) labelCache.set(key, name);
  }
  return name;
}

/** The encoding named by <meta> or an XML declaration in the first bytes, or null. */
export function prescanCharset(bytes: Uint8Array): string | null {
  const s = new Sniffer({ maxBytes: PRESCAN_BYTES });
  s.write(bytes.subarray(0, PRESCAN_BYTES));
  const t = s.resultType;
  return t === ResultType.META_TAG || t === ResultType.XML_ENCODING || t === ResultType.XML_PREFIX ? s.encoding.toLowerCase() : null;
}

/**
 * Longest piece, in bytes, that a UTF-8 or ASCII body is decoded into. V8 puts a string over
 * 128 KB (64K UTF-16 units) in its large-object space, and making one costs several times the
 * decoding itself: 300 dev pages (250 KB on average) decode at 107 MB/s whole and 1,500 MB/s
 * in 32 KB pieces (benchmarks/micro.js, "decode" rows). 32 KB of UTF-8 is at most 32K units.
 */
export const PIECE_BYTES = 32 * 1024;
const LT = 0x3c; // <

/**
 * Decodes an HTML payload into pieces that, joined, are the page's text: for UTF-8 and ASCII
 * bodies pieces of at most PIECE_BYTES, cut just before a `<` where one is in the second half
 * of the piece (so text runs and tags are rarely split), else at a character boundary; for other
 * encodings one piece. `headerCharset` is the HTTP charset parameter ("" if none); the result
 * names the encoding used as a lowercased WHATWG label. Throws DecoderLimitError for a page
 * whose text could exceed DECODER_LIMIT, and nothing else.
 */
export function decodeHtmlPieces(body: Uint8Array, headerCharset = ""): DecodedHtmlPieces {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // Checked before any string is made: past the limit, decoding fails (or its result does) only
  // after reading the whole page.
  if (decodedLengthBound(bytes) > DECODER_LIMIT.chars) throw new DecoderLimitError(decoderLimitDetail(bytes.length));
  const bom = bomOf(bytes);
  if (bom) return decodeAs(bytes.subarray(bom.length), bom.charset);
  // No 8-bit encoding puts NULs in text: this pattern is UTF-16 whatever the labels say.
  const utf16 = sniffUtf16(bytes);
  if (utf16 === "utf-16le" || utf16 === "utf-16be") return decodeAs(bytes, utf16);

  const header = usable(normalizeCharset(headerCharset), bytes);
  // <meta> is only looked for when the header leaves the question open.
  let found: string | null | undefined;
  const meta = () => (found === undefined ? (found = usable(prescanCharset(bytes), bytes)) : found);
  const declared = header ?? meta();

  if (isAscii(bytes)) {
    // Every ASCII-compatible encoding reads these bytes the same; only 7-bit ones differ.
    if (declared === "iso-2022-jp" || declared === "utf-16le" || declared === "utf-16be") return decodeAs(bytes, declared);
    return { pieces: cutIntoPieces(bytes, "latin1"), charset: declared && isAsciiCompatible(declared) ? declared : "utf-8" };
  }
  if (declared === "utf-16le" || declared === "utf-16be") return decodeAs(bytes, declared);
  if (isUtf8(bytes)) return { pieces: cutIntoPieces(bytes, "utf8"), charset: "utf-8" };

  // Not UTF-8. Take the first legacy label; a UTF-8 label is a lie unless it is almost true.
  const legacy = header && header !== "utf-8" ? header : meta() !== "utf-8" ? meta() : null;
  if (legacy) return decodeAs(bytes, legacy);
  if (declared === "utf-8") {
    const text = utf8Decoder.decode(bytes);
    if (mostlyUtf8(bytes, text)) return { pieces: [text], charset: "utf-8" };
  }
  return decodeAs(bytes, "windows-1252");
}

/** Decodes an HTML payload into one string; decodeHtmlPieces says how the encoding is chosen. */
export function decodeHtml(body: Uint8Array, headerCharset = ""): DecodedHtml {
  const { pieces, charset } = decodeHtmlPieces(body, headerCharset);
  return { html: pieces.length === 1 ? pieces[0] : pieces.join(""), charset };
}

/** Pieces when the bytes are valid UTF-8; otherwise one piece, decoded with WHATWG's replacements. */
function decodeAs(bytes: Buffer, charset: string): DecodedHtmlPieces {
  return { pieces: charset === "utf-8" && isUtf8(bytes) ? cutIntoPieces(bytes, "utf8") : [decode(bytes, charset)], charset };
}

/**
 * `bytes` (valid UTF-8, or ASCII read as latin1: nothing else) as strings of at most PIECE_BYTES bytes each.
 * A `<` byte never sits inside a multi-byte UTF-8 sequence, so a cut before one is always clean.
 */
function cutIntoPieces(bytes: Buffer, encoding: "utf8" | "latin1"): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (bytes.length - start > PIECE_BYTES) {
    let end = bytes.lastIndexOf(LT, start + PIECE_BYTES);
    if (end <= start + PIECE_BYTES / 2) {
      end = start + PIECE_BYTES;
      // Not inside a character: valid UTF-8 has at most 3 continuation bytes after a lead byte.
      if (encoding === "utf8") for (let k = 0; k < 3 && (bytes[end] & 0xc0) === 0x80; k++) end--;
    }
    pieces.push(bytes.toString(encoding, start, end));
    start = end;
  }
  pieces.push(bytes.toString(encoding, start, bytes.length));
  return pieces;
}

/**
 * A label we can act on: known, not the "replacement" or x-user-defined pseudo-encodings, and
 * for UTF-16 without a BOM only if the bytes have the zero bytes UTF-16 markup is full of.
 */
function usable(name: string | null, bytes: Buffer): string | null {
  if (!name || name === "replacement" || name === "x-user-defined") return null;
  if (name === "utf-16le" || name === "utf-16be") {
    const probe = bytes.subarray(0, 512);
    const zero = probe.indexOf(0);
    if (zero < 0 || (zero % 2 === 1) !== (name === "utf-16le")) return null;
  }
  return name;
}

function isAsciiCompatible(name: string): boolean {
  return name !== "utf-16le" && name !== "utf-16be" && name !== "iso-2022-jp";
}

function bomOf(b: Buffer): { charset: string; length: number } | null {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { charset: "utf-8", length: 3 };
  if (b[0] === 0xff && b[1] === 0xfe) return { charset: "utf-16le", length: 2 };
  if (b[0] === 0xfe && b[1] === 0xff) return { charset: "utf-16be", length: 2 };
  return null;
}

/**
 * True when the invalid sequences are rare next to the valid multi-byte ones: a UTF-8 page with
 * a few stray bytes, not a legacy page wrongly labelled. Each valid multi-byte sequence makes
 * the text shorter than the bytes; each invalid byte becomes one U+FFFD.
 */
function mostlyUtf8(bytes: Buffer, text: string): boolean {
  const multibyte = bytes.length - text.length;
  let bad = 0;
  for (let i = text.indexOf("\ufffd"); i >= 0; i = text.indexOf("\ufffd", i + 1)) {
    if (++bad * 8 > multibyte) return false;
  }
  return true;
}

/** WHATWG names whose iconv-lite codec has another name (or is a superset, as WHATWG decodes). */
const ICONV_NAMES: Record<string, string> = {
  gbk: "gb18030",
  big5: "big5hkscs",
  "euc-kr": "cp949",
  "iso-8859-8-i": "iso-8859-8",
  "x-mac-cyrillic": "maccyrillic",
};

function decode(bytes: Buffer, charset: string): string {
  if (charset === "utf-8") return utf8Decoder.decode(bytes);
  const name = ICONV_NAMES[charset] ?? charset;
  if (iconv.encodingExists(name)) return iconv.decode(bytes, name, { stripBOM: false });
  try {
    return new TextDecoder(charset).decode(bytes); // ICU has a few iconv-lite lacks (iso-2022-jp)
  } catch {
    return iconv.decode(bytes, "windows-1252");
  }
}
