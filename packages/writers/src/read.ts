/**
 * Reading a corpus back: the rows of a JSONL file (plain, .gz or .zst) or a Parquet file, one at
 * a time, for `winnow stats` and for tests that compare outputs. Parquet is read one row group at
 * a time with hyparquet (the reader hyparquet-writer is written against), so a large file never
 * sits in memory whole, and each row is given back in the JSONL object's shape (jsonlShape), so
 * that callers read both formats alike.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { DecompressStream } from "zstd-napi";
import { compressionFor } from "./compression.js";
import { jsonlShape } from "./parquet-rows.js";

export type CorpusRow = Record<string, unknown>;

/** Whether `path` names a Parquet file (by its name). */
export function isParquetPath(path: string): boolean {
  return path.toLowerCase().endsWith(".parquet");
}

/** The rows of `path`: Parquet by name, otherwise JSON lines (gzip or zstd by name). */
export function readCorpus(path: string): AsyncIterable<CorpusRow> {
  return isParquetPath(path) ? readParquet(path) : readJsonLines(path);
}

async function* readParquet(path: string): AsyncGenerator<CorpusRow> {
  // Loaded on first use, as the writer is (open.ts): most runs never read Parquet.
  const { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } = await import("hyparquet");
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    const rows = (await parquetReadObjects({ file, metadata, rowStart, rowEnd })) as CorpusRow[];
    for (const row of rows) yield jsonlShape(row);
    rowStart = rowEnd;
  }
}

async function* readJsonLines(path: string): AsyncGenerator<CorpusRow> {
  let input: Readable = createReadStream(path);
  const compression = compressionFor(path);
  if (compression === "gzip") input = input.pipe(createGunzip());
  else if (compression === "zstd") input = input.pipe(new DecompressStream());
  const lines = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line.trim() === "") continue;
    try {
      yield JSON.parse(line) as CorpusRow;
    } catch (error) {
      throw new SyntaxError(`line ${n} is not JSON: ${(error as Error).message}`);
    }
  }
}
