// Members inflated ahead on zlib's thread pool (gunzip.ts, MemberPrefetch) must give exactly what
// inflating each member in turn gives: the same bytes, the same gaps at the same offsets, the same
// member offsets, on intact files and on each kind of damage that can fool the guess of where a
// member ends.

import zlib from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { gzipEach, httpResponse, page, sampleRecords, warcRecord } from "../test/helpers.js";
import { GunzipSource } from "./gunzip.js";
import type { Piece } from "./source.js";
import { InputWindow } from "./window.js";

/** The file as an input read in chunks of `chunk` bytes. */
async function* chunksOf(file: Buffer, chunk: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < file.length; at += chunk) yield file.subarray(at, at + chunk);
}

interface Read {
  bytes: Buffer;
  gaps: string[];
  /** Stored offset of every member start, by stream position. */
  offsets: number[];
}

async function read(file: Buffer, inflateAhead: boolean, chunk = 1 << 16): Promise<Read> {
  const win = new InputWindow(chunksOf(file, chunk));
  await win.fill(1);
  const source = new GunzipSource(win, { inflateAhead });
  const data: Buffer[] = [];
  const gaps: string[] = [];
  const starts: number[] = [];
  let pos = 0;
  for await (const piece of source.pieces() as AsyncGenerator<Piece>) {
    if (Buffer.isBuffer(piece)) {
      starts.push(pos);
      data.push(Buffer.from(piece));
      pos += piece.length;
    } else {
      gaps.push(`${piece.reason}@${piece.offset}:${piece.detail}${piece.taints ? " (taints)" : ""}`);
    }
  }
  return { bytes: Buffer.concat(data), gaps, offsets: starts.map((p) => source.offsetAt(p)) };
}

/** Reads both ways; checks they agree, and how many members were handed to zlib's pool. */
async function sameBothWays(file: Buffer, chunk?: number): Promise<Read & { handedOver: number }> {
  const spy = vi.spyOn(zlib, "gunzip");
  const ahead = await read(file, true, chunk);
  const handedOver = spy.mock.calls.length;
  spy.mockRestore();
  const inTurn = await read(file, false, chunk);
  // Buffer.equals: toEqual walks megabytes byte by byte.
  expect(ahead.bytes.equals(inTurn.bytes)).toBe(true);
  expect({ ...ahead, bytes: null }).toEqual({ ...inTurn, bytes: null });
  return { ...ahead, handedOver };
}

/** Filler that compresses like a page does, not like one repeated line. */
function filler(i: number, bytes: number): string {
  const words: string[] = [];
  let state = i + 1;
  for (let n = 0; n < bytes; n += 6) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    words.push((state >>> 8).toString(36).slice(0, 5));
  }
  return `<p>${words.join(" ")}</p>`;
}

/** Records of 70-200 KB, over the size under which members are inflated in turn. */
function records(n: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    const body = `${page(i)}${filler(i, 70_000 + ((i * 37_123) % 130_000))}`;
    out.push(warcRecord({ id: `<urn:r:${i}>`, uri: `http://example.org/${i}`, block: httpResponse(body) }));
  }
  return out;
}

describe("gzip members inflated ahead", () => {
  afterEach(() => vi.restoreAllMocks());

  it("give the same bytes and member offsets as inflating each in turn, whatever the read size", async () => {
    const recs = records(40);
    const { file, offsets } = gzipEach(recs);
    for (const chunk of [1 << 16, 4096, 1 << 20]) {
      const got = await sameBothWays(file, chunk);
      expect(got.bytes.equals(Buffer.concat(recs))).toBe(true);
      expect(got.gaps).toEqual([]);
      expect(got.offsets).toEqual(offsets);
      // All but the last, which has no header after it to say where it ends.
      expect(got.handedOver).toBe(recs.length - 1);
    }
  });

  it("a gzip header inside a member's stored bytes (a false member start) changes nothing", async () => {
    // Level 0 stores bytes as they are, so a page holding a gzip file shows its header in the
    // compressed stream: a place where a member seems to start and does not.
    const inner = zlib.gzipSync(Buffer.from("a small gzip file inside a page"));
    const block = httpResponse(Buffer.concat([Buffer.from("<html><body><pre>"), inner, inner, Buffer.from("</pre></body></html>")]));
    const tricky = warcRecord({
      id: "<urn:r:x>",
      uri: "http://example.org/x",
      block: Buffer.concat([block, Buffer.from(filler(99, 80_000))]),
    });
    const recs = records(10);
    const members = [
      ...recs.slice(0, 5).map((r) => zlib.gzipSync(r)),
      zlib.gzipSync(tricky, { level: 0 }),
      ...recs.slice(5).map((r) => zlib.gzipSync(r)),
    ];
    const file = Buffer.concat(members);
    expect(file.indexOf(inner.subarray(0, 10), members.slice(0, 5).reduce((n, m) => n + m.length, 0) + 10)).toBeGreaterThan(0);
    const got = await sameBothWays(file);
    expect(got.bytes.equals(Buffer.concat([...recs.slice(0, 5), tricky, ...recs.slice(5)]))).toBe(true);
    expect(got.gaps).toEqual([]);
    expect(got.handedOver).toBeGreaterThanOrEqual(8);
  });

  it("zero padding and garbage between members, a corrupt member, a cut: the same gaps as before", async () => {
    const { file, offsets } = gzipEach(records(12));
    const at = (i: number) => offsets[i];
    const cases: Buffer[] = [
      Buffer.concat([file.subarray(0, at(4)), Buffer.alloc(64), file.subarray(at(4))]),
      Buffer.concat([file.subarray(0, at(7)), Buffer.from("not gzip at all"), file.subarray(at(7))]),
      Buffer.concat([file, Buffer.alloc(100)]),
      file.subarray(0, at(9) + 40),
    ];
    const corrupt = Buffer.from(file);
    corrupt[at(5) + 200] ^= 0x55;
    cases.push(corrupt);
    const badCrc = Buffer.from(file);
    badCrc[at(3) - 7] ^= 1; // the CRC of member 2
    cases.push(badCrc);
    for (const damaged of cases) {
      const got = await sameBothWays(damaged);
      expect(got.bytes.length).toBeGreaterThan(0);
      expect(got.handedOver).toBeGreaterThan(3);
    }
    // Each damage is reported (the padding at the very end is not damage).
    const gapCounts = await Promise.all(cases.map(async (c) => (await read(c, true)).gaps.length));
    expect(gapCounts).toEqual([1, 1, 0, 1, 1, 1]);
  });

  it("small members are inflated in turn: handing them over would cost more than it moves", async () => {
    const { records: sample } = sampleRecords(8);
    const { file } = gzipEach(sample);
    const got = await sameBothWays(file);
    expect(got.bytes.equals(Buffer.concat(sample))).toBe(true);
    expect(got.handedOver).toBe(0);
  });

  it("is off unless asked for", async () => {
    const { file } = gzipEach(records(4));
    const spy = vi.spyOn(zlib, "gunzip");
    const win = new InputWindow(chunksOf(file, 1 << 16));
    await win.fill(1);
    for await (const _ of new GunzipSource(win).pieces()) {
      // read through
    }
    expect(spy).not.toHaveBeenCalled();
  });
});
