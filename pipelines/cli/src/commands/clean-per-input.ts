/**
 * The flags of `winnow clean` for sharded runs with one output per input (--paths-file,
 * --rank/--world-size, --per-input), and the summary line of such a run. The work is
 * @winnow/clean's runCleanPerInput.
 */
import { type Command, InvalidArgumentError, Option } from "commander";
import type { PerInputRunSummary } from "@winnow/clean";
import { DEFAULT_READ_TIMEOUT_MS, DEFAULT_RETRY } from "@winnow/remote";
import type { Compression } from "@winnow/writers";
import { parseCount } from "../parse.js";

export interface PerInputFlags {
  pathsFile?: string;
  baseUrl?: string;
  rank?: number;
  worldSize?: number;
  perInput?: boolean;
  /** Absent: the format's default (gz, none for Parquet). */
  compress?: "none" | "gz" | "zst";
  skipDone: boolean;
  retries: number;
  retryDelay: number;
  /** Seconds. */
  readTimeout: number;
  s3Endpoint?: string;
}

/** Any of these flags makes a run write one output per input. */
export function isPerInput(flags: PerInputFlags): boolean {
  return flags.perInput === true || flags.pathsFile !== undefined || flags.rank !== undefined || flags.worldSize !== undefined;
}

/**
 * The compression of each output: --compress when given, else gzip, but none for Parquet, which
 * compresses its own pages (a Parquet run given gz or zst is still refused, by perInputSuffix).
 */
export function compressionOf(flags: PerInputFlags & { format?: string }): Compression | null {
  const kind = flags.compress ?? (flags.format === "parquet" ? "none" : "gz");
  return kind === "none" ? null : kind === "gz" ? "gzip" : "zstd";
}

function parseBaseUrl(value: string): string {
  if (value.trim() === "") throw new InvalidArgumentError("expected a URL or folder such as https://data.commoncrawl.org/");
  return value;
}

export const PER_INPUT_HELP = `
One output per input (--paths-file, --rank/--world-size, --per-input; docs/scale-out.md):
  The inputs (a paths list such as Common Crawl's warc.paths.gz, or the inputs given) are shared
  among the tasks of an array job: task R of N takes inputs i with i mod N = R. R and N come from
  --rank/--world-size, or else from the scheduler: SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_MIN/
  MAX or _COUNT (Slurm), JOB_COMPLETION_INDEX with --world-size (Kubernetes Indexed Job),
  AWS_BATCH_JOB_ARRAY_INDEX with --world-size or WINNOW_WORLD_SIZE (AWS Batch); the log says
  which. -o names a folder; each input's output is named from the input (crawl-data/.../x.warc.gz
  -> out/crawl-data/.../x.jsonl.gz), written under a name unique to the host and process, renamed
  into place when complete and followed by a done marker (x.jsonl.gz.done, JSON). Inputs marked
  done are skipped, so running a task again redoes only what it had not finished. http:// and
  https:// inputs are streamed; throttling (429), server errors (5xx), connections dropped
  mid-body and reads stalled for --read-timeout are retried with exponential backoff and jitter,
  reading on with a Range request from the last byte read; s3:// inputs the same (SlowDown
  included). A URL's user, password and signatures are never shown (REDACTED). -o s3://bucket/prefix/ uploads
  each output (multipart) and then its marker. An input that still cannot be read is not marked done, is named in its
  --rejects file (a folder here: <name>.rejects.jsonl) and in the log, the task goes on with the
  others, and the exit status is 3.`;

export function addPerInputOptions(command: Command): Command {
  return command
    .option(
      "--paths-file <file>",
      "read the inputs from this list, one path or URL per line (plain or .gz; blank and # lines passed over); one output per input",
    )
    .option(
      "--base-url <url>",
      "put this before relative lines of --paths-file: https://data.commoncrawl.org/, s3://commoncrawl/, a local folder",
      parseBaseUrl,
    )
    .option("--rank <r>", "this task's rank, from 0 (default: from the scheduler's environment); one output per input", parseCount(0))
    .option(
      "--world-size <n>",
      "tasks sharing the inputs (default: from the scheduler's environment; needed with JOB_COMPLETION_INDEX)",
      parseCount(1),
    )
    .option(
      "--per-input",
      "write one output per input into the -o folder, as --paths-file does, for inputs given on the command line (files, folders, http(s):// and s3:// URLs)",
    )
    .addOption(
      new Option(
        "--compress <kind>",
        "compression of each output of a per-input run (not for --format parquet, which compresses its own pages)",
      )
        .choices(["none", "gz", "zst"])
        .default(undefined, "gz; none for --format parquet"),
    )
    .option("--no-skip-done", "per-input runs: clean inputs again even when their output is marked done")
    .option(
      "--retries <n>",
      "tries in a row a remote (http(s)://, s3://) read may fail before its input is given up",
      parseCount(1),
      DEFAULT_RETRY.tries,
    )
    .option(
      "--retry-delay <ms>",
      "the first retry waits up to this many milliseconds (at random); each failure in a row doubles it, up to 30 s",
      parseCount(0),
      DEFAULT_RETRY.baseDelayMs,
    )
    .option(
      "--read-timeout <seconds>",
      "a remote request unanswered, or a body that sends nothing, for this long counts as a failed try: it is retried from the last byte read",
      parseSeconds,
      DEFAULT_READ_TIMEOUT_MS / 1000,
    )
    .option(
      "--s3-endpoint <url>",
      "for s3:// inputs and -o s3:// (one output per input): an S3-compatible store (MinIO, Ceph, R2) instead of AWS; credentials and region come from the usual AWS settings (AWS_ACCESS_KEY_ID, ~/.aws, the instance role, AWS_REGION)",
    );
}

/** A positive number of seconds, fractions allowed: 30, 2.5. */
function parseSeconds(value: string): number {
  const n = /^\d*\.?\d+$/.test(value) ? Number(value) : NaN;
  if (!(n > 0)) throw new InvalidArgumentError("expected a number of seconds above 0, such as 30 or 2.5");
  return n;
}

/** "task 3 of 16 (SLURM_ARRAY_TASK_ID): 12 of 190 inputs; 9 done now, 2 done before, 1 failed; ..." */
export function perInputSummaryLine(s: PerInputRunSummary): string {
  const task = s.shard === null ? "one task" : `task ${s.shard.rank} of ${s.shard.worldSize} (${s.shard.source})`;
  const failed = s.failed.length === 0 ? "" : `, ${s.failed.length} failed (${s.failed.map((f) => f.input).join(", ")})`;
  return (
    `${s.interrupted ? "interrupted: " : ""}${task}: ${s.assigned} of ${s.listed} inputs; ${s.done} done now, ` +
    `${s.alreadyDone} done before${failed}; wrote ${s.documentsWritten} documents into ${s.outputDir} from ${s.recordsRead} HTML records, ` +
    `${(s.bytesRead / 1e6).toFixed(1)} MB read; ${s.elapsedSeconds.toFixed(1)} s, ${s.cpuSeconds.toFixed(1)} CPU s, ` +
    `peak RSS ${(s.peakRssBytes / 1e6).toFixed(0)} MB`
  );
}
