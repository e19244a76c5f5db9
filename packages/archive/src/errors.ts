// Inputs that cannot be used at all. Damaged data never throws: it becomes a SkipEvent.
import { InputError, systemReason } from "@winnow/errors";

/** An input path that cannot be opened (or listed). The message names the path and the cause. */
export class ArchiveOpenError extends InputError {
  override readonly name: string = "ArchiveOpenError";
  /** The path as the caller gave it. */
  readonly path: string;
  /** Why, without the path: "no such file or directory". */
  readonly reason: string;
  /** The system error code when there was one (ENOENT, EACCES, ...). */
  readonly code: string | undefined;

  constructor(path: string, reason: string, options: { code?: string; cause?: unknown } = {}) {
    super(`cannot open input: ${reason}`, path, { cause: options.cause });
    this.path = path;
    this.reason = reason;
    this.code = options.code;
  }

  /** Wraps a file-system error, keeping its code and wording it for people. */
  static from(path: string, err: unknown): ArchiveOpenError {
    return new ArchiveOpenError(path, systemReason(err), { code: (err as NodeJS.ErrnoException | undefined)?.code, cause: err });
  }
}
