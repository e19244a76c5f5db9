/**
 * The plan of a dedup run, kept in its state folder (plan.json): the inputs in their stable
 * order and every setting that changes what a pass computes. Every task of a run, on any
 * machine, reads the same plan, so their files fit together; a task started with other inputs
 * or settings is refused instead of mixing files that do not belong together.
 */
import { existsSync } from "node:fs";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { checkMinHashParams, type MinHashParams } from "@winnow/dedup";
import { InputError, OutputError, UsageError, systemReason } from "@winnow/errors";
import type { FileStamp } from "./identity.js";
import type { ListedInput } from "./inputs.js";
import { tempOf } from "./files.js";

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

/** An input as the plan records it: where it is, where its output goes, and what it was. */
export interface PlanInput extends FileStamp {
  /** Absolute path. */
  path: string;
  /** The output's path relative to the output folder. */
  name: string;
}

export interface Plan {
  version: 2;
  /** In the order that decides which copy is kept. */
  inputs: PlanInput[];
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
 * be the same files in the same order), otherwise made from `inputs` (each with its size and
 * modification time) and written there. Tasks starting at once on several machines may each make one: the
 * first to land it wins (create-exclusive, never replaced), and the others check theirs agrees.
 */
export async function openPlan(state: string, inputs: readonly ListedInput[], settings: DedupSettings): Promise<Plan> {
  checkSettings(settings);
  const file = paths.plan(state);
  const wantedSettings: DedupSettings = { ...settings, kinds: [...settings.kinds] };
  if (existsSync(file)) return agreeingPlan(await readPlan(file), inputs, wantedSettings, file);
  if (inputs.length === 0) throw new UsageError("no inputs given, and no dedup plan in the state folder to take them from", file);
  refuseSameNames(inputs);
  const wanted: Plan = { version: 2, inputs: [], settings: wantedSettings };
  for (const { path, name, size, mtimeMs } of inputs) wanted.inputs.push({ path, name, size, mtimeMs });
  const tmp = tempOf(file);
  try {
    await mkdir(state, { recursive: true });
    await writeFile(tmp, `${JSON.stringify(wanted, null, 2)}\n`);
    // link() fails when the plan is there: a plan is never replaced, whoever wrote it.
    await link(tmp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST")
      throw new OutputError(`cannot write the dedup plan: ${systemReason(error)}`, file, { cause: error });
    return agreeingPlan(await readPlan(file), inputs, wantedSettings, file);
  } finally {
    await unlink(tmp).catch(() => {});
  }
  return wanted;
}

async function readPlan(file: string): Promise<Plan> {
  let plan: Plan;
  try {
    plan = JSON.parse(await readFile(file, "utf8")) as Plan;
  } catch (error) {
    throw new InputError(`cannot read the dedup plan: ${systemReason(error)}`, file, { cause: error });
  }
  if (plan.version !== 2)
    throw new UsageError(
      `this state folder was made by another version of winnow dedup (plan version ${plan.version}); use another --state`,
      file,
    );
  return plan;
}

function agreeingPlan(plan: Plan, inputs: readonly ListedInput[], settings: DedupSettings, file: string): Plan {
  const same =
    inputs.length === plan.inputs.length &&
    inputs.every((input, i) => input.path === plan.inputs[i].path && input.name === plan.inputs[i].name);
  if (inputs.length > 0 && !same) {
    throw new UsageError(
      "these inputs are not the ones this state folder was started with (same files, same order); use another --state",
      file,
    );
  }
  if (JSON.stringify(plan.settings) !== JSON.stringify(settings)) {
    throw new UsageError(`these settings differ from the ones this state folder was started with: ${JSON.stringify(plan.settings)}`, file);
  }
  return plan;
}

/** Outputs are named after their inputs, so two inputs of one name would write one file. */
function refuseSameNames(inputs: readonly ListedInput[]): void {
  const seen = new Map<string, string>();
  for (const input of inputs) {
    const other = seen.get(input.name);
    if (other !== undefined)
      throw new UsageError(`two inputs would write the same output ${input.name}: ${other} and ${input.path}`, "inputs");
    seen.set(input.name, input.path);
  }
}

/** The output file's name of an input's name (or path in its folder): a Parquet input is written as JSONL. */
export function outputName(name: string): string {
  return name.toLowerCase().endsWith(".parquet") ? `${name.slice(0, -".parquet".length)}.jsonl` : name;
}
