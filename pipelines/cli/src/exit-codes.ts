/** winnow's exit statuses; scripts rely on them, so they only ever gain members. */
export const EXIT = {
  ok: 0,
  /** A bug: an unexpected error, reported with its stack. */
  internal: 1,
  /** Bad flags or flag values, a model file that cannot be used included. */
  usage: 2,
  /** No input could be opened, or nothing at all could be read from them. */
  noInput: 3,
  /** The output (or the --rejects file) could not be created or written. */
  output: 4,
  /** Stopped by SIGINT or SIGTERM; the output holds what was read before and is valid. */
  interrupted: 130,
} as const;

export const EXIT_CODES_HELP = `
Exit status:
  0    the run completed (records may have been skipped; see the summary)
  1    internal error (a bug: please report it with the stack trace)
  2    usage error: bad flags or flag values, or a --model file that cannot be used
  3    no input could be opened, or nothing at all could be read from them
  4    the output or the --rejects file could not be created or written
  130  interrupted (SIGINT/SIGTERM): what was read is written and the output is valid`;
