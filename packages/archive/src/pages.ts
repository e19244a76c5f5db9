// What a thread that cleans pages already read needs of @winnow/archive: charset decoding, the
// buffer that crosses to a pool thread, a URL's host. Without the readers, which a pool thread
// never runs: importing the index there loaded the WARC and ARC readers, gunzip and zstd's native
// binding in every thread (about 20 ms of CPU each, every run).

export { DECODER_LIMIT, DecoderLimitError, decodeHtml, decodeHtmlPieces, PIECE_BYTES } from "./charset.js";
export { transferableBuffer } from "./owned.js";
export { hostOf, normaliseHost } from "./host.js";
export type { DecodedHtml, DecodedHtmlPieces } from "./types.js";
