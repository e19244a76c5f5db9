/**
 * The rules every command keeps for the paths it writes (@winnow/writers' RunPaths and locks),
 * applied to `winnow dedup`: no output, rejects file or state folder may be an input, or hold
 * one; and a task takes a lock on the state and output folders, so the same task started twice
 * refuses while tasks of other passes, ranks or shards go on side by side.
 */
import { createHash } from "node:crypto";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { outputName } from "@winnow/dedup-stage";
import { listCorpusTree, lockOutput, type OutputLock, RunPaths } from "@winnow/writers";

/** The scheduler variables that hold an array task's index (Slurm, Kubernetes Indexed Jobs, AWS Batch). */
const SCHEDULER_INDEX = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"];

/** What of dedup's flags names paths and tasks. */
export interface DedupPathFlags {
  output: string;
  state?: string;
  rejects?: string;
  pass?: string;
  shard?: number[];
  band?: string[];
}

/** The state folder a run uses: --state, or <output>/.dedup. */
export function stateFolder(flags: DedupPathFlags): string {
  return flags.state ?? join(flags.output, ".dedup");
}

/** Every file of the inputs, corpus or not: the files given, and every file under the folders given (none may be written over). */
async function inputFiles(inputs: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    const st = await stat(input).catch(() => null);
    if (st?.isDirectory()) {
      const names = await readdir(input, { recursive: true }).catch(() => [] as string[]);
      for (const name of names.sort()) files.push(join(input, name));
    } else {
      files.push(input);
    }
  }
  return files;
}

/** Throws a UsageError naming both paths when an output of the run is an input, or one output is another. */
export async function refuseDedupPathsOverInputs(inputs: readonly string[], flags: DedupPathFlags): Promise<void> {
  const files = await inputFiles(inputs);
  const paths = new RunPaths([...inputs, ...files].map((path) => ({ path, flag: "input" })));
  // The state folder is dedup's own: nothing of the user's, inputs included, may be in it.
  await paths.claim({ path: stateFolder(flags), flag: "--state" }, { folder: true });
  await paths.claim({ path: flags.output, flag: "-o" });
  // Each output as the run will name it, from the same listing the run reads (each file once:
  // an input named twice is one output). An input that cannot be listed is the run's to report.
  const listing = await listCorpusTree(inputs, [flags.output, stateFolder(flags)]).catch(() => null);
  for (const file of listing?.files ?? []) await paths.claim({ path: join(flags.output, outputName(file.rel)), flag: "-o" });
  if (flags.rejects !== undefined) await paths.claim({ path: flags.rejects, flag: "--rejects" });
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
    locks.push(await lockOutput(stateFolder(flags), { key, what: "state folder", purpose: `dedup ${key}` }));
    locks.push(await lockOutput(flags.output, { key, what: "output folder", purpose: `dedup ${key}` }));
  } catch (error) {
    await Promise.allSettled(locks.map((lock) => lock.release()));
    throw error;
  }
  return locks;
}
