/**
 * Where the members of a compressed stream (gzip members, zstd frames) start: the position of
 * each in the decompressed stream and its offset in the stored bytes, oldest first. The record
 * reader asks which member a record starts at, to report the record's stored offset.
 */
export class MemberStarts {
  private starts: { pos: number; offset: number }[] = [];

  add(pos: number, offset: number): void {
    this.starts.push({ pos, offset });
  }

  /** The stored offset of the member starting at decompressed position `pos`, or -1 (mid-member). Forgets earlier members. */
  offsetAt(pos: number): number {
    const s = this.starts;
    let drop = 0;
    while (drop < s.length && s[drop].pos < pos) drop++;
    if (drop) s.splice(0, drop);
    // Members with no output (empty gzip members, skippable zstd frames) share a position with
    // the next; the last is where the bytes are.
    let found = -1;
    for (let i = 0; i < s.length && s[i].pos === pos; i++) found = s[i].offset;
    return found;
  }

  /** Where the first member after decompressed position `pos` starts, or -1. */
  memberAfter(pos: number): number {
    for (const s of this.starts) if (s.pos > pos) return s.pos;
    return -1;
  }
}
