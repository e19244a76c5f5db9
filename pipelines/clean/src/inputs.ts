// The inputs of a run: given paths expanded into files, each checked before anything starts.
import { access, constants } from "node:fs/promises";
import { ArchiveOpenError, expandInputs } from "@winnow/archive";
import { distinctFiles } from "@winnow/writers";
import type { InputFailure } from "./summary.js";

const URL_INPUT = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Expands the given paths one by one, so one missing input does not hide the others. Given
 * files are checked for read access now, which catches the common mistakes before anything is
 * started; files found in directories are left to fail, if they do, when read. A file named
 * twice (directly and through its folder, through a link) is listed once, the first time, and
 * the repeat goes to `repeated`: read twice, its documents would be written twice.
 */
export async function listInputs(
  paths: readonly string[],
  failed: InputFailure[],
  remote = false,
  repeated: Array<{ path: string; same: string }> = [],
): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    // A URL is checked by opening it, which its opener does with retries.
    if (remote && URL_INPUT.test(path)) {
      files.push(path);
      continue;
    }
    try {
      const found = await expandInputs([path]);
      if (found.length === 1 && found[0] === path && path !== "-") {
        await access(path, constants.R_OK).catch((error: unknown) => {
          throw ArchiveOpenError.from(path, error);
        });
      }
      files.push(...found);
    } catch (error) {
      if (!(error instanceof ArchiveOpenError)) throw error;
      failed.push({ input: path, reason: error.reason });
    }
  }
  const { kept, dropped } = await distinctFiles(files);
  repeated.push(...dropped);
  return kept;
}
