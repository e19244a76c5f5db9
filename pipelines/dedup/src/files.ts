/**
 * Small file helpers of the passes: files written whole under a temporary name and renamed, so a
 * task killed midway leaves no file that looks finished; a pass's summary file, written last,
 * is its done marker.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";

export function tempOf(path: string): string {
  return `${path}.tmp-${process.pid}`;
}

/** A file written in appended chunks, renamed into place by finish(). */
export class AtomicFile {
  readonly path: string;
  readonly fd: number;
  #buffer: Buffer[] = [];
  #buffered = 0;

  private constructor(path: string) {
    this.path = path;
    this.fd = openSync(tempOf(path), "w");
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
    renameSync(tempOf(this.path), this.path);
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
