// Turning an HTTP response block (from a WARC response or an ARC record) into an
// ArchiveRecord, or into a SkipEvent saying why not. Shared by the WARC and ARC readers.

import { DECODER_LIMIT, decodedLengthBound, decoderLimitDetail } from "./charset.js";
import { CHECK_AHEAD, type Guard, skipGuarded } from "./framing.js";
import { DecodeError, decodeContent, dechunk, parseContentType, parseResponseHead } from "./http.js";
import { type ByteReader, GapError } from "./reader.js";
import { classifyMime, sniffIsHtml, sniffUtf16 } from "./sniff.js";
import type { Gap } from "./source.js";
import type { ArchiveRecord, SkipReason } from "./types.js";

/** Why a payload with NULs all over is not decoded (see sniffUtf16). */
export const UNDECIDABLE_TEXT = "NUL bytes at even and odd offsets alike: neither UTF-16 nor 8-bit text (UTF-32, or binary)";

/** HTTP heads longer than this are taken as damage. */
export const MAX_HTTP_HEAD = 64 << 10;

export interface ReadContext {
  source: string;
  reader: ByteReader;
  /** Stored offset for a stream position (see PieceSource.offsetAt). */
  offsetAt(pos: number): number;
  /** Start of the first gzip member known to start after a stream position (see PieceSource.memberAfter). */
  memberAfter(pos: number): number;
  maxPageBytes: number;
  skip(meta: RecordMeta, reason: SkipReason, detail: string): void;
  /** Set for the record in hand when its length could not be checked ahead: skipRest scans its block. */
  guard: Guard | null;
}

/**
 * Whether a block of this stated length is checked by looking past it (checkLength) rather than
 * guarded: any block up to CHECK_AHEAD, and one whose payload will be kept whole anyway.
 */
export function checkable(ctx: ReadContext, length: number, kept: boolean): boolean {
  return length <= CHECK_AHEAD || (kept && length <= ctx.maxPageBytes + MAX_HTTP_HEAD);
}

/** What the archive says about a record before its payload is read. */
export interface RecordMeta {
  offset: number;
  recordId: string;
  url: string;
  date: string;
}

/**
 * Reads a block of `length` bytes holding an HTTP response and returns the record, or null
 * after reporting why it was skipped. Consumes exactly the block (less only at end of input).
 */
export async function readHttpBlock(ctx: ReadContext, length: number, meta: RecordMeta): Promise<ArchiveRecord | null> {
  const r = ctx.reader;
  const head = await r.readHead(Math.min(length, MAX_HTTP_HEAD));
  if (head === "eof") {
    await r.skip(length);
    ctx.skip(meta, "truncated", "input ends inside the HTTP head");
    return null;
  }
  if (head === "limit") {
    return skipRest(ctx, meta, length, "bad-http", length > MAX_HTTP_HEAD ? "HTTP head too long" : "no HTTP head");
  }
  const rest = length - head.length;
  const http = parseResponseHead(head);
  if (!http) {
    return skipRest(ctx, meta, rest, "bad-http", `not an HTTP response: ${JSON.stringify(head.toString("latin1", 0, 40))}`);
  }
  if (http.status < 200 || http.status > 299) {
    return skipRest(ctx, meta, rest, "http-status", `HTTP status ${http.status}`);
  }
  const type = parseContentType(http.headers.get("content-type"));
  const kind = classifyMime(type.mime);
  if (kind === "other") return skipRest(ctx, meta, rest, "not-html", `content type ${type.mime}`);
  if (rest === 0) return skipRest(ctx, meta, 0, "empty", "no payload");
  if (rest > ctx.maxPageBytes) {
    return skipRest(ctx, meta, rest, "too-large", `payload of ${rest} bytes exceeds ${ctx.maxPageBytes}`);
  }
  let raw = await r.take(rest);
  const te = http.headers.get("transfer-encoding");
  const chunked = te !== undefined && /chunked/i.test(te);
  if (raw.length < rest) {
    // Cut short by the archive, but whole by HTTP's count (e.g. an ARC whose length counted
    // line ends that were later rewritten): the page is all there.
    const declared = Number(http.headers.get("content-length") ?? NaN);
    if (chunked || !(raw.length >= declared)) {
      ctx.skip(meta, "truncated", `input ends ${rest - raw.length} bytes short of the payload`);
      return null;
    }
    raw = raw.subarray(0, declared);
  }
  let body: Buffer;
  try {
    body = chunked ? dechunk(raw) : raw;
    const ce = http.headers.get("content-encoding");
    if (ce) body = decodeContent(body, ce, ctx.maxPageBytes);
  } catch (err) {
    if (!(err instanceof DecodeError)) throw err;
    ctx.skip(meta, err.reason, err.message);
    return null;
  }
  if (body.length === 0) return skipRest(ctx, meta, 0, "empty", "payload decodes to nothing");
  if (kind === "unknown" && !sniffIsHtml(body)) {
    return skipRest(ctx, meta, 0, "not-html", `content type ${type.mime || "missing"} and the payload does not look like HTML`);
  }
  if (sniffUtf16(body) === "mixed") return skipRest(ctx, meta, 0, "bad-encoding", UNDECIDABLE_TEXT);
  // A --max-page-bytes raised past the decoder's limit lets through pages it cannot decode.
  if (decodedLengthBound(body) > DECODER_LIMIT.chars) return skipRest(ctx, meta, 0, "too-large", decoderLimitDetail(body.length));
  return {
    source: ctx.source,
    offset: meta.offset,
    recordId: meta.recordId,
    url: meta.url,
    date: meta.date,
    contentType: type.mime,
    charset: type.charset,
    httpStatus: http.status,
    body,
  };
}

/**
 * Skips the rest of a record and reports it; a record the input cuts short is "truncated". A
 * guarded block is scanned as it is skipped, and a record found inside it ends it.
 */
export async function skipRest(ctx: ReadContext, meta: RecordMeta, n: number, reason: SkipReason, detail: string): Promise<null> {
  const guard = ctx.guard;
  ctx.guard = null;
  const got = n <= 0 ? 0 : guard ? await skipGuarded(ctx, guard, n) : await ctx.reader.skip(n);
  if (typeof got !== "number") ctx.skip(meta, got.reason, got.detail);
  else if (got < n) ctx.skip(meta, "truncated", `input ends ${n - got} bytes short of the record (${detail})`);
  else ctx.skip(meta, reason, detail);
  return null;
}

/**
 * Hands out a record read whole, unless lost bytes follow it at once and taint it (its gzip
 * member failed its check or lost its end: the record cannot be trusted). A gap met there is
 * reported, named by `name` if it can; returns whether one was.
 */
export async function* settle(
  ctx: ReadContext,
  rec: ArchiveRecord,
  meta: RecordMeta,
  name: (gap: Gap) => RecordMeta | null,
): AsyncGenerator<ArchiveRecord, boolean> {
  let after: Gap | null = null;
  try {
    await ctx.reader.skipBlank();
  } catch (err) {
    if (!(err instanceof GapError)) throw err;
    after = err.gap;
  }
  if (after?.taints) {
    ctx.skip(meta, after.reason, after.detail);
    return true;
  }
  yield rec;
  if (!after) return false;
  ctx.skip(name(after) ?? blankMeta(after.offset), after.reason, after.detail);
  return true;
}

export function blankMeta(offset: number): RecordMeta {
  return { offset, recordId: "", url: "", date: "" };
}
