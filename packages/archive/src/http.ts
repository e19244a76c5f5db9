// A small HTTP/1.x response-head parser and the undoing of transfer and content encodings
// (chunked; gzip, deflate, br via Node's zlib), with output bounded by a size limit.

import zlib from "node:zlib";

export interface HttpHead {
  status: number;
  /** Header fields by lowercased name; repeated fields are joined with ", ". */
  headers: Map<string, string>;
}

/** Parses a response head (status line and fields, up to the blank line); null if it is not one. */
export function parseResponseHead(head: Buffer): HttpHead | null {
  // Field values are bytes; latin1 keeps each one a char, and decoding is a single fast call.
  const text = head.toString("latin1");
  const lines = text.split("\n");
  const m = /^HTTP\/\d(?:\.\d)?\s+(\d{3})(?:\s|$)/.exec(lines[0]);
  if (!m) return null;
  const headers = new Map<string, string>();
  let last = "";
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i];
    if (line === "") break;
    if ((line[0] === " " || line[0] === "\t") && last) {
      headers.set(last, `${headers.get(last)} ${line.trim()}`); // obsolete line folding
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) continue; // not a field; browsers pass over these too
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const prev = headers.get(name);
    headers.set(name, prev === undefined ? value : `${prev}, ${value}`);
    last = name;
  }
  return { status: Number(m[1]), headers };
}

export interface ContentType {
  /** Lowercased media type without parameters; "" when absent. */
  mime: string;
  /** Lowercased charset parameter; "" when absent. */
  charset: string;
}

export function parseContentType(value: string | undefined): ContentType {
  if (!value) return { mime: "", charset: "" };
  // Repeated headers were joined with ", "; the last one wins, as in browsers.
  const last = value.includes(",") ? lastMediaType(value) : value;
  const semi = last.indexOf(";");
  const mime = (semi < 0 ? last : last.slice(0, semi)).trim().toLowerCase();
  const cs = /;\s*charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;,]+))/i.exec(last);
  const charset = cs ? (cs[1] ?? cs[2] ?? cs[3]).trim().toLowerCase() : "";
  return { mime, charset };
}

function lastMediaType(value: string): string {
  const parts = value.split(",");
  for (let i = parts.length - 1; i >= 0; i--) if (parts[i].includes("/")) return parts.slice(i).join(",");
  return value;
}

export class DecodeError extends Error {
  constructor(
    readonly reason: "bad-encoding" | "too-large",
    message: string,
  ) {
    super(message);
  }
}

const HEX_LINE = /^[0-9a-fA-F]+[ \t]*(?:;.*)?\r?$/;

/**
 * Undoes chunked transfer coding. A body that does not start with a chunk-size line is taken
 * as already de-chunked (many archivers store it so); a chunk stream that breaks off or ends
 * without its last chunk keeps what was decoded.
 */
export function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let total = 0;
  let pos = 0;
  while (pos < body.length) {
    const nl = body.indexOf(0x0a, pos);
    if (nl < 0 || nl - pos > 1024) break;
    const line = body.toString("latin1", pos, nl);
    if (!HEX_LINE.test(line)) break;
    const size = parseInt(line, 16);
    if (size === 0) return Buffer.concat(parts, total);
    const start = nl + 1;
    const end = Math.min(start + size, body.length);
    parts.push(body.subarray(start, end));
    total += end - start;
    pos = end;
    if (body[pos] === 0x0d) pos++;
    if (body[pos] === 0x0a) pos++;
  }
  return parts.length === 0 ? body : Buffer.concat(parts, total);
}

/** Undoes Content-Encoding (possibly several, applied in order), bounded by maxBytes of output. */
export function decodeContent(body: Buffer, encoding: string, maxBytes: number): Buffer {
  const codings = encoding
    .toLowerCase()
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s && s !== "identity" && s !== "none");
  let out = body;
  for (let i = codings.length - 1; i >= 0; i--) out = decodeOne(out, codings[i], maxBytes);
  return out;
}

function decodeOne(body: Buffer, coding: string, maxBytes: number): Buffer {
  if (body.length === 0) return body;
  const out = decodeStep(body, coding, maxBytes);
  // Lenient flushing turns some junk into nothing rather than an error; nothing is a failure.
  return out.length === 0 ? alreadyDecoded(body, coding) : out;
}

function decodeStep(body: Buffer, coding: string, maxBytes: number): Buffer {
  // Lenient flushing keeps what a truncated stream held instead of failing it.
  const opts = { maxOutputLength: maxBytes, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  try {
    switch (coding) {
      case "gzip":
      case "x-gzip":
        // Archivers often store the decoded body but keep the header.
        if (body[0] !== 0x1f || body[1] !== 0x8b) return alreadyDecoded(body, coding);
        return zlib.gunzipSync(body, opts);
      case "deflate":
      case "x-deflate":
        // "deflate" is meant to be zlib-wrapped, but servers send raw deflate too.
        if ((body[0] & 0x0f) === 8 && ((body[0] << 8) | body[1]) % 31 === 0) return zlib.inflateSync(body, opts);
        try {
          return zlib.inflateRawSync(body, opts);
        } catch (err) {
          if (isTooLarge(err)) throw err;
          return alreadyDecoded(body, coding);
        }
      case "br":
        try {
          return zlib.brotliDecompressSync(body, {
            maxOutputLength: maxBytes,
            finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
          });
        } catch (err) {
          if (isTooLarge(err)) throw err;
          return alreadyDecoded(body, coding);
        }
      default:
        throw new DecodeError("bad-encoding", `unsupported content-encoding "${coding}"`);
    }
  } catch (err) {
    if (err instanceof DecodeError) throw err;
    if (isTooLarge(err)) throw new DecodeError("too-large", `decoded payload exceeds ${maxBytes} bytes`);
    throw new DecodeError("bad-encoding", `cannot undo content-encoding ${coding}: ${(err as Error).message}`);
  }
}

/** A body that looks like markup was stored decoded; anything else is an encoding we cannot undo. */
function alreadyDecoded(body: Buffer, coding: string): Buffer {
  const head = body.subarray(0, 512).toString("latin1").trimStart();
  if (head.startsWith("<")) return body;
  throw new DecodeError("bad-encoding", `payload is not valid ${coding} data`);
}

function isTooLarge(err: unknown): boolean {
  return (err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE";
}
