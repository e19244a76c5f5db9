/**
 * A document as a Parquet row, and the schema of those rows (docs/output.md, "Parquet"): what the
 * Parquet writer writes and what reading a corpus back (read.ts) and `winnow stats` need, without
 * hyparquet-writer. The writer (parquet-writer.ts) and its library are loaded only when a run
 * writes Parquet: loading them cost every process about 0.1 s of CPU.
 */
import { documentMarkdown, documentText } from "./formats.js";
import type { CleanDocument } from "./types.js";

/** Documents in a row group, at most. */
export const ROW_GROUP_ROWS = 10_000;
/** Characters of text in a row group, at most (about 64 MB as JavaScript strings). */
export const ROW_GROUP_CHARS = 32 << 20;

/** The `SchemaElement` shape hyparquet-writer takes (parquet-format's thrift struct). */
export interface SchemaElement {
  name: string;
  type?: "BYTE_ARRAY" | "INT32" | "INT64" | "DOUBLE";
  converted_type?: "UTF8" | "JSON" | "DATE" | "LIST";
  logical_type?: { type: "TIMESTAMP"; isAdjustedToUTC: boolean; unit: "MILLIS" };
  repetition_type?: "REQUIRED" | "OPTIONAL" | "REPEATED";
  num_children?: number;
}

export type Row = Record<string, unknown>;
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
export function schemaOf(row: Row): SchemaElement[] {
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

/** The row of a document with nothing in it: the schema of an output without documents. */
export const EMPTY_ROW: Row = documentRow({
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
