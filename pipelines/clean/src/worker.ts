/**
 * What a pool thread runs: it loads the classifier once, on its first task, and cleans one batch
 * of pages per task. The same functions serve the inline mode (`workers: 0`), so both modes
 * produce the same output.
 */
import { workerData } from "node:worker_threads";
import { errorMessage, WinnowError } from "@winnow/errors";
import { type BlockClassifier, type Favor, HostRoutedClassifier, loadClassifier, type ModelSpec } from "@winnow/models/classifiers";
import { cleanPagesByHost } from "./clean-by-host.js";
import { cleanPages, type PageInput, type PageOptions, type PageOutput } from "./page.js";
import { type CorpusOptions, DocumentSteps } from "./steps.js";
import { cleanParsedPages, fingerprintPages, type FingerprintedPage, type SiteTemplateBatch } from "./site-templates-page.js";
import { type CleanTask, failedPages, type PackedOutputs, packOutputs, unpackPages } from "./task.js";

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

/**
 * The pool's task: clean one batch, its outputs packed for the way back (the pool unpacks them).
 * Never throws for a page or classifier problem.
 */
export default async function cleanTask(task: CleanTask): Promise<PackedOutputs> {
  let loaded: BlockClassifier;
  let corpus: DocumentSteps;
  try {
    [loaded, corpus] = await Promise.all([threadClassifier(), threadSteps()]);
  } catch (error) {
    return packOutputs(failedPages(task.bodies.length, modelProblem(error)));
  }
  const outputs = await cleanPagesSafely(unpackPages(task), loaded, task.siteTemplates, pageOptions(workerData as CleanWorkerData));
  return packOutputs(applyStepsSafely(corpus, outputs));
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
