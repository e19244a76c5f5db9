/**
 * The rule sets and their rules: every rule is a value computed from the document and a bound
 * on it (min, max, or both), with the threshold its source publishes as the default. docs/corpus.md
 * lists them with their sources; this table is what the code and that page share.
 */

/**
 * The rule sets, in the order they run. Their ids prefix the rule ids ("fineweb.short_line_ratio")
 * and key the statistics; `--filters` names FineWeb's three rules `fineweb_quality` (datatrove's
 * FineWebQualityFilter), since `fineweb` names FineWeb's whole recipe (presets.ts).
 */
export const RULE_SETS = ["gopher_quality", "gopher_repetition", "c4", "fineweb"] as const;
export type RuleSetName = (typeof RULE_SETS)[number];

/**
 * What `--filters` accepts: "gopher" for both Gopher sets, each set alone (FineWeb's three rules as
 * fineweb_quality), and "fineweb" for FineWeb's recipe: every set, with FineWeb's settings.
 */
export const FILTER_NAMES = ["gopher", "gopher_quality", "gopher_repetition", "c4", "fineweb_quality", "fineweb"] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

export interface Rule {
  /** "<set>.<value>": the value's key in the document statistics, and the rule's name in rejects. */
  readonly id: string;
  readonly set: RuleSetName;
  /** The value's key within its set's statistics. */
  readonly key: string;
  /** The document fails when the value is below min or above max (the published defaults; absent: no bound). */
  readonly min?: number;
  readonly max?: number;
  /** The bound itself fails too (FineWeb's rules: "ratio <= 0.12" drops a document). */
  readonly strict?: boolean;
  /** What the value is, in words. */
  readonly about: string;
}

function rule(set: RuleSetName, key: string, bounds: { min?: number; max?: number; strict?: boolean }, about: string): Rule {
  return { id: `${set}.${key}`, set, key, ...bounds, about };
}

/**
 * Gopher quality filter: Rae et al. 2021, "Scaling Language Models: Methods, Analysis & Insights
 * from Training Gopher", section A.1.1, with the defaults of datatrove's GopherQualityFilter.
 */
const GOPHER_QUALITY: readonly Rule[] = [
  rule("gopher_quality", "word_count", { min: 50, max: 100_000 }, "words that are not symbols alone"),
  rule("gopher_quality", "mean_word_length", { min: 3, max: 10 }, "mean length of those words, in characters"),
  rule("gopher_quality", "hash_ratio", { max: 0.1 }, '"#" per word'),
  rule("gopher_quality", "ellipsis_ratio", { max: 0.1 }, '"..." and "…" per word'),
  rule("gopher_quality", "bullet_lines", { max: 0.9 }, "share of lines starting with a bullet"),
  rule("gopher_quality", "ellipsis_lines", { max: 0.3 }, "share of lines ending with an ellipsis"),
  rule("gopher_quality", "alpha_words", { min: 0.8 }, "share of words with a letter"),
  rule("gopher_quality", "stop_words", { min: 2 }, "stop words of the document's language"),
];

/** Gopher repetition filter: Rae et al. 2021, table A1, as datatrove's GopherRepetitionFilter computes it. */
const GOPHER_REPETITION: readonly Rule[] = [
  rule("gopher_repetition", "dup_line_frac", { max: 0.3 }, "share of lines that repeat an earlier line"),
  rule("gopher_repetition", "dup_para_frac", { max: 0.3 }, "share of paragraphs that repeat an earlier one"),
  rule("gopher_repetition", "dup_line_char_frac", { max: 0.2 }, "characters in repeated lines, over all characters"),
  rule("gopher_repetition", "dup_para_char_frac", { max: 0.2 }, "characters in repeated paragraphs, over all characters"),
  rule("gopher_repetition", "top_2gram_char_frac", { max: 0.2 }, "characters in the most frequent word 2-gram"),
  rule("gopher_repetition", "top_3gram_char_frac", { max: 0.18 }, "characters in the most frequent word 3-gram"),
  rule("gopher_repetition", "top_4gram_char_frac", { max: 0.16 }, "characters in the most frequent word 4-gram"),
  rule("gopher_repetition", "dup_5gram_char_frac", { max: 0.15 }, "characters in repeated word 5-grams"),
  rule("gopher_repetition", "dup_6gram_char_frac", { max: 0.14 }, "characters in repeated word 6-grams"),
  rule("gopher_repetition", "dup_7gram_char_frac", { max: 0.13 }, "characters in repeated word 7-grams"),
  rule("gopher_repetition", "dup_8gram_char_frac", { max: 0.12 }, "characters in repeated word 8-grams"),
  rule("gopher_repetition", "dup_9gram_char_frac", { max: 0.11 }, "characters in repeated word 9-grams"),
  rule("gopher_repetition", "dup_10gram_char_frac", { max: 0.1 }, "characters in repeated word 10-grams"),
];

/**
 * C4: Raffel et al. 2020, "Exploring the Limits of Transfer Learning with a Unified Text-to-Text
 * Transformer", section 2.2. The line rules edit the text (a dropped line is gone from the output);
 * their values are counts of lines dropped and never fail a document. The page rules below do.
 */
const C4: readonly Rule[] = [
  rule("c4", "lorem_ipsum", { max: 0 }, '1 when a kept line holds "lorem ipsum"'),
  rule("c4", "curly_brace", { max: 0 }, '1 when a kept line holds "{"'),
  rule("c4", "sentences", { min: 3 }, "sentences in the kept lines"),
];

/**
 * FineWeb: Penedo et al. 2024, "The FineWeb Datasets", section 3.4, the three custom filters with
 * their published thresholds; the bound itself drops a document, as the paper and its code say
 * ("<= 0.12", ">= 0.67", ">= 0.1"). The fourth value, line breaks per word, is datatrove's
 * FineWebQualityFilter's new_line_ratio: no bound by default (the paper does not list it), set
 * by a filter config or FineWeb 2's per-language thresholds.
 */
const FINEWEB: readonly Rule[] = [
  rule("fineweb", "line_punct_ratio", { min: 0.12, strict: true }, "share of lines ending in terminal punctuation"),
  rule("fineweb", "short_line_ratio", { max: 0.67, strict: true }, "share of lines of at most 30 characters"),
  rule("fineweb", "dup_line_char_frac", { max: 0.1, strict: true }, "characters in repeated lines, over all characters but line breaks"),
  rule("fineweb", "new_line_ratio", { strict: false }, "line breaks between non-empty lines, per word"),
];

export const RULES: Readonly<Record<RuleSetName, readonly Rule[]>> = {
  gopher_quality: GOPHER_QUALITY,
  gopher_repetition: GOPHER_REPETITION,
  c4: C4,
  fineweb: FINEWEB,
};

/** Every rule by id. */
export const RULE_BY_ID: ReadonlyMap<string, Rule> = new Map(RULE_SETS.flatMap((s) => RULES[s].map((r) => [r.id, r] as const)));

/** The sets each name of `--filters` stands for. */
const SETS_OF: Readonly<Record<FilterName, readonly RuleSetName[]>> = {
  gopher: ["gopher_quality", "gopher_repetition"],
  gopher_quality: ["gopher_quality"],
  gopher_repetition: ["gopher_repetition"],
  c4: ["c4"],
  fineweb_quality: ["fineweb"],
  fineweb: RULE_SETS,
};

/** A name of `--filters` as written ("Gopher-Quality") in its canonical form, or null. */
export function filterName(raw: string): FilterName | null {
  const name = raw.trim().toLowerCase().replace(/-/g, "_");
  return (FILTER_NAMES as readonly string[]).includes(name) ? (name as FilterName) : null;
}

/**
 * The sets that `--filters a,b` names, in the fixed order they run (Gopher first, as FineWeb's
 * pipeline runs them, so that C4's line edits come after the Gopher rules have seen the whole
 * text). Throws a RangeError naming the unknown ones.
 */
export function parseFilterNames(names: readonly string[]): RuleSetName[] {
  const wanted = new Set<RuleSetName>();
  const unknown: string[] = [];
  for (const raw of names) {
    if (raw.trim() === "") continue;
    const name = filterName(raw);
    if (name === null) unknown.push(raw);
    else for (const set of SETS_OF[name]) wanted.add(set);
  }
  if (unknown.length > 0) throw new RangeError(`unknown filter ${unknown.join(", ")}: the filters are ${FILTER_NAMES.join(", ")}`);
  return RULE_SETS.filter((s) => wanted.has(s));
}

/** A rule's bounds as a run uses them: the published ones, or a filter config's. */
export interface Bounds {
  readonly min?: number;
  readonly max?: number;
}

/** Whether `value` passes `bounds` (strict: the bound itself fails). */
export function passes(bounds: Bounds & { readonly strict?: boolean }, value: number, strict = bounds.strict === true): boolean {
  if (strict) return (bounds.min === undefined || value > bounds.min) && (bounds.max === undefined || value < bounds.max);
  return (bounds.min === undefined || value >= bounds.min) && (bounds.max === undefined || value <= bounds.max);
}
