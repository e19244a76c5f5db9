import { sep } from "node:path";
import { OutputError } from "@winnow/errors";
import { openDirWriter } from "./dir-writer.js";
import { streamFormat } from "./formats.js";
import { classifyOutput, createParents, openOutput, type OutputRole } from "./output-path.js";
import { HIGH_WATER_MARK, StreamCorpusWriter } from "./stream-writer.js";
import type { CorpusWriter, OutputFormat } from "./types.js";

export interface OpenWriterOptions {
  format: OutputFormat;
  /**
   * Output file; "-" for stdout; for "text", a directory (existing, or ending in "/") means one
   * file per document. A device or FIFO is written into, a symbolic link's target is written
   * (see output-path.ts).
   */
  path: string;
  /** gzip the output; default: path ends in ".gz" (never by default for stdout or a directory). */
  gzip?: boolean;
  /** How messages name the output; default: "output", given by -o. */
  role?: OutputRole;
}

const CORPUS: OutputRole = { what: "output", flag: "-o", stdout: true };

/**
 * Opens a corpus writer. Files are written as `.<name>.tmp-<pid>` beside the final name and
 * renamed by close() or abort(); missing folders are created. Creation problems (a file in the
 * way, EACCES) reject here with an OutputError naming the path.
 */
export async function openWriter(options: OpenWriterOptions): Promise<CorpusWriter> {
  const { format, path } = options;
  const role = options.role ?? CORPUS;
  const fmt = streamFormat(format);
  const target = path.endsWith("/") || path.endsWith(sep) ? ({ kind: "directory", path } as const) : await classifyOutput(path, role);
  if (target.kind === "directory") {
    if (format !== "text") {
      throw new OutputError(`cannot create ${role.what}: it is a directory; only the text format writes one file per document`, path);
    }
    return openDirWriter(path, options.gzip ?? false);
  }
  await createParents(target, role);
  const out = await openOutput(target, role, { flush: true, highWaterMark: HIGH_WATER_MARK });
  const gzip = options.gzip ?? (target.kind !== "stdout" && path.endsWith(".gz"));
  return new StreamCorpusWriter(fmt, { ...out, gzip, label: target.kind === "stdout" ? "<stdout>" : path });
}
