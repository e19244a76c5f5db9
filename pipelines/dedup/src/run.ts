/**
 * A dedup run: the plan, then the passes in order, each a list of tasks that are skipped when
 * their done marker is there. Run with no pass named, it does every task of every pass (the
 * one-go mode); with a pass and some inputs or bands, only those tasks, so machines can share
 * the work (signature and filter tasks per input, bucket tasks per band, one cluster task).
 * An interrupted run (the signal, or a killed process) leaves finished tasks marked and
 * unfinished ones without a marker: the next run does only what is left.
 */
import { existsSync, readFileSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { DEFAULT_MINHASH, DEFAULT_MIN_SIMILARITY } from "@winnow/dedup";
import { InputError, OutputError, UsageError, WinnowError, systemReason } from "@winnow/errors";
import { bucketTask } from "./buckets.js";
import { type ClusterSummary, clustersTask, type JaccardSample } from "./clusters.js";
import { AtomicFile, readJson } from "./files.js";
import { type FilterSummary, filterTask } from "./filter.js";
import { bandNames, type DedupSettings, openPlan, outputName, type Plan, paths } from "./plan.js";
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
  /** Files written by winnow clean (JSONL, .gz, .zst, Parquet) or folders of them; may be empty when the state has a plan. */
  inputs: readonly string[];
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
  /** CPU seconds of the signature tasks this run did, and their documents. */
  signatureCpuSeconds: number;
  signatureDocuments: number;
  output: string;
  state: string;
}

const CORPUS_NAME = /\.(jsonl|jsonl\.gz|jsonl\.zst|parquet)$/i;

export async function runDedup(options: DedupRunOptions): Promise<DedupSummary> {
  const cpu = process.cpuUsage();
  const output = resolve(options.output);
  const state = resolve(options.state ?? join(output, ".dedup"));
  const settings: DedupSettings = {
    ...DEFAULT_SETTINGS,
    ...options.settings,
    minhash: { ...DEFAULT_MINHASH, ...options.settings?.minhash },
  };
  const inputs = await listInputs(options.inputs);
  // Before the plan is written: a refused run leaves nothing behind.
  refuseOutputsOverInputs(inputs, output);
  const plan = await openPlan(state, inputs, settings);
  refuseOutputsOverInputs(plan.inputs, output);
  const summary: DedupSummary = {
    inputs: plan.inputs.length,
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
    signatureCpuSeconds: 0,
    signatureDocuments: 0,
    output,
    state,
  };
  const passes = options.pass === undefined ? DEDUP_PASSES : [options.pass];
  const allShards = plan.inputs.map((_, i) => i);
  const shards = selectShards(plan, options.shards);
  const allBands = bandNames(plan.settings);
  const bands = selectBands(allBands, options.bands);
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
  return summary;
}

/** Given files, and the corpus files (JSONL, .gz, .zst, Parquet) in given folders, sorted by name. */
async function listInputs(given: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of given) {
    let st: Awaited<ReturnType<typeof stat>>;
    try {
      st = await stat(path);
    } catch (error) {
      throw new InputError(`cannot open input: ${systemReason(error)}`, path, { cause: error });
    }
    if (!st.isDirectory()) {
      files.push(path);
      continue;
    }
    const names = (await readdir(path)).filter((n) => CORPUS_NAME.test(n) && !n.startsWith(".")).sort();
    if (names.length === 0) throw new InputError("no JSONL or Parquet files in this folder", path);
    files.push(...names.map((n) => join(path, n)));
  }
  return files;
}

function refuseOutputsOverInputs(inputs: readonly string[], output: string): void {
  for (const input of inputs) {
    if (join(output, outputName(input)) === resolve(input))
      throw new UsageError(`the output would replace the input ${input}: choose another -o folder`, "-o");
  }
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
