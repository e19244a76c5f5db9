// The exit statuses as `--help` prints them: one table, from @winnow/errors, quoted in docs/exit-codes.md.
import { EXIT_STATUS_TABLE } from "@winnow/errors";

export const EXIT_CODES_HELP = `\nExit status:\n${EXIT_STATUS_TABLE.map(([code, meaning]) => `  ${String(code).padEnd(4)} ${meaning}`).join("\n")}`;

/**
 * Thrown by a command that ends with a status but nothing left to say (an interrupted run has
 * already printed its summary); failures with something to say are typed errors instead.
 */
export class ExitWith {
  constructor(readonly status: number) {}
}
