// Pull-based buffered reader over the piece stream: the handful of operations record parsers
// need (peek, read a header block, read or skip N bytes, seek to a line or a magic), each done
// with Buffer.indexOf / subarray over whole pieces rather than byte loops.

import { releaseCopy, releasePiece } from "./owned.js";
import type { Gap, Piece } from "./source.js";

const EMPTY = Buffer.alloc(0);
const LF = 0x0a;
const CR = 0x0d;
const LF_LF = Buffer.from("\n\n");
const LF_CRLF = Buffer.from("\n\r\n");

/** Thrown by any read that runs into lost bytes; the reader is then positioned after them. */
export class GapError extends Error {
  constructor(readonly gap: Gap) {
    super(gap.detail);
  }
}

/** Result of a bounded search: found bytes, the input ended first, or the limit was reached. */
export type Bounded = Buffer | "eof" | "limit";

export class ByteReader {
  private buf: Buffer = EMPTY;
  private pos = 0;
  /** Stream position of buf[0]. */
  private base = 0;
  private done = false;
  /** A gap met while looking ahead, not yet raised. */
  private gap: Gap | null = null;
  /** Views of buf handed out by take(): record bodies (see owned.ts). */
  private takes = 0;
  /**
   * Pieces read by peekAt but not yet joined to buf, in order (a gap, if any, last). Looking
   * past a record's end must not copy the pieces it reaches into: they are handed to buf later
   * as they are, just as if they had been read then.
   */
  private ahead: Piece[] = [];
  private aheadBytes = 0;
  /** The piece stream has ended (pieces may still wait in `ahead`). */
  private drained = false;

  constructor(private readonly pieces: AsyncIterator<Piece>) {}

  /** Stream position of the next unread byte. */
  get position(): number {
    return this.base + this.pos;
  }

  /** Unread bytes already in memory. */
  get buffered(): number {
    return this.buf.length - this.pos;
  }

  /**
   * Brings in more input, joined to what is left unread; false at the end of input.
   * At a gap, the unread bytes belong to the damaged stretch: they are dropped and GapError is
   * thrown. A `soft` caller (one that only looks ahead) gets false instead while bytes remain,
   * and the gap is raised by the next read that needs to go past them.
   */
  private async more(soft = false): Promise<boolean> {
    if (this.gap) return this.atGap(soft);
    const rest = this.buffered;
    const parts: Buffer[] = rest ? [this.buf.subarray(this.pos)] : [];
    let have = rest;
    // Take in at least as much as is left over, so a buffer grown from small pieces doubles
    // at each join and the copying stays linear.
    while (have < 2 * rest || have === rest) {
      if (this.done) break;
      const piece = await this.nextPiece();
      if (piece === null) {
        this.done = true;
        break;
      }
      if (!Buffer.isBuffer(piece)) {
        this.gap = piece;
        break;
      }
      if (piece.length === 0) continue;
      parts.push(piece);
      have += piece.length;
    }
    if (have === rest) return this.gap ? this.atGap(soft) : false;
    this.base += this.pos;
    this.replace(parts.length === 1 ? parts[0] : Buffer.concat(parts, have));
    this.pos = 0;
    return true;
  }

  private async nextPiece(): Promise<Piece | null> {
    const queued = this.ahead.shift();
    if (queued !== undefined) {
      if (Buffer.isBuffer(queued)) this.aheadBytes -= queued.length;
      return queued;
    }
    if (this.drained) return null;
    const r = await this.pieces.next();
    if (r.done) {
      this.drained = true;
      return null;
    }
    return r.value;
  }

  private atGap(soft: boolean): false {
    if (soft && this.buffered > 0) return false;
    const gap = this.gap as Gap;
    this.gap = null;
    this.base += this.buf.length;
    this.replace(EMPTY);
    this.pos = 0;
    throw new GapError(gap);
  }

  /** Lets go of buf (what is still unread of it has been copied into `next`, or is lost). */
  private replace(next: Buffer): void {
    releasePiece(this.buf, this.takes);
    this.takes = 0;
    this.buf = next;
  }

  /** Makes at least n bytes available if the input has them. */
  private async ensure(n: number, soft = false): Promise<boolean> {
    while (this.buffered < n) if (!(await this.more(soft))) return false;
    return true;
  }

  /** Up to n bytes from the current position, without consuming them (fewer at the end). */
  async peek(n: number): Promise<Buffer> {
    await this.ensure(n, true);
    return this.buf.subarray(this.pos, this.pos + n);
  }

  /**
   * Up to n bytes found `offset` bytes past the current position, without consuming them and
   * without joining the pieces read to reach them; fewer than n where the input or a gap ends
   * first, and "short" if that is before `offset`. Memory grows with `offset`: callers bound it.
   */
  async peekAt(offset: number, n: number): Promise<Buffer | "short"> {
    const want = offset + n;
    // A gap already met, or one queued last in `ahead`, ends what can be seen.
    while (this.buffered + this.aheadBytes < want && !this.gap && !this.drained) {
      const last = this.ahead.at(-1);
      if (last !== undefined && !Buffer.isBuffer(last)) break;
      const r = await this.pieces.next();
      if (r.done) this.drained = true;
      else {
        this.ahead.push(r.value);
        if (Buffer.isBuffer(r.value)) this.aheadBytes += r.value.length;
      }
    }
    // Bytes past a pending gap are not contiguous with buf: only buf can be seen then.
    const seen = this.gap ? 0 : this.ahead.length;
    let skip = this.pos + offset;
    let piece = this.buf;
    let k = 0;
    while (skip >= piece.length) {
      const next = k < seen ? this.ahead[k] : undefined;
      if (!Buffer.isBuffer(next)) return skip > piece.length ? "short" : EMPTY;
      skip -= piece.length;
      piece = next;
      k++;
    }
    const first = piece.subarray(skip, skip + n);
    if (first.length === n) return first;
    const parts = [first];
    let got = first.length;
    for (; k < seen && got < n; k++) {
      const next = this.ahead[k];
      if (!Buffer.isBuffer(next)) break;
      const part = next.subarray(0, n - got);
      parts.push(part);
      got += part.length;
    }
    return Buffer.concat(parts, got);
  }

  async startsWith(prefix: Buffer): Promise<boolean> {
    await this.ensure(prefix.length, true);
    return this.buffered >= prefix.length && this.buf.compare(prefix, 0, prefix.length, this.pos, this.pos + prefix.length) === 0;
  }

  /** Skips CR, LF, space and tab; false if the input ends first. */
  async skipBlank(): Promise<boolean> {
    for (;;) {
      const b = this.buf;
      let p = this.pos;
      while (p < b.length && (b[p] === LF || b[p] === CR || b[p] === 0x20 || b[p] === 0x09)) p++;
      this.pos = p;
      if (p < b.length) return true;
      if (!(await this.more())) return false;
    }
  }

  /**
   * Reads a header block: everything up to and including the first empty line (CRLF or LF
   * line ends), if it ends within `max` bytes. Nothing is consumed unless a block is returned.
   */
  async readHead(max: number): Promise<Bounded> {
    let from = this.pos;
    for (;;) {
      const end = Math.min(this.buf.length, this.pos + max);
      const stop = findBlankLine(this.buf, from, end);
      if (stop >= 0) {
        const head = this.buf.subarray(this.pos, stop);
        this.pos = stop;
        return head;
      }
      if (end - this.pos >= max) return "limit";
      const scanned = this.buffered;
      if (!(await this.more())) return "eof";
      from = this.pos + Math.max(0, scanned - 2); // a terminator may straddle the join
    }
  }

  /** Reads one line (without its line end) if it ends within `max` bytes. */
  async readLine(max: number): Promise<Bounded> {
    let from = this.pos;
    for (;;) {
      const end = Math.min(this.buf.length, this.pos + max + 1);
      const nl = this.buf.subarray(from, end).indexOf(LF);
      if (nl >= 0) {
        const stop = from + nl;
        const line = this.buf.subarray(this.pos, stop > this.pos && this.buf[stop - 1] === CR ? stop - 1 : stop);
        this.pos = stop + 1;
        return line;
      }
      if (end - this.pos > max) return "limit";
      const scanned = this.buffered;
      if (!(await this.more())) return "eof";
      from = this.pos + scanned;
    }
  }

  /** Reads n bytes (fewer if the input ends first) as one buffer that does not pin much else. */
  async take(n: number): Promise<Buffer> {
    if (this.buffered >= n) {
      const view = this.buf.subarray(this.pos, this.pos + n);
      this.pos += n;
      // A view is free; copy only when it would keep a much larger piece alive.
      if (view.length * 2 < view.buffer.byteLength) {
        const copy = Buffer.from(view);
        releaseCopy(copy);
        return copy;
      }
      this.takes++;
      return view;
    }
    const parts: Buffer[] = [];
    let got = 0;
    while (got < n) {
      if (this.buffered === 0 && !(await this.more())) break;
      const k = Math.min(n - got, this.buffered);
      parts.push(this.buf.subarray(this.pos, this.pos + k));
      // Read again (joined) only after more() has let go of buf: it must not count as released.
      this.takes++;
      this.pos += k;
      got += k;
    }
    const joined = Buffer.concat(parts, got);
    releaseCopy(joined);
    return joined;
  }

  /** Skips n bytes; returns how many there were. */
  async skip(n: number): Promise<number> {
    let left = n;
    for (;;) {
      const k = Math.min(left, this.buffered);
      this.pos += k;
      left -= k;
      if (left === 0 || !(await this.more())) return n - left;
    }
  }

  /** Reads to the end of input, giving up (and returning "limit") past `max` bytes. */
  async readAll(max: number): Promise<Buffer | "limit"> {
    while (!this.done) {
      if (this.buffered > max) return "limit";
      await this.more();
    }
    if (this.buffered > max) return "limit";
    return this.take(this.buffered);
  }

  /**
   * Moves to the next occurrence of `magic` at any byte offset, the current position included,
   * for which `accept` holds; it is shown the `need` bytes from there (fewer at the end of
   * input). With a `limit`, only occurrences that start within `limit` bytes count, and the
   * reader stops that far on ("limit"). "eof": none, everything consumed.
   */
  async seekMagic(magic: Buffer, need: number, accept: (bytes: Buffer) => boolean, limit = Infinity): Promise<SeekResult> {
    const stop = this.position + limit;
    for (;;) {
      // Index in buf where the limit falls; an occurrence must start before it.
      const end = stop - this.base;
      const hay = end + magic.length - 1 < this.buf.length ? this.buf.subarray(0, end + magic.length - 1) : this.buf;
      const i = hay.indexOf(magic, this.pos);
      if (i >= 0) {
        this.pos = i;
        if (this.buffered < need) await this.ensure(need, true);
        if (accept(this.buf.subarray(this.pos, this.pos + need))) return "found";
        this.pos++;
        continue;
      }
      if (end <= this.buf.length) {
        this.pos = end;
        return "limit";
      }
      // Keep only a tail that may begin the magic: joining a kept tail to the next piece copies it.
      this.pos = Math.max(this.pos, this.buf.length - partialAtEnd(this.buf, magic));
      if (!(await this.more())) {
        this.pos = this.buf.length;
        return "eof";
      }
    }
  }

  /**
   * Moves to the next line (the current position counts as a line start) in which `find` finds
   * what is wanted, to the offset in the line that it returns (-1: not in this line). Lines
   * longer than `maxLine` are passed over. With a `limit`, only finds that start within `limit`
   * bytes count, and the reader stops that far on ("limit"). "eof": none, all consumed.
   */
  async seekLineWhere(find: (line: Buffer) => number, maxLine: number, limit = Infinity): Promise<SeekResult> {
    const stop = this.position + limit;
    const stopHere = (): SeekResult => {
      this.pos = stop - this.base;
      return "limit";
    };
    for (;;) {
      if (this.base + this.pos >= stop) return stopHere();
      // The current line: whole, or known to be too long.
      let nl = this.buf.indexOf(LF, this.pos);
      while (nl < 0 && this.buffered <= maxLine) {
        const scanned = this.buffered;
        if (!(await this.more())) {
          if (this.base + this.buf.length > stop) return stopHere();
          this.pos = this.buf.length;
          return "eof";
        }
        nl = this.buf.indexOf(LF, this.pos + scanned);
      }
      if (nl >= 0 && nl - this.pos <= maxLine) {
        const end = nl > this.pos && this.buf[nl - 1] === CR ? nl - 1 : nl;
        const at = find(this.buf.subarray(this.pos, end));
        if (at >= 0 && this.base + this.pos + at < stop) {
          this.pos += at;
          return "found";
        }
        if (this.base + nl + 1 > stop) return stopHere();
        this.pos = nl + 1;
        continue;
      }
      // Too long to be wanted: skip to its end.
      for (;;) {
        const i = this.buf.indexOf(LF, this.pos);
        if (i >= 0) {
          if (this.base + i + 1 > stop) return stopHere();
          this.pos = i + 1;
          break;
        }
        if (this.base + this.buf.length >= stop) return stopHere();
        this.pos = this.buf.length;
        if (!(await this.more())) return "eof";
      }
    }
  }
}

export type SeekResult = "found" | "limit" | "eof";

/** Length of the longest proper prefix of `magic` that `buf` ends with. */
function partialAtEnd(buf: Buffer, magic: Buffer): number {
  for (let k = Math.min(magic.length - 1, buf.length); k > 0; k--) {
    if (buf.compare(magic, 0, k, buf.length - k) === 0) return k;
  }
  return 0;
}

/** Index just past the first empty line in buf[from, end), or -1. */
function findBlankLine(buf: Buffer, from: number, end: number): number {
  if (end - from < 2) return -1;
  const win = buf.subarray(from, end);
  const crlf = win.indexOf(LF_CRLF);
  // LF-only heads are rare; look for them only before the CRLF match, to keep the scan short.
  const lf = (crlf >= 0 ? win.subarray(0, crlf + 2) : win).indexOf(LF_LF);
  if (lf >= 0 && (crlf < 0 || lf < crlf)) return from + lf + 2;
  if (crlf >= 0) return from + crlf + 3;
  return -1;
}
