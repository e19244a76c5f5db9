/**
 * What a filter run is told: each rule's bounds (or none: the rule is off), the parameters of the
 * measures that are not bounds (C4's line rules, FineWeb's short-line length), and a stop-word
 * list. Plain data, so that a run's settings cross to its worker threads as they are. The
 * published defaults come from the rule table (rules.ts); presets.ts and config.ts build others.
 */
import { type Bounds, RULE_SETS, RULES, type RuleSetName } from "./rules.js";

/** C4's line rules: which of them run, and their parameters (datatrove's C4QualityFilter's names in the config file). */
export interface C4LineRules {
  /** Remove "[1]", "[edit]", "[citation needed]" before the punctuation test. */
  removeCitations: boolean;
  /** Drop lines that do not end in terminal punctuation, or end in "...". */
  filterNoTerminalPunct: boolean;
  /** Drop lines of fewer words; 0 keeps them all. */
  minWordsPerLine: number;
  /** Drop lines holding a longer word; null keeps them all. */
  maxWordLength: number | null;
  /** Drop lines mentioning javascript. */
  filterJavascript: boolean;
  /** Drop lines about terms of use, privacy and cookies. */
  filterPolicy: boolean;
}

export interface FineWebMeasures {
  /** A line of at most this many characters is short. */
  shortLineLength: number;
  /** A document with no line ending in punctuation passes the line-punctuation rule (datatrove's line_punct_exclude_zero). */
  linePunctExcludeZero: boolean;
}

export interface FilterSettings {
  /** Every rule id: its bounds, or null when the rule is off (its value is still measured and recorded). */
  rules: Record<string, Bounds | null>;
  c4: C4LineRules;
  fineweb: FineWebMeasures;
  /** Stop words for gopher_quality.stop_words instead of the language's list (FineWeb 2 publishes one per language). */
  stopWords: string[] | null;
}

/** A whole filter configuration: the sets that decide, the settings, and the settings of languages that differ. */
export interface FilterConfig {
  sets: RuleSetName[];
  settings: FilterSettings;
  /** By lid.176 label: the settings documents identified in that language get. */
  languages: Record<string, FilterSettings>;
}

/** The published defaults: every rule's bounds from the rule table, C4 as its paper, FineWeb as its paper. */
export function defaultSettings(): FilterSettings {
  const rules: Record<string, Bounds | null> = {};
  for (const set of RULE_SETS) {
    for (const r of RULES[set]) {
      rules[r.id] =
        r.min === undefined && r.max === undefined
          ? null
          : { ...(r.min !== undefined && { min: r.min }), ...(r.max !== undefined && { max: r.max }) };
    }
  }
  return {
    rules,
    c4: {
      removeCitations: true,
      filterNoTerminalPunct: true,
      minWordsPerLine: 5,
      maxWordLength: 1000,
      filterJavascript: true,
      filterPolicy: true,
    },
    fineweb: { shortLineLength: 30, linePunctExcludeZero: false },
    stopWords: null,
  };
}

/** A deep copy, to edit without touching the original. */
export function copySettings(s: FilterSettings): FilterSettings {
  return structuredClone(s);
}
