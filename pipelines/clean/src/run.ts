/**
 * A whole cleaning run: inputs in, one corpus file out.
 *
 * Readers stream records from a few inputs at a time and cut them into batches; a dispatcher
 * hands the batches to the cleaner with a bounded number in flight; one writer loop writes the
 * results in input order (or as they finish). Every stage waits on the next instead of
 * buffering, so memory stays flat whatever the input size.
 */
import { access, constants, stat } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { sep } from "node:path";
import { ArchiveOpenError, expandInputs, readRecords, type ArchiveRecord, type SkipEvent, type SkipReason } from "@winnow/archive";
import { DEFAULT_MODEL_PATH, hasDefaultModel } from "@winnow/models";
import { openWriter, type CleanDocument, type CorpusWriter, type OutputFormat } from "@winnow/writers";
import { pino, type Logger } from "pino";
import { Channel, Slots } from "./flow.js";
import { manifestPathFor, partPath, ResumeProblem } from "./manifest.js";
import { message, type PageOutput } from "./page.js";
import { ModelProblem, openInlineCleaner, openPoolCleaner, type PageCleaner } from "./pool.js";
import { RejectLog } from "./rejects.js";
import { planResume, ResumeLog, type ResumePlan } from "./resume.js";
import { fitSiteTemplates, withSiteTemplates, type SiteTemplateRunOptions, type SiteTemplateSummary } from "./site-templates.js";

export type { OutputFormat };
export { DEFAULT_MAX_PAGE_BYTES } from "@winnow/archive";
export { manifestPathFor, partPath } from "./manifest.js";

export const DEFAULT_BATCH_SIZE = 16;
/**
 * A batch also closes at this many payload bytes: pages of modern sites run to megabytes, and 16
 * of them in flight per worker were most of the peak RSS (benchmarks/RESULTS.md, memory).
 */
export const MAX_BATCH_BYTES = 4 << 20;
export const DEFAULT_MAX_OPEN_INPUTS = 2;

/** Batches in flight per worker thread: one running, one waiting, so no thread idles between. */
const IN_FLIGHT_PER_WORKER = 2;
/** Batches a reader may get ahead of the dispatcher. */
const READ_AHEAD = 2;

export interface CleanRunOptions {
  /** Archive or HTML files, directories (searched for them), "-" for standard input. */
  inputs: readonly string[];
  /** Output file, "-" for standard output, or a directory (text format: one file per document). */
  output: string;
  /** Default: from the output name (see outputFormatFor). */
  format?: OutputFormat;
  /** "heuristic" or an MLP model file; default: the shipped model if present, else the heuristic. */
  model?: string;
  /** Worker threads; 0 cleans on the calling thread. Default: os.availableParallelism(). */
  workers?: number;
  /** Pages per task handed to a worker (default 16). */
  batchSize?: number;
  /** Payloads above this many bytes are skipped as "too-large" (default: the archive reader's, 16 MiB). */
  maxPageBytes?: number;
  /** Write documents as they finish rather than in input order. */
  unordered?: boolean;
  /** Inputs read at the same time (default 2). */
  maxOpenInputs?: number;
  /** Where to write one JSON line per record that did not become a document (split into parts like the output when resumable). */
  rejectsPath?: string;
  /** Default: silent. */
  logger?: Logger;
  /** Called after each batch is written, always with the same object, updated in place. */
  onProgress?: (progress: Readonly<CleanProgress>) => void;
  /** Aborting stops reading; records already read are still cleaned and written, and the run resolves. */
  signal?: AbortSignal;
  /** Module run by the worker threads instead of winnow's own (same exports); for tests and embedding. */
  workerModule?: string | URL;
  /**
   * Make the run resumable, or resume one: a manifest records what each run did, and each run
   * writes its own part of the output (`output`, then out.part2.jsonl, ...); inputs earlier runs
   * finished are skipped, and one they stopped inside is read on from where they stopped. The
   * parts together hold every document once (see manifest.ts). Needs an output file.
   */
  resume?: boolean;
  /** The manifest of a resumable run; default `<output>.manifest`. */
  manifestPath?: string;
  /**
   * Read the inputs twice: first to find each host's site template (subtrees shared by
   * neighbouring pages), then to clean with template blocks dropped (site-templates.ts).
   */
  siteTemplates?: SiteTemplateRunOptions;
}

export interface CleanProgress {
  /** HTML records read from the inputs (records skipped by the reader are not counted). */
  recordsRead: number;
  /** Input bytes consumed, as stored (compressed bytes for .gz). */
  bytesRead: number;
  documentsKept: number;
  /** Records that did not become a document, for any reason. */
  skipped: number;
}

/** Why a record did not become a document: the archive reader's reasons and the cleaner's. */
export type CleanSkipReason = SkipReason | "no-text" | "decode-error" | "failed" | "empty-after-cleaning";

export const CLEAN_SKIP_REASONS: readonly CleanSkipReason[] = [
  "not-response",
  "http-status",
  "not-html",
  "too-large",
  "empty",
  "bad-http",
  "bad-encoding",
  "corrupt",
  "truncated",
  "unreadable",
  "no-text",
  "decode-error",
  "failed",
  "empty-after-cleaning",
];

export interface InputFailure {
  input: string;
  /** Why, without the path: "no such file or directory". */
  reason: string;
}

export interface CleanRunSummary {
  /** Input files after directories were expanded, plus given paths that could not be. */
  inputs: number;
  /** Inputs that could not be opened, or gave not a single byte; the others were still read. */
  inputsFailed: InputFailure[];
  recordsRead: number;
  bytesRead: number;
  documentsWritten: number;
  /** Every reason is present, most at 0. */
  skipped: Record<CleanSkipReason, number>;
  /** The file written: the output, or the part a resumable run wrote. */
  output: string;
  format: OutputFormat;
  /** The classifier's name: "heuristic" or the model path. */
  model: string;
  /** Worker threads used; 0 when cleaned inline. */
  workers: number;
  elapsedSeconds: number;
  documentsPerSecond: number;
  /** User + system CPU time of the whole process, worker threads included (getrusage). */
  cpuSeconds: number;
  /** Peak resident set size of the process. */
  peakRssBytes: number;
  /** The signal was aborted: what was read before is written, the rest was not read. */
  interrupted: boolean;
  /** Resumable runs only. */
  resume?: ResumeSummary;
  /** Site-template runs only: what pass one found. */
  siteTemplates?: SiteTemplateSummary;
}

export interface ResumeSummary {
  manifest: string;
  /** The part this run wrote; 0 when earlier runs had done everything and nothing was written. */
  part: number;
  /** Inputs earlier runs had read to the end, not read again. */
  inputsDone: number;
  /** Records of partly read inputs that earlier runs had handled, passed over. */
  recordsPassedOver: number;
}

/**
 * The run could not start or could not finish: no input could be opened ("input"), the model
 * is unusable ("model"), the output could not be written ("output"), or a resumable run cannot
 * go on from its manifest ("resume"). Damaged records and single missing inputs do not throw;
 * they are counted in the summary.
 */
export class CleanRunError extends Error {
  override readonly name = "CleanRunError";
  constructor(
    readonly kind: "input" | "model" | "output" | "resume",
    /** What went wrong, in words for people. */
    readonly what: string,
    /** The path (or paths) concerned. */
    readonly where: string,
    options?: { cause?: unknown },
  ) {
    super(`${what} (${where})`, options);
  }
}

/**
 * The format an output name implies: .jsonl → jsonl, .xml → xml, .txt or a directory → text
 * (each also with .gz); anything else, and standard output, → jsonl.
 */
export async function outputFormatFor(output: string): Promise<OutputFormat> {
  const name = output.toLowerCase().replace(/\.gz$/, "");
  if (name.endsWith(".xml")) return "xml";
  if (name.endsWith(".txt") || output.endsWith("/") || output.endsWith(sep)) return "text";
  if (name.endsWith(".jsonl") || output === "-") return "jsonl";
  const isDirectory = await stat(output).then(
    (s) => s.isDirectory(),
    () => false,
  );
  return isDirectory ? "text" : "jsonl";
}

const defaultModel = (): string => (hasDefaultModel() ? DEFAULT_MODEL_PATH : "heuristic");

/** The model a run uses: as given, else the shipped model, else the heuristic (with a warning). */
export function resolveModel(model: string | undefined, logger: Logger): string {
  if (model !== undefined) return model;
  if (hasDefaultModel()) return DEFAULT_MODEL_PATH;
  logger.warn(`no model given and the default model is missing (${DEFAULT_MODEL_PATH}); using the heuristic classifier`);
  return "heuristic";
}

export async function runClean(options: CleanRunOptions): Promise<CleanRunSummary> {
  const startTime = performance.now();
  const startCpu = process.cpuUsage();
  const logger = options.logger ?? pino({ enabled: false });
  const batchSize = positive(options.batchSize ?? DEFAULT_BATCH_SIZE, "batchSize");
  const workers = options.workers ?? availableParallelism();
  if (!Number.isInteger(workers) || workers < 0) throw new RangeError(`workers must be an integer >= 0, got ${workers}`);
  const maxOpenInputs = positive(options.maxOpenInputs ?? DEFAULT_MAX_OPEN_INPUTS, "maxOpenInputs");
  const format = options.format ?? (await outputFormatFor(options.output));

  // Inputs first: when none can be used, nothing else is started and no output is created.
  const inputsFailed: InputFailure[] = [];
  const files = await listInputs(options.inputs, inputsFailed);
  if (files.length === 0) {
    if (inputsFailed.length === 1) throw new CleanRunError("input", `cannot open input: ${inputsFailed[0].reason}`, inputsFailed[0].input);
    if (inputsFailed.length > 1) {
      throw new CleanRunError("input", "no input could be opened", inputsFailed.map((f) => `${f.input}: ${f.reason}`).join("; "));
    }
    throw new CleanRunError("input", "no archive or HTML files found", options.inputs.join(", "));
  }
  if (options.siteTemplates !== undefined && files.includes("-")) {
    throw new CleanRunError("input", "site templates read the inputs twice, so standard input cannot be one", "-");
  }
  // Only now: when the run stops here, the error says it all.
  for (const f of inputsFailed) logger.warn({ input: f.input }, `cannot open input: ${f.reason} (${f.input})`);

  // A resumable run reads only what earlier runs left, into a part of its own.
  const plan = options.resume === true ? await planOrRefuse(options, files, logger) : null;
  const todo = plan?.files ?? files;
  const outputPath = plan?.partPath ?? options.output;
  // Rejects are split into parts the same way, so a part written again replaces its rejects too.
  const rejectsPath = plan !== null && options.rejectsPath !== undefined ? partPath(options.rejectsPath, plan.part) : options.rejectsPath;
  const inputs = files.length + inputsFailed.length;
  if (todo.length === 0) {
    logger.info(`nothing left to do: earlier runs read all ${plural(files.length, "input")} (${plan?.manifestPath})`);
    return summarize({
      startTime,
      startCpu,
      inputs,
      inputsFailed,
      output: options.output,
      format,
      model: options.model ?? defaultModel(),
      workers,
      plan,
      part: 0,
    });
  }

  // Then the model, so a bad one is refused before the output file is created.
  const model = resolveModel(options.model, logger);
  const cleaner = await openCleaner(model, workers, options.workerModule, logger);
  const { writer, rejects } = await openOutputs(outputPath, rejectsPath, format, cleaner);
  const resumeLog = plan === null ? null : await openResumeLog(plan, writer, rejects, cleaner);

  logger.info(
    { inputs: todo.length, output: outputPath, format, model: cleaner.model, workers, batchSize },
    `cleaning ${plural(todo.length, "input")} with ${cleaner.model} on ${workers === 0 ? "the main thread" : plural(workers, "worker")}`,
  );
  // Pass one over all inputs, not only those left to do, so resumed parts use the same templates.
  const siteTemplates =
    options.siteTemplates === undefined
      ? null
      : await fitSiteTemplates(files, cleaner, options.siteTemplates, {
          batchSize,
          maxPageBytes: options.maxPageBytes,
          inFlight: workers === 0 ? 1 : IN_FLIGHT_PER_WORKER * cleaner.parallelism,
          signal: options.signal,
          logger,
        }).catch(async (error: unknown) => {
          await Promise.allSettled([writer.abort(), cleaner.destroy(), rejects?.close(), resumeLog?.close(false)]);
          throw error;
        });
  const run = new Run(todo, {
    cleaner: siteTemplates === null ? cleaner : withSiteTemplates(cleaner, siteTemplates),
    writer,
    rejects,
    logger,
    batchSize,
    maxOpenInputs,
    maxPageBytes: options.maxPageBytes,
    ordered: options.unordered !== true,
    inFlight: workers === 0 ? 1 : IN_FLIGHT_PER_WORKER * cleaner.parallelism,
    onProgress: options.onProgress,
    signal: options.signal,
    passOver: plan?.passOver,
    onInputDone: resumeLog === null ? undefined : (index, tally) => resumeLog.inputDone(index, tally),
  });
  try {
    await run.done;
  } catch (error) {
    // Not a data or output problem (those are counted, or kept in writeError): a bug. Free everything.
    await Promise.allSettled([writer.abort(), cleaner.destroy(), rejects?.close(), resumeLog?.close(false)]);
    throw error;
  }
  await cleaner.close();
  let closed = false;
  try {
    await closeOutputs(outputPath, rejectsPath, writer, rejects, run.writeError);
    closed = true;
  } finally {
    // Committed only if the output closed; otherwise this run's input lines count for nothing.
    await resumeLog?.close(closed, writer.documentsWritten, run.interrupted).catch((error: unknown) => {
      throw new CleanRunError("output", `cannot write manifest: ${systemReason(error)}`, resumeLog.manifestPath, { cause: error });
    });
  }

  inputsFailed.push(...run.unreadInputs);
  const summary = summarize({
    startTime,
    startCpu,
    inputs,
    inputsFailed,
    output: outputPath,
    format,
    model: cleaner.model,
    workers,
    plan,
    part: plan?.part ?? 0,
    run,
    documentsWritten: writer.documentsWritten,
  });
  if (siteTemplates !== null) summary.siteTemplates = siteTemplates.summary;
  logger.debug({ summary }, "run finished");
  return summary;
}

interface SummaryParts {
  startTime: number;
  startCpu: NodeJS.CpuUsage;
  inputs: number;
  inputsFailed: InputFailure[];
  output: string;
  format: OutputFormat;
  model: string;
  workers: number;
  plan: ResumePlan | null;
  part: number;
  /** Absent when there was nothing to read. */
  run?: Run;
  documentsWritten?: number;
}

function summarize(p: SummaryParts): CleanRunSummary {
  const elapsedSeconds = (performance.now() - p.startTime) / 1000;
  const cpu = process.cpuUsage(p.startCpu);
  const documentsWritten = p.documentsWritten ?? 0;
  const summary: CleanRunSummary = {
    inputs: p.inputs,
    inputsFailed: p.inputsFailed,
    recordsRead: p.run?.progress.recordsRead ?? 0,
    bytesRead: p.run?.progress.bytesRead ?? 0,
    documentsWritten,
    skipped: p.run?.skipped ?? noSkips(),
    output: p.output,
    format: p.format,
    model: p.model,
    workers: p.workers,
    elapsedSeconds,
    documentsPerSecond: elapsedSeconds > 0 ? documentsWritten / elapsedSeconds : 0,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    // ru_maxrss is process-wide; Node reports it in KiB.
    peakRssBytes: peakRss(),
    interrupted: p.run?.interrupted ?? false,
  };
  if (p.plan !== null) {
    summary.resume = {
      manifest: p.plan.manifestPath,
      part: p.part,
      inputsDone: p.plan.inputsDone,
      recordsPassedOver: p.plan.passOver.reduce((a, b) => a + b, 0),
    };
  }
  return summary;
}

function noSkips(): Record<CleanSkipReason, number> {
  return Object.fromEntries(CLEAN_SKIP_REASONS.map((r) => [r, 0])) as Record<CleanSkipReason, number>;
}

async function planOrRefuse(options: CleanRunOptions, files: readonly string[], logger: Logger): Promise<ResumePlan> {
  const manifestPath = options.manifestPath ?? manifestPathFor(options.output);
  try {
    return await planResume(options.output, manifestPath, files, logger);
  } catch (error) {
    if (error instanceof ResumeProblem)
      throw new CleanRunError("resume", `cannot resume: ${error.message}`, manifestPath, { cause: error });
    throw new CleanRunError("resume", `cannot read the manifest: ${systemReason(error)}`, manifestPath, { cause: error });
  }
}

async function openResumeLog(plan: ResumePlan, writer: CorpusWriter, rejects: RejectLog | null, cleaner: PageCleaner): Promise<ResumeLog> {
  try {
    return await ResumeLog.open(plan);
  } catch (error) {
    await Promise.allSettled([writer.abort(), cleaner.destroy(), rejects?.close()]);
    throw new CleanRunError("output", `cannot create manifest: ${systemReason(error)}`, plan.manifestPath, { cause: error });
  }
}

async function openCleaner(model: string, workers: number, workerModule: string | URL | undefined, logger: Logger): Promise<PageCleaner> {
  try {
    if (workers === 0) return await openInlineCleaner(model);
    return await openPoolCleaner({
      threads: workers,
      model,
      workerModule,
      onError: (error) => logger.error({ err: error }, `worker thread error: ${error.message}`),
    });
  } catch (error) {
    if (error instanceof ModelProblem) throw new CleanRunError("model", error.message, model, { cause: error });
    throw error;
  }
}

async function openOutputs(
  output: string,
  rejectsPath: string | undefined,
  format: OutputFormat,
  cleaner: PageCleaner,
): Promise<{ writer: CorpusWriter; rejects: RejectLog | null }> {
  let writer: CorpusWriter;
  try {
    writer = await openWriter({ format, path: output });
  } catch (error) {
    await cleaner.destroy();
    throw new CleanRunError("output", `cannot create output: ${systemReason(error)}`, output, { cause: error });
  }
  if (rejectsPath === undefined) return { writer, rejects: null };
  try {
    return { writer, rejects: await RejectLog.open(rejectsPath) };
  } catch (error) {
    await Promise.all([writer.abort(), cleaner.destroy()]);
    throw new CleanRunError("output", `cannot create rejects file: ${systemReason(error)}`, rejectsPath, { cause: error });
  }
}

/** Finishes both files; a write error seen during the run, or one now, is thrown. */
async function closeOutputs(
  output: string,
  rejectsPath: string | undefined,
  writer: CorpusWriter,
  rejects: RejectLog | null,
  writeError: unknown,
): Promise<void> {
  let outputProblem = writeError;
  if (outputProblem === null) {
    await writer.close().catch((error: unknown) => (outputProblem = error));
  } else {
    // Keep what was written valid under the final name; the write error is what gets reported.
    await writer.abort().catch(() => {});
  }
  let rejectsProblem: unknown = null;
  await rejects?.close().catch((error: unknown) => (rejectsProblem = error));
  if (outputProblem !== null) {
    throw new CleanRunError("output", `cannot write output: ${systemReason(outputProblem)}`, output, { cause: outputProblem });
  }
  if (rejectsProblem !== null) {
    throw new CleanRunError("output", `cannot write rejects file: ${systemReason(rejectsProblem)}`, String(rejectsPath), {
      cause: rejectsProblem,
    });
  }
}

interface RunParts {
  cleaner: PageCleaner;
  writer: CorpusWriter;
  rejects: RejectLog | null;
  logger: Logger;
  batchSize: number;
  maxOpenInputs: number;
  maxPageBytes: number | undefined;
  ordered: boolean;
  inFlight: number;
  onProgress: ((progress: Readonly<CleanProgress>) => void) | undefined;
  signal: AbortSignal | undefined;
  /** Per input: records an earlier run handled, read again but passed over. */
  passOver: readonly number[] | undefined;
  /** Called once per input, when reading it has ended and every record read is handled. */
  onInputDone: ((index: number, tally: Readonly<InputTally>) => void) | undefined;
}

/** What became of one input's records in this run. */
interface InputTally {
  /** Records read, not counting those passed over. */
  read: number;
  /** Of those, written or counted as skipped. */
  handled: number;
  documents: number;
  readingEnded: boolean;
  /** Read to its end: not cut short by an interruption, a read error or a failure to open. */
  complete: boolean;
  done: boolean;
}

/** Records of one input, cut into a batch by its reader. */
interface Batch {
  input: number;
  records: ArchiveRecord[];
}

/** A batch on its way to the writer: the records, and their outputs once cleaned. */
interface Cleaned extends Batch {
  outputs: PageOutput[] | Promise<PageOutput[]>;
}

/** The three stages of a run, wired together; `done` settles when all of them have finished. */
class Run {
  readonly progress: CleanProgress = { recordsRead: 0, bytesRead: 0, documentsKept: 0, skipped: 0 };
  readonly skipped = Object.fromEntries(CLEAN_SKIP_REASONS.map((r) => [r, 0])) as Record<CleanSkipReason, number>;
  /** Inputs that opened but gave not a byte. */
  readonly unreadInputs: InputFailure[] = [];
  /** The first write failure; once set, reading stops and results are dropped. */
  writeError: unknown = null;
  /** Reading ended on the abort signal, not at the end of the inputs. */
  interrupted = false;
  readonly done: Promise<void>;

  readonly #files: readonly string[];
  readonly #parts: RunParts;
  readonly #traceSkips: boolean;
  /**
   * Ordered: one channel per input, made when its reader or the dispatcher first needs it and
   * dropped once drained, so a run over many files holds only the few being read. Unordered:
   * one channel shared by all readers.
   */
  readonly #batches: Array<Channel<Batch> | undefined>;
  #readingDone = false;
  readonly #cleaned = new Channel<Cleaned>(Infinity); // bounded by #slots
  readonly #slots: Slots;
  readonly #tallies: InputTally[];

  constructor(files: readonly string[], parts: RunParts) {
    this.#files = files;
    this.#parts = parts;
    this.#tallies = files.map(() => ({ read: 0, handled: 0, documents: 0, readingEnded: false, complete: false, done: false }));
    this.#traceSkips = parts.logger.isLevelEnabled("debug");
    this.#slots = new Slots(parts.inFlight);
    this.#batches = parts.ordered ? new Array(files.length) : [new Channel(READ_AHEAD * parts.maxOpenInputs)];
    // Hands the live object over at once, so a progress display can follow reading from the start.
    parts.onProgress?.(this.progress);
    this.done = Promise.all([this.#read(), this.#dispatch(), this.#write()]).then(() => {});
  }

  get #stopping(): boolean {
    return this.writeError !== null || this.#parts.signal?.aborted === true;
  }

  // Stage 1: a few readers, each taking the next input, cutting its records into batches.
  async #read(): Promise<void> {
    let next = 0;
    const reader = async (): Promise<void> => {
      while (next < this.#files.length && !this.#stopping) await this.#readInput(next++);
    };
    const readers = Math.min(this.#parts.maxOpenInputs, this.#files.length);
    await Promise.all(Array.from({ length: readers }, reader));
    // Inputs never started (interrupted) must still end for the dispatcher, which waits on them.
    this.#readingDone = true;
    this.interrupted = this.#parts.signal?.aborted === true;
    for (const channel of this.#batches) channel?.close();
  }

  #channelFor(index: number): Channel<Batch> {
    if (!this.#parts.ordered) return this.#batches[0] as Channel<Batch>;
    let channel = this.#batches[index];
    if (channel === undefined) {
      channel = this.#batches[index] = new Channel(READ_AHEAD);
      if (this.#readingDone) channel.close();
    }
    return channel;
  }

  async #readInput(index: number): Promise<void> {
    const input = this.#files[index];
    const out = this.#channelFor(index);
    const { batchSize, rejects } = this.#parts;
    const progress = this.progress;
    const tally = this.#tallies[index];
    const passOver = this.#parts.passOver?.[index] ?? 0;
    let inputBytes = 0;
    // Set from the onSkip callback, which control-flow analysis cannot see.
    let unreadable = null as string | null;
    /** Records the reader gave, passed over ones included. */
    let given = 0;
    let cutShort = false;
    let batch: ArchiveRecord[] = [];
    const options = {
      maxPageBytes: this.#parts.maxPageBytes,
      onSkip: (event: SkipEvent) => {
        // An earlier run reported what came before the records it handled.
        if (given < passOver) return;
        if (event.reason === "unreadable") unreadable ??= event.detail;
        this.#skip(event, event.reason, event.detail);
      },
      onProgress: (bytes: number) => {
        progress.bytesRead += bytes - inputBytes;
        inputBytes = bytes;
      },
    };
    let batchBytes = 0;
    try {
      for await (const record of readRecords(input, options)) {
        if (++given > passOver) {
          tally.read++;
          progress.recordsRead++;
          batch.push(record);
          batchBytes += record.body.byteLength;
          if (batch.length === batchSize || batchBytes >= MAX_BATCH_BYTES) {
            const wait = out.push({ input: index, records: batch });
            batch = [];
            batchBytes = 0;
            if (wait) await wait;
          }
          if (rejects?.full) await rejects.drained();
        }
        if (this.#stopping) {
          cutShort = true;
          break;
        }
      }
    } catch (error) {
      cutShort = true;
      // readRecords throws only when the input cannot be opened; anything else is reported the same way.
      const reason = error instanceof ArchiveOpenError ? openReason(error) : `reading failed: ${message(error)}`;
      this.unreadInputs.push({ input, reason });
      this.#parts.logger.warn({ input }, `cannot read input: ${reason} (${input})`);
    }
    if (batch.length > 0) await out.push({ input: index, records: batch });
    if (this.#parts.ordered) out.close();
    if (unreadable !== null && inputBytes === 0 && tally.read === 0) {
      this.unreadInputs.push({ input, reason: unreadable });
      this.#parts.logger.warn({ input }, `cannot read input: ${unreadable} (${input})`);
    }
    tally.readingEnded = true;
    tally.complete = !cutShort && unreadable === null;
    this.#settle(index);
  }

  /** Reports an input once reading it has ended and all its records are handled. */
  #settle(index: number): void {
    const tally = this.#tallies[index];
    if (tally.done || !tally.readingEnded || tally.handled < tally.read) return;
    tally.done = true;
    this.#parts.onInputDone?.(index, tally);
  }

  // Stage 2: hand batches to the cleaner, at most `inFlight` not yet written.
  async #dispatch(): Promise<void> {
    const { cleaner, ordered } = this.#parts;
    let pending = 0;
    let dispatched = false;
    const cleaned = this.#cleaned;
    const channels = ordered ? this.#files.length : 1;
    for (let i = 0; i < channels; i++) {
      const channel = this.#channelFor(i);
      for (let batch = await channel.take(); batch !== undefined; batch = await channel.take()) {
        const wait = this.#slots.acquire();
        if (wait) await wait;
        if (this.writeError !== null) {
          this.#slots.release();
          continue;
        }
        const { input, records } = batch;
        const outputs = cleaner.clean(records);
        if (ordered) {
          // Queued now, awaited by the writer in this order: results come out in input order.
          cleaned.push({ input, records, outputs });
        } else {
          pending++;
          void outputs.then((done) => {
            cleaned.push({ input, records, outputs: done });
            if (--pending === 0 && dispatched) cleaned.close();
          });
        }
      }
      if (ordered) this.#batches[i] = undefined;
    }
    dispatched = true;
    if (ordered || pending === 0) cleaned.close();
  }

  // Stage 3: write the kept documents, count the rest.
  async #write(): Promise<void> {
    const { writer, onProgress } = this.#parts;
    const progress = this.progress;
    for (let batch = await this.#cleaned.take(); batch !== undefined; batch = await this.#cleaned.take()) {
      const { records } = batch;
      const outputs = await batch.outputs;
      const written = writer.documentsWritten;
      for (let i = 0; i < records.length; i++) {
        const record = records[i];
        const out = outputs[i];
        if (!out.ok) {
          this.#skip(record, out.reason, out.detail);
        } else if (out.blocks.length === 0) {
          this.#skip(record, "empty-after-cleaning", `none of ${out.blocksTotal} blocks kept`);
        } else if (this.writeError === null) {
          const doc: CleanDocument = {
            url: record.url,
            recordId: record.recordId,
            date: record.date,
            contentType: record.contentType,
            charset: out.charset,
            title: out.title,
            blocks: out.blocks,
            blocksTotal: out.blocksTotal,
            source: record.source,
          };
          try {
            await writer.write(doc);
          } catch (error) {
            this.writeError = error;
          }
        }
      }
      this.#slots.release();
      const tally = this.#tallies[batch.input];
      tally.handled += records.length;
      tally.documents += writer.documentsWritten - written;
      this.#settle(batch.input);
      progress.documentsKept = writer.documentsWritten;
      onProgress?.(progress);
    }
  }

  #skip(record: { source: string; offset: number; recordId: string; url: string }, reason: CleanSkipReason, detail: string): void {
    this.skipped[reason]++;
    this.progress.skipped++;
    const line = { source: record.source, offset: record.offset, recordId: record.recordId, url: record.url, reason, detail };
    this.#parts.rejects?.write(line);
    if (this.#traceSkips) this.#parts.logger.debug(line, `skipped ${reason}: ${detail}`);
  }
}

/**
 * Expands the given paths one by one, so one missing input does not hide the others. Given
 * files are checked for read access now, which catches the common mistakes before anything is
 * started; files found in directories are left to fail, if they do, when read.
 */
async function listInputs(paths: readonly string[], failed: InputFailure[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    try {
      const found = await expandInputs([path]);
      if (found.length === 1 && found[0] === path && path !== "-") {
        await access(path, constants.R_OK).catch((error: unknown) => {
          throw ArchiveOpenError.from(path, error);
        });
      }
      files.push(...found);
    } catch (error) {
      if (!(error instanceof ArchiveOpenError)) throw error;
      failed.push({ input: path, reason: openReason(error) });
    }
  }
  return files;
}

/** ArchiveOpenError says "cannot open PATH: why"; keep the why. */
function openReason(error: ArchiveOpenError): string {
  const prefix = `cannot open ${error.path}: `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}

const SYSTEM_REASONS: Record<string, string> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EISDIR: "is a directory",
  ENOTDIR: "a path component is not a directory",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EROFS: "read-only file system",
  EPIPE: "the reader went away (broken pipe)",
};

/** A file-system error in words, without the path (which the caller reports beside it). */
function systemReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (code !== undefined && SYSTEM_REASONS[code]) || message(error).replace(/^@winnow\/writers: /, "");
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be an integer >= 1, got ${value}`);
  return value;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/**
 * This process's own peak RSS. resourceUsage().maxRSS also counts what a parent had mapped at
 * fork time on Linux (a trivial child of a 3.7 GB parent reported 1.6 GB), so VmHWM comes first.
 */
function peakRss(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (match) return Number(match[1]) * 1024;
  } catch {
    // Not Linux: fall back below.
  }
  return process.resourceUsage().maxRSS * 1024;
}
