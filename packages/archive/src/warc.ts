// WARC 1.0/1.1 record reader over the byte stream: parses each record head, checks its
// Content-Length against what follows the block (framing.ts), passes response records on to
// the HTTP payload step, skips the rest by Content-Length, and resynchronises at the next WARC
// version line ("WARC/1.0" and a line end), found at any byte offset, after damage.
//
// warcio's WARCParser is not used here: it cannot resynchronise after a bad record, inflates
// with pako (under a third of zlib's speed, see gunzip.ts) and logs to the console on damage.

import { checkLength, type Framing } from "./framing.js";
import { blankMeta, checkable, type ReadContext, type RecordMeta, readHttpBlock, settle, skipRest } from "./payload.js";
import { type ByteReader, GapError } from "./reader.js";
import type { Gap } from "./source.js";
import type { ArchiveRecord } from "./types.js";

const WARC_MAGIC = Buffer.from("WARC/");
/** WARC heads longer than this are taken as damage. */
const MAX_WARC_HEAD = 256 << 10;
/** Longest version line looked for: "WARC/" digits "." digits, blanks, a line end. */
const VERSION_LINE = 20;

/**
 * Whether bytes[at...] hold a WARC version line ("WARC/1.0" or "WARC/1.1", or an older
 * "WARC/0.18", then a line end); null when the bytes stop before that can be told. Text that
 * merely mentions "WARC/" does not start a record.
 */
export function versionLineAt(b: Buffer, at: number): boolean | null {
  if (b.length - at < WARC_MAGIC.length) return b.compare(WARC_MAGIC, 0, b.length - at, at) === 0 ? null : false;
  if (b.compare(WARC_MAGIC, 0, WARC_MAGIC.length, at, at + WARC_MAGIC.length) !== 0) return false;
  let p = at + WARC_MAGIC.length;
  for (let part = 0; part < 2; part++) {
    const from = p;
    while (p < b.length && p - from < 4 && b[p] >= 0x30 && b[p] <= 0x39) p++;
    if (p === b.length) return null;
    if (p === from || (part === 0 ? b[p] !== 0x2e : b[p] >= 0x30 && b[p] <= 0x39)) return false;
    if (part === 0) p++;
  }
  while (p < b.length && (b[p] === 0x20 || b[p] === 0x09 || b[p] === 0x0d)) p++;
  return p === b.length ? null : b[p] === 0x0a;
}

export const WARC_FRAMING: Framing = {
  lengthName: "Content-Length",
  terminators: [Buffer.from("\r\n\r\n"), Buffer.from("\n\n")],
  tail: 32,
  startsAt: (bytes, at, ended) => versionLineAt(bytes, at) ?? (ended || null),
  find(bytes, end) {
    for (let i = bytes.indexOf(WARC_MAGIC); i >= 0 && i < end; i = bytes.indexOf(WARC_MAGIC, i + 1)) {
      if (versionLineAt(bytes, i) === true) return i;
    }
    return -1;
  },
  seek: (r: ByteReader, limit: number) => r.seekMagic(WARC_MAGIC, VERSION_LINE, startsRecord, limit),
};

/** For a resync: a version line, or what the end of input leaves of one. */
function startsRecord(bytes: Buffer): boolean {
  const v = versionLineAt(bytes, 0);
  return v === true || (v === null && bytes.length < VERSION_LINE);
}

interface WarcHead {
  type: string;
  recordId: string;
  url: string;
  date: string;
  contentType: string;
  /** -1 when missing or not a number. */
  length: number;
}

/** Parses the named fields out of a WARC head (version line included). */
export function parseWarcHead(head: Buffer): WarcHead {
  // Field values may be UTF-8 (WARC 1.1 allows IRIs).
  const lines = head.toString("utf8").split("\n");
  const out: WarcHead = { type: "", recordId: "", url: "", date: "", contentType: "", length: -1 };
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line === "\r" || line === "") break; // end of the head
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const value = line.slice(colon + 1).trim();
    switch (line.slice(0, colon).trim().toLowerCase()) {
      case "warc-type":
        out.type = value.toLowerCase();
        break;
      case "warc-record-id":
        out.recordId = value;
        break;
      case "warc-target-uri":
        // Some writers (old wget) wrap the URI in angle brackets.
        out.url = value.startsWith("<") && value.endsWith(">") ? value.slice(1, -1) : value;
        break;
      case "warc-date":
        out.date = value;
        break;
      case "content-type":
        out.contentType = value.toLowerCase();
        break;
      case "content-length":
        out.length = /^\d+$/.test(value) ? Number(value) : -1;
        break;
    }
  }
  return out;
}

export async function* readWarc(ctx: ReadContext): AsyncGenerator<ArchiveRecord> {
  const r = ctx.reader;
  /** Set after a reported failure: the bytes up to the next record are already accounted for. */
  let quiet = false;
  for (;;) {
    let meta: RecordMeta | null = null;
    ctx.guard = null;
    try {
      if (!(await r.skipBlank())) return;
      const start = r.position;
      const offset = ctx.offsetAt(start);
      if (!startsRecord(await r.peek(VERSION_LINE))) {
        const found = (await WARC_FRAMING.seek(r, Number.POSITIVE_INFINITY)) === "found";
        if (!quiet) {
          const what = found ? `${r.position - start} bytes that are not a WARC record` : "data that is not a WARC record up to the end";
          ctx.skip(blankMeta(offset), "corrupt", `skipped ${what}`);
        }
        quiet = false;
        continue;
      }
      quiet = false;
      const headBytes = await r.readHead(MAX_WARC_HEAD);
      if (headBytes === "eof") {
        // Name the record if enough of its head is there.
        const partial = parseWarcHead(await r.peek(r.buffered));
        await r.skip(r.buffered);
        ctx.skip(headMeta(partial, offset), "truncated", "input ends inside the WARC head");
        return;
      }
      if (headBytes === "limit") {
        await r.skip(WARC_MAGIC.length);
        ctx.skip(blankMeta(offset), "corrupt", `WARC head longer than ${MAX_WARC_HEAD} bytes`);
        quiet = true;
        continue;
      }
      const head = parseWarcHead(headBytes);
      meta = headMeta(head, offset);
      if (head.length < 0) {
        ctx.skip(meta, "corrupt", "WARC head without a valid Content-Length");
        quiet = true;
        continue;
      }
      const kept = head.type === "response" && (!head.contentType || head.contentType.startsWith("application/http"));
      if (checkable(ctx, head.length, kept)) {
        const damage = await checkLength(ctx, WARC_FRAMING, head.length, start, offset);
        if (damage) {
          // Resume just after the head: the records the wrong length covers are found from there.
          ctx.skip(meta, damage.reason, damage.detail);
          quiet = true;
          continue;
        }
      } else {
        ctx.guard = { framing: WARC_FRAMING, length: head.length, recordStart: start, blockStart: r.position, offset };
      }
      if (head.type !== "response") {
        await skipRest(ctx, meta, head.length, "not-response", `WARC-Type ${head.type || "missing"}`);
        continue;
      }
      if (head.contentType && !head.contentType.startsWith("application/http")) {
        await skipRest(ctx, meta, head.length, "not-html", `response record of type ${head.contentType}`);
        continue;
      }
      const rec = await readHttpBlock(ctx, head.length, meta);
      if (rec) quiet = yield* settle(ctx, rec, meta, nameFromPartial);
    } catch (err) {
      if (!(err instanceof GapError)) throw err;
      // Bytes were lost: the record in hand (if any) is damaged; go on after the gap.
      const g = err.gap;
      const named = meta ?? nameFromPartial(g);
      if (named) ctx.skip(named, g.reason, g.detail);
      else if (!quiet) ctx.skip(blankMeta(g.offset), g.reason, g.detail);
      quiet = true;
    }
  }
}

/** The record a damaged gzip member held, named from what could be inflated of it. */
function nameFromPartial(g: Gap): RecordMeta | null {
  if (!g.partial?.subarray(0, WARC_MAGIC.length).equals(WARC_MAGIC)) return null;
  return headMeta(parseWarcHead(g.partial), g.offset);
}

function headMeta(head: WarcHead, offset: number): RecordMeta {
  return { offset, recordId: head.recordId, url: head.url, date: head.date };
}
