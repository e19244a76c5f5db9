/**
 * Parquet output, for corpus tooling (DuckDB, pandas/pyarrow, Hugging Face datasets, Spark).
 *
 * Written with hyparquet-writer (MIT): pure JavaScript, no native build and no WebAssembly, one
 * small dependency (hyparquet, its reader, which the tests and `winnow stats` read back with),
 * and it writes a file row group by row group through ParquetWriter, flushing each to the
 * stream as it goes. parquet-wasm with apache-arrow would first build Arrow tables in memory
 * and carries a 5 MB WebAssembly module; neither helps a writer that only appends rows.
 *
 * Memory stays bounded whatever the run's size: documents are buffered for one row group at a
 * time (at most ROW_GROUP_ROWS documents or ROW_GROUP_CHARS characters of text), encoded and
 * compressed (Snappy, the format's usual default, which every reader can read) and written out.
 * The columns are those of the JSONL output, with the same names, typed for readers
 * (docs/output.md, "Parquet"): `warc_date` a UTC timestamp; the page's `date` and `date_modified`
 * each a DATE (the day as the page wrote it) with a UTC timestamp beside it where the page gave a
 * time and an offset, and the JSONL string kept whole (`date_iso`), since a timestamp loses the
 * offset; `categories` and `tags` lists of strings; counts 32-bit integers; `stats` a struct of
 * integers and doubles. The schema is taken from the first document (every document of a run has
 * the same fields); `filter_failed` stays a JSON column (its values are numbers or strings).
 */
import { rename, unlink } from "node:fs/promises";
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import type { OpenedOutput } from "./output-path.js";
import { documentRow, EMPTY_ROW, ROW_GROUP_CHARS, ROW_GROUP_ROWS, type Row, schemaOf } from "./parquet-rows.js";
import type { CleanDocument, CorpusWriter } from "./types.js";
import { outputError } from "./util.js";

export interface ParquetTarget extends OpenedOutput {
  /** Name used in error messages. */
  label: string;
  /** A `markdown` column with each document as Markdown. */
  markdown?: boolean;
  /** In that column, links and emphasis (`--links`). */
  links?: boolean;
  /** Row-group bounds (defaults ROW_GROUP_ROWS, ROW_GROUP_CHARS); smaller when many files are open at once. */
  rowGroupRows?: number;
  rowGroupChars?: number;
}

export class ParquetCorpusWriter implements CorpusWriter {
  readonly #target: ParquetTarget;
  readonly #bytes = new ByteWriter(1 << 20);
  #parquet: ParquetWriter | null = null;
  #keys: string[] = [];
  #rows: Row[] = [];
  #chars = 0;
  #count = 0;
  #error: Error | null = null;
  #finishing: Promise<void> | null = null;
  #discarded = false;
  readonly #rowGroupRows: number;
  readonly #rowGroupChars: number;

  constructor(target: ParquetTarget) {
    this.#target = target;
    this.#rowGroupRows = target.rowGroupRows ?? ROW_GROUP_ROWS;
    this.#rowGroupChars = target.rowGroupChars ?? ROW_GROUP_CHARS;
    target.sink.on("error", this.#onError);
    // Each row group's bytes go to the file as soon as it is encoded; the buffer is then reused.
    // (Writer's optional flush(), which ByteWriter itself leaves out.)
    Object.assign(this.#bytes, { flush: () => this.#drainBytes(), finish: () => this.#drainBytes() });
  }

  get documentsWritten(): number {
    return this.#count;
  }

  async write(doc: CleanDocument): Promise<void> {
    if (this.#error !== null) throw this.#error;
    if (this.#finishing !== null) throw new Error(`@winnow/writers: write() after close() or abort() on ${this.#target.label}`);
    const row = documentRow(doc, this.#target.markdown === true, this.#target.links === true);
    this.#rows.push(row);
    this.#count++;
    this.#chars += (row.text as string).length;
    if (this.#rows.length >= this.#rowGroupRows || this.#chars >= this.#rowGroupChars) await this.#writeRowGroup();
  }

  async #writeRowGroup(): Promise<void> {
    const rows = this.#rows;
    if (rows.length === 0) return;
    this.#rows = [];
    this.#chars = 0;
    if (this.#parquet === null) {
      this.#keys = Object.keys(rows[0]);
      this.#parquet = new ParquetWriter({ writer: this.#bytes, schema: schemaOf(rows[0]) as never, createdBy: "winnow" });
    }
    const columnData = this.#keys.map((name) => ({ name, data: rows.map((r) => r[name]) }));
    try {
      await this.#parquet.write({ columnData: columnData as never, rowGroupSize: rows.length });
    } catch (error) {
      this.#onError(error as Error);
      throw this.#error;
    }
  }

  /** Hands what the encoder has written so far to the stream; waits while the stream is full. */
  #drainBytes(): Promise<void> | undefined {
    const bytes = this.#bytes;
    if (bytes.index === 0) return undefined;
    // A copy: the encoder's buffer is written over by the next row group.
    const chunk = Buffer.from(new Uint8Array(bytes.buffer, 0, bytes.index));
    bytes.index = 0;
    const sink = this.#target.sink;
    if (sink.write(chunk)) return undefined;
    return new Promise<void>((resolve) => {
      const done = (): void => {
        sink.off("drain", done).off("close", done);
        resolve();
      };
      sink.on("drain", done).on("close", done);
    });
  }

  readonly #onError = (error: Error): void => {
    if (this.#error !== null) return;
    this.#error = outputError("cannot write", this.#target.label, error);
    if (this.#target.owned) this.#target.sink.destroy();
  };

  close(): Promise<void> {
    return (this.#finishing ??= this.#finish());
  }

  /** Same as close(): the footer is written for the row groups so far, so the file is valid. */
  abort(): Promise<void> {
    return this.close();
  }

  discard(): Promise<void> {
    if (this.#target.tmpPath === null) return this.close();
    this.#discarded = true;
    return (this.#finishing ??= this.#finish());
  }

  async #finish(): Promise<void> {
    const { sink, owned, tmpPath, finalPath } = this.#target;
    const closed = owned ? new Promise<void>((resolve) => sink.once("close", resolve)) : null;
    if (this.#discarded) {
      sink.destroy();
      await closed;
      if (tmpPath !== null) await unlink(tmpPath).catch(() => {});
      return;
    }
    if (this.#error === null) {
      try {
        await this.#writeRowGroup();
        // A file with no document still gets a schema: the fields every document has.
        this.#parquet ??= new ParquetWriter({ writer: this.#bytes, schema: schemaOf(EMPTY_ROW) as never, createdBy: "winnow" });
        await this.#parquet.finish();
      } catch (error) {
        this.#onError(error as Error);
      }
    }
    if (owned) {
      if (this.#error === null) sink.end();
      await closed;
    } else if (this.#error === null) {
      await new Promise<void>((resolve) => sink.write("", () => resolve()));
    }
    sink.off("error", this.#onError);
    if (this.#error !== null) {
      if (tmpPath !== null) await unlink(tmpPath).catch(() => {});
      throw this.#error;
    }
    if (tmpPath !== null && finalPath !== null) {
      try {
        await rename(tmpPath, finalPath);
      } catch (error) {
        await unlink(tmpPath).catch(() => {});
        throw outputError(`cannot move ${tmpPath} to`, finalPath, error);
      }
    }
  }
}
