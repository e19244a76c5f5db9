/**
 * What each rule would drop over a corpus (`winnow stats --rules`): every document is measured and
 * judged as a clean run would (C4's line edits included), and each rule that is on counts the
 * documents that fail it, and their words. A user can then see what a threshold costs before
 * choosing it. Documents are added one at a time, so memory does not grow with the corpus.
 */
import { DocumentFilter } from "./filter.js";
import { RULE_SETS, RULES } from "./rules.js";
import type { FilterConfig } from "./settings.js";
import { splitWords, Words } from "./words.js";

export interface RuleDrop {
  rule: string;
  /** The bound, as "< 50", "> 0.3", "<= 0.12" (a strict rule fails at the bound itself); per-language bounds may differ. */
  fails: string;
  documents: number;
  /** documents / all documents, 0 to 1 (4 decimals). */
  share: number;
  words: number;
  wordsShare: number;
}

export interface RuleReportJson {
  documents: number;
  words: number;
  /** Every rule that is on, in the order the sets run. */
  rules: RuleDrop[];
  /** Documents that fail at least one rule, and their words. */
  any: { documents: number; words: number; share: number; wordsShare: number };
}

function share(n: number, of: number): number {
  return of === 0 ? 0 : Math.round((n / of) * 1e4) / 1e4;
}

/** "< 50 or > 100000": when a value fails the bounds. */
function failsWhen(min: number | undefined, max: number | undefined, strict: boolean): string {
  const parts: string[] = [];
  if (min !== undefined) parts.push(`${strict ? "<=" : "<"} ${min}`);
  if (max !== undefined) parts.push(`${strict ? ">=" : ">"} ${max}`);
  return parts.join(" or ");
}

export class RuleReport {
  readonly #filter: DocumentFilter;
  readonly #rules: Array<{ id: string; fails: string; documents: number; words: number }>;
  readonly #index = new Map<string, number>();
  readonly #words = new Words();
  #documents = 0;
  #totalWords = 0;
  #failing = 0;
  #failingWords = 0;

  constructor(config: FilterConfig) {
    this.#filter = new DocumentFilter({ sets: config.sets, config });
    this.#rules = [];
    for (const set of RULE_SETS) {
      if (!config.sets.includes(set)) continue;
      for (const rule of RULES[set]) {
        const bounds = config.settings.rules[rule.id];
        const onForSomeLanguage = Object.values(config.languages).some((s) => s.rules[rule.id] != null);
        if ((bounds === null || bounds === undefined) && !onForSomeLanguage) continue;
        this.#index.set(rule.id, this.#rules.length);
        this.#rules.push({
          id: rule.id,
          fails: failsWhen(bounds?.min, bounds?.max, rule.strict === true) || "(per language)",
          documents: 0,
          words: 0,
        });
      }
    }
  }

  /** Measures and judges one document: its text as written (paragraphs separated by a blank line) and its language. */
  add(text: string, lang: string | undefined): void {
    const words = splitWords(text, this.#words).count;
    this.#documents++;
    this.#totalWords += words;
    const blocks = text.split(/\n[ \t]*\n+/).filter((b) => b.trim() !== "");
    const { failures } = this.#filter.run(blocks, lang);
    if (failures.length === 0) return;
    this.#failing++;
    this.#failingWords += words;
    for (const f of failures) {
      const at = this.#index.get(f.rule);
      if (at === undefined) continue;
      this.#rules[at].documents++;
      this.#rules[at].words += words;
    }
  }

  toJSON(): RuleReportJson {
    return {
      documents: this.#documents,
      words: this.#totalWords,
      rules: this.#rules.map((r) => ({
        rule: r.id,
        fails: r.fails,
        documents: r.documents,
        share: share(r.documents, this.#documents),
        words: r.words,
        wordsShare: share(r.words, this.#totalWords),
      })),
      any: {
        documents: this.#failing,
        words: this.#failingWords,
        share: share(this.#failing, this.#documents),
        wordsShare: share(this.#failingWords, this.#totalWords),
      },
    };
  }
}
