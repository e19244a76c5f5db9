export type { CleanDocument, CorpusWriter, OutputFormat } from "./types.js";
export { openWriter, type OpenWriterOptions } from "./open.js";
