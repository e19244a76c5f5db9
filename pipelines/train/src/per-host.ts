/**
 * `winnow train --per-host`: a general model on all pages plus one model per host with enough
 * pages, written into a folder with a `models.json` index (see host-models.ts).
 *
 * A host's model validates its threshold on a page split of that host's pages (fitMlp does so
 * when all pages share one domain): there are no other domains to hold out, and the model is only
 * ever applied to that host, which is exactly what a page split measures.
 */
import { join } from "node:path";
import { UsageError } from "@winnow/errors";
import type { FeatureSet } from "@winnow/features";
import { hostOf } from "@winnow/archive";
import { writeOutputFile } from "@winnow/writers";
import { labelRule, MODEL_FILE_ROLE, trainingDataset, writeMlpModel } from "./train-mlp-model.js";
import type { PageLabels } from "./training-labels.js";
import { fitMlp, type MlpFitOptions } from "./mlp-fit.js";
import type { LabelledPage } from "@winnow/evaluation";
import { MODEL_INDEX, hostModelFile, type ModelIndex } from "@winnow/models";

const GENERAL_MODEL_FILE = "general.onnx";

/**
 * Held-out pages a model's threshold must be chosen on, at the least, for the model to be
 * written. A host model's pages are split 7:1 (mlp-fit.ts), so the default --min-pages of 20
 * gives 2; a host with fewer than 8 pages gets none, and its model's threshold would be a guess.
 */
export const DEFAULT_MIN_HELD_OUT = 2;

export interface PerHostOptions extends MlpFitOptions {
  pages: LabelledPage[];
  featureSet: FeatureSet;
  /** The folder to write the models and models.json into. */
  outputDir: string;
  /** Hosts with fewer training pages get no model of their own. */
  minPages: number;
  /**
   * A model whose threshold was chosen on fewer held-out pages is not written: its host keeps
   * the general model (and the general model too few of them is an error). Default DEFAULT_MIN_HELD_OUT.
   */
  minHeldOut?: number;
  labels?: readonly PageLabels[];
  onModel?: (host: string | undefined, done: number, total: number) => void;
}

export interface HostModelResult {
  /** undefined: the general model. */
  host?: string;
  /** The model the host's pages are scored with: its own, or general.onnx when it kept the general model. */
  file: string;
  /** The host keeps the general model: its own could not be validated on minHeldOut held-out pages. */
  keptGeneral: boolean;
  pages: number;
  threshold: number;
  validationPages: number;
  validationF1: number;
}

/** Page indexes by host, for hosts with at least minPages pages, largest first. */
export function hostsWithPages(pages: readonly LabelledPage[], minPages: number): Map<string, number[]> {
  const byHost = new Map<string, number[]>();
  pages.forEach((page, p) => {
    const host = hostOf(page.url);
    if (host === "") return;
    const list = byHost.get(host);
    if (list === undefined) byHost.set(host, [p]);
    else list.push(p);
  });
  const kept = [...byHost]
    .filter(([, list]) => list.length >= minPages)
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  return new Map(kept);
}

export async function trainPerHost(options: PerHostOptions): Promise<HostModelResult[]> {
  const { pages, featureSet, outputDir } = options;
  const data = trainingDataset(pages, featureSet, options.labels);
  const hosts = hostsWithPages(pages, options.minPages);
  const results: HostModelResult[] = [];
  const jobs: Array<[string | undefined, number[]]> = [[undefined, pages.map((_, p) => p)], ...hosts];
  const minHeldOut = options.minHeldOut ?? DEFAULT_MIN_HELD_OUT;
  for (const [host, indexes] of jobs) {
    const fitted = fitMlp(data, indexes, options);
    if (fitted.validationPages < minHeldOut) {
      if (host === undefined) {
        throw new UsageError(
          `too few pages to validate even the general model: its threshold was chosen on ${fitted.validationPages} held-out pages, ` +
            `fewer than --min-held-out ${minHeldOut}`,
          "--data",
        );
      }
      // Not validated: a threshold chosen on nothing. The host's pages keep the general model.
      results.push({
        host,
        file: GENERAL_MODEL_FILE,
        keptGeneral: true,
        pages: indexes.length,
        threshold: fitted.threshold,
        validationPages: fitted.validationPages,
        validationF1: fitted.validationF1,
      });
      options.onModel?.(host, results.length, jobs.length);
      continue;
    }
    const file = host === undefined ? GENERAL_MODEL_FILE : hostModelFile(host);
    await writeMlpModel(fitted, join(outputDir, file), {
      featureSet,
      options,
      ids: indexes.map((p) => pages[p].id),
      labelRule: labelRule(options.labels),
      notes: { pages: indexes.length, host },
    });
    results.push({
      host,
      file,
      keptGeneral: false,
      pages: indexes.length,
      threshold: fitted.threshold,
      validationPages: fitted.validationPages,
      validationF1: fitted.validationF1,
    });
    options.onModel?.(host, results.length, jobs.length);
  }
  const index: ModelIndex = {
    general: GENERAL_MODEL_FILE,
    hosts: Object.fromEntries(results.filter((r) => r.host !== undefined && !r.keptGeneral).map((r) => [r.host!, r.file])),
  };
  // Written last, so a folder with a models.json holds every model it lists.
  await writeOutputFile(join(outputDir, MODEL_INDEX), `${JSON.stringify(index, null, 1)}\n`, { ...MODEL_FILE_ROLE, what: "model index" });
  return results;
}
