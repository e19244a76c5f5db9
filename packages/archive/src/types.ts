/** One HTML payload taken out of an archive (or a plain HTML file), ready to decode. */
export interface ArchiveRecord {
  /** The input it came from: a file path, or "-" for standard input. */
  source: string;
  /** Byte offset of the record in the input as stored (compressed offset for .gz), -1 when unknown. */
  offset: number;
  /** WARC-Record-ID; for ARC and plain files a stable synthetic id ("<arc:OFFSET>", "<file:PATH>"). */
  recordId: string;
  /** Target URI (WARC-Target-URI, the ARC URL, or a file: URL for plain files). */
  url: string;
  /** Capture date as ISO 8601 (WARC-Date, ARC date converted); "" for plain HTML files, which have none. */
  date: string;
  /**
   * A plain HTML file's modification time, ISO 8601: no capture date, but no page in it can be
   * dated later. Absent for archive records and for HTML on stdin or from an opener.
   */
  fileDate?: string;
  /** Media type from the HTTP Content-Type header, lowercased, without parameters; "" when absent. */
  contentType: string;
  /** charset parameter of the HTTP Content-Type header, lowercased; "" when absent. */
  charset: string;
  /** HTTP status code; 0 for plain HTML files. */
  httpStatus: number;
  /** The HTTP payload with transfer and content encodings undone (chunked, gzip, deflate, br). */
  body: Uint8Array;
}

/** Why the reader passed a record over. Counted in the summary and written to --rejects. */
export const SKIP_REASONS = [
  "not-response", // WARC record type other than response (request, metadata, warcinfo, resource...)
  "http-status", // status outside 2xx
  "not-html", // content type (declared or sniffed) is not HTML/XHTML
  "too-large", // payload above maxPageBytes, or past the decoder's limit (DECODER_LIMIT)
  "empty", // zero-length payload
  "bad-http", // HTTP head could not be parsed
  "bad-encoding", // chunked or content encoding could not be undone, or no text encoding reads the payload
  "corrupt", // the archive bytes could not be parsed as a record (resynchronised after it)
  "truncated", // the input ended inside this record
  "unreadable", // the input could not be opened or read at all
] as const;

export type SkipReason = (typeof SKIP_REASONS)[number];

export interface SkipEvent {
  source: string;
  offset: number;
  recordId: string;
  url: string;
  reason: SkipReason;
  /** One line saying what was wrong, for people. */
  detail: string;
}

export interface ReadOptions {
  /** Payloads larger than this are skipped as "too-large" (default 16 MiB). */
  maxPageBytes?: number;
  /** Called for each record that is passed over; reading goes on. */
  onSkip?: (event: SkipEvent) => void;
  /** Called with the number of input bytes consumed so far (for progress); may be called often. */
  onProgress?: (bytesRead: number) => void;
  /**
   * Opens the input's bytes instead of the file system (remote inputs: https://, s3://). It
   * rejects with ArchiveOpenError when the input cannot be opened, and reports a later read
   * failure through `onError`, which ends the stream, as the local reader does.
   */
  open?: InputOpener;
  /**
   * Stops reading an input opened through `open` at once: a remote body that stalls or is being
   * retried is closed rather than waited for, so a run told to stop (SIGTERM from a scheduler
   * pre-empting it) ends in seconds. The records already given stand; the input is cut short.
   */
  signal?: AbortSignal;
  /**
   * Inflates the large members of a per-record gzip file ahead, in parallel on zlib's thread
   * pool, so the calling thread only waits for finished output (see gunzip.ts). Worth it where
   * that thread feeds several others (a worker pool); it costs about 0.08 ms of CPU per member
   * on those threads, so a reader that cleans on its own thread leaves it off (the default).
   */
  inflateAhead?: boolean;
}

/** An opened input: its raw bytes in order, and what is known about it. */
export interface OpenedInput {
  /** Raw bytes of the input, in order. Read errors end the stream after `onError` is called. */
  chunks: AsyncIterator<Buffer>;
  /** Modification time (files, Last-Modified), or the time of opening when unknown. */
  mtime: Date;
  /** Size in bytes when known. */
  size: number | undefined;
  close(): Promise<void>;
}

export type InputOpener = (
  input: string,
  onProgress: ((bytes: number) => void) | undefined,
  onError: (err: unknown) => void,
) => Promise<OpenedInput>;

/** Result of turning payload bytes into text. */
export interface DecodedHtml {
  html: string;
  /** The encoding actually used, as a WHATWG label (e.g. "utf-8", "windows-1252", "shift_jis"). */
  charset: string;
}

/** A page's text as consecutive pieces (see decodeHtmlPieces), and its encoding as in DecodedHtml. */
export interface DecodedHtmlPieces {
  pieces: string[];
  charset: string;
}
