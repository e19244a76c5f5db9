// How a format's records follow each other: what a record start looks like, where the next
// one is, and (see checkLength, to come) what a record's block is followed by.

import type { ByteReader, SeekResult } from "./reader.js";

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
