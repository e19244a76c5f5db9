/**
 * A task of a sharded run: take this task's share of an input list (a paths list or the inputs
 * given), clean each input into an output of its own named from the input, and mark it done.
 * Inputs marked done are passed over, so a task run again after pre-emption redoes only what
 * was not finished; an input that cannot be read (a remote one that stays down) is reported
 * and the task goes on with the others. Each input is a runClean of its own (run.ts); all of
 * them share one cleaner, so the model and worker threads are set up once per task.
 */
import { writeFile, rename } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { resolveModelSpec } from "@winnow/models/model-names";
import { BusyError, InputError, OutputError, UsageError, systemReason } from "@winnow/errors";
import {
  isRemote,
  type ListedInput,
  peakRssBytes,
  redactUrl,
  redactUrlsIn,
  readPathsList,
  remoteOpener,
  resolveShard,
  type RetryPolicy,
  type Shard,
  type ShardFlags,
  takeShard,
} from "@winnow/remote";
import {
  type Compression,
  createFolderFor,
  dropStaged,
  type LockWait,
  lockOutput,
  type OutputFormat,
  type OutputLock,
  perInputName,
  RunPaths,
  stagingPathFor,
} from "@winnow/writers";
import { type Logger, pino } from "pino";
import { listInputs } from "./inputs.js";
import { differencesInWords, type OutputSettings, outputSettings, settingsDifferences } from "./output-settings.js";
import { localStore, type OutputStore, s3Store } from "./output-store.js";
import { type CleanRunOptions, maxWorkers, openRunCleaner, runClean, type SharedCleaner } from "./run.js";
import type { CleanRunSummary, InputFailure, PiiSummary } from "./summary.js";

export interface PerInputRunOptions
  extends Omit<CleanRunOptions, "inputs" | "output" | "format" | "rejectsPath" | "resume" | "manifestPath" | "open" | "onProgress"> {
  /** Files, folders and URLs given on the command line; the list when there is no paths list. */
  inputs: readonly string[];
  /** One input per line, plain or gzip (Common Crawl's warc.paths.gz). */
  pathsFile?: string;
  /** Put before relative lines of the paths list: "https://data.commoncrawl.org/", "s3://commoncrawl/". */
  baseUrl?: string;
  /** --rank/--world-size; absent ones are taken from the scheduler's environment (see @winnow/remote's resolveShard). */
  shard?: ShardFlags;
  /** Default: process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The folder the outputs go in, one per input: local, or an s3:// prefix. */
  outputDir: string;
  /** For s3:// inputs and outputs: an S3-compatible store's endpoint (default AWS). */
  s3Endpoint?: string;
  format: OutputFormat;
  compression: Compression | null;
  /** A folder for each input's rejects (`<name>.rejects.jsonl`), failed inputs included. */
  rejectsDir?: string;
  /** Pass over inputs whose output is marked done (default true). */
  skipDone?: boolean;
  retry: RetryPolicy;
  /** A remote request or body that stalls this long is retried (default @winnow/remote's DEFAULT_READ_TIMEOUT_MS). */
  readTimeoutMs?: number;
}

export interface PerInputRunSummary {
  shard: Shard | null;
  /** Inputs in the whole list, and this task's share of them. */
  listed: number;
  assigned: number;
  /** Of the share: marked done before, not read again. */
  alreadyDone: number;
  /** Of the share: cleaned and marked done by this run. */
  done: number;
  /** Of the share: could not be read, or only in part; not marked done, so a re-run tries them again. */
  failed: InputFailure[];
  documentsWritten: number;
  recordsRead: number;
  bytesRead: number;
  elapsedSeconds: number;
  cpuSeconds: number;
  /** The process's peak RSS when the task ended (its own VmHWM, worker threads included). */
  peakRssBytes: number;
  interrupted: boolean;
  outputDir: string;
  /** With --pii: what was masked in the documents written, over every input of the run. */
  pii?: PiiSummary;
}

const FORMAT_SUFFIX: Readonly<Record<OutputFormat, string>> = {
  jsonl: ".jsonl",
  xml: ".xml",
  text: ".txt",
  markdown: ".md",
  parquet: ".parquet",
};
const COMPRESSION_SUFFIX: Readonly<Record<Compression, string>> = { gzip: ".gz", zstd: ".zst" };

/** The suffix of every output of a per-input run: ".jsonl.gz", ".parquet", ... */
export function perInputSuffix(format: OutputFormat, compression: Compression | null): string {
  if (format === "parquet" && compression !== null) {
    throw new UsageError("Parquet compresses its own pages: it cannot also be gzip or zstd", "--compress");
  }
  return FORMAT_SUFFIX[format] + (compression === null ? "" : COMPRESSION_SUFFIX[compression]);
}

/**
 * Refuses settings a per-input run cannot use, before any input is read (winnow launch makes the
 * same checks before writing a job); returns the suffix of every output.
 */
export function checkPerInputRun(
  options: Pick<PerInputRunOptions, "outputDir" | "rejectsDir" | "corpus" | "format" | "compression">,
): string {
  if (options.outputDir === "-" || (isRemote(options.outputDir) && !/^s3:\/\//i.test(options.outputDir))) {
    throw new UsageError("one output per input needs a local folder or an s3:// prefix for -o", `-o ${options.outputDir}`);
  }
  if (options.rejectsDir !== undefined && isRemote(options.rejectsDir)) {
    throw new UsageError("--rejects must be a local folder", `--rejects ${options.rejectsDir}`);
  }
  // Each input's run would only see its own documents: duplicates across inputs need every output.
  if (options.corpus?.dedup !== undefined) {
    throw new UsageError("one output per input is deduplicated afterwards, across all outputs: run winnow dedup over them", "--dedup");
  }
  return perInputSuffix(options.format, options.compression);
}

export async function runCleanPerInput(options: PerInputRunOptions): Promise<PerInputRunSummary> {
  const startTime = performance.now();
  const startCpu = process.cpuUsage();
  const logger = options.logger ?? pino({ enabled: false });
  const toS3 = /^s3:\/\//i.test(options.outputDir);
  const suffix = checkPerInputRun(options);
  const failed: InputFailure[] = [];
  const list = await listAll(options, failed);
  const names = namesOf(list, suffix);
  const shard = resolveShard(options.shard ?? {}, options.env ?? process.env);
  const mine = takeShard(list, shard);
  if (!toS3) await refuseOutputsOverInputs(list, mine, names, options);
  logger.info(
    { shard, listed: list.length, assigned: mine.length },
    shard === null
      ? `one task: all ${list.length} inputs (no --rank and no scheduler task index in the environment)`
      : `task ${shard.rank} of ${shard.worldSize} (from ${shard.source}): ${mine.length} of ${list.length} inputs`,
  );

  const summary: PerInputRunSummary = {
    shard,
    listed: list.length,
    assigned: mine.length,
    alreadyDone: 0,
    done: 0,
    failed,
    documentsWritten: 0,
    recordsRead: 0,
    bytesRead: 0,
    elapsedSeconds: 0,
    cpuSeconds: 0,
    peakRssBytes: 0,
    interrupted: false,
    outputDir: options.outputDir,
  };
  const s3 = { endpoint: options.s3Endpoint };
  const store = toS3 ? await s3Store(options.outputDir, s3, options.retry) : localStore(options.outputDir, logger);
  // One cleaner (model and worker threads) for all the task's inputs, opened when one needs it.
  const lent: Partial<SharedCleaner> = {};
  try {
    const settings = await outputSettings(options, resolveModelSpec(options.model));
    const doneAtStart = options.skipDone !== false ? await doneWithSameSettings(mine, names, store, settings) : new Set<string>();
    await cleanShare(mine, names, store, { ...options, settings, doneAtStart }, logger, summary, lent);
    await lent.cleaner?.close();
  } catch (error) {
    await lent.cleaner?.destroy();
    throw error;
  } finally {
    await store.close();
  }
  summary.elapsedSeconds = (performance.now() - startTime) / 1000;
  const cpu = process.cpuUsage(startCpu);
  summary.cpuSeconds = (cpu.user + cpu.system) / 1e6;
  // The process's peak, read now: a task whose inputs were all done before still took memory.
  summary.peakRssBytes = peakRssBytes();
  return summary;
}

/** Done markers read at once when a task checks its share's settings. */
const MARKERS_AT_ONCE = 16;

/** The run's options, the settings its done markers record, and the outputs found done when it started. */
type ShareOptions = PerInputRunOptions & { settings: OutputSettings; doneAtStart: ReadonlySet<string> };

/**
 * Before anything is cleaned, the names of the share's outputs marked done (a marker is never
 * taken back, so these need no second look). An output marked done with other settings than this
 * run's would stay beside outputs made with these (the share's done ones are passed over), so the
 * task refuses, naming the outputs and what differs. Markers written before they held settings
 * are not compared.
 */
async function doneWithSameSettings(
  mine: readonly ListedInput[],
  names: readonly string[],
  store: OutputStore,
  settings: OutputSettings,
): Promise<Set<string>> {
  const done = new Set<string>();
  const differing: { output: string; differences: string[] }[] = [];
  // A few markers at a time: on S3 each is a request, and a task's share can be thousands.
  for (let from = 0; from < mine.length; from += MARKERS_AT_ONCE) {
    const batch = mine.slice(from, from + MARKERS_AT_ONCE).map((input) => names[input.index]);
    const markers = await Promise.all(batch.map((name) => store.doneMarker(name)));
    for (const [i, marker] of markers.entries()) {
      if (marker === null) continue;
      done.add(batch[i]);
      const differences = settingsDifferences(marker.settings, settings);
      if (differences.length > 0) differing.push({ output: store.final(batch[i]), differences });
    }
  }
  if (differing.length === 0) return done;
  const [first] = differing;
  const others = differing.length === 1 ? "" : ` and ${differing.length - 1} more`;
  throw new UsageError(
    `${differing.length} output${differing.length === 1 ? " is" : "s are"} marked done with other settings than this run's ` +
      `(${differencesInWords(first.differences)}): a task run again must be given the settings its outputs were made with. ` +
      "For new settings give another -o; to remake these outputs, remove them and their .done markers",
    `${first.output}${others}`,
  );
}

async function cleanShare(
  mine: readonly ListedInput[],
  names: readonly string[],
  store: OutputStore,
  options: ShareOptions,
  logger: Logger,
  summary: PerInputRunSummary,
  lent: Partial<SharedCleaner>,
): Promise<void> {
  for (const input of mine) {
    if (options.signal?.aborted) {
      summary.interrupted = true;
      break;
    }
    const name = names[input.index];
    if (options.skipDone !== false && (options.doneAtStart.has(name) || (await store.isDone(name)))) {
      summary.alreadyDone++;
      continue;
    }
    const rejects = options.rejectsDir === undefined ? undefined : join(options.rejectsDir, perInputName(input.listed, ".rejects.jsonl"));
    if (lent.cleaner === undefined) {
      const workers = options.workers ?? availableParallelism();
      if (!Number.isInteger(workers) || workers < 0 || workers > maxWorkers()) {
        throw new UsageError(
          `--workers must be a whole number from 0 to ${maxWorkers()} (4 per CPU), got ${workers}`,
          `--workers ${workers}`,
        );
      }
      const model = resolveModelSpec(options.model, (warning) => logger.warn(warning));
      lent.cleaner = await openRunCleaner(options, model, workers, logger);
    }
    const result = await cleanOne(input, name, store, rejects, options, logger, { cleaner: lent.cleaner });
    if (result.outcome === "alreadyDone") {
      summary.alreadyDone++;
      continue;
    }
    if (result.summary !== null) {
      summary.documentsWritten += result.summary.documentsWritten;
      summary.recordsRead += result.summary.recordsRead;
      summary.bytesRead += result.summary.bytesRead;
      const pii = result.summary.pii;
      if (pii !== undefined) {
        summary.pii ??= { documents: 0, emails: 0, ips: 0 };
        summary.pii.documents += pii.documents;
        summary.pii.emails += pii.emails;
        summary.pii.ips += pii.ips;
      }
    }
    if (result.outcome === "failed") summary.failed.push({ input: redactUrl(input.location), reason: result.reason });
    else if (result.outcome === "done") summary.done++;
    else {
      summary.interrupted = true;
      break;
    }
  }
}

type Outcome =
  | { outcome: "done"; summary: CleanRunSummary }
  | { outcome: "interrupted"; summary: CleanRunSummary | null }
  | { outcome: "failed"; reason: string; summary: CleanRunSummary | null }
  /** Done by another task while this one waited for its lock. */
  | { outcome: "alreadyDone" };

/** Cleans one input into a staged output, then commits it (renamed into place, marked done) if it was read to its end. */
async function cleanOne(
  input: ListedInput,
  name: string,
  store: OutputStore,
  rejects: string | undefined,
  options: ShareOptions,
  logger: Logger,
  shared: SharedCleaner,
): Promise<Outcome> {
  // The same task run twice (a job submitted twice, a requeue overlapping the old task) must not
  // write one output at once: the second waits for the first, then finds the output done (or,
  // when the first failed, does it itself). Exactly once, and both tasks end well.
  const locks: OutputLock[] = [];
  const purpose = `clean ${redactUrl(input.location)}`;
  const wait: LockWait = {
    signal: options.signal,
    onWait: (holder) =>
      logger.info(
        { input: redactUrl(input.location), holder: holder === null ? undefined : `pid ${holder.pid} on ${holder.host}` },
        "another task is writing this input's output: waiting for it",
      ),
  };
  try {
    try {
      if (store.local) locks.push(await lockOutput(store.final(name), { what: "output", purpose, wait }));
      if (rejects !== undefined) locks.push(await lockOutput(rejects, { what: "rejects file", purpose, wait }));
    } catch (error) {
      // Stopped (SIGINT, SIGTERM) while waiting for the twin: this input is left for the next run.
      if (error instanceof BusyError && options.signal?.aborted === true) return { outcome: "interrupted", summary: null };
      throw error;
    }
    if (options.skipDone !== false && (await store.isDone(name))) return { outcome: "alreadyDone" };
    return await cleanLocked(input, name, store, rejects, options, logger, shared);
  } finally {
    await Promise.allSettled(locks.map((lock) => lock.release()));
  }
}

async function cleanLocked(
  input: ListedInput,
  name: string,
  store: OutputStore,
  rejects: string | undefined,
  options: ShareOptions,
  logger: Logger,
  shared: SharedCleaner,
): Promise<Outcome> {
  const staged = await store.stage(name);
  const stagedRejects = rejects === undefined ? undefined : stagingPathFor(rejects);
  if (rejects !== undefined) {
    await createFolderFor(rejects).catch((error: unknown) => {
      throw new OutputError(`cannot create the rejects folder: ${systemReason(error)}`, rejects, { cause: error });
    });
  }
  // Where the input is named in a log, a rejects line or a done marker, it is named without secrets.
  const shown = redactUrl(input.location);
  const retryLog = logger.child({ input: shown });
  const {
    inputs: _i,
    pathsFile: _p,
    baseUrl: _b,
    shard: _s,
    env: _e,
    outputDir: _o,
    compression: _c,
    rejectsDir: _r,
    skipDone: _d,
    doneAtStart: _a,
    settings,
    retry,
    readTimeoutMs,
    s3Endpoint,
    ...run
  } = options;
  let summary: CleanRunSummary;
  try {
    summary = await runClean(
      {
        ...run,
        inputs: [input.location],
        output: staged,
        rejectsPath: stagedRejects,
        // Its final names are locked above; the staged names are this process's alone.
        lock: false,
        open: remoteOpener(
          {
            retry,
            readTimeoutMs,
            onRetry: (what, attempt, delayMs) => retryLog.warn(`${what}: try ${attempt + 1} in ${Math.round(delayMs)} ms`),
          },
          { endpoint: s3Endpoint },
        ),
        logger,
      },
      shared,
    );
  } catch (error) {
    await Promise.all([store.drop(staged), stagedRejects === undefined ? undefined : dropStaged(stagedRejects)]);
    // An input that cannot be opened, or holds no record: reported, and the task goes on.
    if (!(error instanceof InputError)) throw error;
    const reason = redactUrlsIn(error.what);
    logger.warn({ input: shown }, `input failed, not marked done: ${reason}`);
    if (rejects !== undefined) await writeFailureLine(rejects, shown, reason);
    return { outcome: "failed", reason, summary: null };
  }
  const problem = summary.inputsFailed[0] ?? summary.inputsCutShort[0];
  if (summary.interrupted || problem !== undefined) {
    await store.drop(staged);
    if (stagedRejects !== undefined && rejects !== undefined) await rename(stagedRejects, rejects);
    if (summary.interrupted) return { outcome: "interrupted", summary };
    logger.warn({ input: shown }, `input failed, not marked done: ${problem.reason}`);
    return { outcome: "failed", reason: problem.reason, summary };
  }
  if (stagedRejects !== undefined && rejects !== undefined) {
    await rename(stagedRejects, rejects).catch((error: unknown) => {
      throw new OutputError(`cannot write rejects file: ${systemReason(error)}`, rejects, { cause: error });
    });
  }
  const committed = await store.commit(staged, name, {
    input: shown,
    documents: summary.documentsWritten,
    records: summary.recordsRead,
    bytes_read: summary.bytesRead,
    finished: new Date().toISOString(),
    settings,
  });
  if (committed === "twin") {
    // Not an error: the same input, cleaned the same way, is there whole. Ours is dropped.
    logger.info({ input: shown, output: store.final(name) }, "a twin task put this input's output in place first: kept, not replaced");
    return { outcome: "alreadyDone" };
  }
  return { outcome: "done", summary };
}

/** The whole list, the same in every task: the paths list, or the inputs given with folders expanded. */
async function listAll(options: PerInputRunOptions, failed: InputFailure[]): Promise<ListedInput[]> {
  if (options.pathsFile !== undefined) {
    if (options.inputs.length > 0)
      throw new UsageError("give inputs either in --paths-file or on the command line, not both", options.inputs[0]);
    return readPathsList(options.pathsFile, options.baseUrl);
  }
  if (options.inputs.includes("-")) throw new UsageError("one output per input needs inputs with names: standard input has none", "-");
  const files = await listInputs(options.inputs, failed, true);
  return files.map((file, index) => ({ location: file, listed: file, index }));
}

/**
 * No output or rejects file of this task may be an input of the list (an input folder given as
 * -o, an input already named like its output): compared by file, before anything is read.
 */
async function refuseOutputsOverInputs(
  list: readonly ListedInput[],
  mine: readonly ListedInput[],
  names: readonly string[],
  options: PerInputRunOptions,
): Promise<void> {
  const local = list.filter((input) => !isRemote(input.location)).map((input) => ({ path: input.location, flag: "input" }));
  const paths = new RunPaths(local);
  for (const input of mine) {
    await paths.claim({ path: join(options.outputDir, names[input.index]), flag: "-o" });
    if (options.rejectsDir !== undefined) {
      await paths.claim({ path: join(options.rejectsDir, perInputName(input.listed, ".rejects.jsonl")), flag: "--rejects" });
    }
  }
}

/** Each input's output name; two inputs that would share one are refused before anything is read. */
function namesOf(list: readonly ListedInput[], suffix: string): string[] {
  const owner = new Map<string, string>();
  return list.map((input) => {
    const name = perInputName(input.listed, suffix);
    const other = owner.get(name);
    if (other !== undefined && other !== input.location) {
      throw new UsageError(`two inputs would write the same output ${name}: ${other} and ${input.location}`, input.location);
    }
    owner.set(name, input.location);
    return name;
  });
}

/** A rejects file for an input that could not be read at all: one line saying why. */
async function writeFailureLine(rejects: string, input: string, reason: string): Promise<void> {
  const line = { source: input, offset: -1, record_id: "", url: "", reason: "unreadable", detail: reason };
  const staged = stagingPathFor(rejects);
  try {
    await writeFile(staged, `${JSON.stringify(line)}\n`);
    await rename(staged, rejects);
  } catch (error) {
    throw new OutputError(`cannot write rejects file: ${systemReason(error)}`, rejects, { cause: error });
  }
}
