// ARC (v1, and v2 header lines) record reader. Hand-written: warcio for JavaScript has no ARC
// reader (only the Python warcio does).
//
// An ARC file is a "filedesc://" version block followed by records, each one header line
//   URL IP-address archive-date content-type length          (v1)
//   URL IP-address archive-date content-type result-code checksum location offset filename length   (v2)
// then `length` bytes (for http(s) URLs, the HTTP response) and a newline. URLs may contain
// spaces, so lines are parsed from the right. After damage, reading resumes at the next line
// that looks like a header.

import { blankMeta, type ReadContext, type RecordMeta, readHttpBlock, settle, skipRest } from "./payload.js";
import { GapError } from "./reader.js";
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
  const accept = (line: Buffer) => isArcHeaderLine(line, version);
  for (;;) {
    let meta: RecordMeta | null = null;
    try {
      if (!(await r.skipBlank())) return;
      const start = r.position;
      const offset = ctx.offsetAt(start);
      const line = await r.readLine(MAX_HEADER_LINE);
      if (line === "eof") {
        const rest = await r.peek(r.buffered);
        await r.skip(rest.length);
        if (!quiet)
          ctx.skip(blankMeta(offset), isArcHeaderLine(rest, version) ? "truncated" : "corrupt", "input ends inside an ARC header line");
        return;
      }
      const text = line === "limit" ? "" : line.toString("latin1");
      const h = text ? parseArcHeader(text, version) : null;
      if (!h) {
        if (!quiet) ctx.skip(blankMeta(offset), "corrupt", `not an ARC header line: ${JSON.stringify(text.slice(0, 60))}`);
        // The current line is passed over unless it is a header ("limit" left it unread).
        const found = await r.seekLineWhere(accept, MAX_HEADER_LINE);
        quiet = false;
        if (!found) return;
        continue;
      }
      quiet = false;
      meta = { offset, recordId: arcRecordId(offset, start), url: h.url, date: h.date };
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
