/**
 * `winnow clean`: flags in, runClean, a one-line report and an exit status out. All the work is
 * in @winnow/clean; this file only translates.
 */
import { availableParallelism } from "node:os";
import { type Command, InvalidArgumentError, Option } from "commander";
import { DEFAULT_MAX_PAGE_BYTES } from "@winnow/archive";
import {
  type CleanRunSummary,
  checkPerInputRun,
  DEFAULT_BATCH_SIZE,
  DEFAULT_TEMPLATE_KEEP_SCORE,
  isLanguageLabel,
  maxWorkers,
  nearestLanguageLabels,
  runClean,
  runCleanPerInput,
  SITE_TEMPLATE_MODES,
  type SiteTemplateMode,
} from "@winnow/clean";
import { EXIT, InputError, UsageError } from "@winnow/errors";
import { FILTER_NAMES } from "@winnow/filters";
import { NODE_V8_POOL_SIZE, v8PoolSizeFor, v8PoolSizeGiven } from "@winnow/launch/resources";
import type { Favor } from "@winnow/models";
import { DEFAULT_RETRY, isRemote, redactUrl, remoteOpener } from "@winnow/remote";
import type { OutputFormat } from "@winnow/writers";
import { EXIT_CODES_HELP, ExitWith } from "../exit-codes.js";
import {
  addPerInputOptions,
  compressionOf,
  isPerInput,
  PER_INPUT_HELP,
  type PerInputFlags,
  perInputSummaryLine,
} from "./clean-per-input.js";
import { interruptOnSignals } from "../signals.js";
import { filterConfigOf } from "./filter-config.js";
import { parseFilters } from "./filter-names.js";
import type { Logger } from "pino";
import { createLogger, LOG_LEVELS, type LogLevel } from "../logger.js";
import { parseByteSize, parseCount, parseUnitInterval } from "../parse.js";

/** What the first Ctrl-C does to a clean run. */
const STOPPING = "stopping; finishing the pages already read (send it again to quit at once, without finishing the output)";

export interface CleanFlags extends PerInputFlags {
  output: string;
  format?: OutputFormat;
  markdown?: boolean;
  links?: boolean;
  /** false with --no-metadata. */
  metadata: boolean;
  model?: string;
  favor: Favor;
  comments?: boolean;
  models?: string;
  workers: number;
  batchSize: number;
  maxPageBytes: number;
  rejects?: string;
  rejectsAll?: boolean;
  overwrite?: boolean;
  unordered?: boolean;
  resume?: boolean;
  manifest?: string;
  siteTemplates?: boolean;
  siteTemplatesMode: SiteTemplateMode;
  templateMinPairs: number;
  nearDuplicateIou: number;
  templateKeepScore: number;
  logLevel: LogLevel;
  progress: boolean;
  langId: boolean;
  langs?: string[];
  minLangScore?: number;
  /** The names given to --filters, checked. */
  filters?: string[];
  filterConfig?: string;
  pii?: boolean;
  stats?: boolean;
  keepFiltered?: boolean;
  dedup?: "exact" | "minhash";
}

const RESUME_HELP = `
Resuming (--resume):
  Run the same command with --resume from the start, and again after an interruption (SIGINT,
  a crash, a full disk). Each run writes its own part of the output, renamed into place when the
  run ends: the first run writes the output itself (out.jsonl), the next out.part2.jsonl, then
  out.part3.jsonl, ... The manifest (default <output>.manifest, JSON lines, fsynced as each
  input is done) says which inputs each part holds. A resumed run skips inputs read to the end,
  reads on past the records already handled in an input that was cut short, and warns when an
  input changed size or mtime since. A run that crashed or failed counts for nothing: its inputs
  are read again and its part, if any, is replaced. Together the parts hold every document
  exactly once. The --rejects file is split into parts the same way (rejects.part2.jsonl, ...).
  A run without --resume over such an output refuses, naming the manifest and parts: give
  --resume to go on with that run, or --overwrite to remove them and start again.`;

const SITE_TEMPLATES_HELP = `
Site templates (--site-templates):
  Pass one reads every input and fingerprints each page's div, nav, header, footer, aside,
  section, ul, ol, table and form subtrees (tag structure and text, no attributes). The pages of
  each host are sorted by URL and each is compared with the next: subtrees a pair shares are the
  host's template, unless the pair shares more than --near-duplicate-iou of them (a duplicate
  page). Pass two cleans as usual and also drops blocks inside template subtrees that the
  classifier scored below --template-keep-score. The heuristic scores 0 or 1, so with it only a
  keep score above 1 drops anything. Standard input cannot be used (it is read twice).`;

const CORPUS_HELP = `
Corpus steps (docs/corpus.md):
  After scoring, each document's language is identified (fastText lid.176, offline; --no-lang-id
  turns it off) and written as lang and lang_score. --langs and --min-lang-score drop documents
  as "language" skips; --filters gopher,c4,fineweb_quality applies those rule sets with their
  published thresholds, --filters fineweb FineWeb's whole recipe (Gopher, C4 without its
  terminal-punctuation line rule, FineWeb's rules; FineWeb 2's thresholds for zh, ja, tr, ar),
  and drops failing documents as "filter" skips. --filter-config FILE sets any threshold or
  switch, by datatrove's names (docs/corpus.md). --rejects names the first rule failed and its
  value; --keep-filtered writes them instead, with filter_failed. --stats adds each document's
  counts and every rule's value. --pii masks e-mail addresses (email@example.com) and public IP
  addresses (192.0.2.1, 2001:db8::1) after the filters. The output may be Parquet (.parquet),
  zstd (.zst) and templated by language: -o 'out/{lang}/part.jsonl.gz'.`;

/** "en,de" → ["en", "de"]. */
function parseLangs(value: string): string[] {
  const langs = value
    .split(",")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  if (langs.length === 0 || langs.some((l) => !/^[a-z]{2,3}$/i.test(l))) {
    throw new InvalidArgumentError("expected language codes separated by commas, such as en,de,zh");
  }
  // A code the language model never gives would drop every document: refuse it, naming the nearest.
  const unknown = langs.filter((l) => !isLanguageLabel(l));
  if (unknown.length > 0) {
    const hints = unknown.map((l) => {
      const near = nearestLanguageLabels(l);
      return near.length > 0 ? `${l} (did you mean ${near.join(" or ")}?)` : l;
    });
    throw new InvalidArgumentError(
      `${hints.join(", ")}: not a label of the language model (lid.176 gives ISO 639-1 codes where there is one, such as en, de, zh; ISO 639-3 otherwise, such as ceb)`,
    );
  }
  return langs.map((l) => l.toLowerCase());
}

/** A number in (0, 1]. */
function parseFraction(value: string): number {
  const x = Number(value);
  if (!(x > 0 && x <= 1)) throw new InvalidArgumentError("expected a number above 0 and at most 1");
  return x;
}

/** A number >= 0. */
function parseScore(value: string): number {
  const x = value.trim() === "" ? NaN : Number(value);
  if (!(x >= 0) || !Number.isFinite(x)) throw new InvalidArgumentError("expected a number >= 0");
  return x;
}

export function registerClean(program: Command): void {
  const command = program
    .command("clean")
    .summary("extract the main text of web pages in archives into a corpus")
    .description(
      "Read WARC/ARC archives (plain or .gz) and HTML files, keep the main-content blocks of each HTML page, " +
        "and write them as one corpus. Damaged records are skipped and counted; reading goes on.",
    )
    .argument(
      "[input...]",
      'WARC/ARC files, HTML files, directories of them (searched recursively), "-" for standard input, or http(s):// and s3:// URLs; none with --paths-file',
    )
    .requiredOption(
      "-o, --output <path>",
      'output file, "-" for standard output, or a directory (text format: one file per document and index.jsonl naming each file\'s url and id; ' +
        "a folder that is not empty is refused unless --overwrite); a name ending in .gz is gzip-compressed, .zst zstd-compressed; " +
        "{lang} in the path writes one file per language (out/{lang}/part.jsonl.gz). " +
        "A file is written under a temporary name and renamed over the old one when complete; a device or FIFO is written into; " +
        "a symbolic link's target is written, not the link; missing folders are created; no output may be an input or another output (exit 2); " +
        "each output is locked while written, and a second run on it refuses (exit 75). " +
        "With one output per input (--paths-file, --rank, --per-input): the folder the outputs go in, or s3://bucket/prefix/",
    )
    .addOption(
      new Option(
        "--format <format>",
        "output format (default: from the output name: .parquet → parquet, .jsonl → jsonl, .xml → xml, .md → markdown, .txt or a directory → text, also with .gz or .zst; standard output → jsonl; any other name is refused). " +
          'The text stream starts each document with a header line {"url":…,"id":…} and ends it with a form-feed line',
      ).choices(["jsonl", "xml", "text", "markdown", "parquet"]),
    )
    .option(
      "--markdown",
      "JSONL, XML and Parquet: add a markdown field with each document as Markdown (headings, lists, pipe tables, fenced code) beside its text",
    )
    .option(
      "--links",
      "Markdown (--format markdown, an .md output, or --markdown): keep links as [text](url), resolved against the page's URL, and emphasis as *em*, **strong** and `code`",
    )
    .option(
      "--no-metadata",
      "write no page metadata (author, date, date_modified, sitename, description, canonical_url, categories, tags, declared_lang): the segmenter then does not collect it, which saves about 3% of the CPU",
    )
    .option(
      "--model <model>",
      '"heuristic", "mlp" or "bilstm" (the models shipped with winnow; the bilstm, slower, scores as the mlp on the shared sets it was trained on and is level with it on sets it never saw: left out of them, one member each, mean F1 0.888 against 0.882 at the thresholds of the folds and 0.883 both at one threshold, with more recall and less precision: experiments/results/2026-11-27-bilstm-loso.md, docs/quality.md), or a model file made by winnow train (default: mlp, or the heuristic with a warning when it is not installed); a folder of per-host models goes to --models',
    )
    .addOption(
      new Option(
        "--favor <point>",
        "the model's operating point: precision keeps less (F0.5 best on held-out pages), recall keeps more (F2 best), balanced (F1 best) is the default. A model without operating points (the heuristic, a model file trained before 2026-11-26) has one threshold: precision and recall are refused for it (exit 2)",
      )
        .choices(["precision", "balanced", "recall"])
        .default("balanced"),
    )
    .option(
      "--comments",
      "give each document its user comments (what the model's comment head and the page's comment markup call so), in a separate comments field (JSONL) or <comments> element (XML); they are never in the main text. Models without a comment head give none",
    )
    .addOption(
      new Option(
        "--models <dir>",
        "a folder made by winnow train --per-host: each page is scored by its host's model (host from the record's URL), others by the general model",
      ).conflicts("model"),
    )
    .addOption(
      new Option("--workers <n>", `worker threads cleaning pages; 0 cleans on the main thread; at most ${maxWorkers()} (4 per CPU)`)
        .argParser(parseCount(0, maxWorkers()))
        .default(availableParallelism(), `the number of CPUs, ${availableParallelism()} here`),
    )
    .option("--batch-size <n>", "pages handed to a worker thread at a time", parseCount(1), DEFAULT_BATCH_SIZE)
    .addOption(
      new Option("--max-page-bytes <n>", "skip pages whose payload is larger than this (suffixes K, M, G: powers of 1024)")
        .argParser(parseByteSize)
        .default(DEFAULT_MAX_PAGE_BYTES, `${DEFAULT_MAX_PAGE_BYTES >> 20}M`),
    )
    .option(
      "--rejects <file>",
      "also write one JSON line per record that failed to become a document: {source, offset, record_id, url, reason, detail} " +
        "(offset: the record's byte offset in the input as stored, -1 inside a whole-file gzip; docs/clean.md#rejects lists the reasons). " +
        'Routine records (not-response, http-status, not-html) are only counted, unless --rejects-all; "-" for standard output (not with -o - or --resume); with one output per input, a folder of <name>.rejects.jsonl files',
    )
    .option(
      "--rejects-all",
      "also write routine records to --rejects: WARC records other than responses, statuses outside 2xx, content that is not HTML",
    )
    .option("--unordered", "write documents as they are done instead of in input order (keeps all threads busy when page sizes vary)")
    .option(
      "--resume",
      "make the run resumable, or resume it: skip inputs done by earlier runs and write a new output part (see Resuming below; needs an output file, and inputs other than standard input)",
    )
    .option(
      "--overwrite",
      "replace what an earlier run left at the output, as its own records list it: the manifest and the parts it names of a --resume run (with --resume: start it again), " +
        "the documents a text folder's index.jsonl lists, and the index. Nothing else is removed, and never an input. Without it a run refuses to write beside them",
    )
    .option("--manifest <file>", "the manifest of a --resume run, a regular file (default: <output>.manifest)")
    .option(
      "--site-templates",
      "read the inputs twice: find each host's site template (subtrees its URL-neighbour pages share), then drop the blocks in it (see Site templates below); takes no value, so it may stand before the inputs",
    )
    .addOption(
      new Option(
        "--site-templates-mode <mode>",
        "memory: keep only fingerprints between the passes and parse again; performance: also keep every parsed page (for small inputs)",
      )
        .choices(SITE_TEMPLATE_MODES)
        .default("memory"),
    )
    .option("--template-min-pairs <n>", "a subtree is template when at least this many neighbouring page pairs share it", parseCount(1), 1)
    .option(
      "--near-duplicate-iou <x>",
      "a page pair sharing more than this fraction of its subtrees (intersection over union) is a duplicate, not compared",
      parseFraction,
      0.9,
    )
    .option(
      "--template-keep-score <x>",
      "keep template blocks the classifier scores at least this high; above 1 drops them all",
      parseScore,
      DEFAULT_TEMPLATE_KEEP_SCORE,
    )
    .addOption(
      new Option(
        "--log-level <level>",
        "how much to log on stderr: JSON lines unless stderr is a terminal; the closing summary line shows at info and more verbose levels",
      )
        .choices(LOG_LEVELS)
        .default("info"),
    )
    .option("--no-progress", "hide the progress line (shown only when stderr is a terminal)")
    .option("--no-lang-id", "do not identify each document's language (no lang and lang_score fields)")
    .option(
      "--langs <codes>",
      "keep only documents in these languages, such as en,de (lid.176's codes: ISO 639-1 where there is one)",
      parseLangs,
    )
    .option("--min-lang-score <x>", "keep only documents whose language score is at least this (0 to 1)", parseUnitInterval)
    .option(
      "--filters <sets>",
      `quality rule sets that drop documents, in any order: ${FILTER_NAMES.join(", ")} (gopher is gopher_quality and gopher_repetition; fineweb is FineWeb's whole recipe; default none)`,
      parseFilters,
    )
    .option(
      "--filter-config <file>",
      "YAML or JSON file of filter thresholds and switches, by datatrove's names (docs/corpus.md); its filters: list names the sets unless --filters does",
    )
    .option("--pii", "mask e-mail addresses and public IP addresses in the text and Markdown (counted in the summary)")
    .option("--stats", "add each document's statistics: word, line and character counts and every rule's value")
    .option(
      "--keep-filtered",
      "write documents that fail --filters, --langs or --min-lang-score, with the rules they failed (filter_failed), instead of dropping them",
    )
    .addOption(
      new Option(
        "--dedup <mode>",
        'drop documents whose text repeats one written before them, as "duplicate" skips naming the document kept: exact (same text once case, accents, punctuation, digits and spacing are folded) or minhash (also near duplicates: MinHash LSH, 14 bands x 8 rows, estimated Jaccard at least 0.7). One pass in memory (about 150 bytes a document); not with --resume; for many files or machines use winnow dedup',
      ).choices(["exact", "minhash"]),
    )
    .addHelpText("after", `${CORPUS_HELP}\n${RESUME_HELP}\n${SITE_TEMPLATES_HELP}\n${PER_INPUT_HELP}\n${EXIT_CODES_HELP}`);
  addPerInputOptions(command).action((inputs: string[], flags: CleanFlags) =>
    isPerInput(flags) ? cleanPerInput(inputs, flags) : clean(inputs, flags),
  );
}

/** What a run of either kind is given besides its inputs and outputs. */
async function runSettings(flags: CleanFlags) {
  const filterConfig = await filterConfigOf(flags);
  return {
    markdown: flags.markdown === true,
    links: flags.links === true,
    metadata: flags.metadata !== false,
    model: flags.models ?? flags.model,
    favor: flags.favor,
    comments: flags.comments === true,
    workers: flags.workers,
    batchSize: flags.batchSize,
    maxPageBytes: flags.maxPageBytes,
    unordered: flags.unordered === true,
    siteTemplates:
      flags.siteTemplates !== true
        ? undefined
        : {
            mode: flags.siteTemplatesMode,
            minSharedPairs: flags.templateMinPairs,
            nearDuplicateIoU: flags.nearDuplicateIou,
            keepScore: flags.templateKeepScore,
          },
    corpus: {
      langId: flags.langId,
      langs: flags.langs,
      minLangScore: flags.minLangScore,
      filters: filterConfig?.sets ?? [],
      filterConfig,
      pii: flags.pii === true,
      stats: flags.stats === true,
      keepFiltered: flags.keepFiltered === true,
      dedup: flags.dedup,
    },
  };
}

/**
 * What a per-input run refuses before it reads any input; `winnow launch` makes the same checks
 * on the flags it will pass to every task, before it writes the job.
 */
export async function checkPerInputFlags(inputs: readonly string[], flags: CleanFlags): Promise<void> {
  if (flags.resume === true || flags.manifest !== undefined) {
    throw new UsageError("one output per input is resumed by its done markers: --resume and --manifest do not apply", "--resume");
  }
  if (flags.pathsFile === undefined && inputs.length === 0) throw new UsageError("no inputs: give them, or --paths-file", "clean");
  if (flags.baseUrl !== undefined && flags.pathsFile === undefined) throw new UsageError("--base-url goes with --paths-file", "--base-url");
  checkPerInputRun({
    outputDir: flags.output,
    rejectsDir: flags.rejects,
    corpus: (await runSettings(flags)).corpus,
    format: flags.format ?? "jsonl",
    compression: compressionOf(flags),
  });
}

/** A task of a sharded run: one output per input, into the -o folder. */
/**
 * Node starts 4 V8 platform threads for all of a process's worker threads, and a running process
 * cannot add any (@winnow/launch's resources.ts has the measurement, and its job scripts set
 * them): above 8 workers, a run started without them says how to give one per worker.
 */
export function noteV8Pool(logger: Logger, workers: number): void {
  const wanted = v8PoolSizeFor(workers);
  if (wanted === undefined || v8PoolSizeGiven(process.execArgv, process.env.NODE_OPTIONS) !== undefined) return;
  logger.info(
    `${workers} worker threads share Node's ${NODE_V8_POOL_SIZE} V8 background threads: start winnow with ` +
      `NODE_OPTIONS=--v8-pool-size=${wanted} for one each (measured at 16 workers: 1.06x the pages a second; docs/speed.md)`,
  );
}

async function cleanPerInput(inputs: string[], flags: CleanFlags): Promise<void> {
  await checkPerInputFlags(inputs, flags);
  const logger = createLogger(flags.logLevel);
  noteV8Pool(logger, flags.workers);
  const interrupt = interruptOnSignals(logger, STOPPING);
  let summary: Awaited<ReturnType<typeof runCleanPerInput>>;
  try {
    summary = await runCleanPerInput({
      ...(await runSettings(flags)),
      inputs,
      pathsFile: flags.pathsFile,
      baseUrl: flags.baseUrl,
      shard: { rank: flags.rank, worldSize: flags.worldSize },
      outputDir: flags.output,
      format: flags.format ?? "jsonl",
      compression: compressionOf(flags),
      rejectsDir: flags.rejects,
      skipDone: flags.skipDone,
      retry: { ...DEFAULT_RETRY, tries: flags.retries, baseDelayMs: flags.retryDelay },
      readTimeoutMs: flags.readTimeout * 1000,
      s3Endpoint: flags.s3Endpoint,
      logger,
      signal: interrupt.signal,
    });
  } finally {
    interrupt.dispose();
  }
  // Once, in the stream's one format, as for a single-output run.
  logger.info({ summary }, perInputSummaryLine(summary));
  if (summary.interrupted) throw new ExitWith(EXIT.interrupted);
  if (summary.failed.length > 0) {
    throw new InputError(
      `${summary.failed.length} of ${summary.assigned} inputs could not be read; run the task again to retry them`,
      summary.failed.map((f) => `${f.input}: ${f.reason}`).join("; "),
    );
  }
}

async function clean(inputs: string[], flags: CleanFlags): Promise<void> {
  if (inputs.length === 0) throw new UsageError("no inputs: give files, folders, or - for standard input (or --paths-file)", "clean");
  const logger = createLogger(flags.logLevel);
  noteV8Pool(logger, flags.workers);
  // cli-progress is loaded only for a terminal: a run writing to a log or a pipe never draws the line.
  const progress = flags.progress && process.stderr.isTTY ? (await import("../progress.js")).startProgressLine() : undefined;
  if (flags.rejectsAll === true && flags.rejects === undefined) throw new UsageError("--rejects-all needs --rejects FILE", "--rejects-all");
  const interrupt = interruptOnSignals(logger, STOPPING);
  let summary: CleanRunSummary;
  try {
    summary = await runClean({
      ...(await runSettings(flags)),
      inputs,
      output: flags.output,
      format: flags.format,
      rejectsPath: flags.rejects,
      rejectsAll: flags.rejectsAll === true,
      resume: flags.resume === true,
      overwrite: flags.overwrite === true,
      manifestPath: flags.manifest,
      open: remoteOpener(
        {
          retry: { ...DEFAULT_RETRY, tries: flags.retries, baseDelayMs: flags.retryDelay },
          readTimeoutMs: flags.readTimeout * 1000,
          onRetry: (what, attempt, delayMs, input) =>
            logger.warn({ input: redactUrl(input) }, `${what}: try ${attempt + 1} in ${Math.round(delayMs)} ms (${redactUrl(input)})`),
        },
        { endpoint: flags.s3Endpoint },
      ),
      logger,
      onProgress: progress?.update,
      signal: interrupt.signal,
    });
  } finally {
    progress?.stop();
    interrupt.dispose();
  }

  // Once, in the stream's one format: a JSON line with the summary's fields, or a line for people.
  logger.info({ summary }, summaryLine(summary));
  if (summary.interrupted) throw new ExitWith(EXIT.interrupted);
  if (summary.inputs === 1 && summary.inputsFailed.length === 1) {
    const [failed] = summary.inputsFailed;
    throw new InputError(`cannot read input: ${failed.reason}`, failed.input);
  }
  if (summary.inputsFailed.length === summary.inputs) {
    throw new InputError("nothing could be read from the inputs", summary.inputsFailed.map((f) => f.input).join(", "));
  }
  // What came before the cut is written, but the corpus lacks the rest: a batch job must see a failure and run it again.
  if (summary.inputsCutShort.length > 0) {
    throw new InputError(
      `${summary.inputsCutShort.length} of ${summary.inputs} inputs were cut short, so the output lacks their end; run again to read them whole`,
      summary.inputsCutShort.map((f) => `${f.input}: ${f.reason}`).join("; "),
    );
  }
  // A local file that cannot be opened is the user's to fix and the others are cleaned; a remote one
  // given up after its retries is passing trouble, and a batch job must see it to run the task again.
  const remoteFailed = summary.inputsFailed.filter((f) => isRemote(f.input));
  if (remoteFailed.length > 0) {
    throw new InputError(
      `${remoteFailed.length} of ${summary.inputs} inputs could not be read, so the output lacks them; run again to read them`,
      remoteFailed.map((f) => `${f.input}: ${f.reason}`).join("; "),
    );
  }
}

/** "wrote 5 documents to out.jsonl from 5 records in 0.8 s (6 docs/s, ...); skipped 16: ..." */
function summaryLine(s: CleanRunSummary): string {
  const skips = Object.entries(s.skipped)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${n} ${reason}`);
  const skipped = skips.length === 0 ? "none skipped" : `skipped ${total(s.skipped)} (${skips.join(", ")})`;
  const failed = s.inputsFailed.length > 0 ? `; ${s.inputsFailed.length} of ${s.inputs} inputs unreadable` : "";
  const cut = s.inputsCutShort.length > 0 ? `; ${s.inputsCutShort.length} of ${s.inputs} inputs cut short` : "";
  if (s.resume?.part === 0)
    return `nothing left to do: earlier runs read all ${plural(s.inputs - s.inputsFailed.length, "input")} (manifest ${s.resume.manifest})`;
  const resumed =
    s.resume !== undefined && (s.resume.inputsDone > 0 || s.resume.recordsPassedOver > 0)
      ? `; resumed: ${plural(s.resume.inputsDone, "input")} done before, ${plural(s.resume.recordsPassedOver, "record")} passed over`
      : "";
  return (
    `${s.interrupted ? "interrupted: " : ""}wrote ${plural(s.documentsWritten, "document")} (${s.format}) to ${s.output} ` +
    `from ${plural(s.recordsRead, "HTML record")}, ${(s.bytesRead / 1e6).toFixed(1)} MB read; ${skipped}${failed}${cut}${resumed}; ` +
    `${s.elapsedSeconds.toFixed(1)} s, ${s.documentsPerSecond.toFixed(0)} docs/s, ` +
    `${s.cpuSeconds.toFixed(1)} CPU s, peak RSS ${(s.peakRssBytes / 1e6).toFixed(0)} MB, ` +
    `model ${s.model}, ${s.workers === 0 ? "inline" : plural(s.workers, "worker")}` +
    (s.siteTemplates === undefined
      ? ""
      : `; site templates (${s.siteTemplates.mode}): ${plural(s.siteTemplates.hostsWithTemplate, "host")} with one, pass one ${s.siteTemplates.fitSeconds.toFixed(1)} s` +
        siteTemplateFailures(s.siteTemplates)) +
    (s.duplicates === undefined ? "" : `; duplicates: ${s.duplicates.exact} exact, ${s.duplicates.near} near`) +
    (s.pii === undefined
      ? ""
      : `; PII masked: ${s.pii.emails} e-mail address${s.pii.emails === 1 ? "" : "es"}, ${s.pii.ips} IP address${s.pii.ips === 1 ? "" : "es"} in ${plural(s.pii.documents, "document")}`)
  );
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** What went wrong in pass one of --site-templates, when something did: its templates come from fewer pages. */
function siteTemplateFailures(s: { fingerprintFailures: number; unreadInputs: number }): string {
  const parts: string[] = [];
  if (s.fingerprintFailures > 0) parts.push(`${plural(s.fingerprintFailures, "page")} not fingerprinted`);
  if (s.unreadInputs > 0) parts.push(`${plural(s.unreadInputs, "input")} unread`);
  return parts.length === 0 ? "" : ` (${parts.join(", ")})`;
}

function total(counts: Record<string, number>): number {
  let n = 0;
  for (const k in counts) n += counts[k];
  return n;
}
