/**
 * Logs go to stderr, stdout being free for `-o -`. Where stderr is a file or a pipe they are
 * pino's JSON lines, for machines; on a terminal each becomes one short line for people. One
 * format per stream: once a command has opened its JSON log, the closing summary and the error
 * that ends a run are JSON lines too (reportFailure), so `2> log.jsonl` is valid JSONL. What
 * libraries write to stderr on their own (the AWS SDK's process warnings and console.warn) goes
 * through the same logger, and every URL in a line is redacted (@winnow/remote's redactUrl).
 */
import { formatWithOptions } from "node:util";
// The redaction alone: the logger is made by every command, most of which read no remote input.
import { redactUrlsIn } from "@winnow/remote/redact";
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

/** The JSON logger this process opened, if any: failures are then reported through it. */
let jsonLogger: Logger | null = null;

export function createLogger(level: LogLevel, terminal = process.stderr.isTTY === true): Logger {
  // Synchronous: lines written just before exit are not lost.
  const destination = terminal ? terminalLines : pino.destination({ dest: 2, sync: true });
  const logger = pino({ level, base: undefined, hooks: { streamWrite: redactUrlsIn } }, destination);
  if (!terminal) jsonLogger = logger;
  routeLibraryOutput(logger);
  return logger;
}

/**
 * Process warnings (Node's default handler prints several lines of prose) and console.warn and
 * console.error, which libraries use for their own notices, become warnings of `logger`.
 */
function routeLibraryOutput(logger: Logger): void {
  process.removeAllListeners("warning");
  process.on("warning", (warning: Error) => {
    logger.warn({ warning: warning.name }, `${warning.name}: ${oneLine(warning.message)}`);
  });
  const toLog = (...args: unknown[]) => logger.warn(oneLine(formatWithOptions({ colors: false }, ...args)));
  console.warn = toLog;
  console.error = toLog;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

/**
 * Reports the failure that ends a command: a JSON line at level error when the command logs
 * JSON (whatever --log-level, as a failure always shows), else "winnow: <line>" for people.
 */
export function reportFailure(failure: string): void {
  const message = redactUrlsIn(failure);
  if (jsonLogger === null) {
    for (const line of message.split("\n")) process.stderr.write(`winnow: ${line}\n`);
    return;
  }
  process.stderr.write(`${JSON.stringify({ level: 50, time: Date.now(), msg: message })}\n`);
}
