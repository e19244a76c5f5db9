// A look-ahead window over the raw input chunks. It knows the input offset of every byte it
// holds, which is what record offsets into compressed files are made of.

const EMPTY = Buffer.alloc(0);

export class InputWindow {
  private buf: Buffer = EMPTY;
  private start = 0;
  /** Input offset of buf[0]. */
  private base = 0;
  private done = false;

  constructor(private readonly chunks: AsyncIterator<Buffer>) {}

  /** Input offset of the next unread byte. */
  get offset(): number {
    return this.base + this.start;
  }

  get available(): number {
    return this.buf.length - this.start;
  }

  /** True once the input has ended; unread bytes may remain. */
  get atEnd(): boolean {
    return this.done;
  }

  /** The unread bytes, as a view that stays valid after later fills. */
  view(): Buffer {
    return this.buf.subarray(this.start);
  }

  advance(n: number): void {
    this.start += n;
  }

  /**
   * Reads until at least `min` bytes are unread or the input ends; true if `min` are there.
   * Chunks are joined in one copy. When a join is needed, the window reads on to twice `min`
   * first: a per-record gzip WARC asks for a 1 MB look-ahead before each 50 KB member, and
   * joining every time copied the whole window per record (3% of a run); now each byte is
   * copied about twice.
   */
  async fill(min: number): Promise<boolean> {
    if (this.available >= min || this.done) return this.available >= min;
    const parts: Buffer[] = this.available > 0 ? [this.view()] : [];
    let have = this.available;
    while (have < min || (parts.length > 1 && have < 2 * min)) {
      const r = await this.chunks.next();
      if (r.done) {
        this.done = true;
        break;
      }
      if (r.value.length === 0) continue;
      parts.push(r.value);
      have += r.value.length;
    }
    this.base += this.start;
    this.start = 0;
    this.buf = parts.length === 1 ? parts[0] : parts.length === 0 ? EMPTY : Buffer.concat(parts, have);
    return have >= min;
  }
}
