import { sep } from "node:path";
import { OutputError, UsageError } from "@winnow/errors";
import { openDirWriter } from "./dir-writer.js";
import { type Compression, compressionFor } from "./compression.js";
import { streamFormat } from "./formats.js";
import { classifyOutput, createParents, openOutput, type OutputRole } from "./output-path.js";
import { removeStaleStaged, stagingPathFor } from "./per-input.js";
import { HIGH_WATER_MARK, StreamCorpusWriter } from "./stream-writer.js";
import { TemplatedWriter, templateFields } from "./templated.js";
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
  /** Compression; default: by the name (".gz" gzip, ".zst" zstd; none for stdout). Overrides `gzip`. */
  compression?: Compression | null;
  /** How messages name the output; default: "output", given by -o. */
  role?: OutputRole;
  /** JSONL, XML and Parquet: add a `markdown` field with each document as Markdown. */
  markdown?: boolean;
  /** Markdown (the format or the field): links and emphasis where the segmenter recorded them. */
  links?: boolean;
  /** Parquet: characters of text per row group at most (default ROW_GROUP_CHARS). */
  rowGroupChars?: number;
  /**
   * Text into a directory: remove the documents and index.jsonl an earlier run wrote there
   * first. Without it, a directory that holds anything is refused (a UsageError).
   */
  overwrite?: boolean;
  /**
   * A path with fields: called with each file's path before it is created, to refuse one that
   * would be an input or another output (RunPaths.claimExpansion); it throws to refuse.
   */
  claimExpansion?: (path: string) => Promise<void>;
}

/** Row-group bound of each Parquet file of a templated output (up to 177 of them open): about 8 MB. */
const TEMPLATED_ROW_GROUP_CHARS = 4 << 20;

const CORPUS: OutputRole = { what: "output", flag: "-o", stdout: true };

/**
 * Opens a corpus writer. A path with fields (`out/{lang}/part.jsonl`, see templated.ts) opens
 * one writer per value as documents arrive. Files are written as `.<name>.tmp-<pid>-<n>` beside the final name and
 * renamed by close() or abort(); missing folders are created. Creation problems (a file in the
 * way, EACCES) reject here with an OutputError naming the path.
 */
export async function openWriter(options: OpenWriterOptions): Promise<CorpusWriter> {
  const { format, path } = options;
  const role = options.role ?? CORPUS;
  let fields: string[];
  try {
    fields = templateFields(path);
  } catch (error) {
    throw new UsageError((error as Error).message, `${role.flag} ${path}`);
  }
  if (fields.length > 0) {
    // Many files open at once: smaller row groups keep their sum bounded.
    return new TemplatedWriter(path, async (file) => {
      await options.claimExpansion?.(file);
      const child = { ...options, rowGroupChars: TEMPLATED_ROW_GROUP_CHARS };
      const target = await classifyOutput(file, role);
      // A device or FIFO is written into as it is; nothing to put in place.
      if (target.kind !== "file") return { writer: await openWriter({ ...child, path: file }), staged: null };
      // A file is written at a staging name beside where it ends (its suffixes kept, so format and
      // compression go by the same name rules), renamed onto it with the others once all are complete.
      await createParents(target, role);
      await removeStaleStaged(target.file);
      const staged = stagingPathFor(target.file);
      return { writer: await openWriter({ ...child, path: staged }), staged: { path: staged, final: target.file } };
    });
  }
  const target = path.endsWith("/") || path.endsWith(sep) ? ({ kind: "directory", path } as const) : await classifyOutput(path, role);
  if (format === "parquet") {
    if (compressionFor(path) !== null) {
      throw new UsageError("Parquet compresses its own pages: name the file without .gz or .zst", `${role.flag} ${path}`);
    }
    if (target.kind === "directory") throw new OutputError(`cannot create ${role.what}: it is a directory; Parquet is one file`, path);
    await createParents(target, role);
    const out = await openOutput(target, role, { flush: true, highWaterMark: HIGH_WATER_MARK });
    const label = target.kind === "stdout" ? "<stdout>" : path;
    // Loaded here, not on import: hyparquet-writer costs every process about 0.1 s of CPU to load.
    const { ParquetCorpusWriter } = await import("./parquet-writer.js");
    return new ParquetCorpusWriter({
      ...out,
      label,
      rowGroupChars: options.rowGroupChars,
      markdown: options.markdown,
      links: options.links,
    });
  }
  const fmt = streamFormat(format, { markdown: options.markdown, links: options.links });
  if (target.kind === "directory") {
    if (format !== "text") {
      throw new OutputError(`cannot create ${role.what}: it is a directory; only the text format writes one file per document`, path);
    }
    return openDirWriter(path, options.gzip ?? false, options.overwrite === true);
  }
  await createParents(target, role);
  const out = await openOutput(target, role, { flush: true, highWaterMark: HIGH_WATER_MARK });
  const byName = target.kind === "stdout" ? null : compressionFor(path);
  const compression =
    options.compression !== undefined ? options.compression : options.gzip === undefined ? byName : options.gzip ? "gzip" : null;
  return new StreamCorpusWriter(fmt, { ...out, compression, label: target.kind === "stdout" ? "<stdout>" : path });
}
