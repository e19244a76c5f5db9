/** What an array job of `winnow clean` tasks is: the same for every scheduler. */
import { isAbsolute, resolve } from "node:path";
import { UsageError } from "@winnow/errors";

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
  /** Memory per task, as the scheduler writes it: "32G" (Slurm), "32Gi" (Kubernetes). */
  memory: string;
  jobName: string;
  /** How the nodes run winnow: "winnow", or "node /opt/winnow/pipelines/cli/bin/winnow.js". */
  winnow: string;
  /** More `winnow clean` flags, passed as they are: ["--filters", "gopher", "--langs", "en"]. */
  cleanArgs: readonly string[];
}

/** Refuses values no scheduler would take. */
export function checkJob(job: CleanJob): void {
  if (!Number.isInteger(job.tasks) || job.tasks < 1)
    throw new UsageError(`--tasks must be a whole number >= 1, got ${job.tasks}`, "--tasks");
  if (job.maxRunning !== undefined && (!Number.isInteger(job.maxRunning) || job.maxRunning < 1)) {
    throw new UsageError(`--max-running must be a whole number >= 1, got ${job.maxRunning}`, "--max-running");
  }
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(job.jobName)) {
    throw new UsageError("the job name must be lowercase letters, digits and '-' (a Kubernetes name)", `--job-name ${job.jobName}`);
  }
  for (const flag of ["--paths-file", "--base-url", "-o", "--output", "--rank", "--world-size", "--per-input"]) {
    if (job.cleanArgs.some((a) => a === flag || a.startsWith(`${flag}=`))) {
      throw new UsageError(`${flag} is set by the launcher: give it to winnow launch, not after --`, flag);
    }
  }
}

/** A local path made absolute (tasks may start elsewhere); URLs as they are. */
export function absolute(path: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(path) || isAbsolute(path) ? path : resolve(path);
}

/** The `winnow clean` arguments of every task; the rank comes from the scheduler's environment. */
export function cleanArguments(job: CleanJob, paths: { pathsFile: string; output: string; baseUrl?: string }, workers: string): string[] {
  const args = ["clean", "--paths-file", paths.pathsFile];
  if (paths.baseUrl !== undefined) args.push("--base-url", paths.baseUrl);
  args.push("-o", paths.output, "--world-size", String(job.tasks), "--workers", workers, ...job.cleanArgs);
  return args;
}
