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
import { documentMarkdown, documentText } from "./formats.js";
import type { OpenedOutput } from "./output-path.js";
import type { CleanDocument, CorpusWriter } from "./types.js";
import { outputError } from "./util.js";

/** Documents in a row group, at most. */
export const ROW_GROUP_ROWS = 10_000;
/** Characters of text in a row group, at most (about 64 MB as JavaScript strings). */
export const ROW_GROUP_CHARS = 32 << 20;

/** The `SchemaElement` shape hyparquet-writer takes (parquet-format's thrift struct). */
interface SchemaElement {
  name: string;
  type?: "BYTE_ARRAY" | "INT32" | "INT64" | "DOUBLE";
  converted_type?: "UTF8" | "JSON" | "DATE" | "LIST";
  logical_type?: { type: "TIMESTAMP"; isAdjustedToUTC: boolean; unit: "MILLIS" };
  repetition_type?: "REQUIRED" | "OPTIONAL" | "REPEATED";
  num_children?: number;
}

type Row = Record<string, unknown>;
type Repetition = "REQUIRED" | "OPTIONAL";

const text = (name: string, rep: Repetition = "REQUIRED"): SchemaElement => ({
  name,
  type: "BYTE_ARRAY",
  converted_type: "UTF8",
  repetition_type: rep,
});
// 32 bits hold every count: a document's text is one JavaScript string, at most 2^29 characters.
const int = (name: string): SchemaElement => ({ name, type: "INT32", repetition_type: "REQUIRED" });
const double = (name: string): SchemaElement => ({ name, type: "DOUBLE", repetition_type: "REQUIRED" });
const day = (name: string): SchemaElement => ({ name, type: "INT32", converted_type: "DATE", repetition_type: "OPTIONAL" });
const timestamp = (name: string): SchemaElement => ({
  name,
  type: "INT64",
  logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" },
  repetition_type: "OPTIONAL",
});
/** LIST<STRING> in the standard three-level form every reader knows. */
const stringList = (name: string): SchemaElement[] => [
  { name, converted_type: "LIST", repetition_type: "OPTIONAL", num_children: 1 },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  text("element"),
];

/**
 * Columns every row has, null where the JSONL object leaves the field out: the schema is taken
 * from the first row, and whether a page gives an author (or is an archive record) varies.
 */
const OPTIONAL_TEXT = new Set([
  "content_type",
  "declared_lang",
  "author",
  "sitename",
  "description",
  "canonical_url",
  "date_iso",
  "date_modified_iso",
]);
const DAYS = new Set(["date", "date_modified"]);
const TIMESTAMPS = new Set(["warc_date", "date_time", "date_modified_time"]);
const LISTS = new Set(["categories", "tags"]);

/**
 * The stats that count something (INT32), by path in `stats` (@winnow/filters' DocumentStats);
 * every other one is a fraction or a mean (DOUBLE). Names do not tell: Gopher's `bullet_lines`
 * and `alpha_words` are shares, C4's `lines_*` counts. A stat added later is a DOUBLE until it is
 * listed here, which loses nothing; pipelines/clean's corpus test checks the list against a
 * real `--stats` run.
 */
export const INTEGER_STATS: ReadonlySet<string> = new Set([
  "words",
  "cjk_words",
  "lines",
  "chars",
  "gopher_quality.word_count",
  "gopher_quality.stop_words",
  "c4.lines",
  "c4.lines_kept",
  "c4.lines_long_word",
  "c4.lines_no_terminal_punct",
  "c4.lines_too_few_words",
  "c4.lines_javascript",
  "c4.lines_policy",
  "c4.lorem_ipsum",
  "c4.curly_brace",
  "c4.sentences",
]);

const MS_PER_DAY = 86_400_000;
/** `YYYY-MM-DD`, then optionally a time; the offset (Z or ±hh:mm) when the page gave one. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * A page's date in three columns: the day as the page wrote it (days since 1970, the DATE
 * column's value), the instant as a UTC timestamp when the page gave a time with an offset (else
 * null: a time without an offset is no instant), and the ISO string as JSONL has it.
 */
export function pageDate(iso: string | undefined): { day: number | null; time: Date | null; iso: string | null } {
  if (iso === undefined) return { day: null, time: null, iso: null };
  const m = ISO_DATE.exec(iso);
  if (m === null) return { day: null, time: null, iso };
  const day = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / MS_PER_DAY;
  const time = m[4] !== undefined && m[5] !== undefined ? new Date(iso) : null;
  return { day, time: time !== null && Number.isFinite(time.getTime()) ? time : null, iso };
}

/** A capture date (always UTC in WARC and ARC) as a timestamp; null for plain files or a date no reader can parse. */
function captureTime(iso: string): Date | null {
  if (iso === "") return null;
  const t = new Date(iso);
  return Number.isFinite(t.getTime()) ? t : null;
}

/** The row of a document: the JSONL object's keys in its order, with the typed values of the Parquet columns. */
export function documentRow(d: CleanDocument, markdown = false, links = false): Row {
  const m = d.metadata;
  const date = pageDate(m?.date);
  const modified = pageDate(m?.dateModified);
  const row: Row = {
    url: d.url,
    warc_record_id: d.recordId,
    warc_date: captureTime(d.date),
    content_type: d.contentType === "" ? null : d.contentType,
    charset: d.charset,
    title: d.title,
    declared_lang: m?.declaredLang ?? null,
    author: m?.author ?? null,
    date: date.day,
    date_time: date.time,
    date_iso: date.iso,
    date_modified: modified.day,
    date_modified_time: modified.time,
    date_modified_iso: modified.iso,
    sitename: m?.sitename ?? null,
    description: m?.description ?? null,
    canonical_url: m?.canonicalUrl ?? null,
    categories: m?.categories ?? null,
    tags: m?.tags ?? null,
  };
  if (d.lang !== undefined) {
    row.lang = d.lang;
    row.lang_score = d.langScore ?? 0;
  }
  row.text = documentText(d);
  if (markdown) row.markdown = documentMarkdown(d, links);
  row.blocks_kept = d.blocks.length;
  row.blocks_total = d.blocksTotal;
  if (d.comments !== undefined) row.comments = d.comments.map((c) => c.text).join("\n\n");
  if (d.filterFailed !== undefined) row.filter_failed = d.filterFailed;
  if (d.stats !== undefined) row.stats = d.stats;
  row.source = d.source;
  return row;
}

/** The schema elements of `stats` (nested objects become nested structs), depth first; `path` is the struct's within `stats`. */
function structSchema(name: string, value: Readonly<Record<string, unknown>>, out: SchemaElement[], path = ""): void {
  const keys = Object.keys(value);
  out.push({ name, repetition_type: "REQUIRED", num_children: keys.length });
  for (const key of keys) {
    const v = value[key];
    const at = path === "" ? key : `${path}.${key}`;
    if (typeof v === "object" && v !== null) structSchema(key, v as Record<string, unknown>, out, at);
    else out.push(INTEGER_STATS.has(at) ? int(key) : double(key));
  }
}

/** The file's schema, from its first row. */
function schemaOf(row: Row): SchemaElement[] {
  const columns: SchemaElement[] = [];
  let top = 0;
  for (const [key, value] of Object.entries(row)) {
    top++;
    if (key === "blocks_kept" || key === "blocks_total") columns.push(int(key));
    else if (key === "lang_score") columns.push(double(key));
    else if (OPTIONAL_TEXT.has(key)) columns.push(text(key, "OPTIONAL"));
    else if (DAYS.has(key)) columns.push(day(key));
    else if (TIMESTAMPS.has(key)) columns.push(timestamp(key));
    else if (LISTS.has(key)) columns.push(...stringList(key));
    else if (key === "filter_failed") columns.push({ name: key, type: "BYTE_ARRAY", converted_type: "JSON", repetition_type: "REQUIRED" });
    else if (key === "stats") structSchema(key, value as Record<string, unknown>, columns);
    else columns.push(text(key));
  }
  return [{ name: "root", num_children: top }, ...columns];
}

/**
 * A Parquet row as the JSONL object of the same document: the same keys in the same order,
 * fields JSONL leaves out absent instead of null, dates as their ISO strings again (the
 * timestamps beside them dropped). For `winnow stats`, dedup's filter pass and tests, which read
 * both formats alike.
 */
export function jsonlShape(row: Row): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row)) {
    if (key === "date_time" || key === "date_modified_time" || key === "date_iso" || key === "date_modified_iso") continue;
    let v = value;
    // A file from before the typed columns has the ISO string in `date` itself.
    if ((key === "date" || key === "date_modified") && `${key}_iso` in row) v = row[`${key}_iso`];
    else if (key === "warc_date" && v instanceof Date) v = v.toISOString().replace(".000Z", "Z");
    if (v !== null && v !== undefined) out[key] = v;
  }
  return out;
}

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

const EMPTY_ROW: Row = documentRow({
  url: "",
  recordId: "",
  date: "",
  contentType: "",
  charset: "",
  title: "",
  blocks: [],
  blocksTotal: 0,
  source: "",
});
