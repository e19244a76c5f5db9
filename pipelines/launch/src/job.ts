/** What an array job of `winnow clean` tasks is: the same for every scheduler. */
import { isAbsolute, resolve } from "node:path";
import { UsageError } from "@winnow/errors";
import { checkValue, isUrl, type Word } from "./values.js";

export interface CleanJob {
  /** The paths list every task reads (each takes its share by rank). */
  pathsFile: string;
  baseUrl?: string;
  /** The folder the outputs go in (on storage every node sees). */
  output: string;
  /** Tasks in the array: the world size. */
  tasks: number;
  /** Tasks running at once; default all. */
  maxRunning?: number;
  cpusPerTask: number;
  /** Memory per task, as the scheduler writes it ("32G", "32Gi"); default: from the workers (resources.ts). */
  memory?: string;
  jobName: string;
  /** How the nodes run winnow: "winnow", or "node /opt/winnow/pipelines/cli/bin/winnow.js". */
  winnow: string;
  /** More `winnow clean` flags, passed as they are: ["--filters", "gopher", "--langs", "en"]. */
  cleanArgs: readonly string[];
}

/** Flags of `winnow clean` a clean launcher sets itself. */
export const CLEAN_LAUNCHER_FLAGS = ["--paths-file", "--base-url", "-o", "--output", "--rank", "--world-size", "--per-input"] as const;

/** Refuses, in `args`, a flag the launcher sets itself (`--rank 3`, `--rank=3`). */
export function refuseLauncherFlags(args: readonly string[], flags: readonly string[], launcher: string): void {
  for (const flag of flags) {
    if (args.some((a) => a === flag || a.startsWith(`${flag}=`) || (/^-[a-z]$/i.test(flag) && a.startsWith(flag)))) {
      throw new UsageError(`${flag} is set by the launcher: give it to ${launcher}, not after --`, flag);
    }
  }
}

/** Refuses job settings no scheduler would take, and values that could change the script. */
export function checkJobName(jobName: string): void {
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(jobName) || jobName.length > 52) {
    throw new UsageError(
      "the job name must be lowercase letters, digits and '-', at most 52 characters (a Kubernetes name with room for a pass)",
      `--job-name ${jobName}`,
    );
  }
}

export function checkCounts(tasks: number, maxRunning: number | undefined): void {
  if (!Number.isInteger(tasks) || tasks < 1) throw new UsageError(`--tasks must be a whole number >= 1, got ${tasks}`, "--tasks");
  if (maxRunning !== undefined && (!Number.isInteger(maxRunning) || maxRunning < 1)) {
    throw new UsageError(`--max-running must be a whole number >= 1, got ${maxRunning}`, "--max-running");
  }
}

export function checkJob(job: CleanJob): void {
  checkCounts(job.tasks, job.maxRunning);
  checkJobName(job.jobName);
  refuseLauncherFlags(job.cleanArgs, CLEAN_LAUNCHER_FLAGS, "winnow launch");
  checkValue("--paths-file", job.pathsFile);
  checkValue("-o", job.output);
  checkValue("--winnow", job.winnow);
  if (job.baseUrl !== undefined) checkValue("--base-url", job.baseUrl);
  if (job.memory !== undefined) checkValue("--mem", job.memory);
  for (const arg of job.cleanArgs) checkValue("after --", arg);
}

/** A local path made absolute (tasks may start elsewhere); URLs as they are. */
export function absolute(path: string): string {
  return isUrl(path) || isAbsolute(path) ? path : resolve(path);
}

/** The words that run winnow on a node: "node /opt/winnow/bin/winnow.js" is two. */
export function winnowWords(winnow: string): string[] {
  return winnow.trim().split(/\s+/);
}

/** The `winnow clean` arguments of every task; the rank comes from the scheduler's environment. */
export function cleanArguments(job: CleanJob, paths: { pathsFile: string; output: string; baseUrl?: string }, workers: Word): Word[] {
  const args: Word[] = ["clean", "--paths-file", paths.pathsFile];
  if (paths.baseUrl !== undefined) args.push("--base-url", paths.baseUrl);
  args.push("-o", paths.output, "--world-size", String(job.tasks), "--workers", workers, ...job.cleanArgs);
  return args;
}
