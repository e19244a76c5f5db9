/**
 * Which file a path is: what every check of "is this output an input, or another output?"
 * compares. Paths are compared by what they end at, never by their strings: symbolic links and
 * `..` are followed, hard links and bind mounts are told by device and inode, and "-" is the
 * file behind the descriptor (standard input for an input, standard output for an output), so
 * `winnow clean in.warc -o - >> in.warc` is seen for what it is.
 */
import { fstatSync, type BigIntStats } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { followLinks } from "./output-path.js";

/** What kind of thing a path ends at, as far as overwriting goes. */
export type PathKind = "file" | "directory" | "pipe" | "device";

/** A file or folder that is there: device and inode, and its real path (links and `..` resolved). */
export interface FileIdentity {
  dev: bigint;
  ino: bigint;
  kind: PathKind;
  /** The real path; for "-", the descriptor's link (/proc/self/fd/N) when nothing better is known. */
  real: string;
}

/** Standard input's descriptor for an input "-", standard output's for an output "-". */
export type StdDescriptor = 0 | 1;

function kindOf(st: BigIntStats): PathKind {
  if (st.isFile()) return "file";
  if (st.isDirectory()) return "directory";
  if (st.isFIFO() || st.isSocket()) return "pipe";
  return "device";
}

/**
 * The file at `path` now (links followed), or null when nothing is there yet (or it cannot be
 * statted: then it cannot be the same as anything that can). "-" is descriptor `std`.
 */
export async function identityOf(path: string, std: StdDescriptor): Promise<FileIdentity | null> {
  try {
    if (path === "-") {
      const st = fstatSync(std, { bigint: true });
      const real = await realpath(`/proc/self/fd/${std}`).catch(() => `/proc/self/fd/${std}`);
      return { dev: st.dev, ino: st.ino, kind: kindOf(st), real };
    }
    const st = await stat(path, { bigint: true });
    return { dev: st.dev, ino: st.ino, kind: kindOf(st), real: await realpath(path) };
  } catch {
    return null;
  }
}

/** The same file or folder: device and inode (hard links and bind mounts included), or real path. */
export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return (a.dev === b.dev && a.ino === b.ino) || a.real === b.real;
}

/**
 * Where a path that is not there yet would be created: its folders' links followed as far as
 * they exist, and the link it is itself followed too (a dangling link names the file to create).
 */
export async function wouldBeCreatedAt(path: string): Promise<string> {
  try {
    return (await followLinks(path)).final;
  } catch {
    return path;
  }
}

/** Paths statted at a time when many are checked. */
export const STAT_CONCURRENCY = 32;

/**
 * The paths that name distinct files, in their order: a file named twice (directly and through
 * its folder, through a symbolic link, or by a hard link) is kept the first time only, so it is
 * read once. Paths that cannot be statted (URLs, "-", files gone) are all kept: whoever reads
 * them reports them. `dropped` pairs each path left out with the one kept for it.
 */
export async function distinctFiles(paths: readonly string[]): Promise<{ kept: string[]; dropped: Array<{ path: string; same: string }> }> {
  const seen = new Map<string, string>();
  const kept: string[] = [];
  const dropped: Array<{ path: string; same: string }> = [];
  for (let from = 0; from < paths.length; from += STAT_CONCURRENCY) {
    const batch = paths.slice(from, from + STAT_CONCURRENCY);
    const ids = await Promise.all(
      batch.map((path) => (path === "-" || /^[a-z][a-z0-9+.-]*:\/\//i.test(path) ? null : stat(path, { bigint: true }).catch(() => null))),
    );
    for (let i = 0; i < batch.length; i++) {
      const st = ids[i];
      const key = st === null ? null : `${st.dev}:${st.ino}`;
      const first = key === null ? undefined : seen.get(key);
      if (first !== undefined) {
        dropped.push({ path: batch[i], same: first });
        continue;
      }
      if (key !== null) seen.set(key, batch[i]);
      kept.push(batch[i]);
    }
  }
  return { kept, dropped };
}
