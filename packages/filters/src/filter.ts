/**
 * A document filter: the chosen rule sets' values for one document, each rule's verdict, and on
 * request the statistics of every set (so thresholds can be chosen later without running again).
 */
import {
  type C4Stats,
  c4,
  duplicates,
  type FineWebStats,
  fineweb,
  type GopherQualityStats,
  type GopherRepetitionStats,
  gopherQuality,
  gopherRepetition,
  nonEmptyLines,
  Scratch,
} from "./measure.js";
import { passes, RULES, RULE_SETS, type Rule, type RuleSetName } from "./rules.js";
import { stopWordsFor } from "./stop-words.js";
import { splitWords } from "./words.js";

/** Per-document statistics: counts of the text written, and each rule set's values. */
export interface DocumentStats {
  /** Words (see words.ts), lines (non-empty) and characters of the text as written. */
  words: number;
  /** Of the words, single Han or kana characters. */
  cjk_words: number;
  lines: number;
  chars: number;
  gopher_quality?: GopherQualityStats;
  gopher_repetition?: GopherRepetitionStats;
  c4?: C4Stats;
  fineweb?: FineWebStats;
}

/** A rule the document failed, with its value. */
export interface RuleFailure {
  rule: string;
  value: number;
}

export interface FilterOptions {
  /** The sets whose rules decide (parseFilterNames); they run in RULE_SETS order. */
  sets: readonly RuleSetName[];
  /** Also compute every other set's values, and the counts, for the output's statistics. */
  stats?: boolean;
  /** Thresholds other than the published ones, by rule id. */
  thresholds?: ReadonlyMap<string, { min?: number; max?: number }>;
}

export interface FilterOutcome {
  /**
   * The blocks to write: the same array when no rule edited them; with C4, the kept lines of each
   * block (blocks with none are gone).
   */
  blocks: readonly string[];
  /** Each index of `blocks` in the input, when C4 edited them (for the headings that go with them). */
  kept: number[] | null;
  /** Rules failed, in RULE_SETS order then rule order; empty when the document passes. */
  failures: RuleFailure[];
  stats: DocumentStats | null;
}

/**
 * Half or more of the words single Han or kana characters: Gopher's word-length bounds (3 to 10
 * characters) were set for space-separated words and do not apply.
 */
const CJK_MAJORITY = 0.5;

export class DocumentFilter {
  readonly sets: readonly RuleSetName[];
  readonly #measured: readonly RuleSetName[];
  readonly #stats: boolean;
  readonly #rules: Readonly<Record<RuleSetName, readonly Rule[]>>;
  readonly #scratch = new Scratch();

  constructor(options: FilterOptions) {
    this.sets = RULE_SETS.filter((s) => options.sets.includes(s));
    this.#stats = options.stats === true;
    this.#measured = this.#stats ? RULE_SETS : this.sets;
    const overrides = options.thresholds;
    this.#rules = Object.fromEntries(
      RULE_SETS.map((s) => [s, RULES[s].map((r) => (overrides?.has(r.id) ? { ...r, ...overrides.get(r.id) } : r))]),
    ) as Record<RuleSetName, Rule[]>;
  }

  /** Measures `blocks` (a document's paragraphs in order) in language `lang` and judges them. */
  run(blocks: readonly string[], lang: string | undefined): FilterOutcome {
    const scratch = this.#scratch;
    const stats: DocumentStats = { words: 0, cjk_words: 0, lines: 0, chars: 0 };
    const failures: RuleFailure[] = [];
    let text = blocks.join("\n\n");
    let lines = nonEmptyLines(text);
    let words = splitWords(text, scratch.words);
    // Shared by Gopher's and FineWeb's repeated-line values while the lines stay the same.
    let lineDups = duplicates(lines);
    let out: readonly string[] = blocks;
    let kept: number[] | null = null;
    /** C4 edited the text after its words were split: only the statistics need them again. */
    let wordsStale = false;
    for (const set of this.#measured) {
      const decides = this.sets.includes(set);
      switch (set) {
        case "gopher_quality": {
          const values = gopherQuality(words, lines, text, lang);
          stats.gopher_quality = values;
          if (decides) this.#judge(set, values, failures, words.count > 0 && words.cjk / words.count >= CJK_MAJORITY, lang);
          break;
        }
        case "gopher_repetition": {
          const values = gopherRepetition(words, lines, lineDups, out, text, scratch);
          stats.gopher_repetition = values;
          if (decides) this.#judge(set, values, failures, false, lang);
          break;
        }
        case "c4": {
          const edit = c4(out, words, decides);
          stats.c4 = edit.stats;
          if (decides) {
            this.#judge(set, edit.stats, failures, false, lang);
            // The line rules edit what later sets see and what is written.
            const next: string[] = [];
            kept = [];
            for (let b = 0; b < edit.blocks.length; b++) {
              const block = edit.blocks[b];
              if (block !== null) {
                next.push(block);
                kept.push(b);
              }
            }
            out = next;
            text = next.join("\n\n");
            lines = nonEmptyLines(text);
            lineDups = duplicates(lines);
            wordsStale = true;
          }
          break;
        }
        case "fineweb": {
          const values = fineweb(lines, lineDups, text);
          stats.fineweb = values;
          if (decides) this.#judge(set, values, failures, false, lang);
          break;
        }
      }
    }
    if (!this.#stats) return { blocks: out, kept, failures, stats: null };
    if (wordsStale) words = splitWords(text, scratch.words);
    stats.words = words.count;
    stats.cjk_words = words.cjk;
    stats.lines = lines.length;
    stats.chars = text.length;
    return { blocks: out, kept, failures, stats };
  }

  #judge(set: RuleSetName, values: object, failures: RuleFailure[], cjkMajority: boolean, lang: string | undefined): void {
    const record = values as Record<string, number>;
    for (const rule of this.#rules[set]) {
      if (!applies(rule, cjkMajority, lang)) continue;
      const value = record[rule.key];
      if (!passes(rule, value)) failures.push({ rule: rule.id, value });
    }
  }
}

/** Rules that do not apply to some documents (docs/corpus.md, "Beyond English"). */
function applies(rule: Rule, cjkMajority: boolean, lang: string | undefined): boolean {
  if (rule.id === "gopher_quality.mean_word_length") return !cjkMajority;
  if (rule.id === "gopher_quality.stop_words") return hasStopWords(lang);
  return true;
}

function hasStopWords(lang: string | undefined): boolean {
  return stopWordsFor(lang) !== null;
}
