// Public API of @winnow/writers: corpus writers (JSONL, XML, text, Parquet), gzip or zstd by name,
// outputs templated by a document field, written under a temporary name and renamed when
// complete; reading a corpus back (read.ts); and the rules for every path winnow writes
// (output-path.ts).

export type { CleanDocument, CorpusWriter, DocumentBlock, OutputFormat } from "./types.js";
export { documentMarkdown, documentText, metadataFields } from "./formats.js";
export { openWriter, type OpenWriterOptions } from "./open.js";
export { type Compression, compressionFor, createCompressor, withoutCompressionSuffix } from "./compression.js";
export { INTEGER_STATS, jsonlShape, pageDate, ROW_GROUP_CHARS, ROW_GROUP_ROWS } from "./parquet-rows.js";
export { renderPath, TEMPLATE_FIELDS, type TemplateField, templateFields, UNKNOWN_VALUE } from "./templated.js";
export { type CorpusRow, isParquetPath, readCorpus } from "./read.js";
export {
  classifyOutput,
  createParents,
  isBrokenPipe,
  followLinks,
  type OpenedOutput,
  openOutput,
  type OutputRole,
  type OutputTarget,
  prepareOutput,
  removeStaleTempFiles,
  writeFailure,
  writeOutputFile,
} from "./output-path.js";
export { type NamedPath, RunPaths, refuseOutputsOverInputs } from "./path-clash.js";
export { distinctFiles, type FileIdentity, identityOf, sameFile } from "./path-identity.js";
export {
  type LockHolder,
  type LockTarget,
  type LockWait,
  lockOutput,
  lockOutputs,
  lockPathFor,
  type OutputLock,
  releaseLocksNow,
} from "./lock.js";
export { removeTempFilesNow, tempPathFor } from "./util.js";
export {
  commitOutput,
  createFolderFor,
  doneMarkerInfo,
  doneMarkerPath,
  dropStaged,
  isDone,
  perInputName,
  readDoneMarker,
  removeStaleStaged,
  stagingPathFor,
} from "./per-input.js";
export { type CorpusFile, type CorpusListing, type CorpusTreeOptions, listCorpusTree, someOf } from "./corpus-tree.js";
