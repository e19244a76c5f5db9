/**
 * A task's share of the inputs: task `rank` of `worldSize` takes inputs i with i mod worldSize =
 * rank. Rank and world size come from flags, or else from the scheduler that started the task
 * (Slurm array jobs, Kubernetes Indexed Jobs, AWS Batch array jobs), and the run logs which.
 */
import { UsageError } from "@winnow/errors";

export interface Shard {
  rank: number;
  worldSize: number;
  /** Where they came from: "flags", or the environment variables read ("SLURM_ARRAY_TASK_ID", ...). */
  source: string;
}

export interface ShardFlags {
  rank?: number;
  worldSize?: number;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The task's shard from --rank/--world-size, else the scheduler's variables; null when neither
 * is there (the task takes every input). Throws UsageError for values that do not make a shard.
 */
export function resolveShard(flags: ShardFlags, env: Env = process.env): Shard | null {
  const shard = flags.rank !== undefined ? { rank: flags.rank, worldSize: flags.worldSize, source: "flags" } : fromScheduler(flags, env);
  if (shard === null) {
    if (flags.worldSize !== undefined) {
      throw new UsageError(
        "--world-size needs --rank, or a scheduler's task index (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX)",
        `--world-size ${flags.worldSize}`,
      );
    }
    return null;
  }
  const { rank, worldSize, source } = shard;
  if (worldSize === undefined) throw new UsageError(`the world size is not known: give --world-size with ${source}`, source);
  if (!Number.isInteger(worldSize) || worldSize < 1)
    throw new UsageError(`the world size must be an integer >= 1, got ${worldSize}`, source);
  if (!Number.isInteger(rank) || rank < 0 || rank >= worldSize) {
    throw new UsageError(`the rank must be an integer from 0 to ${worldSize - 1} (world size ${worldSize}), got ${rank}`, source);
  }
  return { rank, worldSize, source };
}

function fromScheduler(flags: ShardFlags, env: Env): { rank: number; worldSize: number | undefined; source: string } | null {
  const slurmId = env.SLURM_ARRAY_TASK_ID;
  if (slurmId !== undefined && slurmId !== "") {
    // An array such as --array=0-999 or 1-1000:2; task ids need not start at 0.
    const id = integer(slurmId, "SLURM_ARRAY_TASK_ID");
    const min = env.SLURM_ARRAY_TASK_MIN ? integer(env.SLURM_ARRAY_TASK_MIN, "SLURM_ARRAY_TASK_MIN") : 0;
    const step = env.SLURM_ARRAY_TASK_STEP ? integer(env.SLURM_ARRAY_TASK_STEP, "SLURM_ARRAY_TASK_STEP") : 1;
    let worldSize = flags.worldSize;
    let source = "SLURM_ARRAY_TASK_ID";
    if (worldSize === undefined && env.SLURM_ARRAY_TASK_MAX) {
      worldSize = Math.floor((integer(env.SLURM_ARRAY_TASK_MAX, "SLURM_ARRAY_TASK_MAX") - min) / step) + 1;
      source += ", SLURM_ARRAY_TASK_MIN/MAX";
    } else if (worldSize === undefined && env.SLURM_ARRAY_TASK_COUNT) {
      worldSize = integer(env.SLURM_ARRAY_TASK_COUNT, "SLURM_ARRAY_TASK_COUNT");
      source += ", SLURM_ARRAY_TASK_COUNT";
    }
    if (step < 1) throw new UsageError(`SLURM_ARRAY_TASK_STEP must be >= 1, got ${step}`, "SLURM_ARRAY_TASK_STEP");
    return { rank: (id - min) / step, worldSize, source };
  }
  const k8sIndex = env.JOB_COMPLETION_INDEX;
  if (k8sIndex !== undefined && k8sIndex !== "") {
    // An Indexed Job does not tell its pods the completion count: the launcher passes --world-size.
    return { rank: integer(k8sIndex, "JOB_COMPLETION_INDEX"), worldSize: flags.worldSize, source: "JOB_COMPLETION_INDEX" };
  }
  const batchIndex = env.AWS_BATCH_JOB_ARRAY_INDEX;
  if (batchIndex !== undefined && batchIndex !== "") {
    // AWS Batch does not export the array size either; WINNOW_WORLD_SIZE lets a job definition set it.
    const size = flags.worldSize ?? (env.WINNOW_WORLD_SIZE ? integer(env.WINNOW_WORLD_SIZE, "WINNOW_WORLD_SIZE") : undefined);
    return { rank: integer(batchIndex, "AWS_BATCH_JOB_ARRAY_INDEX"), worldSize: size, source: "AWS_BATCH_JOB_ARRAY_INDEX" };
  }
  return null;
}

function integer(value: string, name: string): number {
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`${name} must be a whole number, got "${value}"`, name);
  return Number(value);
}

/** The items of task `shard` (every item when null), in list order. */
export function takeShard<T>(items: readonly T[], shard: Shard | null): T[] {
  if (shard === null) return [...items];
  return items.filter((_, i) => i % shard.worldSize === shard.rank);
}
