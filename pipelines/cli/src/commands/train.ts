/**
 * `winnow train`: labelled pages in, an ONNX model file out (the MLP over the chosen feature set,
 * or the BiLSTM; its threshold picked on held-out domains). --folds K prints cross-validated figures first;
 * --loso leaves one source out instead and takes the operating points from those held-out scores.
 */
import { existsSync, statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { type Command, Option } from "commander";

import type { LabelledPage } from "@winnow/evaluation";
import { OutputError, UsageError } from "@winnow/errors";
import type { ModelInfo } from "@winnow/models";
import {
  BILSTM_DEFAULTS,
  DEFAULT_MIN_HELD_OUT,
  type EvaluationReport,
  MODEL_FILE_ROLE,
  commentLabelsFromFiles,
  type PageCommentLabels,
  pagesWithLabelFiles,
  readLabelDirsBySource,
  smallTrainingSetWarning,
  trainBiLstmModel,
  trainModel,
  type PageLabels,
} from "@winnow/train";
import { lockOutputs, type NamedPath, prepareOutput, refuseOutputsOverInputs } from "@winnow/writers";
import { trainHosts } from "./train-per-host.js";
import type { Logger } from "pino";
import { createLogger } from "../logger.js";
import { parseCount } from "../parse.js";
import { bilstmOptions, bilstmOptionsFrom, foreignFlags, type BiLstmFlags } from "./bilstm-options.js";
import { formatBreakdown, formatCurves, formatReports } from "./eval.js";
import {
  checkFolderOutput,
  dataInputs,
  featureSetFor,
  featureSetOption,
  labelFolderInputs,
  loadPages,
  trainingOptions,
  trainingOptionsFrom,
  type TrainingFlags,
  losoProblem,
  requireGoldTextPerSet,
} from "./shared.js";
import { readLabelDir } from "@winnow/labels";

interface TrainFlags extends TrainingFlags, BiLstmFlags {
  data: string[];
  output: string;
  model: "mlp" | "bilstm";
  folds?: number;
  loso?: boolean;
  limit?: number;
  labels?: string;
  commentLabels?: string;
  scoreCommentLabels?: string;
  perHost?: boolean;
  minPages: number;
  minHeldOut: number;
}

export function registerTrain(program: Command): void {
  const command = program
    .command("train")
    .summary("train a block classifier on pages paired with their clean text")
    .description(
      "Label each page's blocks by aligning them with its gold text (or read labels with --labels), train the MLP on " +
        "every block's feature vector (or, with --model bilstm, a BiLSTM over each page's blocks in order), choose the " +
        "keep threshold on held-out domains, and write an ONNX model file for winnow clean --model.",
    )
    .requiredOption(
      "--data <path...>",
      "labelled pages: a folder in the WCXB layout (html/, ground-truth/, metadata.json) or a JSONL file of {url, html, text}",
    )
    .requiredOption(
      "-o, --output <path>",
      "the model file to write (.onnx; missing folders are created; written under a temporary name, then renamed); " +
        "with --per-host, the folder for the models. It may not be a file of --data or --labels (exit 2)",
    )
    .addOption(
      new Option(
        "--model <kind>",
        "the kind of model to train: mlp (block features, the default) or bilstm (a sequence model over the page's blocks, slower; 0.5 points above the MLP in 5-fold CV on WCXB dev; the shipped bilstm and mlp, both trained on all eight shared sets, score alike on them, and left out of them, one member each, the bilstm is level with the mlp: mean F1 0.888 against 0.882 at the folds' thresholds, 0.883 both at one threshold: experiments/results/2026-11-27-bilstm-loso.md, docs/quality.md)",
      )
        .choices(["mlp", "bilstm"])
        .default("mlp"),
    )
    .option(
      "--folds <k>",
      "first cross-validate over K domain folds, print the figures, and take the keep threshold and --favor's operating points from the folds' held-out scores, pooled",
      parseCount(2),
    )
    .addOption(
      new Option(
        "--loso",
        "first leave one source out (each --data set scored by a model trained on the others), print the figures, and take the keep threshold, --favor's operating points and (MLP) the comment threshold from those held-out scores, pooled: the estimate for pages unlike the training sets (the shipped MLP's recipe). Needs two or more --data sets",
      ).conflicts(["folds", "perHost"]),
    )
    .option("--limit <n>", "use only the first N pages", parseCount(1))
    .option(
      "--labels <dir>",
      "train on the block labels in this folder's *.labels.json files (winnow label, winnow label-ui) instead of aligning " +
        "with gold text; pages without a file are skipped, null labels weigh nothing, and pages without gold text " +
        "choose the threshold against the text of their label-1 blocks",
    )
    .option(
      "--comment-labels <dir>",
      "MLP: the comment head learns user comments from the version-2 label files in DIR/SET/ (one folder per --data " +
        "set, named as it is; label-ui's comment key makes them; experiments/labels/comments holds some) on the pages " +
        "that have one, instead of from comment gold or the markup rule; with --loso or --folds, the comment figures " +
        "are also given on those pages, each scored by a fold that did not train on it",
    )
    .option(
      "--score-comment-labels <dir>",
      "MLP, with --loso or --folds: give the held-out comment figures also on the pages with a version-2 label file in " +
        "DIR/SET/, as --comment-labels does, but train without them (to compare a recipe with its --comment-labels twin)",
    );
  command
    .option(
      "--per-host",
      "also train one MLP per host (from the pages' URLs) with at least --min-pages pages; writes general.onnx, " +
        "one <host>.onnx each and models.json into the -o folder, for winnow clean --models (a host model's threshold " +
        "is chosen on a page split of its own pages)",
    )
    .option("--min-pages <n>", "with --per-host: pages a host needs for a model of its own", parseCount(4), 20)
    .option(
      "--min-held-out <n>",
      "with --per-host: held-out pages a host model's threshold must be chosen on (1 in 8 of its pages); a host with fewer " +
        "keeps the general model, and the summary says so. No model is written that was not validated",
      parseCount(1),
      DEFAULT_MIN_HELD_OUT,
    );
  featureSetOption(command);
  trainingOptions(command);
  bilstmOptions(command);
  command.action((flags: TrainFlags, self: Command) => {
    const problems = foreignFlags(flags.model, flags, self.getOptionValueSource("input") === "cli");
    const loso = losoProblem(flags);
    if (loso !== undefined) problems.push(loso);
    if (flags.commentLabels !== undefined && (flags.model === "bilstm" || flags.perHost))
      problems.push(`--comment-labels trains the comment head of one MLP; not with ${flags.perHost ? "--per-host" : "--model bilstm"}`);
    if (flags.scoreCommentLabels !== undefined) {
      if (flags.model === "bilstm" || flags.perHost)
        problems.push(
          `--score-comment-labels scores the comment head of one MLP; not with ${flags.perHost ? "--per-host" : "--model bilstm"}`,
        );
      if (flags.commentLabels !== undefined)
        problems.push("--score-comment-labels and --comment-labels both name label folders; --comment-labels already scores its pages");
      if (!flags.loso && !flags.folds) problems.push("--score-comment-labels gives held-out figures: it needs --loso or --folds");
    }
    if (problems.length > 0) throw new UsageError(problems.join("\n"));
    for (const dir of [flags.commentLabels, flags.scoreCommentLabels])
      if (dir !== undefined && !(existsSync(dir) && statSync(dir).isDirectory()))
        throw new UsageError("comment label folder not found", dir);
    return flags.model === "bilstm" ? trainBiLstm(flags) : train(flags);
  });
}

async function train(flags: TrainFlags): Promise<void> {
  const logger = createLogger("info");
  await checkPaths(flags);
  const { pages, labels, skipped } = await pagesAndLabels(flags, logger);
  const featureSet = featureSetFor(flags, "mlp");
  const started = Date.now();
  if (flags.perHost)
    return trainHosts(
      {
        output: flags.output,
        minPages: flags.minPages,
        minHeldOut: flags.minHeldOut,
        folds: flags.folds,
        model: flags.model,
        ...trainingOptionsFrom(flags),
      },
      pages,
      labels,
      featureSet,
      logger,
    );
  logger.info(
    `training an MLP on ${featureSet.name} (${featureSet.size} features)${flags.loso ? `, after leaving each of ${flags.data.length} sets out` : flags.folds ? `, after ${flags.folds}-fold cross-validation` : ""}`,
  );
  const commentLabels = await handCommentLabels(flags, pages, logger);
  const result = await trainModel({
    pages,
    featureSet,
    output: flags.output,
    folds: flags.folds,
    leaveOneSourceOut: flags.loso,
    labels,
    commentLabels,
    commentLabelsTrain: flags.scoreCommentLabels === undefined,
    headline: flags.headline,
    ...trainingOptionsFrom(flags),
    onFold: (f, k) =>
      logger.info(
        `${flags.loso ? `source ${f + 1}/${k} left out` : `fold ${f + 1}/${k}`} done (${((Date.now() - started) / 1000).toFixed(0)} s)`,
      ),
  });
  writeCrossValidation(result.crossValidation, pages.length, flags.data.length);
  process.stdout.write(
    `wrote ${flags.output}: mlp on ${featureSet.name} v${featureSet.version}, threshold ${result.info.threshold.toFixed(2)}${favorText(result.info)} ` +
      `(validation F1 ${result.validationF1.toFixed(3)} on ${result.validationPages} held-out pages; trained on ` +
      `${result.trainPages} pages, ${result.blocks} blocks${labels ? `, labels from ${flags.labels}; ${skipped} pages without a label file skipped` : ""}), ` +
      `fingerprint ${result.info.trainingFingerprint}, ` +
      `${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
}

async function trainBiLstm(flags: TrainFlags): Promise<void> {
  const logger = createLogger("info");
  await checkPaths(flags);
  const { pages, labels, skipped } = await pagesAndLabels(flags, logger);
  const featureSet = featureSetFor(flags, "bilstm");
  const started = Date.now();
  const options = bilstmOptionsFrom(flags);
  logger.info(
    `training a BiLSTM on ${options.input ?? "its default input"}${flags.loso ? `, after leaving each of ${flags.data.length} sets out` : flags.folds ? `, after ${flags.folds}-fold cross-validation` : ""}`,
  );
  const result = await trainBiLstmModel({
    ...options,
    pages,
    featureSet,
    output: flags.output,
    folds: flags.folds,
    leaveOneSourceOut: flags.loso,
    labels,
    onEpoch: (epoch, loss, f1, member) =>
      logger.info(
        `${(options.ensemble ?? BILSTM_DEFAULTS.ensemble) > 1 ? `member ${member + 1}, ` : ""}epoch ${epoch}: loss ${loss.toFixed(4)}, validation word F1 ${f1.toFixed(3)}`,
      ),
    onFold: (f, k) =>
      logger.info(
        `${flags.loso ? `source ${f + 1}/${k} left out` : `fold ${f + 1}/${k}`} done (${((Date.now() - started) / 1000).toFixed(0)} s)`,
      ),
  });
  writeCrossValidation(result.crossValidation, pages.length, flags.data.length);
  const notes = JSON.parse(result.info.notes) as { input: string; hidden: number; layers: number; skip?: boolean; members: number };
  const epochs = result.bestEpochs.length === 1 ? `epoch ${result.bestEpochs[0]}` : `epochs ${result.bestEpochs.join(", ")}`;
  process.stdout.write(
    `wrote ${flags.output}: bilstm${notes.members > 1 ? ` ×${notes.members}` : ""} (${notes.input}, ${notes.layers} x ${notes.hidden} units${notes.skip ? ", skip path" : ""}), ` +
      `threshold ${result.info.threshold.toFixed(2)}${favorText(result.info)} (validation F1 ${result.validationF1.toFixed(3)} on ${result.validationPages} held-out pages at ${epochs}; trained on ` +
      `${result.trainPages} pages, ${result.blocks} blocks${labels ? `, labels from ${flags.labels}; ${skipped} pages without a label file skipped` : ""}), ` +
      `fingerprint ${result.info.trainingFingerprint}, ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
}

/** The cross-validated figures, per set where there are several, and the curve the operating points were read from. */
function writeCrossValidation(report: EvaluationReport | undefined, pages: number, sets: number): void {
  if (report === undefined) return;
  process.stdout.write(`${formatReports([report], pages)}\n`);
  if (sets > 1) process.stdout.write(`${formatBreakdown([report])}\n`);
  // The curve the model's operating points were read from, so the choice can be checked.
  process.stdout.write(formatCurves([report]));
}

/** " (favor precision 0.62, recall 0.27)" for a model with operating points. */
function favorText(info: ModelInfo): string {
  const points = info.operatingPoints;
  return points ? ` (favor precision ${points.precision.toFixed(2)}, recall ${points.recall.toFixed(2)})` : "";
}

function warnIfSmall(pages: number, logger: Logger): void {
  const warning = smallTrainingSetWarning(pages);
  if (warning !== null) logger.warn(warning);
}

/**
 * With --comment-labels or --score-comment-labels: the hand comment labels per page (undefined
 * where a page has none), counted in the log.
 */
async function handCommentLabels(
  flags: TrainFlags,
  pages: readonly LabelledPage[],
  logger: Logger,
): Promise<(PageCommentLabels | undefined)[] | undefined> {
  const dir = flags.commentLabels ?? flags.scoreCommentLabels;
  if (dir === undefined) return undefined;
  const labels = commentLabelsFromFiles(
    pages,
    await readLabelDirsBySource(
      dir,
      pages.map((p) => p.source),
    ),
  );
  const count = labels.filter((l) => l !== undefined).length;
  const use = flags.commentLabels !== undefined ? "decide their comment-head labels" : "score the held-out comment figures only";
  logger.info(`comment labels of ${count} page${count === 1 ? "" : "s"} from ${dir} ${use}`);
  return labels;
}

/** The pages to train on, and with --labels their labels: pages without a label file are left out, with a count. */
async function pagesAndLabels(
  flags: TrainFlags,
  logger: Logger,
): Promise<{ pages: LabelledPage[]; labels?: PageLabels[]; skipped: number }> {
  const files = flags.labels === undefined ? undefined : await readLabelDir(flags.labels);
  const all = await loadPages(flags.data, flags.limit, logger);
  if (files === undefined) {
    // Labels come from aligning blocks with the gold text: without it every block is boilerplate.
    requireGoldTextPerSet(all, flags.data, (warning) => logger.warn(warning));
    warnIfSmall(all.length, logger);
    return { pages: all, skipped: 0 };
  }
  const chosen = pagesWithLabelFiles(all, files);
  if (chosen.pages.length === 0) throw new UsageError(`no page of ${flags.data} has a label file`, flags.labels);
  logger.info(
    `training on the labels of ${chosen.pages.length} pages; skipped ${chosen.skipped} pages without a label file (${flags.labels})`,
  );
  warnIfSmall(chosen.pages.length, logger);
  return chosen;
}

/**
 * Before anything is read: the model file (or --per-host folder) can be written ("-" refused,
 * missing folders created, a file in the way reported), and it is no file of --data or --labels.
 */
async function checkPaths(flags: TrainFlags): Promise<void> {
  const outputs: NamedPath[] = [{ path: flags.output, flag: "-o" }];
  if (flags.perHost) {
    const names = await readdir(flags.output).catch(() => [] as string[]);
    for (const name of new Set(["general.onnx", "models.json", ...names.filter((n) => n.endsWith(".onnx"))])) {
      outputs.push({ path: join(flags.output, name), flag: "-o" });
    }
  }
  const inputs = await dataInputs(flags.data);
  if (flags.labels !== undefined) inputs.push(...(await labelFolderInputs(flags.labels, "--labels")));
  await refuseOutputsOverInputs(outputs, inputs);
  // Held until the process exits (lock.ts releases it then, on every way out): one run per output.
  await lockOutputs([{ path: flags.output, what: flags.perHost ? "model folder" : "model file" }], "train");
  if (flags.perHost) {
    await checkFolderOutput(flags.output, { ...MODEL_FILE_ROLE, what: "model folder" });
  } else {
    const target = await prepareOutput(flags.output, MODEL_FILE_ROLE);
    if (target.kind === "directory") {
      throw new OutputError("cannot create model file: it is a folder (use --per-host for a folder of models)", flags.output);
    }
  }
}
