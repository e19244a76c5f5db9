import type { PageMetadata } from "@winnow/metadata";
import type { BlockLayout } from "@winnow/segment";

/** A kept block: its folded text, heading level (1-6, 0 for none) and the structure it sits in. */
export interface DocumentBlock {
  text: string;
  heading: number;
  /** List item, table cell, <pre> text as written (see @winnow/segment); undefined for a plain block. */
  layout?: BlockLayout;
}

/** A cleaned document, as every writer receives it. */
export interface CleanDocument {
  url: string;
  recordId: string;
  /** The archive record's capture date (WARC-Date, ARC date); "" for plain files: written as absent. */
  date: string;
  /** The HTTP Content-Type's media type; "" when there is none (plain files): written as absent. */
  contentType: string;
  charset: string;
  title: string;
  /** Kept blocks in document order; heading > 0 marks h1-h6. */
  blocks: ReadonlyArray<DocumentBlock>;
  blocksTotal: number;
  /**
   * With `winnow clean --comments`: the blocks the model's comment head found to be user
   * comments, in document order (never also in `blocks`). Absent otherwise.
   */
  comments?: ReadonlyArray<DocumentBlock>;
  /** The input the document came from (path or "-"), for provenance. */
  source: string;
  /** With language identification: the language (fastText lid.176's label) and its probability. */
  lang?: string;
  langScore?: number;
  /**
   * With filters or a language choice and `--keep-filtered`: the rules the document failed, each
   * with its value (empty when it passed). Absent when nothing judged it.
   */
  filterFailed?: ReadonlyArray<{ rule: string; value: number | string }>;
  /** With `--stats`: counts and every rule set's values (@winnow/filters' DocumentStats). */
  stats?: Readonly<Record<string, unknown>>;
  /** What the page says about itself (declared language, author, dates, ...): fields it does not say are absent. */
  metadata?: PageMetadata;
}

export type OutputFormat = "jsonl" | "xml" | "text" | "markdown" | "parquet";

export interface CorpusWriter {
  /** Queue one document; resolves when it may be followed by the next (back-pressure). */
  write(doc: CleanDocument): Promise<void>;
  /** Flush, close and move the temporary file(s) to the final name. */
  close(): Promise<void>;
  /** Stop writing: what was written so far is flushed and kept valid under the final name. */
  abort(): Promise<void>;
  /**
   * Stop writing and drop what was written: nothing is renamed, so whatever was at the final
   * name before stays. An output written in place (stdout, a device, a directory's finished
   * files) cannot be taken back and is closed as by close().
   */
  discard(): Promise<void>;
  readonly documentsWritten: number;
}
