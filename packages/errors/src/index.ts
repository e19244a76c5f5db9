/**
 * The kinds of failure winnow reports to people, and the exit status of each. Packages throw a
 * subclass of one kind (an archive that cannot be opened is an InputError, a model file that
 * does not fit is a ModelError); the command line prints the message and exits with the kind's
 * status. Anything else thrown is a bug and exits 1 with its stack.
 */

/** winnow's exit statuses. Scripts rely on them, so members are only ever added. */
export const EXIT = {
  ok: 0,
  /** A bug: an unexpected error, reported with its stack. */
  internal: 1,
  /** Bad flags or flag values, an unusable model, or a run that cannot go on as asked. */
  usage: 2,
  /** No input could be opened or read, or the input data is unusable. */
  input: 3,
  /** An output (corpus, rejects, manifest, model, labels) could not be created or written. */
  output: 4,
  /**
   * An output (or dedup's state folder) is locked by another run that is still going, or may
   * be: nothing was read or written. 75 is sysexits' EX_TEMPFAIL, "try again later", the
   * status a scheduler's retry rule can single out.
   */
  busy: 75,
  /** Stopped by SIGINT or SIGTERM; the output holds what was read before and is valid. */
  interrupted: 130,
  /**
   * The reader of an output went away (EPIPE: `winnow clean ... -o - | head`): winnow stops
   * quietly, with the status a shell gives a program killed by SIGPIPE (128 + 13).
   */
  brokenPipe: 141,
} as const;

export type ExitStatus = (typeof EXIT)[keyof typeof EXIT];

export type ErrorKind = "usage" | "input" | "model" | "output" | "busy";

const EXIT_FOR_KIND: Readonly<Record<ErrorKind, ExitStatus>> = {
  usage: EXIT.usage,
  input: EXIT.input,
  model: EXIT.usage,
  output: EXIT.output,
  busy: EXIT.busy,
};

/** Every exit status with what it means: the one table that `--help` prints and docs/exit-codes.md quotes. */
export const EXIT_STATUS_TABLE: ReadonlyArray<readonly [ExitStatus, string]> = [
  [EXIT.ok, "completed (records may have been skipped: see the summary)"],
  [EXIT.internal, "internal error: a bug; please report it with the stack trace"],
  [EXIT.usage, "usage error: bad flags or values, an unusable model, or a resume that cannot go on"],
  [EXIT.input, "input error: no input could be opened or read, or the input data is unusable"],
  [EXIT.output, "output error: an output file could not be created or written"],
  [EXIT.busy, "busy: another run holds a lock on an output or state folder; nothing was written (the message names it)"],
  [EXIT.interrupted, "interrupted (SIGINT/SIGTERM): what was read is written and the output is valid"],
  [EXIT.brokenPipe, "the reader of the output went away (broken pipe, as when piped into head): stopped quietly, output cut short"],
];

/**
 * A failure that is the user's to fix, with a message for them: what went wrong and, in
 * parentheses, where (a path, a flag, a page id).
 */
export abstract class WinnowError extends Error {
  abstract readonly kind: ErrorKind;

  constructor(
    /** What went wrong, in words for people; several problems go on several lines. */
    readonly what: string,
    /** The path, flag or item concerned; "" when the message says it all. */
    readonly where = "",
    options?: { cause?: unknown },
  ) {
    super(where === "" ? what : `${what} (${where})`, options);
  }

  get exitCode(): ExitStatus {
    return EXIT_FOR_KIND[this.kind];
  }
}

/** Bad flags or flag values, or a request that cannot be carried out as asked (exit 2). */
export class UsageError extends WinnowError {
  override readonly name: string = "UsageError";
  readonly kind = "usage";
}

/** An input that cannot be opened or read, or data that cannot be used (exit 3). */
export class InputError extends WinnowError {
  override readonly name: string = "InputError";
  readonly kind = "input";
}

/** A model that cannot be found, loaded or used with this winnow (exit 2). */
export class ModelError extends WinnowError {
  override readonly name: string = "ModelError";
  readonly kind = "model";
}

/** An output that cannot be created or written (exit 4). */
export class OutputError extends WinnowError {
  override readonly name: string = "OutputError";
  readonly kind = "output";
}

/**
 * An output or state folder that another run holds a lock on (exit 75): the message names the
 * holder (host, pid, start) and what to do.
 */
export class BusyError extends WinnowError {
  override readonly name: string = "BusyError";
  readonly kind = "busy";
}

/**
 * An output whose reader went away (EPIPE) before it was complete. Not reported as a failure:
 * the command line ends quietly with EXIT.brokenPipe, as programs killed by SIGPIPE do.
 */
export class BrokenPipeError extends OutputError {
  override readonly name: string = "BrokenPipeError";

  override get exitCode(): ExitStatus {
    return EXIT.brokenPipe;
  }
}

const SYSTEM_REASONS: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EISDIR: "is a directory",
  ENOTDIR: "a path component is not a directory",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EROFS: "read-only file system",
  EMFILE: "too many open files",
  EPIPE: "the reader went away (broken pipe)",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "file name too long",
};

/** A system error in words, without the path (which the caller reports beside it). */
export function systemReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && SYSTEM_REASONS[code] !== undefined) return SYSTEM_REASONS[code];
  return errorMessage(error);
}

/** The message of anything thrown. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
