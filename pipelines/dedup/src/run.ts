/**
 * A dedup run: the plan, then the passes in order, each a list of tasks that are skipped when
 * their done marker is there. Run with no pass named, it does every task of every pass (the
 * one-go mode); with a pass and some inputs or bands, only those tasks, so machines can share
 * the work (signature and filter tasks per input, bucket tasks per band, one cluster task).
 * An interrupted run (the signal, or a killed process) leaves finished tasks marked and
 * unfinished ones without a marker: the next run does only what is left. As an array task
 * (`shard`: rank and world size from flags or the scheduler), a run does the items i of its pass
 * with i mod worldSize = rank: inputs for signatures and filter, band tasks for buckets.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DEFAULT_MINHASH, DEFAULT_MIN_SIMILARITY } from "@winnow/dedup";
import { InputError, OutputError, UsageError, WinnowError, systemReason } from "@winnow/errors";
import { peakRssBytes, resolveShard, type Shard, type ShardFlags, takeShard } from "@winnow/remote";
import { bucketTask } from "./buckets.js";
import { type ClusterSummary, clustersTask, type JaccardSample } from "./clusters.js";
import { AtomicFile, readJson } from "./files.js";
import { type FilterSummary, filterTask } from "./filter.js";
import { type InputListing, someOf } from "./inputs.js";
import { type CheckedInputs, checkedInputs, refuseOutputsOverPlanInputs } from "./outputs.js";
import { bandNames, type DedupSettings, openPlan, type Plan, paths } from "./plan.js";
import { type SignatureMeta, signaturesTask } from "./signatures.js";

export type DedupPass = "signatures" | "buckets" | "clusters" | "filter";
export const DEDUP_PASSES: readonly DedupPass[] = ["signatures", "buckets", "clusters", "filter"];

export const DEFAULT_SETTINGS: Readonly<DedupSettings> = {
  kinds: ["exact", "minhash"],
  minhash: { ...DEFAULT_MINHASH },
  minSimilarity: DEFAULT_MIN_SIMILARITY,
  lineThreshold: 10,
  minWords: 50,
  textField: "text",
};

export interface DedupRunOptions {
  /**
   * Files written by winnow clean (JSONL, .gz, .zst, Parquet) or folders of them, read
   * recursively (a per-input run's tree); may be empty when the state has a plan.
   */
  inputs: readonly string[];
  /**
   * The inputs as checkedInputs listed them, with the outputs checked against them, for these
   * very inputs, output, state and rejectsPath (a caller that refuses before it takes locks, as
   * the CLI does); listed and checked here when absent.
   */
  checked?: CheckedInputs;
  /** Go on without the outputs of a per-input tree that are not marked done (default: refuse them). */
  skipIncomplete?: boolean;
  /** Folder the filtered inputs are written to, one file per input, named as the input. */
  output: string;
  /** Folder of the passes' files (default <output>/.dedup). */
  state?: string;
  settings?: Partial<DedupSettings>;
  /** Only this pass (default: every pass, in order). */
  pass?: DedupPass;
  /** Signature and filter tasks: only these inputs (numbers in the plan's order, from 0). */
  shards?: readonly number[];
  /** Bucket tasks: only these bands ("exact", "0", "1", ...). */
  bands?: readonly string[];
  /**
   * With `pass`: this task's share of the pass's items by --rank/--world-size, absent ones from
   * the scheduler's environment (@winnow/remote's resolveShard). Not with `shards` or `bands`.
   */
  shard?: ShardFlags;
  /** Where the scheduler's variables are read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where to gather every input's rejects lines once all filter tasks are done. */
  rejectsPath?: string;
  /** Aborting stops the run after the task under way. */
  signal?: AbortSignal;
  /** Called as each task ends (or is passed over, done before). */
  onTask?: (task: TaskEvent) => void;
  /** Entries per sorted run (tests make it small to get many runs). */
  runEntries?: number;
}

export interface TaskEvent {
  pass: DedupPass;
  /** The input number or band name; "" for the cluster task. */
  task: string;
  skipped: boolean;
}

export interface DedupSummary {
  inputs: number;
  /** This task's rank and world size, when it runs as one of an array's tasks. */
  shard: Shard | null;
  /** Outputs of a per-input tree left out because they are not marked done (with skipIncomplete). */
  incomplete: string[];
  /** Inputs reached a second time (same device and inode) and read once. */
  repeated: string[];
  /** Documents read by this run's filter tasks, and of them kept and dropped by kind. */
  documents: number;
  kept: number;
  dropped: { exact: number; near: number; lines: number };
  linesRemoved: number;
  documentsEdited: number;
  /** From the cluster task: duplicates found over the whole corpus. */
  clusters: ClusterSummary | null;
  jaccard: JaccardSample | null;
  tasksRun: number;
  tasksSkipped: number;
  /** Passes whose every task is done. */
  passesDone: DedupPass[];
  interrupted: boolean;
  cpuSeconds: number;
  /** The process's peak RSS when the run ended (its own VmHWM), whether it had tasks to run or not. */
  peakRssBytes: number;
  /** CPU seconds of the signature tasks this run did, and their documents. */
  signatureCpuSeconds: number;
  signatureDocuments: number;
  output: string;
  state: string;
}

export async function runDedup(options: DedupRunOptions): Promise<DedupSummary> {
  const cpu = process.cpuUsage();
  const output = resolve(options.output);
  const state = resolve(options.state ?? join(output, ".dedup"));
  const settings: DedupSettings = {
    ...DEFAULT_SETTINGS,
    ...options.settings,
    minhash: { ...DEFAULT_MINHASH, ...options.settings?.minhash },
  };
  const shard = shardOf(options);
  // Before the plan is written: a refused run leaves nothing behind.
  const { listing } = options.checked === undefined ? await checkedInputs(options) : sameRun(options.checked, options);
  refuseIncomplete(listing, options.skipIncomplete === true);
  const plan = await openPlan(state, listing.inputs, settings);
  // Inputs taken from the plan were not listed: check the outputs against them now.
  if (options.inputs.length === 0) await refuseOutputsOverPlanInputs(plan.inputs, options);
  const summary: DedupSummary = {
    inputs: plan.inputs.length,
    shard,
    incomplete: listing.incomplete,
    repeated: listing.repeated,
    documents: 0,
    kept: 0,
    dropped: { exact: 0, near: 0, lines: 0 },
    linesRemoved: 0,
    documentsEdited: 0,
    clusters: null,
    jaccard: null,
    tasksRun: 0,
    tasksSkipped: 0,
    passesDone: [],
    interrupted: false,
    cpuSeconds: 0,
    peakRssBytes: 0,
    signatureCpuSeconds: 0,
    signatureDocuments: 0,
    output,
    state,
  };
  const passes = options.pass === undefined ? DEDUP_PASSES : [options.pass];
  const allShards = plan.inputs.map((_, i) => i);
  const shards = takeShard(selectShards(plan, options.shards), shard);
  const allBands = bandNames(plan.settings);
  const bands = takeShard(selectBands(allBands, options.bands), shard);
  const stopped = () => options.signal?.aborted === true;

  const task = async (pass: DedupPass, name: string, marker: string, run: () => Promise<void>): Promise<boolean> => {
    if (existsSync(marker)) {
      summary.tasksSkipped++;
      options.onTask?.({ pass, task: name, skipped: true });
      return true;
    }
    if (stopped()) return false;
    await run().catch((error: unknown) => {
      if (error instanceof WinnowError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== undefined) throw new OutputError(`dedup ${pass} task ${name} failed: ${systemReason(error)}`, state, { cause: error });
      throw error;
    });
    summary.tasksRun++;
    options.onTask?.({ pass, task: name, skipped: false });
    return true;
  };

  for (const pass of passes) {
    if (stopped()) break;
    if (pass === "signatures") {
      for (const s of shards) {
        await task(pass, String(s), paths.sigMeta(state, s), async () => {
          const meta = await signaturesTask(plan, state, s, options.runEntries);
          summary.signatureCpuSeconds += meta.cpuMs / 1000;
          summary.signatureDocuments += meta.rows;
        });
      }
    } else if (pass === "buckets") {
      const metas = needSignatures(plan, state);
      for (const band of bands)
        await task(pass, band, paths.bucketSummary(state, band), async () => void (await bucketTask(plan, state, metas, band)));
    } else if (pass === "clusters") {
      const metas = needSignatures(plan, state);
      const missing = allBands.filter((b) => !existsSync(paths.bucketSummary(state, b)));
      if (missing.length > 0)
        throw new UsageError(`the clusters pass needs every bucket task done first; not done: band ${missing.join(", ")}`, state);
      await task(pass, "", paths.clusterSummary(state), async () => void (await clustersTask(plan, state, metas)));
    } else {
      if (!existsSync(paths.clusterSummary(state))) throw new UsageError("the filter pass needs the clusters pass done first", state);
      for (const s of shards) {
        await task(pass, String(s), paths.filterSummary(state, s), async () => {
          const f: FilterSummary = await filterTask(plan, state, s, output);
          summary.documents += f.read;
          summary.kept += f.kept;
          summary.dropped.exact += f.exact;
          summary.dropped.near += f.near;
          summary.dropped.lines += f.short;
          summary.linesRemoved += f.linesRemoved;
          summary.documentsEdited += f.documentsEdited;
        });
      }
    }
  }
  summary.interrupted = stopped();
  if (allShards.every((s) => existsSync(paths.sigMeta(state, s)))) summary.passesDone.push("signatures");
  if (allBands.every((b) => existsSync(paths.bucketSummary(state, b)))) summary.passesDone.push("buckets");
  if (existsSync(paths.clusterSummary(state))) {
    summary.passesDone.push("clusters");
    summary.clusters = readJson<ClusterSummary>(paths.clusterSummary(state));
    summary.jaccard = summary.clusters.jaccard;
  }
  if (allShards.every((s) => existsSync(paths.filterSummary(state, s)))) {
    summary.passesDone.push("filter");
    if (options.rejectsPath !== undefined) await gatherRejects(plan, state, options.rejectsPath);
  }
  const used = process.cpuUsage(cpu);
  summary.cpuSeconds = (used.user + used.system) / 1e6;
  summary.peakRssBytes = peakRssBytes();
  return summary;
}

/**
 * The task's shard, for a pass run as an array of tasks: from --rank/--world-size, else from the
 * scheduler's environment; null for the one-go mode (which runs every task of every pass), for
 * tasks picked by --shard or --band, and for a clusters task of world size 1.
 */
function shardOf(options: DedupRunOptions): Shard | null {
  const flags = options.shard ?? {};
  const given = flags.rank !== undefined || flags.worldSize !== undefined;
  if (options.pass === undefined) {
    if (given) throw new UsageError("--rank and --world-size split one pass into tasks: give --pass too", "--world-size");
    return null;
  }
  if (options.shards !== undefined || options.bands !== undefined) {
    if (given) throw new UsageError("give the tasks either by --shard/--band or by --rank/--world-size, not both", "--world-size");
    return null;
  }
  if (options.pass === "clusters" && flags.rank === undefined && flags.worldSize === 1) return null;
  const shard = resolveShard(flags, options.env ?? process.env);
  if (options.pass === "clusters" && shard !== null && shard.worldSize > 1)
    throw new UsageError(`the clusters pass is one task: run it with a world size of 1, not ${shard.worldSize}`, shard.source);
  return shard;
}

/** Refuses outputs of a per-input tree that are not marked done, unless the caller goes on without them. */
function refuseIncomplete(listing: InputListing, skip: boolean): void {
  if (listing.incomplete.length === 0 || skip) return;
  throw new InputError(
    `${listing.incomplete.length} output(s) of a per-input run are not marked done (a clean task failed, was killed or is still running): ` +
      `${someOf(listing.incomplete)}; run the clean tasks again until every input is done, or give --skip-incomplete to deduplicate without them`,
    "inputs",
  );
}

/** The checked inputs handed in, once sure they were checked for this run's paths and no other. */
function sameRun(checked: CheckedInputs, options: DedupRunOptions): CheckedInputs {
  const { paths } = checked;
  const same =
    paths.output === options.output &&
    paths.state === options.state &&
    paths.rejectsPath === options.rejectsPath &&
    paths.inputs.length === options.inputs.length &&
    paths.inputs.every((input, i) => input === options.inputs[i]);
  if (!same) throw new Error("runDedup: `checked` was made for other inputs or outputs than this run's");
  return checked;
}

function selectShards(plan: Plan, shards: readonly number[] | undefined): number[] {
  if (shards === undefined) return plan.inputs.map((_, i) => i);
  for (const s of shards) {
    if (!Number.isInteger(s) || s < 0 || s >= plan.inputs.length)
      throw new UsageError(`no input ${s}: the plan has inputs 0 to ${plan.inputs.length - 1}`, "--shard");
  }
  return [...shards];
}

function selectBands(all: readonly string[], bands: readonly string[] | undefined): string[] {
  if (bands === undefined) return [...all];
  for (const b of bands) if (!all.includes(b)) throw new UsageError(`no band ${b}: this run's bands are ${all.join(", ")}`, "--band");
  return [...bands];
}

function needSignatures(plan: Plan, state: string): SignatureMeta[] {
  const missing = plan.inputs.map((_, i) => i).filter((i) => !existsSync(paths.sigMeta(state, i)));
  if (missing.length > 0) {
    throw new UsageError(
      `this pass needs every signature task done first; not done: input ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ", ..." : ""}`,
      state,
    );
  }
  return plan.inputs.map((_, i) => readJson<SignatureMeta>(paths.sigMeta(state, i)));
}

async function gatherRejects(plan: Plan, state: string, path: string): Promise<void> {
  let out: AtomicFile;
  try {
    out = await AtomicFile.open(resolve(path));
    for (let s = 0; s < plan.inputs.length; s++) out.write(readFileSync(paths.filterRejects(state, s)));
    out.finish();
  } catch (error) {
    throw new OutputError(`cannot write the rejects file: ${systemReason(error)}`, path, { cause: error });
  }
}
