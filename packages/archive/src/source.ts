// The byte stream that record parsers read: decompressed (or raw) pieces of the input, with
// markers where bytes were lost, and a map back to stored offsets.

import type { InputWindow } from "./window.js";

/** Bytes were lost here (a corrupt or truncated gzip member, or garbage between members). */
export interface Gap {
  kind: "gap";
  reason: "corrupt" | "truncated";
  /** Stored offset where the damage starts. */
  offset: number;
  detail: string;
  /**
   * The bytes just before the gap came from the member it reports on and could not be checked
   * (a streamed member that failed, or lost its end): a record ending there is not trusted.
   */
  taints?: boolean;
  /** Start of what a damaged member held, not handed out as data: only to name its record. */
  partial?: Buffer;
}

export type Piece = Buffer | Gap;

export interface PieceSource {
  pieces(): AsyncGenerator<Piece>;
  /**
   * Stored offset of the byte at stream position `pos` (positions count the bytes handed out),
   * or -1 when it cannot be addressed (a record starting inside a gzip member). Called with
   * increasing positions, so sources may forget what lies behind.
   */
  offsetAt(pos: number): number;
  /**
   * Stream position where the first gzip member known to start after `pos` starts, or -1 (none
   * read that far, or no members). Members are known once their first bytes have been handed out.
   */
  memberAfter(pos: number): number;
}

/** Uncompressed input: the stream is the input, so positions are offsets. */
export class PlainSource implements PieceSource {
  constructor(private readonly win: InputWindow) {}

  offsetAt(pos: number): number {
    return pos;
  }

  memberAfter(): number {
    return -1;
  }

  async *pieces(): AsyncGenerator<Piece> {
    const win = this.win;
    while (win.available > 0 || (await win.fill(1))) {
      const bytes = win.view();
      win.advance(bytes.length);
      yield bytes;
    }
  }
}
