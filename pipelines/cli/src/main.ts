// Entry point of the `winnow` executable (bin/winnow.js imports this).
import { runCli } from "./program.js";

// A reader that stops early (`winnow clean --help | head`) closes stdout: that ends what there is
// to say, not the program with a stack trace. The corpus writer keeps its own listener on stdout
// for `-o -`, so a run still reports its broken pipe as a failed output.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
});

// exitCode rather than exit(): pending output (stdout, logs) is flushed before the process ends.
process.exitCode = await runCli(process.argv.slice(2));
