/**
 * Logs go to stderr, stdout being free for `-o -`. Where stderr is a file or a pipe they stay
 * pino's JSON lines, for machines; on a terminal each becomes one short line for people.
 */
import { pino, type DestinationStream, type Level, type Logger } from "pino";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = Level | "silent";

const LABELS: Record<number, string> = { 10: "trace: ", 20: "debug: ", 30: "", 40: "warning: ", 50: "error: ", 60: "fatal: " };

/** One line per record: "winnow: warning: message". Clears a progress bar drawn on that line. */
const terminalLines: DestinationStream = {
  write(line: string): void {
    const record = JSON.parse(line) as { level: number; msg?: string };
    process.stderr.write(`\r\x1b[Kwinnow: ${LABELS[record.level] ?? ""}${record.msg ?? ""}\n`);
  },
};

export function createLogger(level: LogLevel, terminal = process.stderr.isTTY === true): Logger {
  // Synchronous: lines written just before exit are not lost.
  const destination = terminal ? terminalLines : pino.destination({ dest: 2, sync: true });
  return pino({ level, base: undefined }, destination);
}
