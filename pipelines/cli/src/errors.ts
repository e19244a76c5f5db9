/**
 * How a command ends with a non-zero status: it throws a CliError, and the entry point prints
 * its lines (each as "winnow: ...") and exits with its code. Anything else thrown is a bug.
 */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    readonly exitCode: number,
    /** Lines for the user, without the "winnow: " prefix; none when already reported. */
    readonly lines: readonly string[] = [],
  ) {
    super(lines.join("\n") || `exit ${exitCode}`);
  }
}
