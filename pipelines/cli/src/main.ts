// Entry point of the `winnow` executable (bin/winnow.js imports this).
import { EXIT, systemReason } from "@winnow/errors";
import { runCli } from "./program.js";

// Standard output fails outside the corpus writer (which reports its own failures) when help,
// a table or a summary is written to a full disk (ENOSPC), or to a reader that went away
// (EPIPE: `winnow clean --help | head`). A reader going away only ends what there was to say;
// any other failure is reported once, and the run exits with the output status unless it
// already failed with its own.
let stdoutError: NodeJS.ErrnoException | null = null;
let status: number | null = null;
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE" || stdoutError !== null) return;
  stdoutError = error;
  if (status !== null) reportStdoutError();
});

function reportStdoutError(): void {
  if (stdoutError === null || (status !== null && status !== EXIT.ok)) return;
  process.stderr.write(`winnow: cannot write to standard output: ${systemReason(stdoutError)}\n`);
  process.exitCode = status = EXIT.output;
}

// exitCode rather than exit(): pending output (stdout, logs) is flushed before the process ends.
status = await runCli(process.argv.slice(2));
process.exitCode = status;
reportStdoutError();
