// Flags and loading shared by `winnow eval`, `winnow train` and `winnow label`.
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { type Command, Option } from "commander";
import type { Logger } from "pino";
import { type FeatureSet, featureSetByName, TEXREX_CONTEXT, TEXREX_STRUCTURE, TEXREX37, TEXREX_EXTENDED } from "@winnow/features";
import { MLP_TRAIN_DEFAULTS } from "@winnow/models";
import { OutputError } from "@winnow/errors";
import { type LabelledPage, labelledDataPaths, loadLabelledSources, requireGoldText, sourceName } from "@winnow/evaluation";
import { readLabelDir } from "@winnow/labels";
import { classifyOutput, type NamedPath, type OutputRole } from "@winnow/writers";
import {
  BILSTM_DEFAULTS,
  DEFAULT_FEATURE_SETS,
  DEFAULT_HEADLINE_RULE,
  DEFAULT_SOURCE_BALANCE,
  type HeadlineRule,
  parseSeedSource,
  type SeedSource,
} from "@winnow/train";
import { parseCount, parseUnitInterval } from "../parse.js";

export interface TrainingFlags {
  /** Absent: the shipped model's for the kind trained (featureSetFor). */
  featureSet?: string;
  sourceBalance: number;
  headline: HeadlineRule;
  /** --no-comment-head sets it false. */
  commentHead: boolean;
  hidden?: number;
  epochs?: number;
  optimizer?: "adam" | "rprop";
  seed?: number;
  ensemble?: number;
}

/** The training flags as the pipeline's fit options. */
export function trainingOptionsFrom(flags: TrainingFlags) {
  return {
    hiddenSize: flags.hidden,
    epochs: flags.epochs,
    optimizer: flags.optimizer,
    seed: flags.seed,
    ensemble: flags.ensemble,
    sourceBalance: flags.sourceBalance,
    commentHead: flags.commentHead,
  };
}

/** --data: one or more labelled sets, each page tagged with its set's name. */
export const DATA_HELP =
  "labelled pages: folders in the WCXB layout (html/, ground-truth/, metadata.json), JSONL files of {url, html, text}, " +
  "or, with no gold, what clean reads: .html and .html.gz files, WARC/ARC archives or folders of them; several sets may be given, each one a source (named after its folder or file)";

/**
 * --feature-set. Left out, train and eval take the shipped model's (DEFAULT_FEATURE_SETS, by
 * model kind: featureSetFor); label gives its own fixed default.
 */
export function featureSetOption(command: Command, fixedDefault?: string): void {
  const option = new Option(
    "--feature-set <name>",
    `block features the MLP reads: ${TEXREX37.name} (the paper's 37), ${TEXREX_EXTENDED.name} (${TEXREX_EXTENDED.size} values), ` +
      `${TEXREX_CONTEXT.name} (${TEXREX_CONTEXT.size}: also page context and language-independent cues) ` +
      `or ${TEXREX_STRUCTURE.name} (${TEXREX_STRUCTURE.size}: also teaser cards and grids, the main text's end, captions; experimental, no shipped model reads it)` +
      (fixedDefault === undefined
        ? ` (default: ${DEFAULT_FEATURE_SETS.mlp} for the MLP, ${DEFAULT_FEATURE_SETS.bilstm} for the BiLSTM: the shipped models')`
        : ""),
  ).choices([TEXREX37.name, TEXREX_EXTENDED.name, TEXREX_CONTEXT.name, TEXREX_STRUCTURE.name]);
  command.addOption(fixedDefault === undefined ? option : option.default(fixedDefault));
}

/** The feature set a train or eval run reads: --feature-set, else the shipped model's for its kind. */
export function featureSetFor(flags: { featureSet?: string }, kind: "mlp" | "bilstm"): FeatureSet {
  return featureSetByName(flags.featureSet ?? DEFAULT_FEATURE_SETS[kind]);
}

export function trainingOptions(command: Command): void {
  command
    .option(
      "--source-balance <x>",
      `with several --data sets: 0 weighs every page the same, 1 every set the same (a small set's pages then weigh more), between them (set size)^-x per page`,
      parseUnitInterval,
      DEFAULT_SOURCE_BALANCE,
    )
    .addOption(
      new Option(
        "--headline <rule>",
        "what the page's headline (the heading matching <title>) is trained as: keep (content, as four of the five shared sets label it) or gold (as each set's gold says)",
      )
        .choices(["keep", "gold"])
        .default(DEFAULT_HEADLINE_RULE),
    )
    .option(
      "--no-comment-head",
      "MLP: train no comment head. By default, where the pages label user comments (comment gold, or comment markup on articles), a second head learns them, and what it calls a comment is kept out of the main text when that helps on validation pages",
    )
    .option(
      "--hidden <n>",
      `hidden units of the MLP (default: ${MLP_TRAIN_DEFAULTS.hiddenSize}, as the shipped model), or per direction of the BiLSTM, which also sets its projection width (default: ${BILSTM_DEFAULTS.hiddenSize})`,
      parseCount(1),
    )
    .option(
      "--epochs <n>",
      "training epochs (default: 12 for adam, 150 for rprop, 8 for the BiLSTM, which keeps its best epoch)",
      parseCount(1),
    )
    .addOption(
      new Option("--optimizer <name>", "adam (mini-batch) or rprop (full batch, as in the texrex paper)").choices(["adam", "rprop"]),
    )
    .option("--seed <n>", "random seed; the same seed and data give the same model (default: 1)", parseCount(0))
    .option(
      "--ensemble <k>",
      "train K models (MLPs, or BiLSTMs with --model bilstm) with seeds seed..seed+K-1 and average their scores, exported as one ONNX graph (default: 3)",
      parseCount(1),
    );
}

export async function loadPages(paths: readonly string[], limit: number | undefined, logger: Logger): Promise<LabelledPage[]> {
  const started = Date.now();
  const pages = await loadLabelledSources(paths, {
    limit,
    onPage: (n) => {
      if (n % 200 === 0) logger.info(`read ${n} pages`);
    },
  });
  logger.info(`read ${pages.length} labelled pages from ${paths.join(", ")} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return pages;
}

/**
 * Seeds for propagation as `--seeds` gives them (hand:DIR reads the label files).
 * `seed` draws the revealed labels of reveal:F.
 */
export async function seedSource(spec: string, seed: number): Promise<SeedSource> {
  const parsed = parseSeedSource(spec, seed);
  return parsed.kind === "hand" ? { kind: "hand", files: await readLabelDir(parsed.dir) } : parsed;
}

export const SEEDS_HELP =
  "where propagation starts: heuristic (markup rules), snippets (blocks holding a WCXB with/without snippet), " +
  "reveal:F (a random share F of the alignment labels; needs gold text) or hand:DIR (label files; null entries are open)";

/**
 * Checks a folder output (label files, per-host models) before anything is read: "-" is a usage
 * error, and a file or device already at the path is an OutputError. The folder itself is
 * created when its first file is written.
 */
export async function checkFolderOutput(path: string, role: OutputRole): Promise<void> {
  const target = await classifyOutput(path, { ...role, stdout: false });
  if (target.kind === "directory" || (target.kind === "file" && !existsSync(target.file))) return;
  throw new OutputError(`cannot create ${role.what}: a file is in the way, not a folder`, path);
}

/** The labelled data a command reads (see labelledDataPaths), named by its flag, for refuseOutputsOverInputs. */
export async function dataInputs(data: readonly string[], flag = "--data"): Promise<NamedPath[]> {
  const inputs: NamedPath[] = [];
  for (const set of data) inputs.push(...(await labelledDataPaths(set)).map((path) => ({ path, flag })));
  return inputs;
}

/**
 * Why --loso cannot run on these --data paths (eval and train alike), or undefined when it can.
 * eval's --held-out must name --data sets (by folder or file name, as the figures are keyed),
 * checked before any page is read.
 */
export function losoProblem(flags: { loso?: boolean; data: readonly string[]; heldOut?: readonly string[] }): string | undefined {
  if (flags.loso && flags.data.length < 2) return "--loso leaves one source out, so it needs two or more --data sets";
  if (flags.heldOut === undefined) return undefined;
  if (!flags.loso) return "--held-out names the sets --loso leaves out, so it needs --loso";
  const names = flags.data.map(sourceName);
  const unknown = flags.heldOut.filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    return `--held-out: no --data set is named ${unknown.map((n) => `"${n}"`).join(", ")} (the sets: ${names.join(", ")})`;
  }
  return undefined;
}

/** requireGoldText for each --data set's own pages, so the message names the set. */
export function requireGoldTextPerSet(pages: readonly LabelledPage[], data: readonly string[], warn: (message: string) => void): void {
  for (const set of data) {
    const name = sourceName(set);
    requireGoldText(
      pages.filter((p) => p.source === name),
      set,
      warn,
    );
  }
}

/** A folder of label files and the files in it, as inputs named by `flag`. */
export async function labelFolderInputs(dir: string, flag: string): Promise<NamedPath[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return [dir, ...names.filter((n) => n.endsWith(".labels.json")).map((n) => join(dir, n))].map((path) => ({ path, flag }));
}
