// Opening inputs (a file path or "-" for stdin) as a stream of byte chunks, and expanding
// directories into the archive and HTML files they hold.

import { type Dirent, promises as fsp } from "node:fs";
import path from "node:path";
import { ArchiveOpenError } from "./errors.js";

/** Bytes per read: large enough that per-read overhead vanishes, small enough to stay cache-friendly. */
const READ_CHUNK = 1 << 20;

export interface OpenedInput {
  /** Raw bytes of the input, in order. Read errors end the stream after `onError` is called. */
  chunks: AsyncIterator<Buffer>;
  /** Modification time (files) or the time of opening (stdin). */
  mtime: Date;
  /** Size in bytes when known (regular files). */
  size: number | undefined;
  close(): Promise<void>;
}

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
    handle = await fsp.open(input, "r");
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

const INPUT_SUFFIXES = [".warc", ".warc.gz", ".arc", ".arc.gz", ".html", ".htm", ".html.gz", ".htm.gz"];

/** What the file name says the content is; content sniffing has the last word. */
export function formatHint(input: string): FormatHint {
  const name = input.toLowerCase().replace(/\.gz$/, "");
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
 * (plain or .gz), sorted by path. Rejects with ArchiveOpenError naming the first path that
 * does not exist or cannot be listed.
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
      st = await fsp.stat(p);
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

async function walk(dir: string, into: string[]): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch (err) {
    throw ArchiveOpenError.from(dir, err);
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      await walk(full, into);
    } else if (e.isFile()) {
      if (isInputFile(e.name)) into.push(full);
    } else if (e.isSymbolicLink() && isInputFile(e.name)) {
      // Linked files are taken; linked directories are not followed, so a link cycle cannot loop.
      const st = await fsp.stat(full).catch(() => undefined);
      if (st?.isFile()) into.push(full);
    }
  }
}

/** Code-unit order, so the listing is the same whatever the locale. */
function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
