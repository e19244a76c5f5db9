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
import { defaultSettings, type FilterConfig, type FilterSettings } from "./settings.js";
import { type StopWordList, stopWordList, stopWordsFor } from "./stop-words.js";
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
  /** Thresholds, switches and measures other than the published ones (presets.ts, config.ts), with per-language ones. */
  config?: Pick<FilterConfig, "settings" | "languages">;
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
  readonly #settings: Judging;
  readonly #languages: ReadonlyMap<string, Judging>;
  readonly #scratch = new Scratch();

  constructor(options: FilterOptions) {
    this.sets = RULE_SETS.filter((s) => options.sets.includes(s));
    this.#stats = options.stats === true;
    this.#measured = this.#stats ? RULE_SETS : this.sets;
    this.#settings = readyToJudge(options.config?.settings ?? defaultSettings());
    this.#languages = new Map(Object.entries(options.config?.languages ?? {}).map(([lang, s]) => [lang, readyToJudge(s)]));
  }

  /** Measures `blocks` (a document's paragraphs in order) in language `lang` and judges them. */
  run(blocks: readonly string[], lang: string | undefined): FilterOutcome {
    const scratch = this.#scratch;
    const judging = (lang !== undefined ? this.#languages.get(lang) : undefined) ?? this.#settings;
    const stats: DocumentStats = { words: 0, cjk_words: 0, lines: 0, chars: 0 };
    const failures: RuleFailure[] = [];
    let text = blocks.join("\n\n");
    let lines = nonEmptyLines(text);
    let words = splitWords(text, scratch.words);
    // Shared by Gopher's and FineWeb's repeated-line values while the lines stay the same.
    let lineDups = duplicates(lines);
    let out: readonly string[] = blocks;
    let kept: number[] | null = null;
    /** C4 edited the text after its words were split: FineWeb's values and the statistics need them again. */
    let wordsStale = false;
    for (const set of this.#measured) {
      const decides = this.sets.includes(set);
      switch (set) {
        case "gopher_quality": {
          const list = judging.stopWords ?? stopWordsFor(lang);
          const values = gopherQuality(words, lines, text, list);
          stats.gopher_quality = values;
          if (decides) judge(judging, set, values, failures, words.count > 0 && words.cjk / words.count >= CJK_MAJORITY, list !== null);
          break;
        }
        case "gopher_repetition": {
          const values = gopherRepetition(words, lines, lineDups, out, text, scratch);
          stats.gopher_repetition = values;
          if (decides) judge(judging, set, values, failures, false, true);
          break;
        }
        case "c4": {
          const edit = c4(out, words, judging.settings.c4, decides);
          stats.c4 = edit.stats;
          if (decides) {
            judge(judging, set, edit.stats, failures, false, true);
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
          if (wordsStale) {
            words = splitWords(text, scratch.words);
            wordsStale = false;
          }
          const values = fineweb(lines, lineDups, text, words.count, judging.settings.fineweb);
          stats.fineweb = values;
          if (decides) judgeFineWeb(judging, values, failures);
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
}

/** Settings made ready for judging: the stop-word list built once. */
interface Judging {
  settings: FilterSettings;
  stopWords: StopWordList | null;
}

function readyToJudge(settings: FilterSettings): Judging {
  return { settings, stopWords: settings.stopWords === null ? null : stopWordList(settings.stopWords) };
}

/** Adds the rules of `set` that `values` fail (rules switched off, or not applying, are passed over). */
function judge(s: Judging, set: RuleSetName, values: object, failures: RuleFailure[], cjkMajority: boolean, hasStopWords: boolean): void {
  const record = values as Record<string, number>;
  for (const rule of RULES[set]) {
    const bounds = s.settings.rules[rule.id];
    if (bounds === null || bounds === undefined || !applies(rule, cjkMajority, hasStopWords)) continue;
    const value = record[rule.key];
    if (!passes(bounds, value, rule.strict === true)) failures.push({ rule: rule.id, value });
  }
}

/** FineWeb's rules, where a document with no line ending in punctuation may pass (line_punct_exclude_zero). */
function judgeFineWeb(s: Judging, values: FineWebStats, failures: RuleFailure[]): void {
  const before = failures.length;
  judge(s, "fineweb", values, failures, false, true);
  if (s.settings.fineweb.linePunctExcludeZero && values.line_punct_ratio === 0) {
    const at = failures.findIndex((f, i) => i >= before && f.rule === "fineweb.line_punct_ratio");
    if (at !== -1) failures.splice(at, 1);
  }
}

/** Rules that do not apply to some documents (docs/corpus.md, "Beyond English"). */
function applies(rule: Rule, cjkMajority: boolean, hasStopWords: boolean): boolean {
  if (rule.id === "gopher_quality.mean_word_length") return !cjkMajority;
  if (rule.id === "gopher_quality.stop_words") return hasStopWords;
  return true;
}
