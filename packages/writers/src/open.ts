import { mkdir, stat } from "node:fs/promises";
import { dirname, sep } from "node:path";
import { openDirWriter } from "./dir-writer.js";
import { streamFormat } from "./formats.js";
import { openFileWriter, StreamCorpusWriter } from "./stream-writer.js";
import type { CorpusWriter, OutputFormat } from "./types.js";

export interface OpenWriterOptions {
  format: OutputFormat;
  /** Output file; "-" for stdout; for "text", a directory (existing, or ending in "/") means one file per document. */
  path: string;
  /** gzip the output; default: path ends in ".gz" (never by default for stdout or a directory). */
  gzip?: boolean;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    // Missing (the usual case) or unreadable: opening the file will report the real problem.
    return false;
  }
}

/**
 * Opens a corpus writer. Files are written as `.<name>.tmp-<pid>` beside the final name and
 * renamed by close() or abort(); creation problems (EACCES, missing directory) reject here,
 * with a message naming the path.
 */
export async function openWriter(options: OpenWriterOptions): Promise<CorpusWriter> {
  const { format, path } = options;
  const fmt = streamFormat(format);
  if (path === "-") {
    return new StreamCorpusWriter(fmt, {
      sink: process.stdout,
      owned: false,
      gzip: options.gzip ?? false,
      label: "<stdout>",
      tmpPath: null,
      finalPath: null,
    });
  }
  if (path.length === 0) throw new TypeError("@winnow/writers: empty output path");
  const gzip = options.gzip ?? path.endsWith(".gz");
  if (path.endsWith("/") || path.endsWith(sep) || (await isDirectory(path))) {
    if (format !== "text") {
      throw new Error(`@winnow/writers: output ${path} is a directory; only the text format writes one file per document`);
    }
    return openDirWriter(path, options.gzip ?? false);
  }
  // Like `cp` into a fresh tree would not, but as a corpus tool should: create the folders.
  await mkdir(dirname(path), { recursive: true }).catch(() => {
    // Unwritable or blocked by a file: opening the output reports that with the path.
  });
  return openFileWriter(fmt, path, gzip);
}
