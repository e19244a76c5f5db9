/**
 * Every path winnow writes goes through here, so that one set of rules holds for all of them
 * (the corpus, the rejects log, the manifest, inspect's report, model files, label files):
 *
 * - "-" is standard output where a flag accepts it, and a usage error where it does not.
 * - A regular file, or a path where nothing is yet, is written under a temporary name beside it
 *   (`.<name>.tmp-<pid>-<n>`) and renamed over it once complete: readers see the old file or the
 *   new one, never half of one. Missing parent folders are created; a file in their way is an
 *   OutputError naming the path.
 * - A symbolic link is followed: its target is written (atomically, as above, when it is a
 *   regular file or missing); the link itself is never replaced.
 * - A character device or a FIFO (`/dev/null`, `/dev/stdout`, a named pipe) is written
 *   straight into, never replaced. /dev/stdout, /dev/fd/N and /proc/<pid>/fd/N are opened for
 *   appending, so `-o /dev/stdout >> log` appends as the shell asked.
 * - Anything else (a block device, a socket) is refused.
 *
 * And no output may be an input, nor another output: path-clash.ts compares them before anything
 * is read.
 */
import { createWriteStream, type Stats, writeFile as writeFileOrFd, type WriteStream } from "node:fs";
import { lstat, mkdir, readdir, readlink, realpath, rename, stat, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { Writable } from "node:stream";
import { promisify } from "node:util";
import { BrokenPipeError, OutputError, UsageError, systemReason } from "@winnow/errors";
import { isAlive, tempPathFor } from "./util.js";

/** What the command line calls an output, for messages. */
export interface OutputRole {
  /** In words: "output", "rejects file", "report", "model file". */
  what: string;
  /** The flag that names it: "-o", "--rejects". */
  flag: string;
  /** Whether "-" (standard output) is accepted; otherwise it is a usage error. */
  stdout?: boolean;
}

/** How an output path is written. */
export type OutputTarget =
  /** "-": standard output, written to and never closed. */
  | { kind: "stdout"; path: string }
  /**
   * A character device or FIFO, opened and written straight into; or a descriptor of this
   * process other than standard output (/dev/stderr, /dev/fd/3), written to as it is (`fd`).
   */
  | { kind: "stream"; path: string; flags: "w" | "a"; fd?: number }
  /** A regular file or a new path: written as a temporary file beside `file`, then renamed onto it. */
  | { kind: "file"; path: string; file: string; mode?: number }
  /** An existing folder. */
  | { kind: "directory"; path: string };

/** /dev/stdout, /dev/stderr, /dev/fd/N, /proc/<pid>/fd/N: a descriptor of a process, not a file to replace. */
const DESCRIPTOR_LINK = /^(?:\/dev\/(stdout|stderr|fd\/(\d+))|\/proc\/(self|thread-self|\d+)\/fd\/(\d+))$/;

/**
 * The target for a descriptor link. This process's own descriptors are written to as they are
 * (reopening one fails for a socket, and would lose the O_APPEND of `>>`): descriptor 1 is
 * standard output. Another process's is opened for appending.
 */
function descriptorTarget(path: string, link: string): OutputTarget {
  const m = DESCRIPTOR_LINK.exec(link);
  if (m === null) throw new RangeError(`not a descriptor link: ${link}`);
  const own = m[1] !== undefined || m[3] === "self" || m[3] === "thread-self" || Number(m[3]) === process.pid;
  const fd = m[1] === "stdout" ? 1 : m[1] === "stderr" ? 2 : Number(m[2] ?? m[4]);
  if (!own) return { kind: "stream", path, flags: "a" };
  return fd === 1 ? { kind: "stdout", path } : { kind: "stream", path, flags: "a", fd };
}

/** Hops through symbolic links before giving up, as the kernel does (ELOOP). */
const MAX_LINKS = 40;

/**
 * Says how `path` is to be written. Throws UsageError for "-" where the role does not accept
 * it, and OutputError (naming the path) when the path cannot be written at all.
 */
export async function classifyOutput(path: string, role: OutputRole): Promise<OutputTarget> {
  if (path === "-") {
    if (role.stdout === true) return { kind: "stdout", path };
    throw new UsageError(`${role.flag} cannot be standard output ("-") here`, `${role.flag} -`);
  }
  if (path === "") throw new UsageError(`${role.flag} needs a path`, role.flag);
  let followed: { final: string; descriptor: boolean };
  let st: Stats | null;
  try {
    followed = await followLinks(path);
    if (followed.descriptor) return descriptorTarget(path, followed.final);
    st = await stat(followed.final).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return null;
      throw error;
    });
  } catch (error) {
    throw new OutputError(`cannot create ${role.what}: ${systemReason(error)}`, path, { cause: error });
  }
  if (st === null || st.isFile()) return { kind: "file", path, file: followed.final, mode: st === null ? undefined : st.mode & 0o7777 };
  if (st.isCharacterDevice() || st.isFIFO()) return { kind: "stream", path, flags: "w" };
  if (st.isDirectory()) return { kind: "directory", path };
  throw new OutputError(`cannot write ${role.what}: not a regular file, character device or FIFO`, path);
}

/**
 * Follows symbolic links from `path` to the path they end at (which may not exist yet: a
 * dangling link names the file to create). Each link's target is read relative to the real
 * folder holding the link, as the kernel reads it.
 */
export async function followLinks(path: string): Promise<{ final: string; descriptor: boolean }> {
  let current = resolve(path);
  for (let hop = 0; hop <= MAX_LINKS; hop++) {
    if (DESCRIPTOR_LINK.test(current)) return { final: current, descriptor: true };
    const parent = await realpath(dirname(current)).catch((error: NodeJS.ErrnoException) => {
      // Folders still to be created: nothing further can be a link.
      if (error.code === "ENOENT") return null;
      throw error;
    });
    if (parent === null) return { final: current, descriptor: false };
    current = join(parent, basename(current));
    if (DESCRIPTOR_LINK.test(current)) return { final: current, descriptor: true };
    const st = await lstat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return null;
      throw error;
    });
    if (st === null || !st.isSymbolicLink()) return { final: current, descriptor: false };
    current = resolve(dirname(current), await readlink(current));
  }
  throw Object.assign(new Error(`too many symbolic links: ${path}`), { code: "ELOOP" });
}

/** Creates the folders a file target needs; a file in the way is an OutputError naming the path. */
export async function createParents(target: OutputTarget, role: OutputRole): Promise<void> {
  if (target.kind !== "file") return;
  try {
    await mkdir(dirname(target.file), { recursive: true });
  } catch (error) {
    // mkdir says EEXIST when the folder's own name is taken by a file.
    const code = (error as NodeJS.ErrnoException).code === "EEXIST" ? { code: "ENOTDIR" } : error;
    throw new OutputError(`cannot create ${role.what}: ${systemReason(code)}`, target.path, { cause: error });
  }
}

/** classifyOutput, then createParents: the target, ready to be opened. */
export async function prepareOutput(path: string, role: OutputRole): Promise<OutputTarget> {
  const target = await classifyOutput(path, role);
  await createParents(target, role);
  return target;
}

/** The error for a failed write: quiet BrokenPipeError when the reader went away, else OutputError. */
export function writeFailure(what: string, path: string, error: unknown): OutputError {
  const reason = systemReason(error).replace(/^@winnow\/writers: /, "");
  if (isBrokenPipe(error)) return new BrokenPipeError(`${what}: ${reason}`, path, { cause: error });
  return new OutputError(`${what}: ${reason}`, path, { cause: error });
}

/** True for EPIPE, on the error or anything in its chain of causes. */
export function isBrokenPipe(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if ((e as NodeJS.ErrnoException).code === "EPIPE") return true;
  }
  return false;
}

/** An output opened for streaming: where to write, and what closing it involves. */
export interface OpenedOutput {
  sink: Writable;
  /** True when the sink is ours to end (files, devices); false for standard output and other descriptors of this process. */
  owned: boolean;
  /** The temporary file to rename onto `finalPath` once complete; null when written in place. */
  tmpPath: string | null;
  finalPath: string | null;
}

/**
 * Opens a prepared target for streaming. `flush` fsyncs a temporary file before it is closed,
 * so that its rename never publishes data still in flight (not asked of devices and FIFOs,
 * which cannot be synced).
 */
export async function openOutput(
  target: OutputTarget,
  role: OutputRole,
  options: { flush?: boolean; highWaterMark?: number } = {},
): Promise<OpenedOutput> {
  if (target.kind === "stdout") return { sink: process.stdout, owned: false, tmpPath: null, finalPath: null };
  if (target.kind === "directory") {
    throw new OutputError(`cannot create ${role.what}: ${systemReason({ code: "EISDIR" })}`, target.path);
  }
  const hwm = options.highWaterMark === undefined ? {} : { highWaterMark: options.highWaterMark };
  if (target.kind === "stream" && target.fd !== undefined) {
    // A descriptor of this process: written to like standard output, never ended or closed.
    const sink = createWriteStream(target.path, { fd: target.fd, autoClose: false, ...hwm });
    return { sink, owned: false, tmpPath: null, finalPath: null };
  }
  if (target.kind === "stream") {
    const sink = createWriteStream(target.path, { flags: target.flags, ...hwm });
    await opened(sink, target.path, role);
    return { sink, owned: true, tmpPath: null, finalPath: null };
  }
  const tmpPath = tempPathFor(target.file);
  const sink = createWriteStream(tmpPath, { flush: options.flush === true, mode: target.mode, ...hwm });
  await opened(sink, target.path, role);
  return { sink, owned: true, tmpPath, finalPath: target.file };
}

function opened(stream: WriteStream, path: string, role: OutputRole): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => {
      stream.off("ready", onReady);
      reject(new OutputError(`cannot create ${role.what}: ${systemReason(error)}`, path, { cause: error }));
    };
    const onReady = (): void => {
      stream.off("error", onError);
      resolve();
    };
    stream.once("error", onError);
    stream.once("ready", onReady);
  });
}

/**
 * Writes a whole file (a report, a model, a label file) by the rules above: atomically over a
 * regular file or a new path, straight into a device or FIFO, to standard output for "-" where
 * the role accepts it.
 */
export async function writeOutputFile(path: string, data: string | Uint8Array, role: OutputRole): Promise<void> {
  const target = await prepareOutput(path, role);
  if (target.kind === "directory") {
    throw new OutputError(`cannot write ${role.what}: ${systemReason({ code: "EISDIR" })}`, path);
  }
  if (target.kind === "stdout") {
    await new Promise<void>((resolve, reject) => {
      process.stdout.write(data, (error) => (error ? reject(writeFailure(`cannot write ${role.what}`, path, error)) : resolve()));
    });
    return;
  }
  if (target.kind === "stream") {
    await promisify(writeFileOrFd)(target.fd ?? target.path, data, { flag: target.flags }).catch((error: unknown) => {
      throw writeFailure(`cannot write ${role.what}`, path, error);
    });
    return;
  }
  const temporary = tempPathFor(target.file);
  try {
    await writeFile(temporary, data, { mode: target.mode, flush: true });
    await rename(temporary, target.file);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw writeFailure(`cannot write ${role.what}`, path, error);
  }
}

/**
 * Removes temporary files that runs now dead left beside `finalPath` (`.<name>.tmp-<pid>-<n>`,
 * where no process `pid` is alive: a run killed by SIGKILL or a power cut). Files of live
 * processes, and of this one, are left alone. Returns the paths removed.
 */
export async function removeStaleTempFiles(finalPath: string): Promise<string[]> {
  const dir = dirname(finalPath);
  const prefix = `.${basename(finalPath)}.tmp-`;
  const names = await readdir(dir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    // `<pid>-<n>`, or a bare `<pid>` as winnow named them before the counter.
    const pid = /^(\d+)(?:-\d+)?$/.exec(name.slice(prefix.length))?.[1];
    if (pid === undefined || Number(pid) === process.pid || isAlive(Number(pid))) continue;
    const path = join(dir, name);
    if (
      await unlink(path).then(
        () => true,
        () => false,
      )
    ) {
      removed.push(path);
    }
  }
  return removed;
}
