/**
 * What a launched `winnow dedup` is: its four passes as dependent jobs sharing one state folder.
 * signatures and filter run one item per input, buckets one per band and one for exact
 * duplicates, clusters one task; each task of a pass runs the items i with i mod tasks = rank.
 */
import { UsageError } from "@winnow/errors";
import { checkCounts, checkJobName, refuseLauncherFlags, winnowWords } from "./job.js";
import { checkValue, type Word } from "./values.js";

export const DEDUP_PASS_ORDER = ["signatures", "buckets", "clusters", "filter"] as const;
export type DedupPassName = (typeof DEDUP_PASS_ORDER)[number];

/** Flags of `winnow dedup` the launcher sets itself (or that pick items by hand). */
export const DEDUP_LAUNCHER_FLAGS = ["--pass", "--world-size", "--rank", "--shard", "--band"] as const;

export interface DedupJob {
  /** Tasks of the signatures and filter passes (and of buckets, up to its items). */
  tasks: number;
  maxRunning?: number;
  cpusPerTask: number;
  /** Memory per task as the scheduler writes it; default: resources.ts. */
  memory?: string;
  jobName: string;
  winnow: string;
  /** winnow dedup's own arguments: inputs, -o, --state and flags, as given after --. */
  dedupArgs: readonly string[];
  /** Items of the buckets pass: the bands, and exact duplicates. */
  bucketItems: number;
  /** Where the relative paths of dedupArgs resolve on the nodes. */
  chdir?: string;
  /** A job to start after (the clean job): Slurm only. */
  after?: string;
}

export function checkDedupJob(job: DedupJob): void {
  checkCounts(job.tasks, job.maxRunning);
  checkJobName(job.jobName);
  refuseLauncherFlags(job.dedupArgs, DEDUP_LAUNCHER_FLAGS, "winnow launch … dedup");
  checkValue("--winnow", job.winnow);
  if (job.memory !== undefined) checkValue("--mem", job.memory);
  if (job.chdir !== undefined) checkValue("the working folder", job.chdir);
  for (const arg of job.dedupArgs) checkValue("after --", arg);
  if (!Number.isInteger(job.bucketItems) || job.bucketItems < 1)
    throw new UsageError("the buckets pass needs at least one band", "--bands");
}

/** The passes in order, with their task counts: no more tasks than items for buckets, one for clusters. */
export function dedupPasses(job: DedupJob): { pass: DedupPassName; tasks: number }[] {
  checkDedupJob(job);
  return DEDUP_PASS_ORDER.map((pass) => ({
    pass,
    tasks: pass === "clusters" ? 1 : pass === "buckets" ? Math.min(job.tasks, job.bucketItems) : job.tasks,
  }));
}

/** The command of a task of `pass`; the rank comes from the scheduler's environment. */
export function dedupCommand(job: DedupJob, pass: DedupPassName, tasks: number): Word[] {
  const words: Word[] = [...winnowWords(job.winnow), "dedup", ...job.dedupArgs, "--pass", pass];
  if (pass !== "clusters") words.push("--world-size", String(tasks));
  return words;
}
