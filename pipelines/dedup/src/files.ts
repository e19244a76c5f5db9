/**
 * Small file helpers of the passes: files written whole under a temporary name and renamed, so a
 * task killed midway leaves no file that looks finished; a pass's summary file, written last,
 * is its done marker.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname } from "node:path";

/**
 * A temporary name beside `path` that no other task uses, on this machine or on another sharing
 * the state folder (host, pid and random bytes): two tasks doing the same item at once each
 * write their own file, and whichever renames last leaves a whole one.
 */
export function tempOf(path: string): string {
  return `${path}.tmp-${hostname().replace(/[^A-Za-z0-9-]/g, "_")}-${process.pid}-${randomBytes(4).toString("hex")}`;
}

/** A file written in appended chunks, renamed into place by finish(). */
export class AtomicFile {
  readonly path: string;
  readonly fd: number;
  readonly #temp: string;
  #buffer: Buffer[] = [];
  #buffered = 0;

  private constructor(path: string) {
    this.path = path;
    this.#temp = tempOf(path);
    this.fd = openSync(this.#temp, "w");
  }

  static async open(path: string): Promise<AtomicFile> {
    await mkdir(dirname(path), { recursive: true });
    return new AtomicFile(path);
  }

  write(data: Buffer | string): void {
    const buf = typeof data === "string" ? Buffer.from(data) : data;
    this.#buffer.push(buf);
    this.#buffered += buf.length;
    if (this.#buffered >= 1 << 20) this.flush();
  }

  flush(): void {
    if (this.#buffered === 0) return;
    const all = Buffer.concat(this.#buffer, this.#buffered);
    let off = 0;
    while (off < all.length) off += writeSync(this.fd, all, off, all.length - off);
    this.#buffer = [];
    this.#buffered = 0;
  }

  finish(): void {
    this.flush();
    fsyncSync(this.fd);
    closeSync(this.fd);
    renameSync(this.#temp, this.path);
  }

  /** Closes and removes the temporary file of a task that failed. */
  discard(): void {
    try {
      closeSync(this.fd);
    } catch {
      // Closed already.
    }
    try {
      unlinkSync(this.#temp);
    } catch {
      // Gone already.
    }
  }
}

export async function writeJson(path: string, value: unknown): Promise<void> {
  const f = await AtomicFile.open(path);
  f.write(`${JSON.stringify(value, null, 2)}\n`);
  f.finish();
}

export function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}
