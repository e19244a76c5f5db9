// Public API of @winnow/writers: corpus writers (JSONL, XML, text), gzip by name, written under a
// temporary name and renamed when complete.

export type { CleanDocument, CorpusWriter, OutputFormat } from "./types.js";
export { openWriter, type OpenWriterOptions } from "./open.js";
