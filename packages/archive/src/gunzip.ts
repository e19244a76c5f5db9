// Member-by-member gunzip with Node's zlib, keeping the compressed offset of every member so
// records in per-record-gzip files get their stored offsets, and resynchronising at the next
// gzip header when a member is damaged.
//
// Why zlib and not warcio's AsyncIterReader (pako): on a 1,500-page per-record .warc.gz
// (41 MB inflated; 16-core machine, best of several runs), one-shot zlib.inflateRawSync per member ran at
// ~255 MB/s of output with CRC checks (~278 without); pako through warcio at ~67 MB/s, warcio's
// whole WARCParser at ~70 MB/s; a zlib Gunzip stream (no member offsets) at ~152 MB/s.
// readRecords over that file, parsing included, runs at ~260 MB/s (about 9,500 pages/s).
//
// Fast path: with >= LOOKAHEAD compressed bytes in view, a member is inflated in one call and
// its CRC checked before any byte goes out, so a damaged member yields nothing. Members that do
// not fit (whole-file gzip, huge records) go through a zlib stream in slices, so memory stays
// bounded whatever their size; their output can only be checked once it has gone out, and a
// failure is then flagged on the gap that follows it (Gap.taints).
//
// With ReadOptions.inflateAhead, large members ahead are inflated in parallel off the reading
// thread (see MemberPrefetch): in a per-record file each member's end is where the next gzip
// header starts, so the members in view can be handed to zlib's thread pool at once. On 16 cores
// the reading thread's inflating was what capped the worker pool (550-600 pages/s from 8 workers
// on, that thread busy all the time).

import zlib from "node:zlib";
import { markExclusive } from "./owned.js";
import type { Gap, Piece, PieceSource } from "./source.js";
import type { InputWindow } from "./window.js";
import { MemberStarts } from "./member-starts.js";

const LOOKAHEAD = 1 << 20;
/** Output cap for the one-shot path; bigger members are streamed (also bounds zip bombs). */
const ONE_SHOT_MAX_OUT = 64 << 20;
/** One-shot output buffer size when the member's size is not known beforehand (see sizeHint). */
const ONE_SHOT_CHUNK = 64 << 10;
/** Smallest one-shot output buffer: Node pools allocations under 4 KiB, and pooled memory is shared. */
const ONE_SHOT_MIN_CHUNK = 8 << 10;
/** Deflate cannot expand its input more than about 1032 times. */
const MAX_DEFLATE_RATIO = 1032;
const STREAM_SLICE = 256 << 10;
const STREAM_CHUNK = 256 << 10;
/** How much of a damaged member's output to keep for naming its record. */
const PARTIAL_KEEP = 64 << 10;
const MAGIC = Buffer.from([0x1f, 0x8b, 0x08]);
export const GZIP_MAGIC: Uint8Array = MAGIC;
const TRAILER = 8;

const crc32: ((data: Uint8Array, value?: number) => number) | undefined = (zlib as { crc32?: (data: Uint8Array, value?: number) => number })
  .crc32; // Node >= 20.15; without it only ISIZE is checked

interface Inflated {
  buffer: Buffer;
  engine: { bytesWritten: number };
}

/** Byte length of the gzip header at `buf[0]`: -1 if more bytes are needed, -2 if it is not one. */
function gzipHeaderLength(buf: Buffer): number {
  for (let i = 0; i < MAGIC.length && i < buf.length; i++) if (buf[i] !== MAGIC[i]) return -2;
  if (buf.length < 10) return -1;
  const flags = buf[3];
  if (flags & 0xe0) return -2; // reserved bits must be zero
  let p = 10;
  if (flags & 4) {
    if (buf.length < p + 2) return -1;
    p += 2 + buf.readUInt16LE(p);
  }
  for (const bit of [8, 16]) {
    if (flags & bit) {
      const z = buf.indexOf(0, p);
      if (z < 0) return -1;
      p = z + 1;
    }
  }
  if (flags & 2) p += 2;
  return buf.length < p ? -1 : p;
}

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 8;
}

function errCode(err: unknown): string | undefined {
  return (err as { code?: string } | null)?.code;
}

export class GunzipSource implements PieceSource {
  /** Decompressed bytes handed out so far. */
  private produced = 0;
  /** Members read whole so far. */
  private members = 0;
  /** Where each member starts: its output position and its stored offset. */
  private readonly starts = new MemberStarts();
  /** Damage not yet reported, merged while it continues. */
  private damage: { offset: number; bytes: number; detail: string } | null = null;
  /** Members ahead being inflated on zlib's thread pool, or null to inflate each in turn here. */
  private readonly prefetch: MemberPrefetch | null;

  /** `inflateAhead`: see ReadOptions.inflateAhead (off by default). */
  constructor(
    private readonly win: InputWindow,
    options: { inflateAhead?: boolean } = {},
  ) {
    this.prefetch = options.inflateAhead === true ? new MemberPrefetch() : null;
  }

  offsetAt(pos: number): number {
    return this.starts.offsetAt(pos);
  }

  memberAfter(pos: number): number {
    return this.starts.memberAfter(pos);
  }

  async *pieces(): AsyncGenerator<Piece> {
    const win = this.win;
    for (;;) {
      await win.fill(LOOKAHEAD);
      if (win.available === 0) break;
      const view = win.view();
      const hlen = gzipHeaderLength(view);
      const memberOffset = win.offset;
      // A header running past the end of input is cut off if nothing follows; otherwise (or
      // when it runs past a full window) it is as bad as a wrong one.
      const cutOff = hlen === -1 && win.atEnd && view.indexOf(MAGIC, 1) < 0;
      if (hlen === -2 || (hlen === -1 && !cutOff)) {
        this.skipToMagic(view);
        continue;
      }
      if (hlen === -1) {
        yield* this.flushDamage();
        yield gap("truncated", memberOffset, `gzip header at offset ${memberOffset} is cut off`);
        win.advance(view.length);
        break;
      }
      this.prefetch?.launch(view, memberOffset);
      const ahead = this.prefetch?.take(memberOffset);
      const early = ahead === undefined ? null : await ahead;
      if (early !== null) {
        // A whole member, its CRC and size checked by zlib, ending where the next one starts.
        yield* this.flushDamage();
        if (early.exclusive) markExclusive(early.out);
        yield* this.emit(early.out, memberOffset);
        win.advance(early.length);
        continue;
      }
      const data = view.subarray(hlen);
      const hint = sizeHint(view, hlen);
      // One output buffer of the member's size: no chunks for zlib to join, no garbage.
      const chunkSize = hint > 0 ? Math.max(hint + 1, ONE_SHOT_MIN_CHUNK) : ONE_SHOT_CHUNK;
      let res: Inflated;
      try {
        res = zlib.inflateRawSync(data, {
          info: true,
          chunkSize,
          maxOutputLength: ONE_SHOT_MAX_OUT,
        }) as unknown as Inflated;
      } catch (err) {
        const code = errCode(err);
        if (code === "Z_BUF_ERROR" && intactMemberAfter(view, hlen)) {
          // Its deflate data runs on into the members after it: damaged, not cut off or long.
          this.addDamage(memberOffset, 1, `corrupt gzip member at offset ${memberOffset}`);
          win.advance(1);
          continue;
        }
        if (code === "Z_BUF_ERROR" && win.atEnd && this.members > 0) {
          // The last member of a multi-member file, cut off: it held one record, now damaged.
          // Its bytes cannot be checked, so they only serve to name the record.
          yield* this.flushDamage();
          yield gap("truncated", memberOffset, `gzip member at offset ${memberOffset} is cut off`, {
            partial: inflatePartial(data),
          });
          win.advance(win.available);
          break;
        }
        if (code === "Z_BUF_ERROR" || code === "ERR_BUFFER_TOO_LARGE") {
          // Longer than the window (or the only member, cut off): stream it.
          yield* this.flushDamage();
          if (!(yield* this.streamMember(memberOffset, hlen))) break;
          continue;
        }
        this.addDamage(memberOffset, 1, `corrupt gzip member at offset ${memberOffset}`);
        win.advance(1);
        continue;
      }
      const out = res.buffer;
      const dataEnd = hlen + res.engine.bytesWritten;
      if (dataEnd + TRAILER > win.available && win.atEnd && intactMemberAfter(view, hlen)) {
        // Its deflate data ran on through whole members after it and stopped near the end by
        // chance: a damaged member (cut short, say), not the last one with its trailer cut off.
        this.addDamage(memberOffset, 1, `corrupt gzip member at offset ${memberOffset}`);
        win.advance(1);
        continue;
      }
      if (!(await win.fill(dataEnd + TRAILER))) {
        // The data is whole but its trailer is cut off, so it cannot be checked.
        yield* this.flushDamage();
        yield* this.emit(out, memberOffset);
        yield gap("truncated", memberOffset, `gzip member at offset ${memberOffset} lacks its trailer`, { taints: true });
        win.advance(win.available);
        break;
      }
      if (!checkTrailer(win.view().subarray(dataEnd, dataEnd + TRAILER), out)) {
        // Rescan rather than trust a length read from damaged data.
        this.addDamage(memberOffset, 1, `gzip member at offset ${memberOffset} fails its CRC check`);
        win.advance(1);
        continue;
      }
      yield* this.flushDamage();
      // zlib made this output for this call alone, in buffers of at least chunkSize bytes, which
      // are never slices of Node's shared pool: the reader may let a record take it over.
      if (chunkSize >= Buffer.poolSize >>> 1) markExclusive(out);
      yield* this.emit(out, memberOffset);
      win.advance(dataEnd + TRAILER);
    }
    yield* this.flushDamage();
  }

  private *emit(out: Buffer, memberOffset: number): Generator<Piece> {
    this.starts.add(this.produced, memberOffset);
    this.produced += out.length;
    this.members++;
    if (out.length) yield out;
  }

  private addDamage(offset: number, bytes: number, detail: string): void {
    if (this.damage) this.damage.bytes += bytes;
    else this.damage = { offset, bytes, detail };
  }

  private *flushDamage(): Generator<Piece> {
    const d = this.damage;
    if (!d) return;
    this.damage = null;
    yield gap("corrupt", d.offset, d.bytes > 1 ? `${d.detail} (${d.bytes} bytes skipped)` : d.detail);
  }

  /** Skips bytes that are not a gzip member, up to the next gzip magic. */
  private skipToMagic(view: Buffer): void {
    const win = this.win;
    const at = view.indexOf(MAGIC, 1);
    // Without a magic, keep the last bytes: they may start one cut by the window edge.
    const skip = at > 0 ? at : Math.max(1, view.length - (win.atEnd ? 0 : MAGIC.length - 1));
    const bytes = view.subarray(0, skip);
    // Zero bytes after the last member are padding some writers add, not damage.
    if (this.damage || !win.atEnd || skip !== view.length || !isAllZero(bytes)) {
      this.addDamage(win.offset, skip, `non-gzip data at offset ${win.offset}`);
    }
    win.advance(skip);
  }

  /**
   * Inflates one member through a zlib stream, a slice at a time, handing out its output as it
   * comes. Returns false when the input is used up.
   */
  private async *streamMember(memberOffset: number, hlen: number): AsyncGenerator<Piece, boolean> {
    const win = this.win;
    win.advance(hlen);
    // A sync-flush finish lets a member cut off by the end of input end without an error (an
    // error would destroy the stream and drop output not yet read); the cut is noted instead.
    const inflater = zlib.createInflateRaw({ chunkSize: STREAM_CHUNK, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    let inputEnded = false;
    // Feeds the window to the inflater one slice at a time, waiting for each to be processed,
    // so that when the deflate data ends the rest of the slice is still in the window.
    const feeder = (async () => {
      for (;;) {
        if (win.available === 0 && !(await win.fill(1))) {
          inputEnded = true;
          inflater.end();
          return;
        }
        const slice = win.view().subarray(0, STREAM_SLICE);
        const before = inflater.bytesWritten;
        const ok = await new Promise<boolean>((resolve) => inflater.write(slice, (err) => resolve(!err)));
        if (!ok) return;
        const used = inflater.bytesWritten - before;
        win.advance(used);
        if (used < slice.length) return; // the deflate data ended inside this slice
      }
    })();
    let crc = 0;
    let size = 0;
    let failed = false;
    try {
      let first = true;
      for await (const out of inflater as AsyncIterable<Buffer>) {
        if (first) {
          this.starts.add(this.produced, memberOffset);
          first = false;
        }
        if (crc32) crc = crc32(out, crc);
        size += out.length;
        this.produced += out.length;
        yield out;
      }
    } catch {
      failed = true;
    } finally {
      inflater.destroy();
      await feeder;
    }
    const at = `gzip member at offset ${memberOffset}`;
    if (failed) {
      // Go on from where inflation stopped; anything up to the next member is damage too.
      yield gap("corrupt", memberOffset, `corrupt ${at}`, { taints: true });
      return true;
    }
    if (inputEnded) {
      yield gap("truncated", memberOffset, `${at} is cut off`, { taints: true });
      return false;
    }
    if (!(await win.fill(TRAILER))) {
      yield gap("truncated", memberOffset, `${at} lacks its trailer`, { taints: true });
      win.advance(win.available);
      return false;
    }
    const trailer = win.view().subarray(0, TRAILER);
    win.advance(TRAILER);
    if (trailer.readUInt32LE(4) !== size % 2 ** 32 || (crc32 && trailer.readUInt32LE(0) !== crc >>> 0)) {
      yield gap("corrupt", memberOffset, `${at} fails its CRC check`, { taints: true });
    } else {
      this.members++;
    }
    return true;
  }
}

/** A member inflated ahead: its output and its stored length, header and trailer included. */
interface EarlyMember {
  out: Buffer;
  length: number;
  /** The output's ArrayBuffer was made for it alone (see markExclusive). */
  exclusive: boolean;
}

/** Members inflated ahead at most; zlib's pool has four threads unless UV_THREADPOOL_SIZE says more. */
const PREFETCH_MEMBERS = 8;
/** Inflated bytes held ahead at most, so that eight huge pages do not pile up in memory. */
const PREFETCH_MAX_HELD = 16 << 20;
/** Members whose trailer gives a larger size are left to the reading thread's own paths. */
const PREFETCH_MAX_OUT = 16 << 20;
/**
 * Smaller members are inflated in turn by the reading thread: handing one to zlib's pool costs
 * about 0.08 ms of CPU (a zlib stream, its state, two thread hand-overs), what inflating 30 KB
 * costs, so below this the hand-over would cost more CPU than it moves off the reading thread.
 */
const PREFETCH_MIN_OUT = 64 << 10;

/**
 * Inflates the members of a per-record gzip file ahead of the reader, in parallel on zlib's
 * thread pool, so the thread reading the input only waits for finished output. A member's end
 * is taken to be where the next gzip header starts; the guess is checked by zlib (the member's
 * CRC and size) and by the last four bytes before that header, which must be its size. A wrong
 * guess (a gzip magic met by chance inside compressed data, damage, padding) gives null, as do
 * members under PREFETCH_MIN_OUT or over PREFETCH_MAX_OUT, and the reader inflates that member
 * itself as before: what comes out is the same either way, only where the work runs differs.
 */
class MemberPrefetch {
  /** Launched inflations by stored offset, oldest first. */
  private readonly queue: { offset: number; size: number; result: Promise<EarlyMember | null> }[] = [];
  /** Inflated size of the members queued, by their trailers. */
  private held = 0;
  /** Stored offset up to which the input has been scanned for member starts. */
  private scannedTo = 0;

  /** The inflation launched for the member at `offset`, if any; forgets those before it. */
  take(offset: number): Promise<EarlyMember | null> | undefined {
    const q = this.queue;
    while (q.length > 0 && q[0].offset < offset) this.held -= (q.shift() as { size: number }).size;
    if (q.length === 0 || q[0].offset !== offset) return undefined;
    const taken = q.shift() as { size: number; result: Promise<EarlyMember | null> };
    this.held -= taken.size;
    return taken.result;
  }

  /**
   * Launches inflation of the whole members in `view`, which starts at stored offset `base` with
   * a member header, up to PREFETCH_MEMBERS and PREFETCH_MAX_HELD in flight.
   */
  launch(view: Buffer, base: number): void {
    let from = Math.max(0, this.scannedTo - base);
    if (from > 0 && from < view.length && !startsMember(view, from)) from = nextMemberStart(view, from + 1);
    while (from >= 0 && from < view.length && this.queue.length < PREFETCH_MEMBERS && this.held < PREFETCH_MAX_HELD) {
      // The last member of a file has no header after it and is left to the reader (as are
      // its bytes, which stay in its last piece: see owned.ts).
      const next = nextMemberStart(view, from + 1);
      if (next < 0) break;
      const member = view.subarray(from, next);
      // Its trailer's size, if `next` is where it ends (inflateMember checks that it is).
      const size = member.length < 18 ? 0 : member.readUInt32LE(member.length - 4);
      const result = inflateMember(member, size);
      if (result !== null) {
        this.queue.push({ offset: base + from, size, result });
        this.held += size;
      }
      this.scannedTo = base + next;
      from = next;
    }
  }
}

/** True if a gzip header that reads whole starts at view[at]. */
function startsMember(view: Buffer, at: number): boolean {
  return gzipHeaderLength(view.subarray(at, at + 1024)) > 0;
}

/** Where the next gzip header at or after `from` starts, or -1. */
function nextMemberStart(view: Buffer, from: number): number {
  for (let at = view.indexOf(MAGIC, from); at >= 0; at = view.indexOf(MAGIC, at + 1)) {
    if (startsMember(view, at)) return at;
  }
  return -1;
}

/**
 * Inflates `member` (header to trailer; `size` the size its last four bytes give) on zlib's
 * thread pool, resolving to null unless it is exactly one whole member of that size; null at once
 * for a member not worth handing over.
 */
function inflateMember(member: Buffer, size: number): Promise<EarlyMember | null> | null {
  if (member.length < 18) return null;
  const compressed = member.length - TRAILER;
  if (size < PREFETCH_MIN_OUT) return null;
  // The same bounds as sizeHint: a size deflate could not have made means the guess is wrong.
  if (size > PREFETCH_MAX_OUT || size * 2 < compressed - 1024 || size > compressed * MAX_DEFLATE_RATIO) return null;
  const chunkSize = Math.max(size + 1, ONE_SHOT_MIN_CHUNK);
  return new Promise((resolve) => {
    zlib.gunzip(member, { chunkSize, maxOutputLength: PREFETCH_MAX_OUT }, (err, out) => {
      // zlib checked the CRC and size of the member it read; the size before the next header
      // says that member ran to it, with nothing after (a second member or padding) inside.
      if (err !== null || out.length !== size) resolve(null);
      else resolve({ out, length: member.length, exclusive: chunkSize >= Buffer.poolSize >>> 1 });
    });
  });
}

/**
 * The inflated size of the member whose deflate data starts at view[hlen], read from its gzip
 * trailer (ISIZE) when the next member's header follows in view, as in per-record files; 0 when
 * unknown. Only a hint for sizing the output buffer: a wrong one (a gzip magic met by chance
 * inside compressed data) costs a copy or some spare bytes, never a wrong result, since the
 * output is checked against the real trailer.
 */
function sizeHint(view: Buffer, hlen: number): number {
  const next = view.indexOf(MAGIC, hlen);
  if (next < hlen + TRAILER) return 0;
  const isize = view.readUInt32LE(next - 4);
  const compressed = next - hlen - TRAILER;
  // Deflate adds only a few bytes per block to data it cannot compress, so a size under half the
  // compressed one cannot be right; nor can one beyond deflate's highest ratio.
  if (isize > ONE_SHOT_MAX_OUT || isize * 2 < compressed || isize > compressed * MAX_DEFLATE_RATIO) return 0;
  return isize;
}

function gap(reason: Gap["reason"], offset: number, detail: string, extra: Partial<Gap> = {}): Gap {
  return { kind: "gap", reason, offset, detail, ...extra };
}

/** Whatever a cut-off member inflates to, up to PARTIAL_KEEP bytes; empty if even that fails. */
function inflatePartial(data: Buffer): Buffer {
  try {
    const out = zlib.inflateRawSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: ONE_SHOT_MAX_OUT });
    return out.length > PARTIAL_KEEP ? Buffer.from(out.subarray(0, PARTIAL_KEEP)) : out;
  } catch {
    return Buffer.alloc(0);
  }
}

/** True if a whole gzip member that passes its CRC check starts somewhere in view[from..]. */
function intactMemberAfter(view: Buffer, from: number): boolean {
  for (let at = view.indexOf(MAGIC, from); at >= 0; at = view.indexOf(MAGIC, at + 1)) {
    const hlen = gzipHeaderLength(view.subarray(at));
    if (hlen < 0) continue;
    try {
      const res = zlib.inflateRawSync(view.subarray(at + hlen), { info: true, maxOutputLength: ONE_SHOT_MAX_OUT }) as unknown as Inflated;
      const end = at + hlen + res.engine.bytesWritten;
      if (end + TRAILER <= view.length && checkTrailer(view.subarray(end, end + TRAILER), res.buffer)) return true;
    } catch {
      // Not a member (a chance magic inside compressed data), or not a whole one.
    }
  }
  return false;
}

function checkTrailer(trailer: Buffer, out: Buffer): boolean {
  if (trailer.readUInt32LE(4) !== out.length % 2 ** 32) return false;
  return !crc32 || trailer.readUInt32LE(0) === crc32(out) >>> 0;
}

function isAllZero(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}
