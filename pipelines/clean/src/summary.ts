/**
 * What a run reports: live progress while it runs, and a summary when it ends (counts by skip
 * reason, throughput, CPU time and peak memory).
 */
import { SKIP_REASONS } from "@winnow/archive";
import { peakRssBytes } from "@winnow/remote";
import type { OutputFormat } from "@winnow/writers";
import type { ResumePlan } from "./resume.js";
import type { SiteTemplateSummary } from "./site-templates.js";

export interface CleanProgress {
  /** HTML records read from the inputs (records skipped by the reader are not counted). */
  recordsRead: number;
  /** Input bytes consumed, as stored (compressed bytes for .gz). */
  bytesRead: number;
  documentsWritten: number;
  /** Records that did not become a document, for any reason. */
  skipped: number;
}

/** Why a record did not become a document: the archive reader's reasons, then the cleaner's. */
export const CLEAN_SKIP_REASONS = [
  ...SKIP_REASONS,
  "no-text", // the page has no visible text
  "too-deep", // nested deeper than the segmenter's guard (MAX_NESTING): cut off there, so not written in part
  "decode-error", // the page could not be decoded or segmented
  "failed", // the classifier or its worker failed on the batch
  "empty-after-cleaning", // every block was scored boilerplate
  "language", // not in --langs, or scored below --min-lang-score (the rejects line names the rule and value)
  "filter", // failed a rule of --filters (the rejects line names the first rule failed and its value)
  "duplicate", // with --dedup: the same (or, with minhash, nearly the same) text as a document written before it
] as const;

export type CleanSkipReason = (typeof CLEAN_SKIP_REASONS)[number];

/**
 * Skips that are what a crawl holds besides pages, not failures: a WARC's warcinfo, request,
 * metadata and revisit records, redirects and error statuses, images and scripts. Counted in the
 * summary; written to --rejects only with --rejects-all, since on a real crawl they are about as
 * many as the documents.
 */
export const ROUTINE_SKIP_REASONS: ReadonlySet<CleanSkipReason> = new Set(["not-response", "http-status", "not-html"]);

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
  /** Inputs whose reading failed part way (a remote one that stayed down): what came before was cleaned. */
  inputsCutShort: InputFailure[];
  recordsRead: number;
  bytesRead: number;
  documentsWritten: number;
  /** Every reason is present, most at 0. */
  skipped: Record<CleanSkipReason, number>;
  /** The file written: the output, or the part a resumable run wrote. */
  output: string;
  format: OutputFormat;
  /** The classifier's name: "heuristic", a shipped model's name or the model path. */
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
  /** With --dedup: the "duplicate" skips by kind. */
  duplicates?: { exact: number; near: number };
  /** With --pii: addresses masked in the documents written, and how many documents held one. */
  pii?: PiiSummary;
}

export interface PiiSummary {
  documents: number;
  emails: number;
  ips: number;
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

/** Every skip reason at 0. */
export function noSkips(): Record<CleanSkipReason, number> {
  return Object.fromEntries(CLEAN_SKIP_REASONS.map((r) => [r, 0])) as Record<CleanSkipReason, number>;
}

export interface SummaryParts {
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
  /** What the stages counted; absent when there was nothing to read. */
  progress?: CleanProgress;
  skipped?: Record<CleanSkipReason, number>;
  interrupted?: boolean;
}

export function summarize(p: SummaryParts): CleanRunSummary {
  const elapsedSeconds = (performance.now() - p.startTime) / 1000;
  const cpu = process.cpuUsage(p.startCpu);
  const documentsWritten = p.progress?.documentsWritten ?? 0;
  const summary: CleanRunSummary = {
    inputs: p.inputs,
    inputsFailed: p.inputsFailed,
    inputsCutShort: [],
    recordsRead: p.progress?.recordsRead ?? 0,
    bytesRead: p.progress?.bytesRead ?? 0,
    documentsWritten,
    skipped: p.skipped ?? noSkips(),
    output: p.output,
    format: p.format,
    model: p.model,
    workers: p.workers,
    elapsedSeconds,
    documentsPerSecond: elapsedSeconds > 0 ? documentsWritten / elapsedSeconds : 0,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakRssBytes: peakRssBytes(),
    interrupted: p.interrupted ?? false,
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
