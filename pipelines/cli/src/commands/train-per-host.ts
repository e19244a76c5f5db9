/** `winnow train --per-host`: a general model and one model per host with enough pages, in one folder. */
import type { FeatureSet } from "@winnow/features";
import type { LabelledPage } from "@winnow/evaluation";
import { UsageError } from "@winnow/errors";
import { trainPerHost, type MlpFitOptions, type PageLabels } from "@winnow/train";
import type { Logger } from "pino";

export interface PerHostFlags extends MlpFitOptions {
  output: string;
  minPages: number;
  minHeldOut: number;
  folds?: number;
  model: string;
}

export async function trainHosts(
  flags: PerHostFlags,
  pages: LabelledPage[],
  labels: PageLabels[] | undefined,
  featureSet: FeatureSet,
  logger: Logger,
): Promise<void> {
  if (flags.folds) throw new UsageError("--folds does not go with --per-host; cross-validate with winnow eval --folds");
  if (flags.model !== "mlp") throw new UsageError("--per-host trains MLPs only; leave out --model");
  const started = Date.now();
  const results = await trainPerHost({
    ...flags,
    pages,
    labels,
    featureSet,
    outputDir: flags.output,
    minPages: flags.minPages,
    minHeldOut: flags.minHeldOut,
    onModel: (host, done, total) =>
      logger.info(`model ${done}/${total} (${host ?? "general"}) done (${((Date.now() - started) / 1000).toFixed(0)} s)`),
  });
  for (const r of results) {
    const validated = `threshold ${r.threshold.toFixed(2)} (validation F1 ${r.validationF1.toFixed(3)} on ${r.validationPages} held-out pages)`;
    process.stdout.write(
      r.keptGeneral
        ? `${r.host}: kept the general model: ${r.pages} pages leave ${r.validationPages} held out, fewer than --min-held-out ${flags.minHeldOut}, so its own model could not be validated\n`
        : `${r.host ?? "general"}: ${r.file}, ${r.pages} pages, ${validated}\n`,
    );
  }
  const own = results.filter((r) => r.host !== undefined && !r.keptGeneral).length;
  const kept = results.filter((r) => r.keptGeneral).length;
  process.stdout.write(
    `wrote general.onnx, ${own} host model${own === 1 ? "" : "s"} and models.json to ${flags.output} ` +
      `(${results.length - 1} hosts with >= ${flags.minPages} pages; ${kept} of them kept the general model: too few held-out pages)\n`,
  );
}
