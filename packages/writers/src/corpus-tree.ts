/**
 * The corpus files of a run's inputs, in a stable order: the paths as given, a folder's corpus
 * files (JSONL, .gz, .zst, Parquet) found recursively and sorted by the bytes of their path
 * relative to the folder. A folder written by `winnow clean --paths-file` (one output per input,
 * each followed by a `.done` marker) holds more than outputs: markers, manifests, rejects,
 * outputs still being staged by a running or killed task. Only corpus files are taken, and in a
 * folder with done markers only those a marker says are complete: the others are listed for
 * the caller to refuse or pass over. A file reached twice (named and inside a named folder, or
 * through a link) is read once. `winnow dedup` and `winnow stats` read their inputs through it.
 * On request the same walk also lists every path in the folders (`found`), which is what a run's
 * outputs are checked against (RunPaths): one walk, not one to read and another to protect.
 */
import type { Stats } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { basename, join, relative, resolve, sep } from "node:path";
import { InputError, systemReason } from "@winnow/errors";
import { doneMarkerPath } from "./per-input.js";

/** Names the corpus files end in; `.rejects.jsonl` files beside them are clean's rejects. */
const CORPUS_NAME = /\.(jsonl|jsonl\.gz|jsonl\.zst|parquet)$/i;
const REJECTS_NAME = /\.rejects\.jsonl$/i;
/** What clean's per-input writer stages an output as before it renames it (see @winnow/writers' stagingPathFor). */
const STAGING_NAME = /^\.(.+)\.[^.]+\.staging(\.[^/]*)?$/;

export interface CorpusFile {
  /** Absolute path. */
  path: string;
  /** A named file's name; a folder's file's path inside the folder ("/"-separated). */
  rel: string;
  /** The path as the user gave it (or the folder given, joined with `rel`): for messages. */
  shown: string;
  size: number;
  mtimeMs: number;
}

export interface CorpusListing {
  files: CorpusFile[];
  /** Corpus files in a per-input tree without their done marker, and outputs still staged: not taken. */
  incomplete: string[];
  /** Paths reached a second time (the same device and inode), not taken again. */
  repeated: string[];
  /**
   * With `found: true`: every path inside the folders given (each joined to the folder as given),
   * of any kind, corpus or not, hidden ones and the skipped folders' included; empty otherwise.
   * None of them may be written over, whether it is read or not.
   */
  found: string[];
}

export interface CorpusTreeOptions {
  /** Folders not walked for corpus files (a run's own output and state folders, when they lie inside an input folder). */
  skip?: readonly string[];
  /** Also list every path inside the folders given (CorpusListing.found). */
  found?: boolean;
}

/**
 * Lists the corpus files of `given` (files and folders). Folders in `options.skip` (a run's own
 * output and state folders, when they lie inside an input folder) are not searched for corpus
 * files, so a run's outputs never become its inputs.
 */
export async function listCorpusTree(given: readonly string[], options: CorpusTreeOptions = {}): Promise<CorpusListing> {
  const listing: CorpusListing = { files: [], incomplete: [], repeated: [], found: [] };
  const seen = new Set<string>();
  const skipped = new Set((options.skip ?? []).map((p) => resolve(p)));
  const take = (path: string, st: Stats, name: string, shown: string): void => {
    const identity = `${st.dev}:${st.ino}`;
    if (seen.has(identity)) {
      listing.repeated.push(path);
      return;
    }
    seen.add(identity);
    listing.files.push({ path, rel: name, shown, size: st.size, mtimeMs: st.mtimeMs });
  };
  for (const arg of given) {
    const root = resolve(arg);
    const st = await statInput(root, arg);
    if (!st.isDirectory()) {
      take(root, st, basename(root), arg);
      continue;
    }
    const found = await walk(root, root, skipped, options.found === true);
    for (const rel of found.all) listing.found.push(join(arg, rel));
    const files = found.files.sort((a, b) => Buffer.compare(Buffer.from(a.rel), Buffer.from(b.rel)));
    if (files.length === 0 && found.staged.length === 0) throw new InputError("no JSONL or Parquet files in this folder or below it", arg);
    const marked = (rel: string) => found.names.has(doneMarkerPath(rel));
    // A per-input tree: clean marks each output done last, so there an output without its marker is not complete.
    const perInput = found.staged.length > 0 || files.some((f) => marked(f.rel));
    for (const file of files) {
      if (perInput && !marked(file.rel)) listing.incomplete.push(file.path);
      else take(file.path, file.stats, file.rel, join(arg, file.rel));
    }
    listing.incomplete.push(...found.staged.sort());
  }
  return listing;
}

async function statInput(path: string, given: string): Promise<Stats> {
  try {
    return await stat(path);
  } catch (error) {
    throw new InputError(`cannot open input: ${systemReason(error)}`, given, { cause: error });
  }
}

interface Walked {
  files: Array<{ path: string; rel: string; stats: Stats }>;
  /** With `all`: the relative path of everything below the root. */
  all: string[];
  /** Relative paths of every plain file seen (done markers among them). */
  names: Set<string>;
  /** Staged outputs (hidden, being written or left by a killed task). */
  staged: string[];
}

/**
 * Every file below `dir`, links followed (a folder reached twice is walked once). With `all`, a
 * hidden or skipped folder's contents are listed too, without following its links (a link there
 * is listed, and checked where it ends by whoever compares paths).
 */
async function walk(
  root: string,
  dir: string,
  skip: ReadonlySet<string>,
  all: boolean,
  into?: Walked,
  visited = new Set<string>(),
): Promise<Walked> {
  const out: Walked = into ?? { files: [], all: [], names: new Set(), staged: [] };
  const dirStats = await stat(dir).catch(() => null);
  if (dirStats === null || visited.has(`${dirStats.dev}:${dirStats.ino}`)) return out;
  visited.add(`${dirStats.dev}:${dirStats.ino}`);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    throw new InputError(`cannot list this folder: ${systemReason(error)}`, dir, { cause: error });
  }
  for (const name of names) {
    const path = join(dir, name);
    const rel = relative(root, path).split(sep).join("/");
    if (all) out.all.push(rel);
    if (name.startsWith(".")) {
      // Hidden: temporary and staged files, state folders. A staged output is worth naming.
      const staged = STAGING_NAME.exec(name);
      if (staged !== null && CORPUS_NAME.test(staged[1]) && !REJECTS_NAME.test(staged[1])) out.staged.push(path);
      if (all) await listBelow(path, rel, out.all);
      continue;
    }
    if (skip.has(path)) {
      if (all) await listBelow(path, rel, out.all);
      continue;
    }
    const st = await stat(path).catch(() => null);
    if (st === null) continue;
    if (st.isDirectory()) {
      await walk(root, path, skip, all, out, visited);
    } else if (st.isFile()) {
      out.names.add(rel);
      if (CORPUS_NAME.test(name) && !REJECTS_NAME.test(name)) out.files.push({ path, rel, stats: st });
    }
  }
  return out;
}

/** Everything below `path` when it is a folder (links not followed), as paths relative to the root. */
async function listBelow(path: string, rel: string, into: string[]): Promise<void> {
  const below = await readdir(path, { recursive: true }).catch(() => [] as string[]);
  for (const name of below.sort()) into.push(`${rel}/${name.split(sep).join("/")}`);
}

/** "a, b, c and 4 more". */
export function someOf(paths: readonly string[], at = 5): string {
  const shown = paths.slice(0, at).join(", ");
  return paths.length > at ? `${shown} and ${paths.length - at} more` : shown;
}
