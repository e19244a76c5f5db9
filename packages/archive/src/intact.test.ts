// The reader's recovery promise as a property: random sequences of WARC records, written plain,
// as one gzip stream, or one gzip member per record, then damaged (garbage inserted at random
// offsets, with and without line ends; Content-Lengths overstated and understated; gzip members
// cut short; files cut off). Every record the damage left intact comes out exactly once, in
// order, and nothing throws.
//
// "Intact" is decided from how the file was made, not from what the reader does:
// - the record was written with its true Content-Length, and no garbage was inserted strictly
//   inside its bytes (head, block and CRLF CRLF terminator; garbage just before or just after
//   them leaves it intact);
// - plain: the file is not cut before the end of its terminator;
// - per-record gzip: its member (and its own bytes in it) is untouched: no garbage inserted
//   strictly inside the member's compressed bytes, its end not cut off, the file not cut
//   before the member's end;
// - whole-file gzip: if the file is cut, the record and its terminator are within what the cut
//   stream still inflates to, and a byte that is not blank follows them there (a record that
//   ends just where a cut stream stops cannot be told from one cut inside its own end, so the
//   reader rightly distrusts it).
// A record "comes out" when it is yielded with its exact body (responses) or reported as
// not-response (requests). Garbage never holds a whole WARC version line ("WARC/1.0" and a line
// end): that would be a record start. Lengths are off by at most 60 bytes (records are longer,
// so a wrong end cannot land on another record's start) or by 1e9 / 1e15.

import zlib from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collect, httpResponse, tempFile, text, warcRecord } from "../test/helpers.js";

const SEED = Number(process.env.WINNOW_FUZZ_SEED ?? 0x1ec7);
const SCALE = Number(process.env.WINNOW_FUZZ_SCALE ?? 1);
const RUNS = Math.max(1, Math.round(200 * SCALE));

interface RecordSpec {
  response: boolean;
  /** Padding of the page, in words. */
  size: number;
  /** How far the written Content-Length is off (0: right). */
  lengthError: number;
}

interface Insert {
  at: number;
  bytes: Buffer;
  /** Between two records (or members), rather than at any byte: `at` picks which place. */
  between?: boolean;
}

interface FileSpec {
  container: "plain" | "whole" | "each";
  records: RecordSpec[];
  /** Garbage in the record stream (before any compression); `at` is taken modulo what it picks from. */
  garbage: Insert[];
  /** Per-record gzip only: garbage in the compressed bytes, and bytes cut off the end of members. */
  outer: Insert[];
  memberCuts: Array<{ member: number; bytes: number }>;
  /** Where the file is cut (modulo its length + 1), if it is. */
  cut: number | undefined;
}

const recordSpec: fc.Arbitrary<RecordSpec> = fc.record({
  response: fc.boolean(),
  size: fc.integer({ min: 0, max: 400 }),
  lengthError: fc.oneof(
    { weight: 6, arbitrary: fc.constant(0) },
    { weight: 2, arbitrary: fc.integer({ min: -60, max: 60 }) },
    { weight: 1, arbitrary: fc.constantFrom(1e9, 1e15) },
  ),
});

const garbageBytes: fc.Arbitrary<Buffer> = fc
  .oneof(
    fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b) => Buffer.from(b)),
    fc
      .constantFrom("junk", "\r\n", "x\r\n\r\ny", "WARC/", "WARC/1.", "WARC/x\r\n", "\n\nWARC/ 1.0\n", "HTTP/1.1 200 OK\r\n")
      .map((s) => Buffer.from(s, "latin1")),
    fc.string({ minLength: 1, maxLength: 30 }).map((s) => Buffer.from(s)),
  )
  .filter((b) => !/WARC\/\d+\.\d/.test(b.toString("latin1")));

const insert = (bytes: fc.Arbitrary<Buffer>): fc.Arbitrary<Insert> => fc.record({ at: fc.nat(), bytes, between: fc.boolean() });

/** Inserts placed: between units (at one of `bounds`), or at any byte of `length`. */
const place = (inserts: Insert[], bounds: number[], length: number): Insert[] =>
  inserts.map((g) => ({ at: g.between ? bounds[g.at % bounds.length] : g.at % (length + 1), bytes: g.bytes }));

const fileSpec: fc.Arbitrary<FileSpec> = fc.record({
  container: fc.constantFrom("plain" as const, "whole" as const, "each" as const),
  records: fc.array(recordSpec, { minLength: 1, maxLength: 8 }),
  garbage: fc.array(insert(garbageBytes), { maxLength: 3 }),
  outer: fc.array(insert(fc.uint8Array({ minLength: 1, maxLength: 30 }).map((b) => Buffer.from(b))), { maxLength: 2 }),
  memberCuts: fc.array(fc.record({ member: fc.nat(), bytes: fc.integer({ min: 1, max: 24 }) }), { maxLength: 1 }),
  cut: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.nat() }),
});

interface Made {
  id: string;
  response: boolean;
  body: string;
  /** Intact so far (its own bytes and length); the container may still spoil it. */
  intact: boolean;
  /** Where it starts and ends (terminator included) in the record stream, garbage included. */
  start: number;
  end: number;
}

function makeRecord(spec: RecordSpec, i: number): { made: Omit<Made, "start" | "end">; bytes: Buffer } {
  const id = `<urn:prop:${i}>`;
  const body = `<!doctype html><html><body><h1>Record ${i}</h1><p>${"lorem ".repeat(spec.size)}</p></body></html>\n`;
  const block = spec.response ? httpResponse(body) : Buffer.from(`GET /${i} HTTP/1.1\r\nHost: example.org\r\n\r\n`);
  const length = Math.max(0, block.length + spec.lengthError);
  const bytes = warcRecord({
    type: spec.response ? "response" : "request",
    id,
    uri: `http://example.org/${i}`,
    block,
    length: String(length),
  });
  return { made: { id, response: spec.response, body, intact: length === block.length }, bytes };
}

/**
 * `bytes` with the inserts applied (those at the same place in the order given), and how many
 * inserted bytes come before the byte that was at p (`upTo`: inserts at p included, as they go
 * before it).
 */
function applyInserts(bytes: Buffer, inserts: Insert[]): { out: Buffer; shift: (p: number, upTo: boolean) => number } {
  const at = inserts.map((g, k) => ({ at: g.at, bytes: g.bytes, k })).sort((a, b) => a.at - b.at || a.k - b.k);
  const parts: Buffer[] = [];
  let from = 0;
  for (const g of at) {
    parts.push(bytes.subarray(from, g.at), g.bytes);
    from = g.at;
  }
  parts.push(bytes.subarray(from));
  const shift = (p: number, upTo: boolean) => at.filter((g) => g.at < p || (upTo && g.at === p)).reduce((n, g) => n + g.bytes.length, 0);
  return { out: Buffer.concat(parts), shift };
}

/** Bytes a cut gzip stream still inflates to (what a streaming gunzip hands out before the cut). */
function inflatable(gz: Buffer): number {
  try {
    return zlib.gunzipSync(gz, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).length;
  } catch {
    return 0;
  }
}

function build(spec: FileSpec): { file: Buffer; name: string; records: Made[] } {
  const made = spec.records.map(makeRecord);
  const plain = Buffer.concat(made.map((m) => m.bytes));
  const recordBounds = [0];
  for (const m of made) recordBounds.push(recordBounds[recordBounds.length - 1] + m.bytes.length);
  const garbage = place(spec.garbage, recordBounds, plain.length);
  const { out: stream, shift } = applyInserts(plain, garbage);
  /** Where each record's member starts in the stream: before the garbage inserted just before it. */
  const unitStarts: number[] = [];
  let at = 0;
  const records: Made[] = made.map(({ made: m, bytes }, i) => {
    const [s, e] = [at, at + bytes.length];
    at = e;
    unitStarts.push(i === 0 ? 0 : s + shift(s, false));
    const hit = garbage.some((g) => s < g.at && g.at < e);
    const start = s + shift(s, true);
    return { ...m, intact: m.intact && !hit, start, end: start + bytes.length };
  });

  if (spec.container === "plain") {
    const cut = spec.cut === undefined ? stream.length : spec.cut % (stream.length + 1);
    for (const r of records) r.intact &&= r.end <= cut;
    return { file: stream.subarray(0, cut), name: "prop.warc", records };
  }

  if (spec.container === "whole") {
    const gz = zlib.gzipSync(stream);
    const cut = spec.cut === undefined ? gz.length : spec.cut % (gz.length + 1);
    if (cut < gz.length) {
      const got = inflatable(gz.subarray(0, cut));
      for (const r of records) r.intact &&= r.end < got && /[^\r\n \t]/.test(stream.toString("latin1", r.end, got));
    }
    return { file: gz.subarray(0, cut), name: "prop.warc.gz", records };
  }

  // One member per record; garbage just before a record (or after the last) is in its member.
  const members = unitStarts.map((s, i) => zlib.gzipSync(stream.subarray(s, unitStarts[i + 1] ?? stream.length)));
  const spoiled = new Set<number>();
  for (const c of spec.memberCuts) {
    const k = c.member % members.length;
    members[k] = members[k].subarray(0, Math.max(1, members[k].length - c.bytes));
    spoiled.add(k);
  }
  const starts: number[] = [];
  members.reduce((n, m) => (starts.push(n), n + m.length), 0);
  const joined = Buffer.concat(members);
  const outer = place(spec.outer, [...starts, joined.length], joined.length);
  const { out: file, shift: moved } = applyInserts(joined, outer);
  const cut = spec.cut === undefined ? file.length : spec.cut % (file.length + 1);
  members.forEach((m, k) => {
    const end = starts[k] + m.length;
    if (outer.some((g) => starts[k] < g.at && g.at < end)) spoiled.add(k);
    // Its last byte, moved by the garbage before it (none is inside it, or it is spoiled anyway).
    if (end + moved(end - 1, true) > cut) spoiled.add(k);
  });
  records.forEach((r, k) => {
    r.intact &&= !spoiled.has(k);
  });
  return { file: file.subarray(0, cut), name: "prop-each.warc.gz", records };
}

describe("recovery: every intact record comes out exactly once, in order", () => {
  it(`on random damaged WARCs, plain, whole-file gzip and per-record gzip (${RUNS} runs, seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(fileSpec, async (spec) => {
        const { file, name, records } = build(spec);
        const c = await collect(tempFile(`prop/${name}`, file));
        const intact = records.filter((r) => r.intact);
        const wanted = new Set(intact.map((r) => r.id));
        expect(c.order.filter((id) => wanted.has(id))).toEqual(intact.map((r) => r.id));
        const bodies = new Map(c.records.map((r) => [r.recordId, text(r.body)]));
        for (const r of intact) {
          if (r.response) expect(bodies.get(r.id), `${r.id} yielded whole`).toBe(r.body);
          else expect(c.skips.find((s) => s.recordId === r.id)?.reason, `${r.id} reported`).toBe("not-response");
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, 60_000);
});
