// ARC (v1, and v2 header lines) record reader. Hand-written: warcio for JavaScript has no ARC
// reader (only the Python warcio does).
//
// An ARC file is a "filedesc://" version block followed by records, each one header line
//   URL IP-address archive-date content-type length          (v1)
//   URL IP-address archive-date content-type result-code checksum location offset filename length   (v2)
// then `length` bytes (for http(s) URLs, the HTTP response) and a newline. URLs may contain
// spaces, so lines are parsed from the right. Each record's length is checked against what
// follows it (framing.ts). After damage, reading resumes at the next header, found at the start
// of a line or after bytes glued before it.

import { checkLength, type Framing } from "./framing.js";
import { blankMeta, checkable, type ReadContext, type RecordMeta, readHttpBlock, settle, skipRest } from "./payload.js";
import { type ByteReader, GapError } from "./reader.js";
import type { Gap } from "./source.js";
import type { ArchiveRecord } from "./types.js";

const MAX_HEADER_LINE = 16 << 10;

export interface ArcHeader {
  url: string;
  /** ISO 8601, or "" if the date field is not one. */
  date: string;
  contentType: string;
  length: number;
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
const DIGITS = /^\d+$/;

/** Parses a header line of the given ARC version; null if it is not a valid one. */
export function parseArcHeader(line: string, version: number): ArcHeader | null {
  const f = line.trim().split(/\s+/);
  const n = f.length;
  // Fields after the URL: v1 has 4 (ip date type length), v2 has 9.
  const tail = version === 2 ? 9 : 4;
  if (n < tail + 1 || !SCHEME.test(f[0])) return null;
  const length = f[n - 1];
  const date = f[n - tail + 1];
  if (!DIGITS.test(length) || !DIGITS.test(date)) return null;
  return {
    url: f.slice(0, n - tail).join(" "),
    date: arcDateToIso(date),
    contentType: f[n - tail + 2].toLowerCase(),
    length: Number(length),
  };
}

/** "20140216050221" (14 digits; shorter ones are padded) to "2014-02-16T05:02:21Z". */
export function arcDateToIso(d: string): string {
  if (d.length < 4 || d.length > 14) return "";
  const s = d.padEnd(14, "0");
  const iso = `${s.slice(0, 4)}-${s.slice(4, 6) === "00" ? "01" : s.slice(4, 6)}-${s.slice(6, 8) === "00" ? "01" : s.slice(6, 8)}T${s.slice(8, 10)}:${s.slice(10, 12)}:${s.slice(12, 14)}Z`;
  return Number.isNaN(Date.parse(iso)) ? "" : iso;
}

/** True for a line that could start an ARC record (used to resynchronise and to sniff). */
export function isArcHeaderLine(line: Buffer | string, version = 1): boolean {
  const s = typeof line === "string" ? line : line.toString("latin1");
  return parseArcHeader(s, version) !== null || (version !== 1 && parseArcHeader(s, 1) !== null);
}

/** Schemes that ARC URLs start with, looked for inside a line that has bytes glued before its header. */
const KNOWN_SCHEME = /(?:https?|ftp|filedesc):\/\/|dns:/gi;

/**
 * Where an ARC record's header starts in a line: 0 for a header line, the offset of its URL when
 * bytes without a line end were glued before it (text before a known scheme is not part of the
 * URL), or -1.
 */
export function arcHeaderStart(line: Buffer | string, version = 1): number {
  const s = typeof line === "string" ? line : line.toString("latin1");
  const whole = isArcHeaderLine(s, version);
  KNOWN_SCHEME.lastIndex = 0;
  let m = KNOWN_SCHEME.exec(s);
  if (whole && (m === null || m.index === 0)) return 0;
  for (; m !== null; m = KNOWN_SCHEME.exec(s)) {
    if (m.index > 0 && isArcHeaderLine(s.slice(m.index), version)) return m.index;
  }
  return whole ? 0 : -1;
}

/** arcHeaderStart, after a cheap look that rules out most lines (a header ends with its length). */
function headerIn(line: Buffer, version: number): number {
  const n = line.length;
  if (n < 9 || n > MAX_HEADER_LINE || line[n - 1] < 0x30 || line[n - 1] > 0x39) return -1;
  return arcHeaderStart(line, version);
}

function withoutCr(line: Buffer): Buffer {
  return line.length > 0 && line[line.length - 1] === 0x0d ? line.subarray(0, -1) : line;
}

/** ARC records follow each other on header lines; `version` is read when they are looked at. */
function arcFraming(version: () => number): Framing {
  return {
    lengthName: "ARC length",
    terminators: [Buffer.from("\n")],
    tail: 512,
    startsAt(bytes, at, ended) {
      const nl = bytes.indexOf(0x0a, at);
      if (nl < 0) return ended || null;
      return arcHeaderStart(withoutCr(bytes.subarray(at, nl)), version()) === 0;
    },
    find(bytes, end) {
      for (let p = 0; p < end; ) {
        const nl = bytes.indexOf(0x0a, p);
        const at = headerIn(withoutCr(bytes.subarray(p, nl < 0 ? bytes.length : nl)), version());
        if (at >= 0 && p + at < end) return p + at;
        if (nl < 0) break;
        p = nl + 1;
      }
      return -1;
    },
    seek: (r: ByteReader, limit: number) => r.seekLineWhere((line) => headerIn(line, version()), MAX_HEADER_LINE, limit),
  };
}

/** The record a damaged gzip member held, named from its header line if that survived. */
function nameFromPartial(g: Gap, version: number): RecordMeta | null {
  if (!g.partial) return null;
  const nl = g.partial.indexOf(0x0a);
  const h = nl > 0 ? parseArcHeader(g.partial.toString("latin1", 0, nl), version) : null;
  return h && { offset: g.offset, recordId: arcRecordId(g.offset, -1), url: h.url, date: h.date };
}

function arcRecordId(offset: number, pos: number): string {
  // "u" marks a position in the uncompressed stream, when no stored offset addresses the record.
  return `<arc:${offset >= 0 ? offset : `u${pos}`}>`;
}

export async function* readArc(ctx: ReadContext): AsyncGenerator<ArchiveRecord> {
  const r = ctx.reader;
  let version = 1;
  let quiet = false;
  const framing = arcFraming(() => version);
  for (;;) {
    let meta: RecordMeta | null = null;
    ctx.guard = null;
    try {
      if (!(await r.skipBlank())) return;
      let start = r.position;
      let offset = ctx.offsetAt(start);
      const line = await r.readLine(MAX_HEADER_LINE);
      if (line === "eof") {
        const rest = await r.peek(r.buffered);
        await r.skip(rest.length);
        if (!quiet)
          ctx.skip(blankMeta(offset), isArcHeaderLine(rest, version) ? "truncated" : "corrupt", "input ends inside an ARC header line");
        return;
      }
      const text = line === "limit" ? "" : line.toString("latin1");
      const at = text ? arcHeaderStart(text, version) : -1;
      const h = at < 0 ? null : (parseArcHeader(text.slice(at), version) ?? parseArcHeader(text.slice(at), 1));
      if (!h) {
        if (!quiet) ctx.skip(blankMeta(offset), "corrupt", `not an ARC header line: ${JSON.stringify(text.slice(0, 60))}`);
        // The current line is passed over unless it is a header ("limit" left it unread).
        const found = await framing.seek(r, Number.POSITIVE_INFINITY);
        quiet = false;
        if (found !== "found") return;
        continue;
      }
      if (at > 0) {
        // Bytes glued before the header, with no line end between: damage, then the record.
        if (!quiet) ctx.skip(blankMeta(offset), "corrupt", `skipped ${at} bytes that are not an ARC record`);
        start += at;
        offset = ctx.offsetAt(start);
      }
      quiet = false;
      meta = { offset, recordId: arcRecordId(offset, start), url: h.url, date: h.date };
      const kept = /^https?:/i.test(h.url);
      if (checkable(ctx, h.length, kept)) {
        const damage = await checkLength(ctx, framing, h.length, start, offset);
        if (damage) {
          // Resume just after the header line: the records the wrong length covers are found from there.
          ctx.skip(meta, damage.reason, damage.detail);
          quiet = true;
          continue;
        }
      } else {
        ctx.guard = { framing, length: h.length, recordStart: start, blockStart: r.position, offset };
      }
      if (h.url.startsWith("filedesc:")) {
        // The version block starts with "1 0 ..." or "2 0 ..."; the rest is description.
        const first = (await r.peek(Math.min(h.length, 16))).toString("latin1");
        version = /^\s*2\b/.test(first) ? 2 : 1;
        await skipRest(ctx, meta, h.length, "not-response", `ARC version block (version ${version})`);
        continue;
      }
      if (!/^https?:/i.test(h.url)) {
        await skipRest(ctx, meta, h.length, "not-response", `not an HTTP capture (${h.url.slice(0, h.url.indexOf(":") + 1)})`);
        continue;
      }
      const rec = await readHttpBlock(ctx, h.length, meta);
      if (rec) quiet = yield* settle(ctx, rec, meta, (g) => nameFromPartial(g, version));
    } catch (err) {
      if (!(err instanceof GapError)) throw err;
      // Bytes were lost: the record in hand (if any) is damaged; go on after the gap.
      const g = err.gap;
      const named = meta ?? nameFromPartial(g, version);
      if (named) ctx.skip(named, g.reason, g.detail);
      else if (!quiet) ctx.skip(blankMeta(g.offset), g.reason, g.detail);
      quiet = true;
    }
  }
}
