/**
 * What one task asks the scheduler for. A clean task's memory follows its worker threads, not its
 * input: docs/speed.md measured about 150 MB plus 300 MB per worker at the default batch size
 * (320 MB peak with 2 workers); the request adds headroom for the main thread's buffers, so that
 * a task is not killed for the few MB a large page adds.
 */

/** Measured: the main thread and per worker thread, in MiB. */
export const CLEAN_BASE_MIB = 150;
export const CLEAN_PER_WORKER_MIB = 300;
/** Headroom on top of the measured peak. */
const HEADROOM = 1.5;

/** MiB for a clean task of `workers` worker threads, rounded up to a whole 256 MiB. */
export function cleanMemoryMib(workers: number): number {
  const mib = (CLEAN_BASE_MIB + CLEAN_PER_WORKER_MIB * workers) * HEADROOM;
  return Math.ceil(mib / 256) * 256;
}

/**
 * A dedup task works in bounded buffers (docs/dedup.md measured 130 to 260 MB per pass); the
 * clusters pass holds one entry per document, so the default leaves room for a large corpus.
 */
export const DEDUP_MEMORY_MIB = 4096;

/** As Slurm writes it (M is MiB there) or as Kubernetes does (Mi). */
export function memoryString(mib: number, scheduler: "slurm" | "k8s"): string {
  return scheduler === "slurm" ? `${mib}M` : `${mib}Mi`;
}

/**
 * V8's platform threads run the background work of every isolate in a process (concurrent
 * marking and sweeping, optimising compiles): a clean task's main thread and all its worker
 * threads share them, and Node starts 4 however many workers there are. The count is a process
 * option (`--v8-pool-size`, or NODE_OPTIONS) that cannot change once Node runs, so a job script
 * sets it. Measured on lent 16-core machines, runs interleaved with Node's own count
 * (benchmarks/results/2026-11-27-device-pool-size.md): 16 workers cleaned more pages a second with
 * 16 platform threads in each of 10 pairs, 1.01-1.18x, median 1.06x; at 12 and 8 workers it changed
 * nothing beyond the noise (1.00x, 1.03x), and one worker with 16 ran 0.77-0.92x. So: one per
 * worker above 8 workers, Node's own below.
 */
export const NODE_V8_POOL_SIZE = 4;
export const V8_POOL_ABOVE_WORKERS = 8;

/** The platform threads a process of `workers` worker threads should start with; undefined: Node's own. */
export function v8PoolSizeFor(workers: number): number | undefined {
  return workers > V8_POOL_ABOVE_WORKERS ? workers : undefined;
}

/**
 * The `--v8-pool-size` a process was started with, or undefined where none was given: from its
 * command line (`process.execArgv`), which Node reads after NODE_OPTIONS and so wins over it,
 * else from NODE_OPTIONS; the last of either wins, as in Node.
 */
export function v8PoolSizeGiven(execArgv: readonly string[], nodeOptions: string | undefined): number | undefined {
  return lastPoolSize(execArgv) ?? lastPoolSize(nodeOptions?.split(/\s+/).filter((w) => w !== "") ?? []);
}

function lastPoolSize(words: readonly string[]): number | undefined {
  let size: number | undefined;
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word.startsWith("--v8-pool-size=")) size = Number(word.slice("--v8-pool-size=".length));
    else if (word === "--v8-pool-size" && i + 1 < words.length) size = Number(words[++i]);
  }
  return size;
}
