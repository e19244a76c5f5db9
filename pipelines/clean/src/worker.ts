/**
 * What a pool thread runs: it loads the classifier once, on its first task, and cleans one batch
 * of pages per task. The same functions serve the inline mode (`workers: 0`), so both modes
 * produce the same output.
 */
import { workerData } from "node:worker_threads";
import { transferableBuffer } from "@winnow/archive";
import { errorMessage, WinnowError } from "@winnow/errors";
import { type BlockClassifier, type Favor, HostRoutedClassifier, loadClassifier, type ModelSpec } from "@winnow/models";
import { cleanPagesByHost } from "./clean-by-host.js";
import { capturedAt, cleanPages, type PageInput, type PageOptions, type PageOutput } from "./page.js";
import { type CorpusOptions, DocumentSteps } from "./steps.js";
import { cleanParsedPages, fingerprintPages, type FingerprintedPage, type SiteTemplateBatch } from "./site-templates-page.js";

/** What the pool's threads are started with (piscina's workerData). */
export interface CleanWorkerData extends CleanerSettings {}

/** What every thread (or the inline cleaner) cleans with, for the whole run. */
export interface CleanerSettings {
  model: ModelSpec;
  /** The corpus steps after scoring: language identification, filters, statistics (steps.ts). */
  corpus?: CorpusOptions;
  /** The model's operating point (`--favor`). */
  favor?: Favor;
  /** Keep the blocks the model's comment head finds as each document's comments (`--comments`). */
  comments?: boolean;
  /** Record links and emphasis inside blocks, for Markdown with `--links`. */
  links?: boolean;
  /** Collect each page's metadata (default true; `--no-metadata`). */
  metadata?: boolean;
}

/**
 * One batch of pages as it crosses to a worker. The payloads' buffers are transferred, never
 * copied on the way (see packPages).
 */
export interface CleanTask {
  /** Each page's payload. */
  bodies: Uint8Array[];
  /** charset from each page's HTTP header, "" when none. */
  charsets: string[];
  /** Each page's URL ("" when none), for per-host models. */
  urls?: string[];
  /** Each page's capture date (WARC-Date, else a plain file's mtime; "" when none): its dates' upper bound. */
  dates?: string[];
  /** Pass two of --site-templates: the templates of the batch's hosts. */
  siteTemplates?: SiteTemplateBatch;
  /** The buffers under `bodies`, to pass as the transfer list. */
  transfer: ArrayBuffer[];
}

/** The classifier's name and threshold, or why it could not be loaded. */
export type ClassifierDescription = { ok: true; name: string; threshold: number } | { ok: false; problem: string };

/**
 * Cleans pages, turning a throw (a classifier failure hits the whole batch) into one "failed"
 * output per page, so that one bad batch costs its pages and not the run.
 */
export async function cleanPagesSafely(
  pages: readonly PageInput[],
  classifier: BlockClassifier,
  siteTemplates?: SiteTemplateBatch,
  options: PageOptions = {},
): Promise<PageOutput[]> {
  try {
    // Per-host models (site templates index the batch as a whole, so they keep the general model).
    if (classifier instanceof HostRoutedClassifier && siteTemplates === undefined) {
      return await cleanPagesByHost(pages, classifier, (group, model) => cleanPagesSafely(group, model, undefined, options));
    }
    // Performance mode: pass one's parsed pages come instead of bytes.
    if (siteTemplates?.parsed !== undefined) return await cleanParsedPages({ ...siteTemplates, parsed: siteTemplates.parsed }, classifier);
    return await cleanPages(pages, classifier, siteTemplates, options);
  } catch (error) {
    return failedPages(pages.length, errorMessage(error));
  }
}

/** What each batch is cleaned with, from the run's settings. */
export function pageOptions(settings: CleanerSettings): PageOptions {
  return { keepComments: settings.comments === true, links: settings.links === true, metadata: settings.metadata !== false };
}

export function failedPages(count: number, detail: string): PageOutput[] {
  const failed: PageOutput = { ok: false, reason: "failed", detail };
  return new Array<PageOutput>(count).fill(failed);
}

/**
 * Readies a batch (records, or anything with a body and header charset) to be transferred to a
 * worker. A payload whose buffer the archive reader has handed over whole (transferableBuffer:
 * one gzip member per record, as crawlers write) travels in that buffer, with no copy. The
 * others are views into the reader's input chunks, which hold neighbouring records too:
 * transferring those would detach live data, and cloning one would copy its whole chunk, so
 * they are copied once into one buffer the batch owns. Callers must not read the payloads
 * after the transfer: the buffers handed over are detached here.
 */
export function packPages(
  pages: ReadonlyArray<{ body: Uint8Array; charset: string; url?: string; date?: string; fileDate?: string }>,
): CleanTask {
  const n = pages.length;
  const bodies = new Array<Uint8Array>(n);
  const charsets = new Array<string>(n);
  const urls = new Array<string>(n);
  const dates = new Array<string>(n);
  const transfer: ArrayBuffer[] = [];
  let copied = 0;
  for (let i = 0; i < n; i++) {
    const body = pages[i].body;
    const own = transferableBuffer(body);
    // A buffer met twice would be one record's body twice over: copy rather than trust it.
    if (own !== null && !transfer.includes(own)) {
      transfer.push(own);
      bodies[i] = body;
    } else {
      copied += body.byteLength;
    }
    charsets[i] = pages[i].charset;
    urls[i] = pages[i].url ?? "";
    dates[i] = capturedAt(pages[i]);
  }
  if (copied > 0 || transfer.length === 0) {
    // Never pooled (allocUnsafe pools small sizes, and the pool cannot be transferred); every byte is written below.
    const packed = Buffer.allocUnsafeSlow(copied);
    let at = 0;
    for (let i = 0; i < n; i++) {
      if (bodies[i] !== undefined) continue;
      const body = pages[i].body;
      packed.set(body, at);
      bodies[i] = packed.subarray(at, at + body.byteLength);
      at += body.byteLength;
    }
    transfer.push(packed.buffer as ArrayBuffer);
  }
  return { bodies, charsets, urls, dates, transfer };
}

export function unpackPages(task: CleanTask): PageInput[] {
  const pages = new Array<PageInput>(task.bodies.length);
  for (let i = 0; i < pages.length; i++) {
    pages[i] = { body: task.bodies[i], headerCharset: task.charsets[i], url: task.urls?.[i], capturedAt: task.dates?.[i] };
  }
  return pages;
}

/** Says what is wrong with a model in words for people; the main thread reports the model beside it. */
function modelProblem(error: unknown): string {
  return error instanceof WinnowError ? error.what : errorMessage(error);
}

// The classifier of this thread, loaded by the first task that needs it. A failed load is kept
// too: every later task then fails the same way instead of retrying the load per batch.
let classifier: Promise<BlockClassifier> | undefined;

function threadClassifier(): Promise<BlockClassifier> {
  const settings = workerData as CleanWorkerData;
  classifier ??= loadClassifier(settings.model, { favor: settings.favor });
  return classifier;
}

// The corpus steps of this thread (its own language model), made with the classifier.
let steps: Promise<DocumentSteps> | undefined;

function threadSteps(): Promise<DocumentSteps> {
  steps ??= DocumentSteps.open((workerData as CleanWorkerData).corpus);
  return steps;
}

/** The pool's task: clean one batch. Never throws for a page or classifier problem. */
export default async function cleanTask(task: CleanTask): Promise<PageOutput[]> {
  let loaded: BlockClassifier;
  let corpus: DocumentSteps;
  try {
    [loaded, corpus] = await Promise.all([threadClassifier(), threadSteps()]);
  } catch (error) {
    return failedPages(task.bodies.length, modelProblem(error));
  }
  const outputs = await cleanPagesSafely(unpackPages(task), loaded, task.siteTemplates, pageOptions(workerData as CleanWorkerData));
  return applyStepsSafely(corpus, outputs);
}

/** Runs the corpus steps; a throw (a bug) fails the batch's pages rather than the run. */
export function applyStepsSafely(corpus: DocumentSteps, outputs: PageOutput[]): PageOutput[] {
  try {
    return corpus.apply(outputs);
  } catch (error) {
    return failedPages(outputs.length, `corpus steps failed: ${errorMessage(error)}`);
  }
}

/** Pass one of --site-templates (piscina's `name: "fingerprintTask"`): the subtree fingerprints of a batch. */
export function fingerprintTask(task: CleanTask & { keepParsed: boolean }): FingerprintedPage[] {
  return fingerprintPages(unpackPages(task), task.keepParsed, pageOptions(workerData as CleanWorkerData));
}

/** Run once before any batch (piscina's `name: "describeClassifier"`): loads and describes the model. */
export async function describeClassifier(): Promise<ClassifierDescription> {
  try {
    const [loaded] = await Promise.all([threadClassifier(), threadSteps()]);
    return { ok: true, name: loaded.name, threshold: loaded.threshold };
  } catch (error) {
    return { ok: false, problem: modelProblem(error) };
  }
}
