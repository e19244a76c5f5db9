/**
 * The inputs of a dedup run, in the stable order that decides which copy is kept: the corpus
 * files of the paths given (see @winnow/writers' listCorpusTree: a per-input tree's outputs
 * marked done, each file once), named as the run's outputs will be.
 */
import { type CorpusListing, listCorpusTree } from "@winnow/writers";
import type { FileStamp } from "./identity.js";
import { outputName } from "./plan.js";

export { someOf } from "@winnow/writers";

export interface ListedInput extends FileStamp {
  /** Absolute path. */
  path: string;
  /** The output's path relative to the output folder: a named file's name, a folder's file's path inside the folder. */
  name: string;
}

export interface InputListing extends Omit<CorpusListing, "files"> {
  inputs: ListedInput[];
}

/**
 * Lists the inputs. Folders in `skip` (the output and state folders, when they lie inside an
 * input folder) are not walked, so a run's own outputs never become its inputs.
 */
export async function listInputs(given: readonly string[], skip: readonly string[] = []): Promise<InputListing> {
  const { files, incomplete, repeated } = await listCorpusTree(given, skip);
  const inputs = files.map((f) => ({ path: f.path, name: outputName(f.rel), size: f.size, mtimeMs: f.mtimeMs }));
  return { inputs, incomplete, repeated };
}
