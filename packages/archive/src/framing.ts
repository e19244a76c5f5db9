// Where records end. A record's stated length (WARC Content-Length, ARC length) is checked
// before its block is read: the block must be followed, after blank bytes, by the next record
// or the end of input. A length that fails is wrong, the record is reported, and reading
// resumes just after its head, where the format's resync finds the next record; trusting it
// instead would swallow every record the stated length covers.
//
// The check looks at bytes the reader has mostly buffered already (a record and what follows
// it usually sit in one piece), pulling pieces ahead without copying them where it must. Blocks
// longer than CHECK_AHEAD are not pulled ahead: they are skipped with the resync's scan instead
// (Buffer.indexOf, at several GB/s), which stops at a record found inside them.

import type { ReadContext } from "./payload.js";
import type { ByteReader, SeekResult } from "./reader.js";
import type { SkipReason } from "./types.js";

/** How a format's records follow each other. */
export interface Framing {
  /** What the format calls a record's stated length, for details. */
  lengthName: string;
  /** What follows a record's block in a well-formed file. */
  terminators: readonly Buffer[];
  /** Bytes to look at after a block at first; more are looked at if they do not tell. */
  tail: number;
  /** Whether a record starts at bytes[at]; null when the bytes stop too soon to tell (never when `ended`). */
  startsAt(bytes: Buffer, at: number, ended: boolean): boolean | null;
  /** Index of the first record start in bytes[0, end), or -1. */
  find(bytes: Buffer, end: number): number;
  /** Moves the reader to the next record start within `limit` bytes (see ByteReader.seekMagic). */
  seek(r: ByteReader, limit: number): Promise<SeekResult>;
}

/** Blocks up to this long are checked by looking past them (records to be kept, at any length up to maxPageBytes). */
export const CHECK_AHEAD = 1 << 20;
/** Looking past a block stops here: a run of blanks this long is taken as the end. */
const MAX_TAIL = 64 << 10;

/** A record cut short or run long by its stated length, once it is known to be. */
export interface Damage {
  reason: SkipReason;
  detail: string;
}

/** A block too long to check ahead, to be skipped with a scan for records (see skipRest). */
export interface Guard {
  framing: Framing;
  length: number;
  /** Stream positions of the record's head and block. */
  recordStart: number;
  blockStart: number;
  /** The record's stored offset: -1 inside a gzip member, so >= 0 in a gzip file at a member start. */
  offset: number;
}

/**
 * Checks a record's stated length before its block, which starts at the reader's position, is
 * read. Returns why it is wrong, or null when it holds or cannot be told from here (the input
 * ends inside the block with no record in it: reading the block reports that).
 */
export async function checkLength(
  ctx: ReadContext,
  framing: Framing,
  length: number,
  recordStart: number,
  offset: number,
): Promise<Damage | null> {
  const r = ctx.reader;
  const where = { framing, length, recordStart, blockStart: r.position, offset };
  for (let n = framing.tail; ; n *= 8) {
    const tail = await r.peekAt(length, n);
    if (tail === "short") {
      // The input ends inside the block: a cut record, unless records follow within it.
      const block = await r.peek(length);
      const at = framing.find(block, block.length);
      return at < 0 ? null : damage(ctx, where, at);
    }
    const ended = tail.length < n;
    let i = 0;
    while (i < tail.length && isBlank(tail[i])) i++;
    const next = i < tail.length ? framing.startsAt(tail, i, ended) : ended || null;
    if (next === true) return null;
    if (next === false || n >= MAX_TAIL) break;
  }
  // Something else follows: garbage after a whole record (its terminator is in place and no
  // record starts inside it), or a wrong length.
  const block = await r.peek(length + 4);
  const at = framing.find(block, length);
  if (at < 0 && framing.terminators.some((t) => block.compare(t, 0, t.length, length, length + t.length) === 0)) return null;
  return damage(ctx, where, at);
}

/**
 * Skips `n` bytes of a guarded block, stopping at a record found inside it. Returns the damage
 * when one is (the reader is left at that record), else how many bytes were skipped.
 */
export async function skipGuarded(ctx: ReadContext, guard: Guard, n: number): Promise<Damage | number> {
  const r = ctx.reader;
  const from = r.position;
  const found = await guard.framing.seek(r, n);
  if (found !== "found") return r.position - from;
  return damage(ctx, guard, r.position - guard.blockStart);
}

/** Why a record's stated length is wrong; `at`: where another record starts in its block (-1: none). */
function damage(ctx: ReadContext, { framing, length, recordStart, blockStart, offset }: Guard, at: number): Damage {
  // A record that starts a gzip member ends with it: a record never spans members.
  const member = offset >= 0 ? ctx.memberAfter(recordStart) : -1;
  if (member >= 0 && member < blockStart + length) {
    return {
      reason: "truncated",
      detail: `its gzip member ends ${member - blockStart} bytes into the block, short of its ${framing.lengthName} of ${length}`,
    };
  }
  const why =
    at >= 0 ? `another record starts ${at} bytes into the block` : "the block is not followed by a record or the end of the input";
  return { reason: "corrupt", detail: `wrong ${framing.lengthName} ${length}: ${why}` };
}

function isBlank(b: number): boolean {
  return b === 0x0a || b === 0x0d || b === 0x20 || b === 0x09;
}
