// Public API of @winnow/archive: streaming WARC/ARC/HTML record reading, input expansion,
// HTML sniffing and charset decoding.

export { readRecords, DEFAULT_MAX_PAGE_BYTES } from "./read.js";
export { expandInputs, fsPath, openInput } from "./input.js";
export { ArchiveOpenError } from "./errors.js";
// Decoding, the pool's buffers and hosts are also "@winnow/archive/pages", without the readers.
export {
  DECODER_LIMIT,
  DecoderLimitError,
  decodeHtml,
  decodeHtmlPieces,
  PIECE_BYTES,
  transferableBuffer,
  hostOf,
  normaliseHost,
} from "./pages.js";
export { SKIP_REASONS } from "./types.js";
export type {
  ArchiveRecord,
  SkipReason,
  SkipEvent,
  ReadOptions,
  DecodedHtml,
  DecodedHtmlPieces,
  InputOpener,
  OpenedInput,
} from "./types.js";
