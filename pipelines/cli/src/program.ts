/**
 * The `winnow` command and what every subcommand shares: error wording, exit statuses, help.
 * Each subcommand lives in src/commands/ and is added in createProgram(), only when it runs.
 */
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { BrokenPipeError, EXIT, WinnowError } from "@winnow/errors";
import { EXIT_CODES_HELP, ExitWith } from "./exit-codes.js";
import { reportFailure } from "./logger.js";
import { redactUrlsIn } from "@winnow/remote/redact";

/**
 * One module per subcommand under src/commands/, each adding itself with program.command(). They
 * are imported on demand: each pulls in its pipeline, and importing all of them cost every run
 * about 0.2 s of CPU (a one-page clean run: 1.33 s, of which clean's own modules are most).
 */
const COMMANDS: ReadonlyArray<readonly [name: string, load: () => Promise<(program: Command) => void>]> = [
  ["clean", async () => (await import("./commands/clean.js")).registerClean],
  ["stats", async () => (await import("./commands/stats.js")).registerStats],
  ["dedup", async () => (await import("./commands/dedup.js")).registerDedup],
  ["eval", async () => (await import("./commands/eval.js")).registerEval],
  ["train", async () => (await import("./commands/train.js")).registerTrain],
  ["label", async () => (await import("./commands/label.js")).registerLabel],
  ["inspect", async () => (await import("./commands/inspect.js")).registerInspect],
  ["label-ui", async () => (await import("./commands/label-ui.js")).registerLabelUi],
  ["launch", async () => (await import("./commands/launch.js")).registerLaunch],
];

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

/**
 * The program, with the subcommand `argv` names (its first word); with none for --version, and
 * with all of them when it names none (`winnow --help`, a typo that wants a suggestion).
 */
export async function createProgram(argv: readonly string[] = []): Promise<Command> {
  const program = new Command("winnow")
    .description("High-throughput web-corpus cleaner: WARC/ARC/HTML in, main-content text out.")
    .version(version, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .helpCommand(false)
    // Thrown rather than exiting, so runCli maps it to winnow's exit statuses.
    .exitOverride()
    // Commander's "error: ..." becomes "winnow: ...", like winnow's own messages.
    // A flag's value may be a URL with secrets: it is quoted without them.
    .configureOutput({ outputError: (text, write) => write(redactUrlsIn(text.replace(/^error: /, "winnow: "))) })
    .showHelpAfterError("(add --help for usage)")
    .addHelpText("after", `\nwinnow help COMMAND (or winnow COMMAND --help) shows a command's help.\n${EXIT_CODES_HELP}`);
  // Settings above are copied into subcommands when they are created, so these come after.
  const first = argv[0];
  const named = COMMANDS.filter(([name]) => name === first);
  const wanted = first === "-V" || first === "--version" ? [] : named.length > 0 ? named : COMMANDS;
  const registers = await Promise.all(wanted.map(([, load]) => load()));
  for (const register of registers) register(program);
  return program;
}

/**
 * `winnow help [COMMAND [SUBCOMMAND]]` as `winnow [COMMAND [SUBCOMMAND]] --help`, so that every
 * command's help is reached the same way, `winnow help launch slurm` as well as `winnow launch
 * help slurm` (commander's own help command takes one name only, and is off at the top level).
 */
export function helpAsFlag(argv: readonly string[]): readonly string[] {
  if (argv[0] !== "help") return argv;
  const rest = argv.slice(1);
  // A name winnow does not know is left as it is, to be refused with a suggestion (--help would show the root help).
  if (rest.length > 0 && !COMMANDS.some(([name]) => name === rest[0])) return rest;
  return [...rest, "--help"];
}

/**
 * Runs winnow on `argv` (the arguments after the program name) and returns its exit status.
 * Expected failures print one "winnow: <what> (<where>)" line per problem and no stack; an
 * output whose reader went away (EPIPE) ends quietly with EXIT.brokenPipe.
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    const args = helpAsFlag(argv);
    await (await createProgram(args)).parseAsync(args as string[], { from: "user" });
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
    process.stderr.write(redactUrlsIn(`winnow: internal error: ${(error as Error)?.stack ?? String(error)}\n`));
    return EXIT.internal;
  }
}
