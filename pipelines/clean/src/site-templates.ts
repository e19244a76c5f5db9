/**
 * Site templates in a cleaning run (--site-templates): two passes over the inputs.
 *
 * Pass one (fit) reads every input, has the workers segment each page with subtree fingerprints
 * on, and collects each page's fingerprints by host on the main thread; then each host's
 * template is found (@winnow/templates). Pass two (transform) is the ordinary run, with each
 * batch carrying its hosts' templates so the workers drop template blocks.
 *
 * Modes, as in deboiler: "memory" keeps only fingerprints between the passes and parses every
 * page again in pass two; "performance" also keeps every parsed page (main-thread memory grows
 * with the input: for small inputs), so pass two neither decodes nor parses. Pass two still
 * reads the archives again, for the records' metadata and in-order writing.
 */
import { type ArchiveRecord, type InputOpener, readRecords } from "@winnow/archive";
import { SiteTemplateFitter, type SiteTemplateOptions, type SiteTemplates } from "@winnow/templates";
import { errorMessage } from "@winnow/errors";
import type { Logger } from "pino";
import { Slots } from "./flow.js";
import type { PageCleaner } from "./pool.js";
import type { ParsedPage, SiteTemplateBatch } from "./site-templates-batch.js";
import { MAX_BATCH_BYTES } from "./stages.js";

export type SiteTemplateMode = "memory" | "performance";
export const SITE_TEMPLATE_MODES: readonly SiteTemplateMode[] = ["memory", "performance"];

/**
 * Template blocks the classifier scores at least this high are kept. On the WCXB dev pages of
 * multi-page domains (5-fold CV MLP) this turned the rule from +0.1 to +0.3 points of word F1
 * and halved the pages it made worse (docs/site-templates.md).
 */
export const DEFAULT_TEMPLATE_KEEP_SCORE = 0.9;

export interface SiteTemplateRunOptions extends SiteTemplateOptions {
  /** Default "memory". */
  mode?: SiteTemplateMode;
  /** Default DEFAULT_TEMPLATE_KEEP_SCORE; above 1 drops every template block. */
  keepScore?: number;
}

/** What pass one found, for the run summary. */
export interface SiteTemplateSummary {
  mode: SiteTemplateMode;
  /** Pages fingerprinted in pass one that have a host. */
  pages: number;
  /** Hosts with a template, and the template fingerprints they hold in all. */
  hostsWithTemplate: number;
  templateFingerprints: number;
  pairsCompared: number;
  nearDuplicates: number;
  /** Fingerprints held between reading and fitting (8 bytes each). */
  fingerprintsHeld: number;
  /** Pages whose fingerprinting failed (a worker died or threw): they count toward no template. */
  fingerprintFailures: number;
  /** Inputs pass one could not open or read to the end (pass two reports what it then makes of them). */
  unreadInputs: number;
  /** Wall time of pass one and the fit. */
  fitSeconds: number;
}

export interface SiteTemplateFit {
  templates: SiteTemplates;
  /** Performance mode: pass one's parsed pages, by record key; taken out as pass two uses them. */
  parsed: Map<string, ParsedPage> | null;
  keepScore: number;
  summary: SiteTemplateSummary;
}

export interface FitContext {
  batchSize: number;
  maxPageBytes: number | undefined;
  /** Opens remote inputs; local files when absent. */
  open?: InputOpener;
  /** Batches of pass one in flight at once. */
  inFlight: number;
  signal: AbortSignal | undefined;
  logger: Logger;
}

const recordKey = (record: { source: string; offset: number }): string => `${record.offset}\u0000${record.source}`;

/**
 * Pass one over `files`: fingerprints by host, then each host's template. Records the reader
 * skips are left to pass two to count and report. An input that cannot be read, and a batch
 * whose fingerprinting fails, are logged (one line each) and counted in the summary: the
 * templates are then found from fewer pages, which the summary has to say.
 */
export async function fitSiteTemplates(
  files: readonly string[],
  cleaner: PageCleaner,
  options: SiteTemplateRunOptions,
  context: FitContext,
): Promise<SiteTemplateFit> {
  const started = performance.now();
  const mode = options.mode ?? "memory";
  const keepParsed = mode === "performance";
  const fitter = new SiteTemplateFitter(options);
  const parsed = keepParsed ? new Map<string, ParsedPage>() : null;
  const slots = new Slots(context.inFlight);
  const running = new Set<Promise<void>>();
  const stopped = (): boolean => context.signal?.aborted === true;
  let fingerprintFailures = 0;
  let unreadInputs = 0;

  const dispatch = async (batch: ArchiveRecord[], file: string): Promise<void> => {
    const wait = slots.acquire();
    if (wait) await wait;
    const urls = batch.map((r) => r.url);
    const keys = parsed === null ? null : batch.map(recordKey);
    const done = cleaner.fingerprint(batch, keepParsed).then((pages) => {
      const failed = pages.filter((p) => p.failed !== undefined);
      if (failed.length > 0) {
        fingerprintFailures += failed.length;
        context.logger.warn(
          `site templates: fingerprinting ${failed.length} page${failed.length === 1 ? "" : "s"} failed, left out of the templates: ${failed[0].failed} (${file}, from ${urls[0]})`,
        );
      }
      for (let i = 0; i < pages.length; i++) {
        const fingerprints = pages[i].fingerprints;
        if (fingerprints !== null) fitter.add(urls[i], fingerprints);
        const page = pages[i].parsed;
        if (parsed !== null && keys !== null && page !== undefined) parsed.set(keys[i], page);
      }
      slots.release();
      running.delete(done);
    });
    running.add(done);
  };

  for (const file of files) {
    if (stopped()) break;
    let batch: ArchiveRecord[] = [];
    let batchBytes = 0;
    try {
      for await (const record of readRecords(file, { maxPageBytes: context.maxPageBytes, open: context.open })) {
        batch.push(record);
        batchBytes += record.body.byteLength;
        if (batch.length === context.batchSize || batchBytes >= MAX_BATCH_BYTES) {
          await dispatch(batch, file);
          batch = [];
          batchBytes = 0;
        }
        if (stopped()) break;
      }
    } catch (error) {
      // Pass two reads it again and reports what it makes of it (skipped, or the run's error).
      unreadInputs++;
      context.logger.warn(`site templates: pass one cannot read ${errorMessage(error)} (${file})`);
    }
    if (batch.length > 0) await dispatch(batch, file);
  }
  await Promise.all(running);

  const templates = fitter.fit();
  let templateFingerprints = 0,
    pairsCompared = 0,
    nearDuplicates = 0,
    hostsWithTemplate = 0;
  for (const host of templates.hosts()) {
    templateFingerprints += host.fingerprints.length;
    pairsCompared += host.pairsCompared;
    nearDuplicates += host.nearDuplicates;
    if (host.fingerprints.length > 0) hostsWithTemplate++;
  }
  const summary: SiteTemplateSummary = {
    mode,
    pages: fitter.pages,
    hostsWithTemplate,
    templateFingerprints,
    pairsCompared,
    nearDuplicates,
    fingerprintsHeld: fitter.fingerprints,
    fingerprintFailures,
    unreadInputs,
    fitSeconds: (performance.now() - started) / 1000,
  };
  context.logger.info(
    { siteTemplates: summary },
    `site templates (${mode} mode): ${fitter.pages} pages fingerprinted, ${hostsWithTemplate} hosts with a template ` +
      `(${pairsCompared} page pairs compared, ${nearDuplicates} near duplicates skipped` +
      `${fingerprintFailures > 0 ? `, ${fingerprintFailures} pages failed` : ""}${unreadInputs > 0 ? `, ${unreadInputs} inputs unread` : ""}) ` +
      `in ${summary.fitSeconds.toFixed(1)} s`,
  );
  return { templates, parsed, keepScore: options.keepScore ?? DEFAULT_TEMPLATE_KEEP_SCORE, summary };
}

/** The batch's hosts' templates, as a worker takes them; with pass one's parsed pages when all are there. */
function siteTemplateBatch(records: readonly ArchiveRecord[], fit: SiteTemplateFit): SiteTemplateBatch {
  const sets: Float64Array[] = [];
  const setOf = new Array<number>(records.length);
  const seen = new Map<Float64Array, number>();
  for (let i = 0; i < records.length; i++) {
    const set = fit.templates.forUrl(records[i].url);
    if (set.length === 0) {
      setOf[i] = -1;
      continue;
    }
    let at = seen.get(set);
    if (at === undefined) {
      at = sets.push(set) - 1;
      seen.set(set, at);
    }
    setOf[i] = at;
  }
  const batch: SiteTemplateBatch = { sets, setOf, keepScore: fit.keepScore };
  if (fit.parsed !== null) {
    const pages = new Array<ParsedPage>(records.length);
    let complete = true;
    for (let i = 0; i < records.length && complete; i++) {
      const page = fit.parsed.get(recordKey(records[i]));
      if (page === undefined) complete = false;
      else pages[i] = page;
    }
    // A page pass one did not see (an input that changed in between) sends the batch's bytes instead.
    if (complete) {
      for (const record of records) fit.parsed.delete(recordKey(record));
      batch.parsed = pages;
    }
  }
  return batch;
}

const EMPTY = new Uint8Array(0);

/** The cleaner pass two runs with: every batch goes with its hosts' templates. */
export function withSiteTemplates(cleaner: PageCleaner, fit: SiteTemplateFit): PageCleaner {
  return {
    model: cleaner.model,
    parallelism: cleaner.parallelism,
    clean(records) {
      const batch = siteTemplateBatch(records, fit);
      // The parsed pages stand in for the payloads: don't copy bytes nobody will decode.
      if (batch.parsed !== undefined) for (const record of records) record.body = EMPTY;
      return cleaner.clean(records, batch);
    },
    fingerprint: (records, keepParsed) => cleaner.fingerprint(records, keepParsed),
    close: () => cleaner.close(),
    destroy: () => cleaner.destroy(),
  };
}
