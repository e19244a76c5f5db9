// Typed errors for inputs that cannot be used at all. Damaged data never throws: it becomes a SkipEvent.

const REASONS: Record<string, string> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EISDIR: "is a directory",
  ENOTDIR: "a path component is not a directory",
  ELOOP: "too many symbolic links",
  EMFILE: "too many open files",
};

/** An input path that cannot be opened (or listed). The message names the path and the cause. */
export class ArchiveOpenError extends Error {
  override readonly name = "ArchiveOpenError";
  /** The path as the caller gave it. */
  readonly path: string;
  /** The system error code when there was one (ENOENT, EACCES, ...). */
  readonly code: string | undefined;

  constructor(path: string, reason: string, options: { code?: string; cause?: unknown } = {}) {
    super(`cannot open ${path}: ${reason}`, { cause: options.cause });
    this.path = path;
    this.code = options.code;
  }

  /** Wraps a file-system error, keeping its code and wording it for people. */
  static from(path: string, err: unknown): ArchiveOpenError {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    const reason = (code && REASONS[code]) ?? (err instanceof Error ? err.message : String(err));
    return new ArchiveOpenError(path, reason, { code, cause: err });
  }
}
