/**
 * `winnow dedup`: flags in, runDedup, a summary line (or JSON) and an exit status out. All the
 * work is in @winnow/dedup-stage; this file only translates.
 */
import { type Command, InvalidArgumentError, Option } from "commander";
import { DEFAULT_MINHASH } from "@winnow/dedup";
import {
  checkedInputs,
  DEDUP_KINDS,
  DEDUP_PASSES,
  type DedupKind,
  type DedupPass,
  type DedupSummary,
  DEFAULT_SETTINGS,
  runDedup,
} from "@winnow/dedup-stage";
import { EXIT } from "@winnow/errors";
import { EXIT_CODES_HELP, ExitWith } from "../exit-codes.js";
import { createLogger } from "../logger.js";
import { lockDedupTask } from "./dedup-paths.js";
import { interruptOnSignals } from "../signals.js";
import { parseCount, parseUnitInterval } from "../parse.js";

interface DedupFlags {
  output: string;
  state?: string;
  kinds: DedupKind[];
  pass?: DedupPass;
  shard?: number[];
  band?: string[];
  rank?: number;
  worldSize?: number;
  skipIncomplete?: boolean;
  bands: number;
  rows: number;
  shingle: number;
  seed: number;
  minSimilarity: number;
  lineThreshold: number;
  minWords: number;
  textField: string;
  rejects?: string;
  json?: boolean;
}

const PASSES_HELP = `
Passes (docs/dedup.md):
  signatures  one task per input (--shard): each document's exact hash, MinHash signature, band
              keys and line hashes, written to the state folder in sorted runs
  buckets     one task per band (--band exact, 0 .. bands-1): the band's keys of all inputs merged
              from disk; documents sharing a key are compared on their whole signature and paired
  clusters    one task: union-find over the pairs; each cluster keeps its first document in the
              stable order (inputs in the order given, folders' files by name, rows in file order);
              with lines, the lines of kept documents counted
  filter      one task per input (--shard): the input written to the output folder without its
              duplicates (and frequent lines), rejects lines to the state folder
  Without --pass every task of every pass runs, in order. A task whose done marker is in the
  state folder is skipped, so running the same command again after an interruption resumes.
  Tasks on several machines share one state folder (or copy it between passes); every task
  checks that its inputs and settings are the plan's, and that each input it reads is the file
  the plan recorded (size, modification time, content hash): a changed input is exit status 3.

Array tasks (--pass P --world-size N):
  task R of N does the items i of its pass with i mod N = R: the inputs (in the plan's order)
  for signatures and filter, the band tasks (exact, 0 .. bands-1) for buckets; clusters is one
  task. R is --rank, or else from the scheduler: SLURM_ARRAY_TASK_ID (with SLURM_ARRAY_TASK_MIN/
  MAX or _COUNT), JOB_COMPLETION_INDEX (Kubernetes, with --world-size), AWS_BATCH_JOB_ARRAY_INDEX
  (with --world-size or WINNOW_WORLD_SIZE).

Inputs: folders are read recursively, files in the byte order of their paths inside the folder;
  only JSONL (.gz, .zst) and Parquet files, not done markers, manifests, rejects or hidden files.
  In a folder written by winnow clean --paths-file, an output without its done marker (or one
  still being staged) is refused unless --skip-incomplete. A file reached twice is read once.`;

/** "exact,minhash" → kinds. */
function parseKinds(value: string): DedupKind[] {
  const kinds = value.split(",").map((k) => k.trim());
  for (const k of kinds)
    if (!(DEDUP_KINDS as readonly string[]).includes(k)) throw new InvalidArgumentError(`expected a list of ${DEDUP_KINDS.join(", ")}`);
  return [...new Set(kinds)] as DedupKind[];
}

/** "0,3,5" → [0, 3, 5]. */
function parseShards(value: string): number[] {
  return value.split(",").map((s) => parseCount(0)(s.trim()));
}

function parseBands(value: string): string[] {
  const bands = value.split(",").map((b) => b.trim());
  if (bands.some((b) => b !== "exact" && !/^\d+$/.test(b)))
    throw new InvalidArgumentError('expected band numbers or "exact", separated by commas');
  return bands;
}

export function registerDedup(program: Command): void {
  program
    .command("dedup")
    .summary("drop exact and near-duplicate documents and repeated lines across the outputs of winnow clean")
    .description(
      "Read outputs of winnow clean (JSONL, .jsonl.gz, .jsonl.zst or Parquet) and write each again to the output folder without " +
        "documents that duplicate an earlier one: the same normalised text (exact; case, accents, punctuation, digits and spacing folded), " +
        "or MinHash LSH near duplicates (word 5-gram shingles, 14 bands x 8 rows, candidates checked on the whole signature); " +
        "optionally without lines found in many documents (CCNet). Works in passes over files on disk, in bounded memory.",
    )
    .argument(
      "[input...]",
      "output files of winnow clean, or folders of them (read recursively, as winnow clean --paths-file writes them); may be left out once the state folder has a plan",
    )
    .requiredOption(
      "-o, --output <dir>",
      "folder the deduplicated inputs are written to, one file per input with the input's name, or its path inside a folder given (a Parquet input as .jsonl)",
    )
    .option("--state <dir>", "folder of the passes' files, the plan and the done markers (default: <output>/.dedup)")
    .addOption(
      new Option("--kinds <list>", "what to remove: exact, minhash (near duplicates), lines (frequent lines), separated by commas")
        .argParser(parseKinds)
        .default([...DEFAULT_SETTINGS.kinds], DEFAULT_SETTINGS.kinds.join(",")),
    )
    .addOption(new Option("--pass <pass>", "run only this pass (default: all, in order)").choices(DEDUP_PASSES))
    .option("--shard <n,...>", "with --pass signatures or filter: only these inputs, numbered from 0 in the plan's order", parseShards)
    .option("--band <b,...>", 'with --pass buckets: only these bands ("exact", 0 .. bands-1)', parseBands)
    .option(
      "--rank <r>",
      "with --pass: this task's rank, from 0 (default: from the scheduler's environment, when there is one)",
      parseCount(0),
    )
    .option(
      "--world-size <n>",
      "with --pass: split the pass's items (inputs, or band tasks) over this many tasks, item i to the task of rank i mod n",
      parseCount(1),
    )
    .option(
      "--skip-incomplete",
      "go on without the outputs of a per-input run that are not marked done (default: refuse them and name them, exit status 3)",
    )
    .option("--bands <n>", "MinHash bands", parseCount(1), DEFAULT_MINHASH.bands)
    .option("--rows <n>", "MinHash rows per band (bands x rows hash functions)", parseCount(1), DEFAULT_MINHASH.rows)
    .option("--shingle <n>", "words per shingle", parseCount(1), DEFAULT_MINHASH.shingle)
    .option("--seed <n>", "seed of the MinHash functions", parseCount(0, 0xffffffff), DEFAULT_MINHASH.seed)
    .option(
      "--min-similarity <x>",
      "a candidate pair is a near duplicate when its signatures agree on at least this share of positions (estimated Jaccard); 0 takes every LSH candidate",
      parseUnitInterval,
      DEFAULT_SETTINGS.minSimilarity,
    )
    .option(
      "--line-threshold <n>",
      "with lines: a line in more than this many kept documents is removed from all of them",
      parseCount(1),
      DEFAULT_SETTINGS.lineThreshold,
    )
    .option("--min-words <n>", "with lines: a document left with fewer words is dropped", parseCount(0), DEFAULT_SETTINGS.minWords)
    .option("--text-field <name>", "the field holding the text", DEFAULT_SETTINGS.textField)
    .option(
      "--rejects <file>",
      'once every filter task is done, gather one JSON line per dropped document, and per document that lost lines: {source, row, id, url, reason: "duplicate", kind, duplicate_of, detail}',
    )
    .option("--json", "print the summary as one JSON object on standard output")
    .addHelpText("after", `${PASSES_HELP}\n${EXIT_CODES_HELP}`)
    .action((inputs: string[], flags: DedupFlags) => dedup(inputs, flags));
}

async function dedup(inputs: string[], flags: DedupFlags): Promise<void> {
  // One format per stream, as for clean: JSON lines where stderr is not a terminal.
  const logger = createLogger("info");
  // Before anything is written: no output over an input (the inputs listed once, for this check
  // and the run), and this task not running already.
  const paths = { inputs, output: flags.output, state: flags.state, rejectsPath: flags.rejects };
  const checked = await checkedInputs(paths);
  const locks = await lockDedupTask({ ...flags });
  const interrupt = interruptOnSignals(logger, "stopping after the task under way; run the same command again to resume");
  let summary: DedupSummary;
  try {
    summary = await runDedup({
      ...paths,
      checked,
      pass: flags.pass,
      shards: flags.shard,
      bands: flags.band,
      shard: { rank: flags.rank, worldSize: flags.worldSize },
      skipIncomplete: flags.skipIncomplete === true,
      signal: interrupt.signal,
      settings: {
        kinds: flags.kinds,
        minhash: { bands: flags.bands, rows: flags.rows, shingle: flags.shingle, seed: flags.seed },
        minSimilarity: flags.minSimilarity,
        lineThreshold: flags.lineThreshold,
        minWords: flags.minWords,
        textField: flags.textField,
      },
    });
  } finally {
    interrupt.dispose();
    await Promise.allSettled(locks.map((lock) => lock.release()));
  }
  if (summary.incomplete.length > 0) {
    logger.warn(
      { incomplete: summary.incomplete },
      `left out ${summary.incomplete.length} output(s) not marked done (--skip-incomplete): ${summary.incomplete.slice(0, 5).join(", ")}${summary.incomplete.length > 5 ? ", ..." : ""}`,
    );
  }
  if (summary.repeated.length > 0)
    logger.info({ repeated: summary.repeated }, `read once: ${summary.repeated.length} input(s) given twice (${summary.repeated[0]} ...)`);
  if (flags.json === true) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  logger.info({ summary }, summaryLine(summary));
  if (summary.interrupted) throw new ExitWith(EXIT.interrupted);
}

/** "dedup: read 92 documents, kept 49; dropped 9 exact, 34 near, 0 lines; ..." */
export function summaryLine(s: DedupSummary): string {
  const parts: string[] = [];
  if (s.documents > 0) {
    parts.push(
      `read ${s.documents} documents, kept ${s.kept}; dropped ${s.dropped.exact} exact, ${s.dropped.near} near duplicates, ` +
        `${s.dropped.lines} left too short by line removal; ${s.linesRemoved} lines removed from ${s.documentsEdited} documents`,
    );
  }
  const j = s.jaccard;
  if (j !== null && s.documents > 0) {
    parts.push(
      `near duplicates' estimated Jaccard with the document kept (${j.pairs} sampled): min ${j.min.toFixed(2)}, median ${j.median.toFixed(2)}`,
    );
  }
  if (s.shard !== null) parts.push(`task ${s.shard.rank} of ${s.shard.worldSize} (${s.shard.source})`);
  const done = s.passesDone.length === 0 ? "no pass complete" : `passes complete: ${s.passesDone.join(", ")}`;
  parts.push(
    `${s.tasksRun} tasks run, ${s.tasksSkipped} done before; ${done}; ${s.cpuSeconds.toFixed(1)} CPU s; peak RSS ${(s.peakRssBytes / 1e6).toFixed(0)} MB; output ${s.output}`,
  );
  return `${s.interrupted ? "interrupted: " : ""}dedup: ${parts.join("; ")}`;
}
