/**
 * `winnow stats`: what a corpus written by `winnow clean` holds (documents, words, languages,
 * the rules that dropped or flagged documents, length histograms), as a table or as JSON. The
 * reading is @winnow/writers' readCorpus, the counting @winnow/filters' CorpusSummary; this file
 * only translates and prints.
 */
import { stat } from "node:fs/promises";
import type { Command } from "commander";
import { InputError, systemReason } from "@winnow/errors";
import { CorpusSummary, type CorpusSummaryJson, type Histogram } from "@winnow/filters";
import { type CorpusRow, listCorpusTree, readCorpus, someOf } from "@winnow/writers";
import { EXIT_CODES_HELP } from "../exit-codes.js";
import { addRow, addRuleOptions, type RuleFlags, ruleReportOf, ruleTable } from "./stats-rules.js";

interface StatsFlags extends RuleFlags {
  rejects?: string[];
  json?: boolean;
}

export function registerStats(program: Command): void {
  const command = program
    .command("stats")
    .summary("summarise a corpus written by winnow clean: documents, words, languages, filter drops, lengths")
    .description(
      "Read outputs of winnow clean (JSONL, .jsonl.gz, .jsonl.zst or Parquet) and print documents, words and characters, " +
        "documents per language, documents that failed each rule (filter_failed, written with --keep-filtered), " +
        "records dropped by reason and by rule (from --rejects files) and histograms of document lengths.",
    )
    .argument(
      "<corpus...>",
      "output files of winnow clean or dedup (.jsonl, .jsonl.gz, .jsonl.zst, .parquet), or folders of them (read recursively: a per-input tree counts the outputs marked done)",
    )
    .option("--rejects <file...>", "rejects files of the same runs (winnow clean --rejects): drops by reason and by rule")
    .option("--json", "print one JSON object instead of the table")
    .addHelpText("after", EXIT_CODES_HELP);
  addRuleOptions(command).action((corpus: string[], flags: StatsFlags) => stats(corpus, flags));
}

async function stats(corpus: string[], flags: StatsFlags): Promise<void> {
  const summary = new CorpusSummary();
  const rules = await ruleReportOf(flags);
  // Folders as dedup reads them: every corpus file below, each once, a per-input tree's outputs
  // only where marked done. What is left out is said, so a partial crawl is not taken for whole.
  const listing = await listCorpusTree(corpus);
  if (listing.incomplete.length > 0) {
    process.stderr.write(
      `winnow: ${listing.incomplete.length} output(s) not marked done were left out (a clean task failed, was killed or is still running): ${someOf(listing.incomplete)}\n`,
    );
  }
  for (const { shown } of listing.files)
    await each(shown, corpusRowProblem, (row) => {
      summary.addDocument(row);
      if (rules !== null) addRow(rules, row);
    });
  for (const path of flags.rejects ?? []) await each(path, rejectsRowProblem, (row) => summary.addReject(row));
  const json = rules === null ? summary.toJSON() : { ...summary.toJSON(), wouldDrop: rules.toJSON() };
  process.stdout.write(
    flags.json === true ? `${JSON.stringify(json, null, 2)}\n` : table(json) + (rules === null ? "" : ruleTable(rules.toJSON())),
  );
}

/**
 * Every row of `path`; a file that cannot be read or parsed is an InputError naming it, and so is
 * one whose rows are not what the slot takes (`problem`: a rejects file given as the corpus, ...).
 */
async function each(path: string, problem: (row: CorpusRow) => string | null, add: (row: CorpusRow) => void): Promise<void> {
  try {
    await stat(path);
  } catch (error) {
    throw new InputError(`cannot read: ${systemReason(error)}`, path, { cause: error });
  }
  let n = 0;
  try {
    for await (const row of readCorpus(path)) {
      n++;
      const wrong = problem(row);
      if (wrong !== null) throw new InputError(`${wrong} (row ${n})`, path);
      add(row);
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`not a winnow output (JSONL or Parquet): ${(error as Error).message}`, path, { cause: error });
  }
}

/** What a file whose rows are not documents looks like, to say so: the other outputs winnow writes beside a corpus. */
function lookalike(row: CorpusRow): string | null {
  if (typeof row.reason === "string" && "record_id" in row) return "a rejects file (winnow clean --rejects; give it with --rejects)";
  if ((row.type === "input" || row.type === "part") && typeof row.run === "string") return "a run manifest (winnow clean --resume)";
  return null;
}

/** Why a row of a corpus argument is no document of winnow clean's, or null. */
function corpusRowProblem(row: CorpusRow): string | null {
  if (typeof row.text === "string" && typeof row.url === "string") return null;
  const like = lookalike(row);
  return `not a corpus written by winnow clean: ${like === null ? "a row without url and text" : `this looks like ${like}`}`;
}

/** Why a row of a --rejects file is no rejects line, or null. */
function rejectsRowProblem(row: CorpusRow): string | null {
  if (typeof row.reason === "string") return null;
  const like = typeof row.text === "string" ? "a corpus (give it as an argument, not with --rejects)" : lookalike(row);
  return `not a rejects file of winnow clean: ${like === null ? "a row without a reason" : `this looks like ${like}`}`;
}

const number = (n: number): string => n.toLocaleString("en-US");

/** Two aligned columns under a heading; nothing when there are no rows. */
function section(title: string, rows: Array<[string, string]>): string {
  if (rows.length === 0) return "";
  const width = Math.max(...rows.map(([k]) => k.length));
  return `\n${title}\n${rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v.padStart(10)}`).join("\n")}\n`;
}

function share(n: number, of: number): string {
  return of === 0 ? "" : ` ${((100 * n) / of).toFixed(1).padStart(5)}%`;
}

/** Buckets between the first and last non-empty one, with a bar of up to 40 characters. */
function histogram(title: string, h: Histogram): string {
  const first = h.count.findIndex((c) => c > 0);
  if (first === -1) return "";
  const last = h.count.length - 1 - [...h.count].reverse().findIndex((c) => c > 0);
  const max = Math.max(...h.count);
  const rows: Array<[string, string]> = [];
  for (let b = first; b <= last; b++) {
    const label = b + 1 < h.from.length ? `${number(h.from[b])}-${number(h.from[b + 1] - 1)}` : `${number(h.from[b])}+`;
    rows.push([label, `${number(h.count[b])} ${"#".repeat(Math.round((40 * h.count[b]) / max))}`]);
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  const countWidth = Math.max(...rows.map(([, v]) => v.indexOf(" ")));
  return `\n${title}\n${rows
    .map(([k, v]) => {
      const [count, bar] = [v.slice(0, v.indexOf(" ")), v.slice(v.indexOf(" ") + 1)];
      return `  ${k.padStart(width)}  ${count.padStart(countWidth)} ${bar}`;
    })
    .join("\n")}\n`;
}

function table(s: CorpusSummaryJson): string {
  const perDoc = (n: number) => (s.documents === 0 ? "0" : (n / s.documents).toFixed(0));
  let out = section("corpus", [
    ["documents", number(s.documents)],
    ["words", `${number(s.words)}`],
    ["characters", `${number(s.chars)}`],
    ["words per document", perDoc(s.words)],
  ]);
  out += section(
    "languages",
    Object.entries(s.languages).map(([lang, n]) => [lang, `${number(n)}${share(n, s.documents)}`]),
  );
  out += section(
    `rules failed by documents written (--keep-filtered; ${number(s.documentsFailing)} documents failed one or more)`,
    Object.entries(s.failedByRule).map(([rule, n]) => [rule, `${number(n)}${share(n, s.documents)}`]),
  );
  const rejected = Object.values(s.rejected).reduce((a, b) => a + b, 0);
  out += section(
    "records dropped, by reason (--rejects)",
    Object.entries(s.rejected).map(([reason, n]) => [reason, `${number(n)}${share(n, rejected)}`]),
  );
  out += section(
    "documents dropped, by the first rule they failed (--rejects)",
    Object.entries(s.droppedByRule).map(([rule, n]) => [rule, number(n)]),
  );
  out += histogram("words per document", s.wordsHistogram);
  out += histogram("characters per document", s.charsHistogram);
  return out.slice(1);
}
