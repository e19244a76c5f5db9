/**
 * `winnow stats --rules`: what each rule would drop at its threshold over the corpus (documents
 * and words), with the thresholds of --filters and --filter-config, or every set's published ones.
 * Kept apart from stats.ts so that the rest of the command reads as before.
 */
import type { Command } from "commander";
import { presetConfig, RuleReport, type RuleReportJson } from "@winnow/filters";
import type { CorpusRow } from "@winnow/writers";
import { filterConfigOf } from "./filter-config.js";
import { parseFilters } from "./filter-names.js";

export interface RuleFlags {
  rules?: boolean;
  filters?: string[];
  filterConfig?: string;
}

export function addRuleOptions(command: Command): Command {
  return command
    .option("--rules", "also measure every document and report what each rule would drop at its threshold (documents and words)")
    .option(
      "--filters <sets>",
      "with --rules: the sets and thresholds to report, as winnow clean takes them (default: every set, published thresholds)",
      parseFilters,
    )
    .option("--filter-config <file>", "with --rules: a filter config file, as winnow clean takes it");
}

/** The report the flags ask for, or null (--filters or --filter-config alone ask for it too). */
export async function ruleReportOf(flags: RuleFlags): Promise<RuleReport | null> {
  if (flags.rules !== true && flags.filters === undefined && flags.filterConfig === undefined) return null;
  const config =
    flags.filters === undefined && flags.filterConfig === undefined
      ? presetConfig(["gopher", "c4", "fineweb_quality"])
      : await filterConfigOf(flags);
  return config === undefined ? null : new RuleReport(config);
}

/** Adds a corpus row: its text and language. */
export function addRow(report: RuleReport, row: CorpusRow): void {
  const text = typeof row.text === "string" ? row.text : "";
  report.add(text, typeof row.lang === "string" ? row.lang : undefined);
}

const number = (n: number): string => n.toLocaleString("en-US");
const percent = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** The table: one line per rule, then the documents failing any. */
export function ruleTable(r: RuleReportJson): string {
  const rows = r.rules.map((d) => [d.rule, d.fails, number(d.documents), percent(d.share), number(d.words), percent(d.wordsShare)]);
  rows.push(["any rule", "", number(r.any.documents), percent(r.any.share), number(r.any.words), percent(r.any.wordsShare)]);
  const head = ["rule", "fails when", "documents", "share", "words", "share"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ")}`.trimEnd();
  return `\nwhat each rule would drop, of ${number(r.documents)} documents and ${number(r.words)} words (--rules)\n${[head, ...rows].map(line).join("\n")}\n`;
}
