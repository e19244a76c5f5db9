/**
 * Filter config files (`winnow clean --filter-config FILE`): YAML, or JSON (which YAML reads too),
 * with every threshold and switch under the name datatrove's filter classes give it, per set:
 *
 *   filters: [fineweb]                 # the sets that decide, as --filters names them (--filters wins)
 *   gopher_quality: { min_doc_words: 50, max_doc_words: null, ... }
 *   c4: { filter_no_terminal_punct: false, min_num_sentences: 5, ... }
 *   languages: { de: { fineweb_quality: { line_punct_thr: 0.0 } } }
 *
 * A key sets its value on top of what the named filters start from (presets.ts); null switches a
 * rule off. Every mistake is a FilterConfigError naming the key (the nearest known one for a
 * misspelling), so the command can say which file and key to fix.
 */
import { createRequire } from "node:module";
import type { parse as parseYaml } from "yaml";
import { presetConfig, presetLanguages } from "./presets.js";
import { type Bounds, FILTER_NAMES, type RuleSetName } from "./rules.js";
import { copySettings, type FilterConfig, type FilterSettings } from "./settings.js";

/** A mistake in a filter config: what is wrong, and the key it is at ("c4.min_num_sentences"; "" for the file as a whole). */
export class FilterConfigError extends Error {
  readonly key: string;
  constructor(message: string, key: string) {
    super(message);
    this.name = "FilterConfigError";
    this.key = key;
  }
}

type Setter = (s: FilterSettings, value: unknown, key: string) => void;

/** A threshold: a number in [low, high] (an integer when asked), or null for off. */
function bound(rules: readonly string[], side: "min" | "max", low: number, high: number, integer = false): Setter {
  return (s, value, key) => {
    if (value === null) {
      for (const r of rules) s.rules[r] = withoutSide(s.rules[r], side);
      return;
    }
    const x = number(value, key, low, high, integer);
    for (const r of rules) s.rules[r] = { ...(s.rules[r] ?? {}), [side]: x };
  };
}

/** `bounds` without one side; null when nothing is left (the rule is off). */
function withoutSide(bounds: Bounds | null, side: "min" | "max"): Bounds | null {
  if (bounds === null) return null;
  const rest: { min?: number; max?: number } = { ...bounds };
  delete rest[side];
  return rest.min === undefined && rest.max === undefined ? null : rest;
}

function number(value: unknown, key: string, low: number, high: number, integer: boolean): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new FilterConfigError(`expected ${integer ? "a whole number" : "a number"} or null (off), got ${describe(value)}`, key);
  }
  if (integer && !Number.isInteger(value)) throw new FilterConfigError(`expected a whole number, got ${value}`, key);
  if (value < low || value > high) {
    const range = high === Number.POSITIVE_INFINITY ? `at least ${low}` : `from ${low} to ${high}`;
    throw new FilterConfigError(`${value} is out of range: expected ${range} (null switches the rule off)`, key);
  }
  return value;
}

function boolean(value: unknown, key: string): boolean {
  if (typeof value !== "boolean") throw new FilterConfigError(`expected true or false, got ${describe(value)}`, key);
  return value;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  return String(value);
}

/** A page rule of C4 switched on (value 0 allowed: a kept line with the phrase fails) or off. */
function pageSwitch(rule: string): Setter {
  return (s, value, key) => {
    s.rules[rule] = boolean(value, key) ? { max: 0 } : null;
  };
}

/**
 * Gopher's n-gram rules as datatrove takes them: a list of [n, fraction] pairs; an n left out of
 * the list (or null for the whole list) is off.
 */
function ngrams(kind: "top" | "dup", from: number, to: number): Setter {
  const id = (n: number) => `gopher_repetition.${kind}_${n}gram_char_frac`;
  return (s, value, key) => {
    for (let n = from; n <= to; n++) s.rules[id(n)] = null;
    if (value === null) return;
    if (!Array.isArray(value))
      throw new FilterConfigError(`expected a list of [n, fraction] pairs (n from ${from} to ${to}), got ${describe(value)}`, key);
    const seen = new Set<number>();
    value.forEach((pair, i) => {
      const at = `${key}[${i}]`;
      if (!Array.isArray(pair) || pair.length !== 2)
        throw new FilterConfigError(`expected a pair [n, fraction], got ${describe(pair)}`, at);
      const n = number(pair[0], `${at}[0]`, from, to, true);
      if (seen.has(n)) throw new FilterConfigError(`${n}-grams are given twice`, at);
      seen.add(n);
      s.rules[id(n)] = { max: number(pair[1], `${at}[1]`, 0, 1, false) };
    });
  };
}

const ANY = Number.POSITIVE_INFINITY;

/** Every key of a filter config, by section, as datatrove's filter classes name their parameters. */
const SECTIONS: Readonly<Record<string, { set: RuleSetName; keys: Readonly<Record<string, Setter>> }>> = {
  gopher_quality: {
    set: "gopher_quality",
    keys: {
      min_doc_words: bound(["gopher_quality.word_count"], "min", 0, ANY, true),
      max_doc_words: bound(["gopher_quality.word_count"], "max", 0, ANY, true),
      min_avg_word_length: bound(["gopher_quality.mean_word_length"], "min", 0, ANY),
      max_avg_word_length: bound(["gopher_quality.mean_word_length"], "max", 0, ANY),
      max_symbol_word_ratio: bound(["gopher_quality.hash_ratio", "gopher_quality.ellipsis_ratio"], "max", 0, ANY),
      max_bullet_lines_ratio: bound(["gopher_quality.bullet_lines"], "max", 0, 1),
      max_ellipsis_lines_ratio: bound(["gopher_quality.ellipsis_lines"], "max", 0, 1),
      // datatrove's name, though it bounds the share of words WITH a letter from below.
      max_non_alpha_words_ratio: bound(["gopher_quality.alpha_words"], "min", 0, 1),
      min_stop_words: bound(["gopher_quality.stop_words"], "min", 0, ANY, true),
      stop_words: (s, value, key) => {
        if (value === null) {
          s.stopWords = null;
          return;
        }
        if (!Array.isArray(value) || value.length === 0 || value.some((w) => typeof w !== "string" || w.trim() === "")) {
          throw new FilterConfigError("expected a list of words, or null for the language's own list", key);
        }
        s.stopWords = value.map((w) => (w as string).trim());
      },
    },
  },
  gopher_repetition: {
    set: "gopher_repetition",
    keys: {
      dup_line_frac: bound(["gopher_repetition.dup_line_frac"], "max", 0, 1),
      dup_para_frac: bound(["gopher_repetition.dup_para_frac"], "max", 0, 1),
      dup_line_char_frac: bound(["gopher_repetition.dup_line_char_frac"], "max", 0, 1),
      dup_para_char_frac: bound(["gopher_repetition.dup_para_char_frac"], "max", 0, 1),
      top_n_grams: ngrams("top", 2, 4),
      dup_n_grams: ngrams("dup", 5, 10),
    },
  },
  c4: {
    set: "c4",
    keys: {
      remove_citations: (s, v, k) => {
        s.c4.removeCitations = boolean(v, k);
      },
      filter_no_terminal_punct: (s, v, k) => {
        s.c4.filterNoTerminalPunct = boolean(v, k);
      },
      min_num_sentences: bound(["c4.sentences"], "min", 0, ANY, true),
      min_words_per_line: (s, v, k) => {
        s.c4.minWordsPerLine = v === null ? 0 : number(v, k, 0, ANY, true);
      },
      max_word_length: (s, v, k) => {
        s.c4.maxWordLength = v === null ? null : number(v, k, 1, ANY, true);
      },
      filter_lorem_ipsum: pageSwitch("c4.lorem_ipsum"),
      filter_javascript: (s, v, k) => {
        s.c4.filterJavascript = boolean(v, k);
      },
      filter_curly_bracket: pageSwitch("c4.curly_brace"),
      filter_policy: (s, v, k) => {
        s.c4.filterPolicy = boolean(v, k);
      },
    },
  },
  fineweb_quality: {
    set: "fineweb",
    keys: {
      line_punct_thr: bound(["fineweb.line_punct_ratio"], "min", 0, 1),
      line_punct_exclude_zero: (s, v, k) => {
        s.fineweb.linePunctExcludeZero = boolean(v, k);
      },
      short_line_thr: bound(["fineweb.short_line_ratio"], "max", 0, 1),
      short_line_length: (s, v, k) => {
        s.fineweb.shortLineLength = number(v, k, 0, ANY, true);
      },
      char_duplicates_ratio: bound(["fineweb.dup_line_char_frac"], "max", 0, 1),
      new_line_ratio: bound(["fineweb.new_line_ratio"], "max", 0, ANY),
    },
  },
};

/** Every key a config may hold, "section.key", for suggestions. */
export const CONFIG_KEYS: readonly string[] = Object.entries(SECTIONS).flatMap(([section, { keys }]) =>
  Object.keys(keys).map((k) => `${section}.${k}`),
);

const TOP_LEVEL = ["filters", ...Object.keys(SECTIONS), "languages"];

// The YAML parser is loaded on first use (synchronously, as the parse is): it costs about 50 ms
// of CPU to load, in every `winnow clean` process, and only --filter-config reads YAML.
const require = createRequire(import.meta.url);
let yamlParse: typeof parseYaml | undefined;
const yaml = (): typeof parseYaml => (yamlParse ??= (require("yaml") as { parse: typeof parseYaml }).parse);

export interface ConfigFileOptions {
  /** Names from --filters, which take the place of the file's `filters`. */
  filters?: readonly string[];
  /** Whether a language code is one documents can be labelled with (lid.176's labels). */
  isLanguage?: (code: string) => boolean;
  /** The known language codes nearest to an unknown one, for the message. */
  nearestLanguages?: (code: string) => string[];
}

/**
 * Reads a filter config's text: the sets that decide (--filters, else the file's `filters`),
 * starting from what those names stand for, with the file's keys on top, and its languages'
 * keys on top of that. Throws FilterConfigError.
 */
export function parseFilterConfig(text: string, options: ConfigFileOptions = {}): FilterConfig {
  let doc: unknown;
  try {
    doc = yaml()(text);
  } catch (error) {
    throw new FilterConfigError(`not YAML or JSON: ${(error as Error).message.split("\n")[0]}`, "");
  }
  if (doc === null || doc === undefined) doc = {};
  const top = mapping(doc, "");
  for (const key of Object.keys(top)) {
    if (!TOP_LEVEL.includes(key)) throw unknownKey(key, TOP_LEVEL, "");
  }
  const names = options.filters ?? filterNames(top.filters);
  if (names.length === 0) {
    throw new FilterConfigError(`no filter is named: give --filters, or a filters: list (${FILTER_NAMES.join(", ")})`, "filters");
  }
  const preset = presetConfig(names);
  const settings = copySettings(preset.settings);
  applySections(settings, top, "");
  // A preset's own per-language figures go on top of the file's, and the file's languages on top of those.
  const languages = presetLanguages(names, settings);
  if (top.languages !== undefined && top.languages !== null) {
    for (const [lang, body] of Object.entries(mapping(top.languages, "languages"))) {
      if (options.isLanguage !== undefined && !options.isLanguage(lang)) {
        const near = options.nearestLanguages?.(lang) ?? [];
        const hint = near.length > 0 ? `; did you mean ${near.join(" or ")}?` : "";
        throw new FilterConfigError(`${lang} is not a language code of the language model (lid.176)${hint}`, `languages.${lang}`);
      }
      const s = copySettings(languages[lang] ?? settings);
      applySections(s, mapping(body, `languages.${lang}`), `languages.${lang}.`);
      languages[lang] = s;
    }
  }
  return { sets: preset.sets, settings, languages };
}

function filterNames(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = typeof value === "string" ? value.split(",") : value;
  if (!Array.isArray(list) || list.some((n) => typeof n !== "string")) {
    throw new FilterConfigError(`expected a list of filter names (${FILTER_NAMES.join(", ")})`, "filters");
  }
  try {
    presetConfig(list as string[]);
  } catch (error) {
    throw new FilterConfigError((error as Error).message, "filters");
  }
  return list as string[];
}

function mapping(value: unknown, key: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new FilterConfigError(`expected a mapping of keys to values, got ${describe(value)}`, key);
  }
  return value as Record<string, unknown>;
}

/** Applies the four sections of `body` (a file, or one language of it) to `s`. */
function applySections(s: FilterSettings, body: Record<string, unknown>, prefix: string): void {
  for (const [section, content] of Object.entries(body)) {
    if (section === "filters" || section === "languages") {
      if (prefix !== "") throw new FilterConfigError(`${section} is a top-level key, not one of a language`, `${prefix}${section}`);
      continue;
    }
    const known = SECTIONS[section];
    if (known === undefined) throw unknownKey(section, Object.keys(SECTIONS), prefix);
    if (content === null) continue;
    for (const [key, value] of Object.entries(mapping(content, `${prefix}${section}`))) {
      const set = known.keys[key];
      if (set === undefined) throw unknownKey(key, Object.keys(known.keys), `${prefix}${section}.`);
      set(s, value, `${prefix}${section}.${key}`);
    }
  }
}

/** "unknown key c4.min_sentences; did you mean c4.min_num_sentences?" */
function unknownKey(key: string, candidates: readonly string[], prefix: string): FilterConfigError {
  let best = nearest(key, candidates);
  // A key of another section (line_punct_thr under c4) is worth naming in full.
  const elsewhere = nearest(
    key,
    CONFIG_KEYS.map((k) => k.split(".")[1]),
  );
  let where = prefix;
  if ((best === null || distance(key, best) > distance(key, elsewhere ?? "")) && elsewhere !== null) {
    const full = CONFIG_KEYS.find((k) => k.endsWith(`.${elsewhere}`)) ?? elsewhere;
    best = full;
    where = prefix.replace(/[a-z0-9_]+\.$/, "");
  }
  const hint = best === null ? `; the keys here are ${candidates.join(", ")}` : `; did you mean ${where}${best}?`;
  return new FilterConfigError(`unknown key ${prefix}${key}${hint}`, `${prefix}${key}`);
}

/** The candidate nearest `word` in edit distance, when it is near enough to be a misspelling. */
function nearest(word: string, candidates: readonly string[]): string | null {
  // "gopher" for "gopher_quality": a name cut short is no misspelling, but names its key.
  const longer = candidates.find((c) => c.startsWith(`${word}_`));
  if (longer !== undefined) return longer;
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const d = distance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(best.length / 3)) ? best : null;
}

/** Levenshtein distance. */
export function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}
