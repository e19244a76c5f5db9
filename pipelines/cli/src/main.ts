// Entry point of the `winnow` executable (bin/winnow.js imports this).
import { runCli } from "./program.js";

// exitCode rather than exit(): pending output (stdout, logs) is flushed before the process ends.
process.exitCode = await runCli(process.argv.slice(2));
