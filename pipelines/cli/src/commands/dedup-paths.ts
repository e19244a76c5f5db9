/**
 * The locks of `winnow dedup` (@winnow/writers' lock.ts): a task takes a lock on the state and
 * output folders, so the same task started twice refuses while tasks of other passes, ranks or
 * shards go on side by side. (That no output, rejects file or state folder is an input, or holds
 * one, runDedup's checkedInputs makes sure, for the CLI and every other caller.)
 */
import { createHash } from "node:crypto";
import { stateOf } from "@winnow/dedup-stage";
import { lockOutput, type OutputLock } from "@winnow/writers";

/** The scheduler variables that hold an array task's index (Slurm, Kubernetes Indexed Jobs, AWS Batch). */
const SCHEDULER_INDEX = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"];

/** What of dedup's flags names paths and tasks. */
export interface DedupPathFlags {
  output: string;
  state?: string;
  pass?: string;
  shard?: number[];
  band?: string[];
}

/**
 * Locks the state folder and the output folder for this task: the key names the pass and the
 * inputs, bands or rank it runs, so the same task twice conflicts and different tasks do not.
 */
export async function lockDedupTask(
  flags: DedupPathFlags & Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<OutputLock[]> {
  // The task's index, from --rank or the scheduler (as resolveShard reads it), never validated
  // here: it only tells tasks apart. The clusters pass is one task, whatever the index.
  const index =
    typeof flags.rank === "number" ? String(flags.rank) : SCHEDULER_INDEX.map((name) => env[name]).find((v) => v !== undefined && v !== "");
  const rank = index === undefined || flags.pass === "clusters" ? "" : `-rank${index.replace(/[^0-9]/g, "")}`;
  const worldSize = typeof flags.worldSize === "number" && rank !== "" ? `of${flags.worldSize}` : "";
  const listed = [...(flags.shard ?? []).map(String), ...(flags.band ?? [])].join(",").replace(/[^A-Za-z0-9,]/g, "");
  // A long list of shards would make too long a file name: its hash names the same task as well.
  const only = listed.length <= 40 ? listed : createHash("sha256").update(listed).digest("hex").slice(0, 16);
  const key = `${flags.pass ?? "all"}${rank}${worldSize}${only === "" ? "" : `-${only}`}`;
  const locks: OutputLock[] = [];
  try {
    locks.push(await lockOutput(stateOf(flags), { key, what: "state folder", purpose: `dedup ${key}` }));
    locks.push(await lockOutput(flags.output, { key, what: "output folder", purpose: `dedup ${key}` }));
  } catch (error) {
    await Promise.allSettled(locks.map((lock) => lock.release()));
    throw error;
  }
  return locks;
}
