/**
 * Where pages get cleaned: on a piscina pool of worker threads, or inline on the calling thread.
 * Both take a batch of records and resolve with one PageOutput per record; neither rejects for a
 * page, classifier or worker problem: those come back as "failed" outputs.
 */
import { fileURLToPath } from "node:url";
import { getHeapStatistics } from "node:v8";
import type { ResourceLimits } from "node:worker_threads";
import type { ArchiveRecord } from "@winnow/archive";
import { errorMessage, ModelError } from "@winnow/errors";
import type { Piscina } from "piscina";
import type { PageOutput } from "./page.js";
import type { FingerprintedPage, SiteTemplateBatch } from "./site-templates-page.js";
import { type CleanTask, failedPages, type PackedOutputs, packPages, unpackOutputs } from "./task.js";
import type { CleanerSettings, ClassifierDescription, CleanWorkerData } from "./worker.js";

export interface PageCleaner {
  /** The classifier's name, as it will be reported. */
  readonly model: string;
  /** Batches worth having in flight to keep every thread busy. */
  readonly parallelism: number;
  /**
   * Cleans a batch. Takes ownership of the records' payloads: a cleaner may drop `body` so the
   * reader's buffers can be freed early, so callers must not read it afterwards.
   */
  clean(records: ArchiveRecord[], siteTemplates?: SiteTemplateBatch): Promise<PageOutput[]>;
  /**
   * Pass one of --site-templates: each page's subtree fingerprints (and, with `keepParsed`, the
   * parsed page). Takes ownership of the payloads as clean does. Never rejects: a failed batch
   * gives pages without fingerprints, each `failed` with the reason, for pass one to count and log.
   */
  fingerprint(records: ArchiveRecord[], keepParsed: boolean): Promise<FingerprintedPage[]>;
  /** Waits for running batches, then frees threads and native resources. */
  close(): Promise<void>;
  /** Stops at once, abandoning running batches (for error paths). */
  destroy(): Promise<void>;
}

const EMPTY = new Uint8Array(0);

/**
 * Cleans on the calling thread: no startup or transfer cost, for small runs and debugging. What
 * cleaning needs is loaded here, on demand (inline-cleaner.ts): a run on a pool never needs it on
 * its main thread.
 */
export async function openInlineCleaner(settings: CleanerSettings): Promise<PageCleaner> {
  return (await import("./inline-cleaner.js")).openInline(settings);
}

export interface PoolCleanerOptions {
  threads: number;
  settings: CleanerSettings;
  /** Module the threads run instead of ./worker.js; it must export the same functions. */
  workerModule?: string | URL;
  /** Told about pool-level errors that no batch is waiting on (a thread that cannot start). */
  onError?: (error: Error) => void;
  /** V8 heap limits of each thread; THREAD_RESOURCE_LIMITS unless given. */
  resourceLimits?: ResourceLimits;
}

/**
 * V8 heap limits of each pool thread, for the memory a thread holds rather than as a bound. V8
 * lets an old generation grow to a multiple of what survived the last full collection: 4x when
 * the heap may reach 2 GB or more (a thread inherits Node's limit, 4 GB on most machines), 1.3x
 * to 2x below that, scaled by the limit. A clean thread's live heap is about 25 MB, so its old
 * generation grew to 88 MB of mostly dead batches; just under 2 GB (2x) it peaks near 40 MB, for
 * about 50 MB less peak RSS with one worker. Lower limits hold little less (1 GB: 5 MB) for more
 * full collections (a 512 MB limit cost 2.5% of the CPU). Pages of the largest default size
 * (16 MB; a batch closes at 4 MB of payload) clean under 512 MB, sixteen in a row; a batch that
 * ran out would fail its own pages with ERR_WORKER_OUT_OF_MEMORY, not the run. Never above the
 * process's own heap limit (a smaller machine's default, or --max-old-space-size). The young
 * generation keeps Node's size: halving it saved 13 MB more and cost 4-6% of the CPU. Measured
 * in docs/speed.md ("Peak memory with one worker") with benchmarks/memory-threads.js and
 * benchmarks/pool-limits-cpu.js.
 */
export const THREAD_RESOURCE_LIMITS: Readonly<ResourceLimits> = Object.freeze({
  maxOldGenerationSizeMb: Math.min(2000, Math.floor(getHeapStatistics().heap_size_limit / 2 ** 20)),
});

/**
 * Flags for the pool's threads: the parent's, and no require() of ES modules. piscina loads the
 * task file with require() first; on Node 20.19+ that loads an ES module synchronously, and a
 * thread terminated in the middle of it (a pool closed or destroyed while its threads still
 * start: a short run, a bad model) aborts the whole process in V8 ("IsGraphAsync must be used
 * on an instantiated module", exit 134). Without require(esm), piscina falls back to import(),
 * which termination interrupts safely.
 */
const THREAD_EXEC_ARGV = process.allowedNodeEnvironmentFlags.has("--no-experimental-require-module")
  ? [...process.execArgv, "--no-experimental-require-module"]
  : undefined;

/**
 * Starts `threads` worker threads and loads the model in one of them first, so a bad model is
 * reported before any input is read. The others load it with their first batch.
 */
export async function openPoolCleaner(options: PoolCleanerOptions): Promise<PageCleaner> {
  const workerModule = options.workerModule ?? new URL("./worker.js", import.meta.url);
  const poolOptions = {
    filename: typeof workerModule === "string" ? workerModule : fileURLToPath(workerModule),
    minThreads: options.threads,
    maxThreads: options.threads,
    workerData: options.settings satisfies CleanWorkerData,
    resourceLimits: options.resourceLimits ?? THREAD_RESOURCE_LIMITS,
  };
  // Loaded here: a run with --workers 0 has no pool and need not load piscina.
  const { Piscina } = await import("piscina");
  let pool: Piscina<CleanTask, PackedOutputs>;
  try {
    pool = new Piscina({ ...poolOptions, execArgv: THREAD_EXEC_ARGV });
  } catch (error) {
    // Node refuses per-process and V8 flags in a thread's execArgv (node --expose-gc, say):
    // then threads inherit the parent's flags, without THREAD_EXEC_ARGV's guard.
    if ((error as { code?: string }).code !== "ERR_WORKER_INVALID_EXEC_ARGV") throw error;
    pool = new Piscina(poolOptions);
  }
  // A thread that dies before it is ready fails no task: piscina emits "error" instead and does
  // not replace it. With no thread left, queued tasks would wait forever, so then every waiting
  // call is failed here. (Not by racing each call with one never-settling promise: every race
  // would leave a reaction on it, holding each batch's result until the run ends.)
  let brokenBy: Error | null = null;
  const waiting = new Set<(error: Error) => void>();
  pool.on("error", (error: Error) => {
    options.onError?.(error);
    if (pool.threads.length > 0 || brokenBy !== null) return;
    brokenBy = error;
    for (const fail of waiting) fail(error);
    waiting.clear();
  });
  const run = <T>(task: CleanTask | null, runOptions: { name?: string; transferList?: ArrayBuffer[] }): Promise<T> => {
    if (brokenBy !== null) return Promise.reject(brokenBy);
    return new Promise<T>((resolve, reject) => {
      waiting.add(reject);
      pool.run(task as CleanTask, runOptions).then(
        (value) => {
          waiting.delete(reject);
          resolve(value as T);
        },
        (error: unknown) => {
          waiting.delete(reject);
          reject(error);
        },
      );
    });
  };

  let description: ClassifierDescription;
  try {
    description = await run<ClassifierDescription>(null, { name: "describeClassifier" });
  } catch (error) {
    await pool.destroy();
    throw error;
  }
  if (!description.ok) {
    await pool.destroy();
    throw new ModelError(description.problem, options.settings.model);
  }

  return {
    model: description.name,
    parallelism: options.threads,
    clean(records, siteTemplates) {
      const task = packPages(records);
      if (siteTemplates !== undefined) task.siteTemplates = siteTemplates;
      // The payloads now belong to the task (moved, or copied into its buffer); let go of the reader's.
      for (let i = 0; i < records.length; i++) records[i].body = EMPTY;
      return run<PackedOutputs>(task, { transferList: task.transfer })
        .then(unpackOutputs)
        .catch((error: unknown) => failedPages(records.length, `worker failed: ${errorMessage(error)}`));
    },
    fingerprint(records, keepParsed) {
      const task = { ...packPages(records), keepParsed };
      for (let i = 0; i < records.length; i++) records[i].body = EMPTY;
      return run<FingerprintedPage[]>(task, { name: "fingerprintTask", transferList: task.transfer }).catch((error: unknown) => {
        const failed = `worker failed: ${errorMessage(error)}`;
        return records.map((): FingerprintedPage => ({ fingerprints: null, failed }));
      });
    },
    close: () => pool.close(),
    destroy: () => pool.destroy(),
  };
}
