/**
 * A Slurm array job: one sbatch script whose array tasks each run `winnow clean` on their share
 * of the paths list (winnow reads SLURM_ARRAY_TASK_ID itself). Submitting the same script again
 * after tasks failed or were pre-empted redoes only inputs without a done marker.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { UsageError } from "@winnow/errors";
import { absolute, type CleanJob, checkJob, cleanArguments } from "./job.js";

export interface SlurmOptions {
  /** Wall-clock limit per task, as sbatch takes it ("24:00:00"); absent: the partition's. */
  time?: string;
  partition?: string;
  account?: string;
  /** Folder of the tasks' log files (%A_%a); default: where the job is submitted. */
  logDir?: string;
}

/** Single quotes, for words the shell must not touch. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

export function slurmArrayScript(job: CleanJob, slurm: SlurmOptions = {}): string {
  checkJob(job);
  const limit = job.maxRunning === undefined ? "" : `%${job.maxRunning}`;
  const logs = slurm.logDir === undefined ? "" : `${absolute(slurm.logDir).replace(/\/$/, "")}/`;
  const lines = [
    "#!/bin/bash",
    `#SBATCH --job-name=${job.jobName}`,
    `#SBATCH --array=0-${job.tasks - 1}${limit}`,
    "#SBATCH --ntasks=1",
    `#SBATCH --cpus-per-task=${job.cpusPerTask}`,
    `#SBATCH --mem=${job.memory}`,
    `#SBATCH --output=${logs}${job.jobName}-%A_%a.log`,
  ];
  if (slurm.time !== undefined) lines.push(`#SBATCH --time=${slurm.time}`);
  if (slurm.partition !== undefined) lines.push(`#SBATCH --partition=${slurm.partition}`);
  if (slurm.account !== undefined) lines.push(`#SBATCH --account=${slurm.account}`);
  const args = cleanArguments(
    job,
    {
      pathsFile: absolute(job.pathsFile),
      output: absolute(job.output),
      baseUrl: job.baseUrl === undefined ? undefined : absolute(job.baseUrl),
    },
    "__WORKERS__",
  );
  const command = [job.winnow, ...args.map(shellQuote)].join(" ").replace("__WORKERS__", '"$SLURM_CPUS_PER_TASK"');
  lines.push(
    "#",
    "# Written by winnow launch slurm. Task R of the array cleans inputs i of the paths list with",
    `# i mod ${job.tasks} = R (winnow reads SLURM_ARRAY_TASK_ID), one output per input, each marked done;`,
    "# submit this script again to redo only what failed or was cut short.",
    "set -euo pipefail",
    `exec ${command}`,
    "",
  );
  return lines.join("\n");
}

/** Submits a script with sbatch; returns the job id. */
export async function submitSlurm(scriptPath: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)("sbatch", ["--parsable", scriptPath]);
    return stdout.trim().split(";")[0];
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === "ENOENT") throw new UsageError("cannot submit: sbatch is not on the PATH (is Slurm installed here?)", scriptPath);
    throw new UsageError(`sbatch refused the job: ${(e.stderr ?? e.message).trim()}`, scriptPath, { cause: error });
  }
}
