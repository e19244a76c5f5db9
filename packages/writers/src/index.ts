// Public API of @winnow/writers: corpus writers (JSONL, XML, text), gzip by name, written under a
// temporary name and renamed when complete; and the rules for every path winnow writes (output-path.ts).

export type { CleanDocument, CorpusWriter, OutputFormat } from "./types.js";
export { openWriter, type OpenWriterOptions } from "./open.js";
export {
  classifyOutput,
  createParents,
  isBrokenPipe,
  type NamedPath,
  type OpenedOutput,
  openOutput,
  type OutputRole,
  type OutputTarget,
  prepareOutput,
  refuseOutputsOverInputs,
  removeStaleTempFiles,
  writeFailure,
  writeOutputFile,
} from "./output-path.js";
export { tempPathFor } from "./util.js";
