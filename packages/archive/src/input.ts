// Opening inputs (a file path or "-" for stdin) as a stream of byte chunks, and expanding
// directories into the archive and HTML files they hold.
//
// Input paths are strings, but file names are bytes: a name that is not valid UTF-8 is kept in
// its string with each bad byte as a lone surrogate U+DC80..U+DCFF (as Python's surrogateescape
// does), which no valid name decodes to; fsPath turns such a string back into the exact bytes.
// Reported names are lossy (a lone surrogate is written as U+FFFD) but the file is read.

import { isUtf8 } from "node:buffer";
import { type Dirent, promises as fsp } from "node:fs";
import path from "node:path";
import { ArchiveOpenError } from "./errors.js";
import type { OpenedInput } from "./types.js";

/** A lone surrogate standing for a byte of a name that is not UTF-8 (not half of a pair). */
const ESCAPED_BYTE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;

/** A file name (or path) from its bytes, bytes that are not UTF-8 escaped (see above). */
export function nameFromBytes(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString("utf8");
  let out = "";
  let from = 0;
  for (let i = 0; i < bytes.length; ) {
    const n = utf8Sequence(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out += bytes.toString("utf8", from, i) + String.fromCharCode(0xdc00 | bytes[i]);
    from = ++i;
  }
  return out + bytes.toString("utf8", from);
}

/** Length of the valid UTF-8 sequence at bytes[i], or 0. */
function utf8Sequence(bytes: Buffer, i: number): number {
  const lead = bytes[i];
  const n = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  return n > 0 && i + n <= bytes.length && isUtf8(bytes.subarray(i, i + n)) ? n : 0;
}

/** The path to hand to the file system for an input path: its exact bytes when it holds escaped ones. */
export function fsPath(input: string): string | Buffer {
  if (!ESCAPED_BYTE.test(input)) return input;
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    const prev = i > 0 ? input.charCodeAt(i - 1) : 0;
    if (c >= 0xdc80 && c <= 0xdcff && !(prev >= 0xd800 && prev <= 0xdbff)) {
      parts.push(Buffer.from(input.slice(from, i), "utf8"), Buffer.from([c - 0xdc00]));
      from = i + 1;
    }
  }
  parts.push(Buffer.from(input.slice(from), "utf8"));
  return Buffer.concat(parts);
}

/** Bytes per read: large enough that per-read overhead vanishes, small enough to stay cache-friendly. */
const READ_CHUNK = 1 << 20;

/**
 * Opens a file or stdin. Rejects with ArchiveOpenError when the input cannot be opened;
 * a later read failure is passed to `onError` and ends the chunk stream instead of throwing.
 */
export async function openInput(
  input: string,
  onProgress: ((bytes: number) => void) | undefined,
  onError: (err: unknown) => void,
): Promise<OpenedInput> {
  if (input === "-") {
    return {
      chunks: readStream(process.stdin, onProgress, onError),
      mtime: new Date(),
      size: undefined,
      close: async () => {},
    };
  }
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(fsPath(input), "r");
  } catch (err) {
    throw ArchiveOpenError.from(input, err);
  }
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw new ArchiveOpenError(input, "is a directory", { code: "EISDIR" });
    let closed = false;
    return {
      chunks: readFile(handle, st.isFile() ? st.size : undefined, onProgress, onError),
      mtime: st.mtime,
      size: st.isFile() ? st.size : undefined,
      close: async () => {
        if (closed) return;
        closed = true;
        await handle.close().catch(() => {});
      },
    };
  } catch (err) {
    await handle.close().catch(() => {});
    throw err instanceof ArchiveOpenError ? err : ArchiveOpenError.from(input, err);
  }
}

async function* readFile(
  handle: fsp.FileHandle,
  size: number | undefined,
  onProgress: ((bytes: number) => void) | undefined,
  onError: (err: unknown) => void,
): AsyncGenerator<Buffer> {
  let total = 0;
  const read = async (from: number): Promise<Buffer | Error> => {
    // A fresh buffer per read, as downstream code may keep views into earlier chunks; sized
    // to what is left, so that many small files do not each cost a full chunk.
    const want = size === undefined ? READ_CHUNK : Math.min(READ_CHUNK, Math.max(size - from, 4096));
    const buf = Buffer.allocUnsafe(want);
    try {
      const { bytesRead } = await handle.read(buf, 0, want, null);
      return bytesRead === want ? buf : buf.subarray(0, bytesRead);
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  };
  let next = read(0);
  for (;;) {
    const chunk = await next;
    if (chunk instanceof Error) {
      onError(chunk);
      return;
    }
    if (chunk.length === 0) return;
    total += chunk.length;
    // Read ahead: the disk works on the next chunk while the caller parses this one.
    next = read(total);
    onProgress?.(total);
    yield chunk;
  }
}

async function* readStream(
  stream: NodeJS.ReadableStream,
  onProgress: ((bytes: number) => void) | undefined,
  onError: (err: unknown) => void,
): AsyncGenerator<Buffer> {
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buf = typeof chunk === "string" ? Buffer.from(chunk, "latin1") : (chunk as Buffer);
      total += buf.length;
      onProgress?.(total);
      yield buf;
    }
  } catch (err) {
    onError(err);
  }
}

export type FormatHint = "warc" | "arc" | "html" | undefined;

const INPUT_SUFFIXES = [".warc", ".warc.gz", ".warc.zst", ".arc", ".arc.gz", ".html", ".htm", ".html.gz", ".htm.gz"];

/** What the file name says the content is; content sniffing has the last word. */
export function formatHint(input: string): FormatHint {
  const name = input.toLowerCase().replace(/\.(gz|zst)$/, "");
  if (name.endsWith(".warc")) return "warc";
  if (name.endsWith(".arc")) return "arc";
  if (name.endsWith(".html") || name.endsWith(".htm")) return "html";
  return undefined;
}

function isInputFile(name: string): boolean {
  const lower = name.toLowerCase();
  return INPUT_SUFFIXES.some((s) => lower.endsWith(s));
}

/**
 * Turns the given paths into input files: files are kept as given (whatever their name), "-"
 * stays stdin, and directories are walked recursively for .warc, .arc, .html and .htm files
 * (plain or .gz), sorted by path. Symbolic links to directories are followed, each directory
 * walked once. Rejects with ArchiveOpenError naming the first path that does not exist or
 * cannot be listed.
 */
export async function expandInputs(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    if (p === "-") {
      out.push(p);
      continue;
    }
    let st: Awaited<ReturnType<typeof fsp.stat>>;
    try {
      st = await fsp.stat(fsPath(p));
    } catch (err) {
      throw ArchiveOpenError.from(p, err);
    }
    if (st.isDirectory()) {
      const found: string[] = [];
      await walk(p, found);
      found.sort(comparePaths);
      out.push(...found);
    } else {
      out.push(p);
    }
  }
  return out;
}

/**
 * Walks a directory tree. Linked directories are walked after the tree itself, so that one
 * reached both ways is listed under its own path; each directory is walked once (known by
 * device and inode), so link cycles end.
 */
async function walk(root: string, into: string[]): Promise<void> {
  const seen = new Set<string>();
  const linked: string[] = [];
  await walkDir(root, into, seen, linked);
  for (let dir = linked.shift(); dir !== undefined; dir = linked.shift()) await walkDir(dir, into, seen, linked);
}

async function walkDir(dir: string, into: string[], seen: Set<string>, linked: string[]): Promise<void> {
  let entries: Dirent<Buffer>[];
  try {
    const st = await fsp.stat(fsPath(dir), { bigint: true });
    const id = `${st.dev}:${st.ino}`;
    if (seen.has(id)) return;
    seen.add(id);
    // Names as bytes: one that is not UTF-8 would not survive a trip through a string.
    entries = await fsp.readdir(fsPath(dir), { withFileTypes: true, encoding: "buffer" });
  } catch (err) {
    throw ArchiveOpenError.from(dir, err);
  }
  entries.sort((a, b) => Buffer.compare(a.name, b.name));
  for (const e of entries) {
    const name = nameFromBytes(e.name);
    const full = path.join(dir, name);
    if (e.isDirectory()) {
      await walkDir(full, into, seen, linked);
    } else if (e.isFile()) {
      if (isInputFile(name)) into.push(full);
    } else if (e.isSymbolicLink()) {
      const st = await fsp.stat(fsPath(full)).catch(() => undefined);
      if (st?.isDirectory()) linked.push(full);
      else if (st?.isFile() && isInputFile(name)) into.push(full);
    }
  }
}

/** Code-unit order, so the listing is the same whatever the locale. */
function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
