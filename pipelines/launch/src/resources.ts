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
