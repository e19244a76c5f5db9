import { unlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * gzip level for all compressed output. One deflate stream per output runs serially on one
 * thread-pool thread, so its speed caps .gz throughput. Measured on English prose (10 MB):
 * levels 1 / 4 / 6 ran at 100 / 71 / 40 MB/s for ratios 3.15 / 3.46 / 3.57; level 4 keeps 97%
 * of level 6's ratio at 1.8x its speed.
 */
export const GZIP_LEVEL = 4;

/** Shared settled promise: the common no-back-pressure write() allocates nothing. */
export const RESOLVED: Promise<void> = Promise.resolve();

/**
 * Temporary names handed out in this process. Each exists only until its file is renamed into
 * place or removed, so whatever of them still exists when the process must quit at once is
 * unfinished, and removeTempFilesNow() can remove it.
 */
const tempPaths = new Set<string>();

/** Temporary names handed out so far by this process: each writer's is its own. */
let tempCount = 0;

/**
 * `.<name>.tmp-<pid>-<n>` beside the final name: same directory, so the final rename is atomic;
 * the pid tells a stale file of a dead run, the counter keeps two writers of one process (two
 * outputs that resolve to one folder, a writer reopened) from sharing a name.
 */
export function tempPathFor(finalPath: string): string {
  const path = join(dirname(finalPath), `.${basename(finalPath)}.tmp-${process.pid}-${++tempCount}`);
  tempPaths.add(path);
  return path;
}

/** A temporary file is renamed or removed: no need to look for it at exit (keeps the set small). */
export function forgetTempPath(path: string): void {
  tempPaths.delete(path);
}

/**
 * Removes, synchronously, every temporary file this process still has: for a process about to
 * exit without finishing its outputs (a second Ctrl-C). Returns the paths removed.
 */
export function removeTempFilesNow(): string[] {
  const removed: string[] = [];
  for (const path of tempPaths) {
    try {
      unlinkSync(path);
      removed.push(path);
    } catch {
      // Already renamed into place or removed: nothing left behind.
    }
  }
  tempPaths.clear();
  return removed;
}

/** Error whose message names the output path; keeps the system error as cause and its code. */
export function outputError(what: string, path: string, cause: unknown): Error {
  const detail = cause instanceof Error ? cause.message : String(cause);
  const err = new Error(`@winnow/writers: ${what} ${path}: ${detail}`, { cause }) as NodeJS.ErrnoException;
  const code = (cause as NodeJS.ErrnoException | null)?.code;
  if (code !== undefined) err.code = code;
  return err;
}

/** Whether process `pid` runs on this machine (a temporary file's writer, named in its name). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
