/**
 * The `winnow` command and what every subcommand shares: error wording, exit statuses, help.
 * Each subcommand lives in src/commands/ and is added in createProgram().
 */
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { registerClean } from "./commands/clean.js";
import { registerDedup } from "./commands/dedup.js";
import { registerEval } from "./commands/eval.js";
import { registerInspect } from "./commands/inspect.js";
import { registerLabel } from "./commands/label.js";
import { registerLabelUi } from "./commands/label-ui.js";
import { registerLaunch } from "./commands/launch.js";
import { registerStats } from "./commands/stats.js";
import { registerTrain } from "./commands/train.js";
import { BrokenPipeError, EXIT, WinnowError } from "@winnow/errors";
import { EXIT_CODES_HELP, ExitWith } from "./exit-codes.js";
import { reportFailure } from "./logger.js";

/** One module per subcommand under src/commands/, each adding itself with program.command(). */
const COMMANDS: ReadonlyArray<(program: Command) => void> = [
  registerClean,
  registerStats,
  registerDedup,
  registerEval,
  registerTrain,
  registerLabel,
  registerInspect,
  registerLabelUi,
  registerLaunch,
];

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

export function createProgram(): Command {
  const program = new Command("winnow")
    .description("High-throughput web-corpus cleaner: WARC/ARC/HTML in, main-content text out.")
    .version(version, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .helpCommand(false)
    // Thrown rather than exiting, so runCli maps it to winnow's exit statuses.
    .exitOverride()
    // Commander's "error: ..." becomes "winnow: ...", like winnow's own messages.
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, "winnow: ")) })
    .showHelpAfterError("(add --help for usage)")
    .addHelpText("after", EXIT_CODES_HELP);
  // Settings above are copied into subcommands when they are created, so these come after.
  for (const register of COMMANDS) register(program);
  return program;
}

/**
 * Runs winnow on `argv` (the arguments after the program name) and returns its exit status.
 * Expected failures print one "winnow: <what> (<where>)" line per problem and no stack; an
 * output whose reader went away (EPIPE) ends quietly with EXIT.brokenPipe.
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    await createProgram().parseAsync(argv as string[], { from: "user" });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage; // already printed
    if (error instanceof ExitWith) return error.status;
    // The reader of the output went away (`| head`): nothing to say, the status says it was cut short.
    if (error instanceof BrokenPipeError) return error.exitCode;
    if (error instanceof WinnowError) {
      reportFailure(error.message);
      return error.exitCode;
    }
    process.stderr.write(`winnow: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    return EXIT.internal;
  }
}
