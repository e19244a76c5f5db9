// zstd-compressed WARCs (.warc.zst) as the IIPC profile writes them: each record its own zstd
// frame, and optionally, first in the file, a skippable frame (magic 0x184D2A5D) holding the
// dictionary the records were compressed with, itself zstd-compressed or not. Decoded with
// zstd-napi's binding of the reference library (a stream context, so memory stays bounded by
// its window whatever the input size); the stored offset of every frame is kept, so records get
// their offsets as in per-record gzip.

import { Decompressor } from "zstd-napi";
// The binding itself (a CommonJS module, so no named imports): the stream context with a
// dictionary, which zstd-napi's DecompressStream does not offer.
import binding from "zstd-napi/binding.js";
import type { Gap, Piece, PieceSource } from "./source.js";
import type { InputWindow } from "./window.js";
import { MemberStarts } from "./member-starts.js";

const FRAME_MAGIC = 0xfd2fb528;
const DICTIONARY_FRAME = 0x184d2a5d;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_START = 0x184d2a50;
/** A dictionary larger than this is not one (zstd's trainer writes 110 KB by default). */
const MAX_DICTIONARY = 64 << 20;
const OUT_SIZE = binding.dStreamOutSize();

type DCtx = InstanceType<typeof binding.DCtx>;

/** A zstd frame, or a skippable frame (the IIPC dictionary), at the start of `head`. */
export function isZstd(head: Buffer): boolean {
  if (head.length < 4) return false;
  const magic = head.readUInt32LE(0);
  return magic === FRAME_MAGIC || (magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_START;
}

export class ZstdSource implements PieceSource {
  /** Where each member starts: its output position and its stored offset. */
  private readonly starts = new MemberStarts();

  constructor(private readonly win: InputWindow) {}

  offsetAt(pos: number): number {
    return this.starts.offsetAt(pos);
  }

  memberAfter(pos: number): number {
    return this.starts.memberAfter(pos);
  }

  async *pieces(): AsyncGenerator<Piece> {
    const win = this.win;
    const dctx = new binding.DCtx();
    const problem = await this.loadDictionary(dctx);
    if (problem !== null) {
      yield problem;
      return;
    }
    let pos = 0;
    let inFrame = false;
    let flushing = false;
    for (;;) {
      if (win.available === 0) await win.fill(1);
      const src = win.view();
      if (src.length === 0 && !flushing) break;
      if (!inFrame && src.length > 0) this.starts.add(pos, win.offset);
      const dst = Buffer.allocUnsafe(OUT_SIZE);
      let result: [number, number, number];
      try {
        result = dctx.decompressStream(dst, src);
      } catch (error) {
        yield gap("corrupt", win.offset, `zstd: ${(error as Error).message}`);
        return;
      }
      const [left, produced, consumed] = result;
      win.advance(consumed);
      inFrame = left !== 0;
      flushing = produced === dst.length;
      if (produced > 0) {
        pos += produced;
        // A small piece gets a buffer of its own, so a full-size one is not held for it.
        yield produced < OUT_SIZE / 2 ? Buffer.from(dst.subarray(0, produced)) : dst.subarray(0, produced);
      }
    }
    if (inFrame) yield gap("truncated", win.offset, "the input ends inside a zstd frame");
  }

  /** Loads the dictionary of a leading dictionary frame, if there is one; a gap if it cannot be used. */
  private async loadDictionary(dctx: DCtx): Promise<Gap | null> {
    const win = this.win;
    await win.fill(8);
    const head = win.view();
    if (head.length < 8 || head.readUInt32LE(0) !== DICTIONARY_FRAME) return null;
    const size = head.readUInt32LE(4);
    if (size > MAX_DICTIONARY || !(await win.fill(8 + size))) return gap("truncated", 0, "the zstd dictionary frame is cut short");
    let dictionary: Uint8Array = Buffer.from(win.view().subarray(8, 8 + size));
    win.advance(8 + size);
    try {
      if (dictionary.length >= 4 && Buffer.from(dictionary.buffer, dictionary.byteOffset, 4).readUInt32LE(0) === FRAME_MAGIC) {
        dictionary = new Decompressor().decompress(dictionary);
      }
      dctx.loadDictionary(dictionary);
    } catch (error) {
      return gap("corrupt", 0, `zstd dictionary: ${(error as Error).message}`);
    }
    return null;
  }
}

function gap(reason: Gap["reason"], offset: number, detail: string): Gap {
  return { kind: "gap", reason, offset, detail, taints: true };
}
