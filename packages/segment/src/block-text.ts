/**
 * The text of the block the segmenter is reading, kept as UTF-16 code units in one buffer that is
 * reused from block to block and page to page.
 *
 * Why a buffer and not a string: appending a block's text nodes to a string builds a rope (a cell
 * per node), which the block's end flattened into one string and then copied once more through a
 * UTF-16 Buffer, so that V8 stores the block one byte per character wherever it fits (see
 * `text()`). Here the nodes are copied into the buffer as they come and the block's string is made
 * once, from the buffer, by the same UTF-16 decoding: the same characters and the same one-byte
 * form, without the rope, its flattening or a Buffer per block
 * (benchmarks/results/2026-11-27-alloc.md).
 */

/** Enough for all but the longest blocks; the buffer doubles past it. */
const INITIAL_BYTES = 64 * 1024;
/** A buffer grown past this by one huge block goes back to INITIAL_BYTES at the next page. */
const RETAINED_BYTES = 1024 * 1024;
/** Pieces up to this long are copied unit by unit: a native write costs more for a few characters. */
const SHORT_PIECE = 32;

export class BlockText {
  private bytes: Buffer = Buffer.allocUnsafe(INITIAL_BYTES);
  /** Code units held. */
  length = 0;

  /** Appends `piece` from its unit `from` on (a leading space skipped without slicing it off). */
  append(piece: string, from = 0): void {
    const n = piece.length - from;
    if (n <= 0) return;
    const at = this.length * 2;
    if (at + piece.length * 2 > this.bytes.length) this.grow(at + piece.length * 2);
    const bytes = this.bytes;
    if (n <= SHORT_PIECE) {
      for (let i = from, b = at; i < piece.length; i++, b += 2) {
        const unit = piece.charCodeAt(i);
        bytes[b] = unit & 0xff;
        bytes[b + 1] = unit >>> 8;
      }
    } else {
      bytes.write(piece, at, piece.length * 2, "utf16le");
      // The skipped units were written too: move the rest over them (a native memmove).
      if (from > 0) bytes.copyWithin(at, at + from * 2, at + piece.length * 2);
    }
    this.length += n;
  }

  /**
   * The first `units` code units as a string: one byte per character when every character fits
   * (V8 makes a one-byte string from UTF-16 that allows it), else two. Flat, and sharing nothing
   * with the page's HTML.
   */
  text(units: number = this.length): string {
    return this.bytes.toString("utf16le", 0, units * 2);
  }

  clear(): void {
    this.length = 0;
  }

  /** Holds `s` and nothing else. */
  set(s: string): void {
    this.length = 0;
    this.append(s);
  }

  /** Empty, and back to the initial size if one block had grown it past RETAINED_BYTES. */
  reset(): void {
    this.length = 0;
    if (this.bytes.length > RETAINED_BYTES) this.bytes = Buffer.allocUnsafe(INITIAL_BYTES);
  }

  private grow(needed: number): void {
    let size = this.bytes.length * 2;
    while (size < needed) size *= 2;
    const bigger = Buffer.allocUnsafe(size);
    this.bytes.copy(bigger, 0, 0, this.length * 2);
    this.bytes = bigger;
  }
}
