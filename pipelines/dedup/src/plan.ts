/**
 * The plan of a dedup run, kept in its state folder (plan.json): the inputs in their stable
 * order and every setting that changes what a pass computes. Every task of a run, on any
 * machine, reads the same plan, so their files fit together; a task started with other inputs
 * or settings is refused instead of mixing files that do not belong together.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { checkMinHashParams, type MinHashParams } from "@winnow/dedup";
import { InputError, OutputError, UsageError, systemReason } from "@winnow/errors";

export type DedupKind = "exact" | "minhash" | "lines";
export const DEDUP_KINDS: readonly DedupKind[] = ["exact", "minhash", "lines"];

export interface DedupSettings {
  kinds: readonly DedupKind[];
  minhash: MinHashParams;
  /** Candidate pairs below this estimated Jaccard are not near duplicates. */
  minSimilarity: number;
  /** A line in more than this many kept documents is removed from all of them. */
  lineThreshold: number;
  /** A document left with fewer words by line removal is dropped. */
  minWords: number;
  /** The field holding the text (winnow clean writes "text"). */
  textField: string;
}

export interface Plan {
  version: 1;
  /** Absolute paths, in the order that decides which copy is kept. */
  inputs: string[];
  settings: DedupSettings;
}

export const PLAN_FILE = "plan.json";

/** The files of the state folder, by pass. */
export const paths = {
  plan: (state: string) => join(state, PLAN_FILE),
  sigMeta: (state: string, shard: number) => join(state, "signatures", `${shard}.json`),
  sigFile: (state: string, shard: number, what: string) => join(state, "signatures", `${shard}.${what}`),
  bucket: (state: string, band: string) => join(state, "buckets", `${band}.pairs`),
  bucketSummary: (state: string, band: string) => join(state, "buckets", `${band}.json`),
  clusterShard: (state: string, shard: number) => join(state, "clusters", `${shard}.jsonl`),
  frequentLines: (state: string) => join(state, "clusters", "frequent-lines.bin"),
  clusterSummary: (state: string) => join(state, "clusters", "summary.json"),
  filterRejects: (state: string, shard: number) => join(state, "filter", `${shard}.rejects.jsonl`),
  filterSummary: (state: string, shard: number) => join(state, "filter", `${shard}.json`),
};

/** The names of the band tasks of the bucket pass: "exact", then "0".."bands-1". */
export function bandNames(settings: DedupSettings): string[] {
  const names: string[] = [];
  if (settings.kinds.includes("exact")) names.push("exact");
  if (settings.kinds.includes("minhash")) for (let b = 0; b < settings.minhash.bands; b++) names.push(String(b));
  return names;
}

/** Throws a UsageError for settings that cannot work. */
export function checkSettings(s: DedupSettings): void {
  if (s.kinds.length === 0) throw new UsageError("nothing to do: --kinds names none of exact, minhash, lines", "--kinds");
  for (const k of s.kinds)
    if (!DEDUP_KINDS.includes(k)) throw new UsageError(`unknown kind ${JSON.stringify(k)}: use exact, minhash or lines`, "--kinds");
  try {
    checkMinHashParams(s.minhash);
  } catch (error) {
    throw new UsageError((error as Error).message, "--bands/--rows/--shingle/--seed");
  }
  if (!(s.minSimilarity >= 0 && s.minSimilarity <= 1))
    throw new UsageError(`must be between 0 and 1, got ${s.minSimilarity}`, "--min-similarity");
  if (!Number.isInteger(s.lineThreshold) || s.lineThreshold < 1)
    throw new UsageError(`must be an integer >= 1, got ${s.lineThreshold}`, "--line-threshold");
  if (!Number.isInteger(s.minWords) || s.minWords < 0) throw new UsageError(`must be an integer >= 0, got ${s.minWords}`, "--min-words");
}

/**
 * The run's plan: read from the state folder when there is one (and `inputs`, when given, must
 * be the same files), otherwise made from `inputs` and written there.
 */
export async function openPlan(state: string, inputs: readonly string[], settings: DedupSettings): Promise<Plan> {
  checkSettings(settings);
  const file = paths.plan(state);
  const wanted: Plan = { version: 1, inputs: inputs.map((p) => resolve(p)), settings: { ...settings, kinds: [...settings.kinds] } };
  if (existsSync(file)) {
    let plan: Plan;
    try {
      plan = JSON.parse(await readFile(file, "utf8")) as Plan;
    } catch (error) {
      throw new InputError(`cannot read the dedup plan: ${systemReason(error)}`, file, { cause: error });
    }
    if (inputs.length > 0 && JSON.stringify(plan.inputs) !== JSON.stringify(wanted.inputs)) {
      throw new UsageError(
        "these inputs are not the ones this state folder was started with (same files, same order); use another --state",
        file,
      );
    }
    if (JSON.stringify(plan.settings) !== JSON.stringify(wanted.settings)) {
      throw new UsageError(
        `these settings differ from the ones this state folder was started with: ${JSON.stringify(plan.settings)}`,
        file,
      );
    }
    return plan;
  }
  if (inputs.length === 0) throw new UsageError("no inputs given, and no dedup plan in the state folder to take them from", file);
  refuseSameNames(wanted.inputs);
  try {
    await mkdir(state, { recursive: true });
    const tmp = `${file}.tmp-${process.pid}`;
    await writeFile(tmp, `${JSON.stringify(wanted, null, 2)}\n`);
    await rename(tmp, file);
  } catch (error) {
    throw new OutputError(`cannot write the dedup plan: ${systemReason(error)}`, file, { cause: error });
  }
  return wanted;
}

/** Outputs are named after their inputs, so two inputs of one name would write one file. */
function refuseSameNames(inputs: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const input of inputs) {
    const name = outputName(input);
    const other = seen.get(name);
    if (other !== undefined) throw new UsageError(`two inputs would write the same output ${name}: ${other} and ${input}`, "inputs");
    seen.set(name, input);
  }
}

/** The output file of an input: its name, with a Parquet input written as JSONL. */
export function outputName(input: string): string {
  const name = basename(input);
  return name.toLowerCase().endsWith(".parquet") ? `${name.slice(0, -".parquet".length)}.jsonl` : name;
}
