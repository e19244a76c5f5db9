// Public API of @winnow/archive: streaming WARC/ARC/HTML record reading, input expansion,
// HTML sniffing and charset decoding.

export { readRecords, DEFAULT_MAX_PAGE_BYTES } from "./read.js";
export { expandInputs, fsPath, openInput } from "./input.js";
export { ArchiveOpenError } from "./errors.js";
export { DECODER_LIMIT, DecoderLimitError, decodeHtml, decodeHtmlPieces, PIECE_BYTES } from "./charset.js";
export { transferableBuffer } from "./owned.js";
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
export { hostOf, normaliseHost } from "./host.js";
