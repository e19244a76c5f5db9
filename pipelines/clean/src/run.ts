/**
 * A whole cleaning run, top to bottom: list the inputs, plan a resume, load the model, open the
 * outputs, (fit site templates,) run the three stages, close the outputs, summarise. Every
 * failure that is the user's to fix is thrown as a typed error (@winnow/errors) naming the path;
 * damaged records and single missing inputs do not throw: they are counted in the summary.
 */
import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { dirname, resolve, sep } from "node:path";
import type { InputOpener } from "@winnow/archive";
import { InputError, ModelError, OutputError, UsageError, WinnowError, errorMessage, systemReason } from "@winnow/errors";
import type { Favor, ModelSpec } from "@winnow/models/classifiers";
// Not the package's index: that loads the classifiers, which a run on a pool needs only in its threads.
import { resolveModelSpec } from "@winnow/models/model-names";
import { redactUrl } from "@winnow/remote";
import {
  type LockTarget,
  lockOutputs,
  type NamedPath,
  type OutputFormat,
  type OutputRole,
  prepareOutput,
  RunPaths,
  refuseOutputsOverInputs,
  removeStaleTempFiles,
  templateFields,
} from "@winnow/writers";
import { type Logger, pino } from "pino";
import { manifestPathFor, partPath, ResumeProblem } from "./manifest.js";
import { earlierRunFiles, removeEarlierRunFiles } from "./earlier-run.js";
import { listInputs } from "./inputs.js";
import {
  closeOutputs,
  discardOutputs,
  openOutputs,
  outputFormatFor,
  refuseRejectsOnStdout,
  refuseUnnamedFormat,
  type RunOutputs,
} from "./outputs.js";
import { openInlineCleaner, openPoolCleaner, type PageCleaner } from "./pool.js";
import { planResume, ResumeLog, type ResumePlan } from "./resume.js";
import { type OutputSettings, outputSettings } from "./output-settings.js";
import { fitSiteTemplates, type SiteTemplateRunOptions, withSiteTemplates } from "./site-templates.js";
import type { WriterDedup } from "./dedup.js";
import { Stages } from "./stages.js";
import type { CorpusOptions } from "./steps.js";
import type { CleanerSettings } from "./worker.js";
import { type CleanProgress, type CleanRunSummary, type InputFailure, summarize } from "./summary.js";

export const DEFAULT_BATCH_SIZE = 16;
export const DEFAULT_MAX_OPEN_INPUTS = 2;

/** Batches in flight per worker thread: one running, one waiting, so no thread idles between. */
const IN_FLIGHT_PER_WORKER = 2;

/**
 * The most worker threads a run may ask for: 4 per CPU. More only cost memory (each thread
 * holds a model and its batches; 100,000 of them exhaust it) and cannot run any faster.
 */
export function maxWorkers(): number {
  return 4 * availableParallelism();
}

const MANIFEST_ROLE: OutputRole = { what: "manifest", flag: "--manifest" };

/** Inputs named in a message before "and N more". */
const NAMED_INPUTS = 3;

export interface CleanRunOptions {
  /** Archive or HTML files, directories (searched for them), "-" for standard input. */
  inputs: readonly string[];
  /** Output file, "-" for standard output, or a directory (text format: one file per document). */
  output: string;
  /** Default: from the output name (see outputFormatFor). */
  format?: OutputFormat;
  /** JSONL, XML and Parquet: a `markdown` field with each document as Markdown as well as its text. */
  markdown?: boolean;
  /** Markdown (the format or the field): links as [text](url) and emphasis, as the page has them. */
  links?: boolean;
  /**
   * Collect each page's metadata (author, dates, site name, ...) in the segmenter's pass; default
   * true. `false` writes no metadata fields and saves the few per cent of CPU they cost.
   */
  metadata?: boolean;
  /** What --model names (see @winnow/models' ModelSpec); default: the shipped model. */
  model?: ModelSpec;
  /** The model's operating point: keep less (precision), more (recall), or the balanced default. */
  favor?: Favor;
  /**
   * Give each document the blocks the model's comment head finds to be user comments, in a
   * `comments` field of its own (never in the main text). Models without a comment head give none.
   */
  comments?: boolean;
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
  /** Also write routine skips (not-response, http-status, not-html) to rejectsPath. */
  rejectsAll?: boolean;
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
   * Replace what an earlier run left at the output: the manifest and parts of a resumable run
   * (removed before anything is written; with `resume`, the run starts afresh), the documents
   * and index of a text folder. Without it, a plain run refuses to write beside either.
   */
  overwrite?: boolean;
  /**
   * The corpus steps after scoring (steps.ts): language identification, --langs and
   * --min-lang-score, the rule sets of --filters, --stats and --keep-filtered. Absent: none.
   */
  corpus?: CorpusOptions;
  /**
   * Read the inputs twice: first to find each host's site template (subtrees shared by
   * neighbouring pages), then to clean with template blocks dropped (site-templates.ts).
   */
  siteTemplates?: SiteTemplateRunOptions;
  /** Opens inputs that are URLs (https://, s3://; see @winnow/remote); without it only local files are read. */
  open?: InputOpener;
  /**
   * Lock every output for the run (lock.ts in @winnow/writers); default true. Off only for a
   * caller that holds the locks itself (a per-input run writes a staged file it locked the final name of).
   */
  lock?: boolean;
}

/** What a caller inside this package may hand a run: a cleaner it opened and keeps open across runs. */
export interface SharedCleaner {
  cleaner: PageCleaner;
}

export async function runClean(options: CleanRunOptions, shared?: SharedCleaner): Promise<CleanRunSummary> {
  // Whatever way the run ends, its locks go with it.
  const locks: Array<() => Promise<void>> = [];
  try {
    return await cleanLocked(options, shared, locks);
  } finally {
    await Promise.allSettled(locks.map((release) => release()));
  }
}

async function cleanLocked(
  options: CleanRunOptions,
  shared: SharedCleaner | undefined,
  locks: Array<() => Promise<void>>,
): Promise<CleanRunSummary> {
  const startTime = performance.now();
  const startCpu = process.cpuUsage();
  const logger = options.logger ?? pino({ enabled: false });
  const batchSize = positive(options.batchSize ?? DEFAULT_BATCH_SIZE, "batchSize");
  const workers = options.workers ?? availableParallelism();
  if (!Number.isInteger(workers) || workers < 0) throw new RangeError(`workers must be an integer >= 0, got ${workers}`);
  if (workers > maxWorkers()) {
    throw new UsageError(
      `--workers ${workers} is more than winnow runs: at most ${maxWorkers()} (4 per CPU, ${availableParallelism()} CPUs here)`,
      `--workers ${workers}`,
    );
  }
  refuseRejectsOnStdout(options.output, options.rejectsPath, options.resume === true);
  const maxOpenInputs = positive(options.maxOpenInputs ?? DEFAULT_MAX_OPEN_INPUTS, "maxOpenInputs");
  const namedFormat = options.format ?? (await outputFormatFor(options.output));
  refuseUnusableCorpusOptions(options, namedFormat);

  // Inputs first: when none can be used, nothing else is started and no output is created.
  const inputsFailed: InputFailure[] = [];
  const repeated: Array<{ path: string; same: string }> = [];
  const files = await listInputs(options.inputs, inputsFailed, options.open !== undefined, repeated);
  refuseUnusableInputs(files, inputsFailed, options);
  for (const r of repeated) logger.warn({ input: r.path }, `input named twice, read once: ${r.path} is ${r.same}`);
  // Before anything is read or written: no output may be an input, given or found in a folder, nor another output.
  const inputPaths: NamedPath[] = [...options.inputs, ...files].map((path) => ({ path, flag: "input" }));
  const manifestPath = options.manifestPath ?? manifestPathFor(options.output);
  const runPaths = await claimRunPaths(options, namedFormat, manifestPath, inputPaths);
  // After the inputs' checks: writing over an input is the graver mistake to name.
  const format = refuseUnnamedFormat(namedFormat, options.output);
  for (const f of inputsFailed) logger.warn({ input: f.input }, `cannot open input: ${f.reason} (${f.input})`);

  if (options.lock !== false) locks.push(await lockRunOutputs(options, manifestPath));
  await settleEarlierRun(options, manifestPath, inputPaths, logger);

  // A resumable run reads only what earlier runs left, into a part of its own.
  const model = resolveModelSpec(options.model, (warning) => logger.warn(warning));
  const plan =
    options.resume === true ? await planOrRefuse(options, manifestPath, files, await runSettings(options, format, model), logger) : null;
  const todo = plan?.files ?? files;
  const outputPath = plan?.partPath ?? options.output;
  // Rejects are split into parts the same way, so a part written again replaces its rejects too.
  const rejectsPath = plan !== null && options.rejectsPath !== undefined ? partPath(options.rejectsPath, plan.part) : options.rejectsPath;
  if (plan !== null) await refuseOutputsOverInputs(outputsOf(outputPath, rejectsPath, undefined), inputPaths);
  await removeStaleTempFilesOf(options.output, options.rejectsPath, plan?.part ?? 1, logger);
  const summaryOf = { startTime, startCpu, inputs: files.length + inputsFailed.length, inputsFailed, format, workers, plan };
  if (todo.length === 0) {
    return summarize({ ...summaryOf, output: options.output, model, part: 0 });
  }

  // Then the model, so a bad one is refused before the output file is created.
  const cleaner = shared === undefined ? await openRunCleaner(options, model, workers, logger) : borrowed(shared.cleaner);
  const inFlight = workers === 0 ? 1 : IN_FLIGHT_PER_WORKER * cleaner.parallelism;
  const outputs = await openOutputs(outputPath, rejectsPath, format, {
    claimExpansion: (file) => runPaths.claimExpansion({ path: options.output, flag: "-o" }, file),
    rejectsAll: options.rejectsAll,
    overwrite: options.overwrite,
    markdown: options.markdown === true,
    links: options.links === true,
  }).catch(async (error: unknown) => {
    await cleaner.destroy();
    throw error;
  });
  const resumeLog = plan === null ? null : await openResumeLog(plan, outputs, cleaner);
  // A run that fails replaces nothing: every file it was writing is dropped, none renamed into place.
  const abandon = () => Promise.allSettled([discardOutputs(outputs), cleaner.destroy(), resumeLog?.close(false)]);

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
          open: options.open,
          inFlight,
          signal: options.signal,
          logger,
        }).catch(async (error: unknown) => {
          await abandon();
          throw error;
        });
  // Loaded only with --dedup: @winnow/dedup's hashes (a native module) are the only user of it here.
  const dedup: WriterDedup | null =
    options.corpus?.dedup === undefined ? null : new (await import("./dedup.js")).WriterDedup(options.corpus.dedup);
  const stages = new Stages(todo, {
    cleaner: siteTemplates === null ? cleaner : withSiteTemplates(cleaner, siteTemplates),
    writer: outputs.writer,
    rejects: outputs.rejects,
    dedup,
    logger,
    batchSize,
    maxOpenInputs,
    maxPageBytes: options.maxPageBytes,
    // The reading thread feeds the pool alone: from two workers on, its inflating was what
    // capped them (docs/speed.md, the 16-core series).
    inflateAhead: workers >= 2,
    open: options.open,
    ordered: options.unordered !== true,
    inFlight,
    onProgress: options.onProgress,
    signal: options.signal,
    passOver: plan?.passOver,
    onInputDone: resumeLog === null ? undefined : (index, tally) => resumeLog.inputDone(index, tally),
  });
  try {
    await stages.done;
  } catch (error) {
    // Not a data or output problem (those are counted, or kept in writeError): a bug. Free everything.
    await abandon();
    throw error;
  }
  await cleaner.close();
  if (stages.recordsFound === 0 && !stages.interrupted && stages.writeError === null) {
    const unread = new Set(stages.unreadInputs.map((f) => f.input));
    const read = todo.filter((file) => !unread.has(file));
    // Inputs that gave not a byte are reported as such (the command line says so); the others held no record.
    if (read.length > 0) {
      await Promise.allSettled([discardOutputs(outputs), resumeLog?.close(false)]);
      throw new InputError(`no records found in ${namedInputs(read)}: not WARC, ARC or HTML, or empty`);
    }
  }
  let closed = false;
  try {
    await closeOutputs(outputs, { output: outputPath, rejects: rejectsPath }, stages.writeError);
    closed = true;
  } finally {
    // Committed only if the output closed; otherwise this run's input lines count for nothing.
    await resumeLog?.close(closed, outputs.writer.documentsWritten, stages.interrupted).catch((error: unknown) => {
      throw new OutputError(`cannot write manifest: ${systemReason(error)}`, resumeLog.manifestPath, { cause: error });
    });
  }

  inputsFailed.push(...stages.unreadInputs.map(shownFailure));
  const summary = summarize({
    ...summaryOf,
    output: outputPath,
    model: cleaner.model,
    part: plan?.part ?? 0,
    progress: stages.progress,
    skipped: stages.skipped,
    interrupted: stages.interrupted,
  });
  summary.inputsCutShort = stages.cutShortInputs.map(shownFailure);
  if (siteTemplates !== null) summary.siteTemplates = siteTemplates.summary;
  if (dedup !== null) summary.duplicates = { ...dedup.found };
  if (options.corpus?.pii === true) summary.pii = { ...stages.pii };
  return summary;
}

/** Throws a UsageError for corpus options that cannot work together, or with the output asked for. */
function refuseUnusableCorpusOptions(options: CleanRunOptions, format: OutputFormat | null): void {
  if (options.markdown === true && (format === "text" || format === "markdown")) {
    throw new UsageError(
      `--markdown adds a field to JSONL, XML or Parquet; the ${format} format has no fields (use --format markdown for Markdown alone)`,
      "--markdown",
    );
  }
  if (options.links === true && format !== null && format !== "markdown" && options.markdown !== true) {
    throw new UsageError(
      "--links puts links and emphasis in Markdown: give --format markdown (or an .md output) or --markdown as well",
      "--links",
    );
  }
  const corpus = options.corpus;
  const langId = corpus?.langId === true;
  // Earlier parts' documents are not read again, so a resumed run could not know their duplicates.
  if (corpus?.dedup !== undefined && options.resume === true)
    throw new UsageError(
      "--dedup keeps its index in memory for one run, so it cannot be resumed: use winnow dedup over the parts",
      "--dedup",
    );
  if (!langId && (corpus?.langs?.length ?? 0) > 0)
    throw new UsageError("--langs needs language identification, which --no-lang-id turns off", "--langs");
  if (!langId && corpus?.minLangScore !== undefined) {
    throw new UsageError("--min-lang-score needs language identification, which --no-lang-id turns off", "--min-lang-score");
  }
  let fields: string[];
  try {
    fields = templateFields(options.output);
  } catch (error) {
    throw new UsageError((error as Error).message, `-o ${options.output}`);
  }
  if (fields.length === 0) return;
  if (fields.includes("lang") && !langId)
    throw new UsageError("{lang} in the output path needs language identification (drop --no-lang-id)", `-o ${options.output}`);
  if (options.resume === true)
    throw new UsageError(
      "--resume writes one output in parts, so the output path cannot hold fields such as {lang}",
      `-o ${options.output}`,
    );
  if (format === "text" && (options.output.endsWith("/") || options.output.endsWith(sep))) {
    throw new UsageError("an output path with fields names files, not a directory", `-o ${options.output}`);
  }
}

/** Throws when there is nothing the run can read, or the inputs cannot go with the options. */
function refuseUnusableInputs(files: readonly string[], inputsFailed: readonly InputFailure[], options: CleanRunOptions): void {
  if (files.length === 0) {
    if (inputsFailed.length === 1) throw new InputError(`cannot open input: ${inputsFailed[0].reason}`, inputsFailed[0].input);
    if (inputsFailed.length > 1) {
      throw new InputError("no input could be opened", inputsFailed.map((f) => `${f.input}: ${f.reason}`).join("; "));
    }
    throw new InputError("no archive or HTML files found", options.inputs.join(", "));
  }
  if (options.siteTemplates !== undefined && files.includes("-")) {
    throw new UsageError("site templates read the inputs twice, so standard input cannot be one", "-");
  }
}

/**
 * A plain run over an output that an earlier resumable run wrote in parts would leave both runs'
 * documents side by side: refuse, naming the files and the two ways on, or with --overwrite
 * remove them (with --resume too: the resumable run then starts again). What is removed is what
 * the manifest says its runs wrote, never a file found by its name alone, and never an input.
 */
async function settleEarlierRun(
  options: CleanRunOptions,
  manifestPath: string,
  inputs: readonly NamedPath[],
  logger: Logger,
): Promise<void> {
  if (options.output === "-" || templateFields(options.output).length > 0) return;
  const resume = options.resume === true;
  if (resume && options.overwrite !== true) return;
  const files = await earlierRunFiles(options.output, options.rejectsPath, manifestPath);
  if (files.length === 0) return;
  if (options.overwrite === true) {
    await refuseOutputsOverInputs(
      files.map((path) => ({ path, flag: "--overwrite would remove" })),
      inputs,
    );
    await removeEarlierRunFiles(files).catch((error: unknown) => {
      throw new OutputError(`cannot remove what an earlier run left: ${systemReason(error)}`, files.join(", "), { cause: error });
    });
    logger.info({ removed: files }, `removed what an earlier resumable run left (--overwrite): ${files.join(", ")}`);
    return;
  }
  throw new UsageError(
    `an earlier resumable run left ${files.join(", ")} beside ${options.output}; a plain run would mix its documents with theirs. ` +
      "Give --resume to go on with that run, or --overwrite to remove them and start again",
    `-o ${options.output}`,
  );
}

/**
 * Claims every path the run writes (see RunPaths): the output (each file a templated one can
 * expand to; a text folder as a whole), the rejects file and, resuming, the manifest.
 */
async function claimRunPaths(
  options: CleanRunOptions,
  format: OutputFormat | null,
  manifestPath: string,
  inputs: readonly NamedPath[],
): Promise<RunPaths> {
  const paths = new RunPaths(inputs);
  const output: NamedPath = { path: options.output, flag: "-o" };
  if (templateFields(options.output).length > 0) await paths.claimTemplate(output);
  else await paths.claim(output, { folder: format === "text" && (await isFolderOutput(options.output)) });
  if (options.rejectsPath !== undefined) await paths.claim({ path: options.rejectsPath, flag: "--rejects" });
  if (options.resume === true) await paths.claim({ path: manifestPath, flag: "--manifest" });
  return paths;
}

/** A text output that is a folder: one that is there, or a name ending in a separator. */
async function isFolderOutput(output: string): Promise<boolean> {
  if (output.endsWith("/") || output.endsWith(sep)) return true;
  return stat(output).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/**
 * Locks the run's outputs, so that a second run on them (a job submitted twice, a requeue
 * overlapping the old task) refuses instead of writing beside this one. A templated output is
 * locked as a whole: its fixed folder, keyed by the template.
 */
function lockRunOutputs(options: CleanRunOptions, manifestPath: string): Promise<() => Promise<void>> {
  const targets: LockTarget[] = [];
  if (templateFields(options.output).length > 0) {
    const fixed = options.output.slice(0, options.output.search(/\{/));
    const folder = fixed.endsWith("/") || fixed.endsWith(sep) || fixed === "" ? fixed || "." : dirname(fixed);
    const key = `template-${createHash("sha256").update(resolve(options.output)).digest("hex").slice(0, 12)}`;
    targets.push({ path: folder, what: "output", key });
  } else {
    targets.push({ path: options.output, what: "output" });
  }
  if (options.rejectsPath !== undefined) targets.push({ path: options.rejectsPath, what: "rejects file" });
  if (options.resume === true) targets.push({ path: manifestPath, what: "manifest" });
  return lockOutputs(targets, `clean -o ${options.output}`);
}

/** The files a run writes, for refuseOutputsOverInputs. */
function outputsOf(output: string, rejects: string | undefined, manifest: string | undefined): NamedPath[] {
  const outputs: NamedPath[] = [{ path: output, flag: "-o" }];
  if (rejects !== undefined) outputs.push({ path: rejects, flag: "--rejects" });
  if (manifest !== undefined) outputs.push({ path: manifest, flag: "--manifest" });
  return outputs;
}

/**
 * Temporary files that killed runs left beside this run's output and rejects, and, resuming,
 * beside every part up to this run's: a run killed mid-write (SIGKILL, a power cut) cannot
 * remove its own.
 */
async function removeStaleTempFilesOf(output: string, rejects: string | undefined, lastPart: number, logger: Logger): Promise<void> {
  for (const path of [output, rejects]) {
    if (path === undefined || path === "-") continue;
    for (let part = 1; part <= lastPart; part++) {
      for (const removed of await removeStaleTempFiles(partPath(path, part))) {
        logger.info({ path: removed }, `removed a temporary file an earlier run left (${removed})`);
      }
    }
  }
}

/** A failed input as the summary shows it: a URL without its secrets. */
function shownFailure(failure: InputFailure): InputFailure {
  return { ...failure, input: redactUrl(failure.input) };
}

/** "a.warc", "a.warc, b.warc and c.warc", "a.warc, b.warc, c.warc and 7 more". */
function namedInputs(inputs: readonly string[]): string {
  const names = inputs.map((input) => (input === "-" ? "standard input" : redactUrl(input)));
  if (names.length === 1) return names[0];
  if (names.length <= NAMED_INPUTS) return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `${names.slice(0, NAMED_INPUTS).join(", ")} and ${names.length - NAMED_INPUTS} more`;
}

/** What a resumable run's parts are made with (the compression goes with the output's name, the same in every part). */
function runSettings(options: CleanRunOptions, format: OutputFormat, model: ModelSpec): Promise<OutputSettings> {
  return outputSettings({ ...options, format, compression: null }, model);
}

async function planOrRefuse(
  options: CleanRunOptions,
  manifestPath: string,
  files: readonly string[],
  settings: OutputSettings,
  logger: Logger,
): Promise<ResumePlan> {
  // Like every written path: "-" refused, missing folders created, a file in the way reported.
  const manifest = await prepareOutput(manifestPath, MANIFEST_ROLE);
  if (manifest.kind !== "file") throw new OutputError("the manifest must be a regular file: it is appended to and read back", manifestPath);
  try {
    return await planResume(options.output, manifestPath, files, settings, logger);
  } catch (error) {
    if (error instanceof ResumeProblem) throw new UsageError(`cannot resume: ${error.message}`, manifestPath, { cause: error });
    throw new InputError(`cannot read the manifest: ${systemReason(error)}`, manifestPath, { cause: error });
  }
}

async function openResumeLog(plan: ResumePlan, outputs: RunOutputs, cleaner: PageCleaner): Promise<ResumeLog> {
  try {
    return await ResumeLog.open(plan);
  } catch (error) {
    await Promise.allSettled([discardOutputs(outputs), cleaner.destroy()]);
    throw new OutputError(`cannot create manifest: ${systemReason(error)}`, plan.manifestPath, { cause: error });
  }
}

/** The cleaner a run's options ask for, with `model` (options.model resolved), on `workers` threads (0: inline). */
export function openRunCleaner(
  options: Pick<CleanRunOptions, "favor" | "comments" | "links" | "metadata" | "corpus" | "workerModule">,
  model: ModelSpec,
  workers: number,
  logger: Logger,
): Promise<PageCleaner> {
  return openCleaner(
    { model, favor: options.favor, comments: options.comments, links: options.links, metadata: options.metadata, corpus: options.corpus },
    workers,
    options.workerModule,
    logger,
  );
}

/** A cleaner lent to a run: the run uses it but neither closes nor destroys it; its owner does. */
function borrowed(cleaner: PageCleaner): PageCleaner {
  return {
    model: cleaner.model,
    parallelism: cleaner.parallelism,
    clean: (records, siteTemplates) => cleaner.clean(records, siteTemplates),
    fingerprint: (records, keepParsed) => cleaner.fingerprint(records, keepParsed),
    close: async () => {},
    destroy: async () => {},
  };
}

async function openCleaner(
  settings: CleanerSettings,
  workers: number,
  workerModule: string | URL | undefined,
  logger: Logger,
): Promise<PageCleaner> {
  try {
    if (workers === 0) return await openInlineCleaner(settings);
    return await openPoolCleaner({
      threads: workers,
      settings,
      workerModule,
      onError: (error) => logger.error({ err: error }, `worker thread error: ${error.message}`),
    });
  } catch (error) {
    if (error instanceof WinnowError) throw error;
    throw new ModelError(`cannot load model: ${errorMessage(error)}`, settings.model, { cause: error });
  }
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be an integer >= 1, got ${value}`);
  return value;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
