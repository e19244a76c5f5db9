/**
 * `winnow eval`: score extractions against gold text (WCXB layout or JSONL, one set or several).
 * With --folds it cross-validates the trainable MLP (or BiLSTM) by domain; with --loso it leaves
 * one source out at a time; without either, it scores a fixed classifier. Every run prints
 * "all text" (keep every block) beside it, the floor any extractor must clear, and, with several
 * sets, the figures per source and per language.
 */
import { existsSync } from "node:fs";
import { type Command, Option } from "commander";
import { featureSetByName, TEXREX37 } from "@winnow/features";
import type { GroupSummary } from "@winnow/evaluation";
import { heuristicClassifier, loadClassifier as loadModel, MODEL_NAMES, type BlockClassifier } from "@winnow/models";
import {
  trainedOnPages,
  buildDataset,
  crossValidateBiLstm,
  crossValidateMlp,
  evaluateAllText,
  evaluateClassifier,
  labelsFromFiles,
  propagateDatasetLabels,
  withTrainingLabels,
  type Dataset,
  type EvaluationReport,
} from "@winnow/train";
import { ModelError, OutputError, UsageError } from "@winnow/errors";
import { lockOutputs, type NamedPath, type OutputRole, prepareOutput, refuseOutputsOverInputs, writeOutputFile } from "@winnow/writers";
import type { Logger } from "pino";
import { createLogger } from "../logger.js";
import { parseCount } from "../parse.js";
import { bilstmOptions, bilstmOptionsFrom, foreignFlags, type BiLstmFlags } from "./bilstm-options.js";
import {
  DATA_HELP,
  SEEDS_HELP,
  dataInputs,
  featureSetFor,
  featureSetOption,
  labelFolderInputs,
  loadPages,
  seedSource,
  trainingOptions,
  trainingOptionsFrom,
  type TrainingFlags,
  losoProblem,
  requireGoldTextPerSet,
} from "./shared.js";
import { readLabelDir } from "@winnow/labels";

const COLUMNS_HELP = `
The table (one row per method; every figure a mean over pages unless said otherwise):
  method    the model scored ("all text" keeps every block: the floor any extractor must clear)
  P, R, F1  word precision, recall and F1 of the kept text against the gold main text, bag of
            words as the WCXB benchmark counts them (Han and kana one token per character)
  with      share of the gold's "with" snippets (text that must be kept) found in the kept
            text, over the pages that have such snippets; shown only when some do (WCXB sets)
  w/out     share of the gold's "without" snippets (boilerplate that must go) absent from the
            kept text, over the pages that have them; shown only when some do
  article, forum, ...   F1 per page type (the data set's page_type), first 8 letters of each
Then "block decisions against the alignment labels": each block kept or not against the label
the alignment with the gold gave it, pooled over blocks (precision, recall, F1, accuracy). With
several --data sets or known languages: the same P R F1 per source and per language, and, for
pages with comment gold, the user comment words left in the main text.`;

interface EvalFlags extends TrainingFlags, BiLstmFlags {
  data: string[];
  loso?: boolean;
  heldOut?: string[];
  curve?: boolean;
  model?: string;
  folds?: number;
  json?: string;
  limit?: number;
  labels?: string;
  seeds?: string;
}

export function registerEval(program: Command): void {
  const command = program
    .command("eval")
    .summary("measure word precision, recall and F1 against gold text")
    .description(
      "Score the text winnow keeps against gold main text, per page (bag of words, as the WCXB benchmark does), " +
        "then the mean, overall, per page type and, with several --data sets, per source and per language. --folds K " +
        "cross-validates the MLP (or the BiLSTM): it trains on K-1 folds and scores the held-out one, folds split by domain so " +
        "no site is on both sides. --loso leaves one source out instead: each set is scored by a model trained on all the others. " +
        "Without either, a fixed --model is scored. The 'all text' line (keep every block) is always shown as the floor.",
    )
    .requiredOption("--data <path...>", `${DATA_HELP}; most pages need gold text (exit 3 otherwise)`)
    .option(
      "--model <model>",
      'without --folds: "heuristic", "all-text", "mlp" or "bilstm" (the shipped models), or a model file (default: mlp); with --folds: the kind to train, "mlp" (default) or "bilstm"',
    )
    .addOption(
      new Option("--folds <k>", "cross-validate a freshly trained MLP (or BiLSTM, with --model bilstm) over K domain folds").argParser(
        parseCount(2),
      ),
    )
    .addOption(
      new Option("--loso", "leave one source out: train on all --data sets but one, score that one, for each set in turn").conflicts(
        "folds",
      ),
    )
    .option(
      "--held-out <set...>",
      "with --loso: leave out and score only these sets (by --data folder or file name), each by a model trained on all the other --data sets, as in the full run (default: every set)",
    )
    .option("--curve", "also print mean precision, recall and F1 at every candidate keep threshold, and the operating points")
    .option(
      "--json <file>",
      "also write the per-page results and summaries as JSON (a file: missing folders are created; not a file of --data)",
    )
    .option("--limit <n>", "use only the first N pages (for a quick look)", parseCount(1))
    .addOption(
      new Option(
        "--labels <dir>",
        "with --folds: train on the block labels of these label files instead of the alignment's (scores still use the gold text)",
      ).conflicts("seeds"),
    )
    .option("--seeds <source>", `with --folds: train on labels propagated from these seeds (--seed also draws reveal:F); ${SEEDS_HELP}`)
    .addHelpText("after", COLUMNS_HELP);
  featureSetOption(command);
  trainingOptions(command);
  bilstmOptions(command);
  command.action((flags: EvalFlags, self: Command) => {
    const kind = flags.model ?? "mlp";
    if ((flags.folds || flags.loso) && (kind === "mlp" || kind === "bilstm")) {
      const problems = foreignFlags(kind, flags, self.getOptionValueSource("input") === "cli");
      if (problems.length > 0) throw new UsageError(problems.join("\n"));
    }
    return evaluate(flags);
  });
}

const JSON_ROLE: OutputRole = { what: "results file", flag: "--json" };

async function evaluate(flags: EvalFlags): Promise<void> {
  const loso = losoProblem(flags);
  if (loso !== undefined) throw new UsageError(loso);
  const logger = createLogger("info");
  // Before anything is read: the results file can be written and is no file of --data or --labels.
  if (flags.json !== undefined) {
    const outputs: NamedPath[] = [{ path: flags.json, flag: "--json" }];
    const inputs = await dataInputs(flags.data);
    if (flags.labels !== undefined) inputs.push(...(await labelFolderInputs(flags.labels, "--labels")));
    await refuseOutputsOverInputs(outputs, inputs);
    // Held until the process exits (lock.ts releases it then, on every way out): one run per output.
    await lockOutputs([{ path: flags.json, what: "results file" }], "eval");
    const target = await prepareOutput(flags.json, JSON_ROLE);
    if (target.kind === "directory") throw new OutputError("cannot create results file: it is a folder", flags.json);
  }
  const pages = await loadPages(flags.data, flags.limit, logger);
  // Every figure is a comparison with the gold text.
  requireGoldTextPerSet(pages, flags.data, (warning) => logger.warn(warning));
  const reports: EvaluationReport[] = [];
  let trainedOnThese = false;

  const trains = flags.folds !== undefined || flags.loso === true;
  if ((flags.labels !== undefined || flags.seeds !== undefined) && !trains) {
    throw new UsageError("--labels and --seeds train models, so they need --folds K or --loso");
  }
  if (trains) {
    const kind = flags.model ?? "mlp";
    if (kind !== "mlp" && kind !== "bilstm") throw new UsageError(`with --folds or --loso, --model must be mlp or bilstm, not "${kind}"`);
    const featureSet = featureSetFor(flags, kind);
    const data = await withLabelSource(buildDataset(pages, featureSet, { headline: flags.headline }), flags, logger);
    reports.push(evaluateAllText(data, flags.heldOut));
    const how = flags.loso
      ? flags.heldOut
        ? `leaving out ${flags.heldOut.join(", ")} in turn (of ${data.sources.length} sources)`
        : `leaving one of ${data.sources.length} sources out`
      : `over ${flags.folds} domain folds`;
    logger.info(`cross-validating the ${kind === "mlp" ? `MLP (${featureSet.name})` : "BiLSTM"} ${how} of ${pages.length} pages`);
    const started = Date.now();
    const onFold = (f: number, k: number): void =>
      logger.info(
        `${flags.loso ? `source ${data.sources[f]}` : `fold ${f + 1}/${k}`} done (${((Date.now() - started) / 1000).toFixed(0)} s)`,
      );
    const folds = flags.folds ?? 0;
    const cv =
      kind === "bilstm"
        ? crossValidateBiLstm(data, { ...bilstmOptionsFrom(flags), folds, bySource: flags.loso, heldOut: flags.heldOut, onFold })
        : crossValidateMlp(data, { ...trainingOptionsFrom(flags), folds, bySource: flags.loso, heldOut: flags.heldOut, onFold });
    const labelSource = flags.seeds ?? (flags.labels !== undefined ? "label files" : undefined);
    reports.push(labelSource === undefined ? cv : { ...cv, method: `mlp on ${labelSource}` });
  } else {
    const classifier = await loadClassifier(flags.model);
    try {
      // Without a model only the labels are read; the cheapest feature set fills the rows.
      const featureSet = classifier.info && classifier.info.inputSize > 0 ? featureSetByName(classifier.info.featureSet) : TEXREX37;
      const data = buildDataset(pages, featureSet, { headline: flags.headline });
      reports.push(evaluateAllText(data));
      if (flags.model !== "all-text") reports.push(await evaluateClassifier(data, classifier, classifier.name, flags.sourceBalance));
      if (classifier.info) trainedOnThese = trainedOnPages(classifier.info, pages);
    } finally {
      await classifier.close();
    }
  }

  // With --held-out, the pages of the sets scored (the others only train).
  process.stdout.write(formatReports(reports, reports[0]?.pages.length ?? pages.length));
  if (new Set(pages.map((p) => p.source)).size > 1 || pages.some((p) => p.language !== "")) process.stdout.write(formatBreakdown(reports));
  if (flags.curve) process.stdout.write(formatCurves(reports));
  if (trainedOnThese) {
    process.stdout.write(
      "\nNOTE: this model was trained on exactly these pages, so its line above is a training-set figure, not a held-out one.\n" +
        "For honest figures use --folds K (cross-validation by domain) or pages it has not seen.\n",
    );
  }
  if (flags.json) {
    // Typed arrays (the curves) as plain arrays, not objects keyed by index.
    const plain = (_key: string, value: unknown) => (ArrayBuffer.isView(value) ? Array.from(value as Float64Array) : value);
    await writeOutputFile(flags.json, JSON.stringify({ reports }, plain, 1), JSON_ROLE);
    logger.info(`per-page results written to ${flags.json}`);
  }
}

/**
 * With --labels or --seeds, the dataset trains on those labels. The threshold is then chosen
 * against the text of the label-1 blocks, as a user without gold text would have to, and the
 * held-out pages are still scored against their gold text, so the figure says what such a user gets.
 */
async function withLabelSource(data: Dataset, flags: EvalFlags, logger: Logger): Promise<Dataset> {
  if (flags.labels !== undefined) {
    const files = await readLabelDir(flags.labels);
    const labels = labelsFromFiles(data.pages, files);
    const missing = labels.filter((l) => l === undefined).length;
    logger.info(
      `training on the label files of ${flags.labels}: ${data.pages.length - missing} pages labelled, ${missing} without a file (not trained on, still scored)`,
    );
    return withTrainingLabels(data, labels, "labels");
  }
  if (flags.seeds !== undefined) {
    const source = await seedSource(flags.seeds, flags.seed ?? 1);
    const { labels, summary } = propagateDatasetLabels(data, source);
    const check = summary.check ? `, ${(100 * summary.check.accuracy).toFixed(1)}% agree with the alignment` : "";
    logger.info(
      `training on labels propagated from ${flags.seeds}: ${summary.pagesLabelled} of ${summary.pages} pages, ${summary.seeds} seeds${check}`,
    );
    return withTrainingLabels(data, labels, "labels");
  }
  return data;
}

async function loadClassifier(model: string | undefined): Promise<BlockClassifier> {
  if (model === "all-text") return heuristicClassifier();
  try {
    return await loadModel(model ?? "mlp");
  } catch (error) {
    // eval knows one more name than the other commands: say so when none fits.
    if (error instanceof ModelError && model !== undefined && !MODEL_NAMES.includes(model) && !existsSync(model)) {
      throw new ModelError(
        `no such model: give ${[...MODEL_NAMES, "all-text"].join(", ")}, a model file made by winnow train, or its folder of per-host models`,
        model,
        { cause: error },
      );
    }
    throw error;
  }
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : "  -  ");

/** How the reports' figures were held out, for the table's title. */
function crossValidation(reports: readonly EvaluationReport[]): string {
  const cv = reports.find((r) => r.folds);
  if (cv === undefined) return "";
  return cv.leaveOneSourceOut
    ? "; leave one source out: each source scored by a model trained on the others"
    : `; cross-validated, ${cv.folds} domain folds`;
}

/** A plain-text table: one row per method, overall and per page type. */
export function formatReports(reports: readonly EvaluationReport[], pages: number): string {
  const types = Object.keys(reports[0]?.summary.byType ?? {});
  const lines: string[] = [];
  lines.push(`word-level scores over ${pages} pages (mean per page${crossValidation(reports)})`);
  lines.push("");
  // Only columns the data can fill: the snippet rates need pages with WCXB's with/without snippets.
  const withColumn = reports.some((r) => r.summary.overall.extra.withRate !== undefined);
  const withoutColumn = reports.some((r) => r.summary.overall.extra.withoutRate !== undefined);
  lines.push(
    [
      "method".padEnd(22),
      "P    ",
      "R    ",
      "F1   ",
      ...(withColumn ? ["with "] : []),
      ...(withoutColumn ? ["w/out"] : []),
      ...types.map((t) => t.slice(0, 8).padEnd(8)),
    ].join("  "),
  );
  for (const r of reports) {
    const o = r.summary.overall;
    lines.push(
      [
        r.method.padEnd(22),
        f3(o.precision),
        f3(o.recall),
        f3(o.f1),
        ...(withColumn ? [f3(o.extra.withRate ?? NaN)] : []),
        ...(withoutColumn ? [f3(o.extra.withoutRate ?? NaN)] : []),
        ...types.map((t) => f3(r.summary.byType[t]?.f1 ?? NaN).padEnd(8)),
      ].join("  "),
    );
  }
  lines.push("");
  lines.push("block decisions against the alignment labels:");
  for (const r of reports) {
    const b = r.blocks;
    lines.push(`  ${r.method.padEnd(22)} precision ${f3(b.precision)}  recall ${f3(b.recall)}  F1 ${f3(b.f1)}  accuracy ${f3(b.accuracy)}`);
  }
  const cv = reports.find((r) => r.folds);
  if (cv) lines.push("", `thresholds chosen per fold on its own validation domains: ${cv.thresholds.map((t) => t.toFixed(2)).join(", ")}`);
  if (cv?.commentThresholds)
    lines.push(
      `comment thresholds chosen ${cv.commentThresholdsOutOfFold ? "on the other folds' held-out scores, pooled" : "likewise"}: ` +
        cv.commentThresholds.map((t) => (t > 1 ? "never" : t.toFixed(4))).join(", "),
    );
  if (cv?.commentFieldThresholds)
    lines.push(
      "comments field thresholds chosen likewise, on the other folds decided at each fold's comment threshold: " +
        cv.commentFieldThresholds.map((t) => (t > 1 ? "never" : t.toFixed(4))).join(", "),
    );
  return `${lines.join("\n")}\n`;
}

/**
 * With several sources or known languages: each method's figures per source (the first column
 * of a leave-one-source-out run is its headline figure), per language group, and per source and
 * page type.
 */
export function formatBreakdown(reports: readonly EvaluationReport[]): string {
  const lines: string[] = [""];
  const sources = Object.keys(reports[0]?.summary.bySource ?? {});
  const row = (label: string, cells: string[]): string => [label.padEnd(24), ...cells].join("  ");
  const head = reports.map((r) => r.method.slice(0, 20).padEnd(20)).join("  ");
  const cell = (g: GroupSummary | undefined): string =>
    g === undefined ? "".padEnd(20) : `${f3(g.precision)} ${f3(g.recall)} ${f3(g.f1)}`.padEnd(20);
  lines.push("per source (P R F1 of each method; mean per page):");
  lines.push(row("source (pages)", [head]));
  for (const source of sources) {
    const n = reports[0].summary.bySource[source].count;
    lines.push(
      row(
        `${source} (${n})`,
        reports.map((r) => cell(r.summary.bySource[source])),
      ),
    );
  }
  if (sources.length > 1) {
    const meanOfSources = (r: EvaluationReport): GroupSummary => {
      const groups = Object.values(r.summary.bySource);
      const mean = (k: "precision" | "recall" | "f1"): number => groups.reduce((a, g) => a + g[k], 0) / groups.length;
      return { count: groups.length, precision: mean("precision"), recall: mean("recall"), f1: mean("f1"), extra: {} };
    };
    lines.push(
      row(
        "mean of sources",
        reports.map((r) => cell(meanOfSources(r))),
      ),
    );
  }
  lines.push("", "per language of the gold (P R F1):");
  for (const language of Object.keys(reports[0]?.summary.byLanguage ?? {})) {
    const n = reports[0].summary.byLanguage[language].count;
    lines.push(
      row(
        `${language} (${n})`,
        reports.map((r) => cell(r.summary.byLanguage[language])),
      ),
    );
  }
  const withComments = reports.map((r) => r.pages.filter((p) => p.commentWords !== undefined));
  if (withComments[0].length > 0) {
    lines.push("", `user comment words kept in the main text (${withComments[0].length} pages with comment gold):`);
    reports.forEach((r, i) => {
      const words = withComments[i].reduce((a, p) => a + (p.commentWords ?? 0), 0);
      const kept = withComments[i].reduce((a, p) => a + (p.commentWordsKept ?? 0), 0);
      lines.push(`  ${r.method.padEnd(22)} ${kept} of ${words} (${words === 0 ? "-" : `${((100 * kept) / words).toFixed(1)}%`})`);
    });
  }
  for (const r of reports) lines.push(...formatCommentDecision(r));
  if (sources.length > 1) {
    lines.push("", "F1 per source and page type (last method):");
    const last = reports[reports.length - 1];
    for (const source of sources) {
      const types = last.summary.bySourceAndType[source] ?? {};
      lines.push(
        `  ${source.padEnd(22)} ${Object.entries(types)
          .map(([t, g]) => `${t} ${f3(g.f1)} (${g.count})`)
          .join(", ")}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The comment decision as `winnow clean --comments` makes it (PageScore.commentDecision), per
 * source with comment gold and per source's hand-labelled pages: comment words in the main text
 * (of the gold's comment words), the `comments` field's word F1 (mean over pages with comments),
 * and the share of pages without comments whose field is empty. No lines without such pages.
 */
export function formatCommentDecision(r: EvaluationReport): string[] {
  const groups = new Map<string, EvaluationReport["pages"]>();
  for (const p of r.pages) {
    if (p.commentDecision === undefined) continue;
    const key = `${p.source} (${p.commentDecision.from === "gold" ? "comment gold" : "hand labels"})`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  if (groups.size === 0) return [];
  const hand = r.pages.filter((p) => p.commentDecision?.from === "hand");
  if (hand.length > 0 && new Set(hand.map((p) => p.source)).size > 1) groups.set("all hand-labelled pages", hand);
  const lines = [
    "",
    `${r.method}: user comments as clean --comments decides them (the head at the comment threshold, then the markup rule):`,
    `  ${"pages".padEnd(40)} ${"with/without".padStart(12)}  ${"comment words in main".padStart(21)}  ${"field F1".padStart(8)}  ${"field empty".padStart(11)}`,
  ];
  for (const [label, pages] of groups) {
    const decided = pages.map((p) => p.commentDecision!);
    const withComments = decided.filter((d) => d.fieldF1 !== undefined);
    const without = decided.filter((d) => d.fieldEmpty !== undefined);
    const words = withComments.reduce((a, d) => a + d.words, 0);
    const inMain = withComments.reduce((a, d) => a + d.wordsInMain, 0);
    const f1 = withComments.reduce((a, d) => a + d.fieldF1!, 0);
    const empty = without.filter((d) => d.fieldEmpty).length;
    lines.push(
      `  ${label.padEnd(40)} ${`${withComments.length}/${without.length}`.padStart(12)}  ${(words === 0 ? "-" : `${((100 * inMain) / words).toFixed(1)}%`).padStart(21)}  ${(withComments.length === 0 ? "-" : f3(f1 / withComments.length)).padStart(8)}  ${(without.length === 0 ? "-" : f3(empty / without.length)).padStart(11)}`,
    );
  }
  return lines;
}

/**
 * Mean precision, recall and F1 at every candidate threshold, and the operating points chosen from
 * them; with several sources, also each source's own F1, its best marked with *.
 */
export function formatCurves(reports: readonly EvaluationReport[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    if (r.curve === undefined || r.operatingPoints === undefined) continue;
    const points = r.operatingPoints;
    const sources = r.sourceCurves ?? [];
    const widths = sources.map(({ source }) => Math.max(6, source.length));
    const best = sources.map(({ curve }) => curve.f1.indexOf(Math.max(...curve.f1)));
    lines.push(
      "",
      `${r.method}: mean page precision / recall / F1 by keep threshold (held-out scores${r.folds ? ", all folds pooled" : ""})` +
        (sources.length > 0 ? "; then each source's F1 (* its best)" : ""),
    );
    if (sources.length > 0) {
      lines.push(
        `  ${"".padEnd(5)}  ${"P".padEnd(5)}  ${"R".padEnd(5)}  ${"F1".padEnd(5)}  ${sources.map(({ source }, i) => source.padEnd(widths[i])).join(" ")}`,
      );
    }
    r.curve.thresholds.forEach((t, k) => {
      const marks = (Object.keys(points) as Array<keyof typeof points>).filter((name) => points[name] === t);
      const perSource = sources.map(({ curve }, i) => `${f3(curve.f1[k])}${best[i] === k ? "*" : " "}`.padEnd(widths[i])).join(" ");
      lines.push(
        `  ${t.toFixed(3)}  ${f3(r.curve!.precision[k])}  ${f3(r.curve!.recall[k])}  ${f3(r.curve!.f1[k])}${sources.length > 0 ? `  ${perSource}` : ""}${marks.length ? `  <- ${marks.join(", ")}` : ""}`,
      );
    });
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
