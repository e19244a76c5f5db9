/**
 * The cleaner of `workers: 0`: pages cleaned on the calling thread with the same functions a pool
 * thread runs (worker.ts). Loaded only by such a run (pool.ts, openInlineCleaner).
 */
import { errorMessage, ModelError, WinnowError } from "@winnow/errors";
import { type BlockClassifier, loadClassifier } from "@winnow/models/classifiers";
import type { PageCleaner } from "./pool.js";
import { fingerprintPages } from "./site-templates-page.js";
import { DocumentSteps } from "./steps.js";
import { capturedAt } from "./task.js";
import { applyStepsSafely, type CleanerSettings, cleanPagesSafely, pageOptions } from "./worker.js";

/** Loads the model and the corpus steps on this thread, then cleans there. */
export async function openInline(settings: CleanerSettings): Promise<PageCleaner> {
  const { model } = settings;
  let classifier: BlockClassifier;
  let corpus: DocumentSteps;
  try {
    [classifier, corpus] = await Promise.all([loadClassifier(model, { favor: settings.favor }), DocumentSteps.open(settings.corpus)]);
  } catch (error) {
    if (error instanceof WinnowError) throw error;
    throw new ModelError(`cannot load model: ${errorMessage(error)}`, model, { cause: error });
  }
  return {
    model: classifier.name,
    parallelism: 1,
    clean: async (records, siteTemplates) =>
      applyStepsSafely(
        corpus,
        await cleanPagesSafely(
          records.map((r) => ({ body: r.body, headerCharset: r.charset, url: r.url, capturedAt: capturedAt(r) })),
          classifier,
          siteTemplates,
          pageOptions(settings),
        ),
      ),
    fingerprint: async (records, keepParsed) =>
      fingerprintPages(
        records.map((r) => ({ body: r.body, headerCharset: r.charset, url: r.url, capturedAt: capturedAt(r) })),
        keepParsed,
        pageOptions(settings),
      ),
    close: () => classifier.close(),
    destroy: () => classifier.close(),
  };
}
