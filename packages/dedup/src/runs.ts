/**
 * Bucket files on disk: fixed 16-byte entries (a 64-bit key and two 32-bit values, little-endian)
 * written as sorted runs of at most `runEntries` entries each, then read back merged in key order
 * across any number of runs and files. This is what keeps every pass in bounded memory: a writer
 * holds one run, a merge holds one block per run.
 *
 * In the dedup stage the key is a band key, an exact-text hash or a line hash, and the values are
 * a document's input number and row.
 */
import { closeSync, openSync, readSync, writeSync } from "node:fs";

export const ENTRY_BYTES = 16;
/** Entries in a run, at most, by default: 4 MiB of entries held while a run fills. */
export const DEFAULT_RUN_ENTRIES = 1 << 18;
/** Entries read from a run at a time while merging (64 KiB). */
const BLOCK_ENTRIES = 4096;

/** Writes entries to a file descriptor as sorted runs; `runs` lists each run's entry count. */
export class RunWriter {
  readonly runs: number[] = [];
  readonly #fd: number;
  readonly #max: number;
  readonly #hi: Uint32Array;
  readonly #lo: Uint32Array;
  readonly #a: Uint32Array;
  readonly #b: Uint32Array;
  #n = 0;

  constructor(fd: number, runEntries = DEFAULT_RUN_ENTRIES) {
    this.#fd = fd;
    this.#max = runEntries;
    this.#hi = new Uint32Array(runEntries);
    this.#lo = new Uint32Array(runEntries);
    this.#a = new Uint32Array(runEntries);
    this.#b = new Uint32Array(runEntries);
  }

  add(key: bigint, a: number, b: number): void {
    const i = this.#n++;
    this.#hi[i] = Number(key >> 32n);
    this.#lo[i] = Number(key & 0xffffffffn);
    this.#a[i] = a;
    this.#b[i] = b;
    if (this.#n === this.#max) this.#flush();
  }

  /** Writes the last run; the descriptor stays open (the caller owns it). */
  finish(): void {
    if (this.#n > 0) this.#flush();
  }

  #flush(): void {
    const n = this.#n;
    const hi = this.#hi;
    const lo = this.#lo;
    const a = this.#a;
    const b = this.#b;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((x, y) => hi[x] - hi[y] || lo[x] - lo[y] || a[x] - a[y] || b[x] - b[y]);
    const buf = Buffer.allocUnsafe(n * ENTRY_BYTES);
    for (let j = 0; j < n; j++) {
      const i = order[j];
      const o = j * ENTRY_BYTES;
      buf.writeUInt32LE(lo[i], o);
      buf.writeUInt32LE(hi[i], o + 4);
      buf.writeUInt32LE(a[i], o + 8);
      buf.writeUInt32LE(b[i], o + 12);
    }
    let off = 0;
    while (off < buf.length) off += writeSync(this.#fd, buf, off, buf.length - off);
    this.runs.push(n);
    this.#n = 0;
  }
}

/** One run of a file: its path, first entry and entry count. */
export interface RunRef {
  path: string;
  start: number;
  entries: number;
}

/** The runs of a file written by a RunWriter whose `runs` were `counts`. */
export function runsOf(path: string, counts: readonly number[]): RunRef[] {
  const refs: RunRef[] = [];
  let start = 0;
  for (const entries of counts) {
    refs.push({ path, start, entries });
    start += entries;
  }
  return refs;
}

class Cursor {
  hi = 0;
  lo = 0;
  a = 0;
  b = 0;
  readonly #fd: number;
  readonly #buf = Buffer.allocUnsafe(BLOCK_ENTRIES * ENTRY_BYTES);
  #next: number;
  readonly #end: number;
  #have = 0;
  #at = 0;

  constructor(fd: number, run: RunRef) {
    this.#fd = fd;
    this.#next = run.start;
    this.#end = run.start + run.entries;
  }

  /** Moves to the next entry; false at the end of the run. */
  advance(): boolean {
    if (this.#at === this.#have) {
      const want = Math.min(BLOCK_ENTRIES, this.#end - this.#next);
      if (want <= 0) return false;
      const bytes = want * ENTRY_BYTES;
      let got = 0;
      while (got < bytes) {
        const n = readSync(this.#fd, this.#buf, got, bytes - got, this.#next * ENTRY_BYTES + got);
        if (n === 0) throw new Error(`bucket file ends early: entry ${this.#next + got / ENTRY_BYTES} of a run ending at ${this.#end}`);
        got += n;
      }
      this.#next += want;
      this.#have = want;
      this.#at = 0;
    }
    const o = this.#at++ * ENTRY_BYTES;
    this.lo = this.#buf.readUInt32LE(o);
    this.hi = this.#buf.readUInt32LE(o + 4);
    this.a = this.#buf.readUInt32LE(o + 8);
    this.b = this.#buf.readUInt32LE(o + 12);
    return true;
  }
}

function less(x: Cursor, y: Cursor): boolean {
  return x.hi !== y.hi ? x.hi < y.hi : x.lo !== y.lo ? x.lo < y.lo : x.a !== y.a ? x.a < y.a : x.b < y.b;
}

/**
 * Every entry of `runs`, in (key, a, b) order, through `visit(hi, lo, a, b)` (the key's two
 * 32-bit halves, so that no bigint is made per entry). Memory: one 64 KiB block per run.
 */
export function mergeRuns(runs: readonly RunRef[], visit: (hi: number, lo: number, a: number, b: number) => void): void {
  const fds = new Map<string, number>();
  try {
    const heap: Cursor[] = [];
    for (const run of runs) {
      if (run.entries === 0) continue;
      let fd = fds.get(run.path);
      if (fd === undefined) {
        fd = openSync(run.path, "r");
        fds.set(run.path, fd);
      }
      const c = new Cursor(fd, run);
      if (c.advance()) heap.push(c);
    }
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
    while (heap.length > 0) {
      const top = heap[0];
      visit(top.hi, top.lo, top.a, top.b);
      if (!top.advance()) {
        const last = heap.pop() as Cursor;
        if (heap.length === 0) break;
        heap[0] = last;
      }
      siftDown(heap, 0);
    }
  } finally {
    for (const fd of fds.values()) closeSync(fd);
  }
}

function siftDown(heap: Cursor[], i: number): void {
  const n = heap.length;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) return;
    const r = l + 1;
    const m = r < n && less(heap[r], heap[l]) ? r : l;
    if (!less(heap[m], heap[i])) return;
    const t = heap[m];
    heap[m] = heap[i];
    heap[i] = t;
    i = m;
  }
}
