/**
 * The arguments `winnow launch` passes on to every task, read by the very parser of the command
 * the tasks run (clean's or dedup's commander definition), so that a job is refused here, with
 * that command's own message, rather than failing in every task on the cluster.
 */
import { Command, CommanderError } from "commander";
import { UsageError } from "@winnow/errors";

export interface ParsedArguments {
  operands: string[];
  flags: Record<string, unknown>;
}

/** The command `register` adds to a program of its own, named `name`. */
function taskCommand(register: (program: Command) => void, name: string): { program: Command; command: Command } {
  const program = new Command("winnow")
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {} })
    .helpCommand(false);
  register(program);
  const command = program.commands.find((c) => c.name() === name);
  if (command === undefined) throw new Error(`no command ${name}`);
  return { program, command };
}

/**
 * Parses `args` as `winnow <name> args` with the command `register` adds, without running it,
 * after refusing flags of the launcher or the scheduler among `userArgs` (the arguments after
 * --). A parse error becomes a UsageError with the command's own message.
 */
export async function parseTaskArguments(
  register: (program: Command) => void,
  name: string,
  args: readonly string[],
  userArgs: readonly string[],
  launcher: Command,
  scheduler: "slurm" | "k8s",
): Promise<ParsedArguments> {
  const { program, command } = taskCommand(register, name);
  refuseSchedulerFlags(userArgs, launcher, command, scheduler);
  let parsed: ParsedArguments | undefined;
  // The action is replaced: only what the parser makes of the arguments is wanted.
  command.action((operands: string[], flags: Record<string, unknown>) => {
    parsed = { operands, flags };
  });
  try {
    await program.parseAsync([name, ...args], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      throw new UsageError(error.message.replace(/^error: /, ""), `winnow ${name} flags after --`, { cause: error });
    }
    throw error;
  }
  if (parsed === undefined) throw new UsageError(`winnow ${name} would only print its help`, "after --");
  return parsed;
}

/** The long option names a command takes ("--partition"), to tell which side of -- a flag belongs to. */
function longFlags(command: Command): Set<string> {
  return new Set(command.options.flatMap((o) => [o.long, o.negate ? o.long : undefined].filter((f): f is string => f !== undefined)));
}

/** Flags sbatch takes that winnow launch slurm does not write: pass them to sbatch instead. */
const SBATCH_ONLY = [
  "--qos",
  "--gres",
  "--gpus",
  "--nodes",
  "--ntasks",
  "--constraint",
  "--exclusive",
  "--nodelist",
  "--exclude",
  "--reservation",
  "--mail-user",
  "--mail-type",
  "--array",
  "--dependency",
  "--export",
  "--chdir",
  "--requeue",
  "--signal",
];

/**
 * Refuses, among the arguments after --, a flag of the launcher or of the scheduler: given there,
 * it would reach every task's winnow instead of the job.
 */
function refuseSchedulerFlags(args: readonly string[], launcher: Command, runs: Command, scheduler: "slurm" | "k8s"): void {
  const ours = longFlags(launcher);
  const theirs = longFlags(runs);
  for (const arg of args) {
    if (arg === "--") break;
    const flag = /^--[^=]+/.exec(arg)?.[0];
    if (flag === undefined || theirs.has(flag)) continue;
    if (ours.has(flag)) {
      throw new UsageError(`${flag} is a flag of winnow launch ${scheduler}, not of the tasks: give it before --`, `after -- ${arg}`);
    }
    if (scheduler === "slurm" && SBATCH_ONLY.includes(flag)) {
      throw new UsageError(
        `${flag} is an sbatch flag that winnow launch does not write: give it to sbatch when submitting (sbatch ${flag}=... SCRIPT; a dedup chain script passes its arguments on to sbatch)`,
        `after -- ${arg}`,
      );
    }
  }
}
