/**
 * The inputs of a dedup run, in the stable order that decides which copy is kept: the corpus
 * files of the paths given (see @winnow/writers' listCorpusTree: a per-input tree's outputs
 * marked done, each file once), named as the run's outputs will be. The same walk lists every
 * other path in the input folders, which the run's outputs are checked against (outputs.ts).
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
 * input folder) are not searched for corpus files, so a run's own outputs never become its
 * inputs; `found` lists every path in the folders as well (CorpusListing.found).
 */
export async function listInputs(given: readonly string[], skip: readonly string[] = [], found = false): Promise<InputListing> {
  const listing = await listCorpusTree(given, { skip, found });
  const inputs = listing.files.map((f) => ({ path: f.path, name: outputName(f.rel), size: f.size, mtimeMs: f.mtimeMs }));
  return { inputs, incomplete: listing.incomplete, repeated: listing.repeated, found: listing.found };
}
