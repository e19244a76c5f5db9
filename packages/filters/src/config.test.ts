import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_KEYS, DocumentFilter, FilterConfigError, fineWebConfig, parseFilterConfig } from "./index.js";

const EXAMPLE = new URL("../../../fixtures/filter-config/fineweb.yaml", import.meta.url);

/** The error parseFilterConfig throws for `text`. */
function errorOf(text: string, options = {}): FilterConfigError {
  try {
    parseFilterConfig(text, options);
  } catch (error) {
    expect(error).toBeInstanceOf(FilterConfigError);
    return error as FilterConfigError;
  }
  throw new Error("no error");
}

describe("filter config files", () => {
  it("the complete example (every key, at FineWeb's values) is FineWeb's recipe, plus its German section", () => {
    const text = readFileSync(EXAMPLE, "utf8");
    for (const key of CONFIG_KEYS) expect(text, key).toMatch(new RegExp(`^  ${key.split(".")[1]}:`, "m"));
    const config = parseFilterConfig(text);
    const preset = fineWebConfig();
    expect(config.sets).toEqual(preset.sets);
    expect(config.settings).toEqual(preset.settings);
    for (const lang of ["zh", "ja", "tr", "ar"]) expect(config.languages[lang]).toEqual(preset.languages[lang]);
    expect(config.languages.de.rules["fineweb.line_punct_ratio"]).toEqual({ min: 0 });
    expect(config.languages.de.rules["gopher_quality.mean_word_length"]).toEqual({ min: 0, max: 15 });
    expect(config.languages.de.stopWords).toContain("für");
    // Keys the German section does not set are FineWeb's.
    expect(config.languages.de.rules["c4.sentences"]).toEqual({ min: 5 });
  });

  it("reads JSON too, and --filters takes the place of the file's list", () => {
    const config = parseFilterConfig('{"filters": ["c4"], "c4": {"min_num_sentences": 4}}', { filters: ["gopher"] });
    expect(config.sets).toEqual(["gopher_quality", "gopher_repetition"]);
    expect(config.settings.rules["c4.sentences"]).toEqual({ min: 4 });
  });

  it("names the nearest key for a misspelling, in its section or another", () => {
    const typo = errorOf("filters: [c4]\nc4:\n  min_sentences: 3\n");
    expect(typo.message).toBe("unknown key c4.min_sentences; did you mean c4.min_num_sentences?");
    expect(typo.key).toBe("c4.min_sentences");
    const moved = errorOf("filters: [fineweb]\nc4:\n  line_punct_thr: 0.1\n");
    expect(moved.message).toMatch(/did you mean fineweb_quality\.line_punct_thr\?/);
    expect(errorOf("filters: [c4]\ngopher:\n  min_doc_words: 3\n").message).toMatch(/unknown key gopher; did you mean gopher_quality\?/);
    expect(errorOf("filters: [c4]\nlanguages:\n  de:\n    c4:\n      filter_polcy: true\n").key).toBe("languages.de.c4.filter_polcy");
  });

  it("refuses wrong types and values out of range, naming the key", () => {
    const type = errorOf('filters: [c4]\nc4:\n  filter_policy: "yes"\n');
    expect(type.message).toBe('expected true or false, got the string "yes"');
    expect(type.key).toBe("c4.filter_policy");
    const range = errorOf("filters: [fineweb]\nfineweb_quality:\n  line_punct_thr: 1.5\n");
    expect(range.message).toMatch(/1.5 is out of range: expected from 0 to 1/);
    expect(range.key).toBe("fineweb_quality.line_punct_thr");
    const negative = errorOf("filters: [c4]\nc4:\n  min_num_sentences: -1\n");
    expect(negative.message).toMatch(/null switches the rule off/);
    expect(errorOf("filters: [c4]\nc4:\n  min_num_sentences: 2.5\n").message).toBe("expected a whole number, got 2.5");
    expect(errorOf("filters: [gopher]\ngopher_repetition:\n  top_n_grams: [[5, 0.1]]\n").key).toBe("gopher_repetition.top_n_grams[0][0]");
    expect(errorOf("filters: [gopher]\ngopher_repetition:\n  dup_n_grams: [[5, 0.1], [5, 0.2]]\n").message).toBe("5-grams are given twice");
    expect(errorOf("filters: [nope]\n").message).toMatch(/unknown filter nope/);
    expect(errorOf("c4: {}\n").message).toMatch(/no filter is named/);
    expect(errorOf("filters: [c4]\nc4: [1\n").message).toMatch(/^not YAML or JSON/);
    expect(errorOf("- c4\n").message).toMatch(/expected a mapping/);
  });

  it("refuses language codes the language model does not give, naming the nearest", () => {
    const isLanguage = (code: string) => ["en", "de"].includes(code);
    const nearestLanguages = (code: string) => (code === "eng" ? ["en"] : []);
    const e = errorOf("filters: [c4]\nlanguages:\n  eng:\n    c4: {}\n", { isLanguage, nearestLanguages });
    expect(e.message).toBe("eng is not a language code of the language model (lid.176); did you mean en?");
    expect(e.key).toBe("languages.eng");
  });

  it("switches rules off with null, and a config's thresholds decide on both sides", () => {
    // Five sentences on five lines of five words or more: FineWeb's C4 needs 5, so 4 fail.
    const sentences = (n: number) => Array.from({ length: n }, (_, i) => `This is sentence number ${i} of the page.`);
    const config = parseFilterConfig("filters: [c4]\nc4:\n  min_num_sentences: 5\n");
    const filter = new DocumentFilter({ sets: config.sets, config });
    expect(filter.run(sentences(5), "en").failures).toEqual([]);
    expect(filter.run(sentences(4), "en").failures).toEqual([{ rule: "c4.sentences", value: 4 }]);
    const off = parseFilterConfig("filters: [c4]\nc4:\n  min_num_sentences: null\n");
    expect(new DocumentFilter({ sets: off.sets, config: off }).run(sentences(1), "en").failures).toEqual([]);
  });

  it("C4's line switches: terminal punctuation, words per line, long words, lorem ipsum", () => {
    const run = (yaml: string, blocks: string[]) => {
      const config = parseFilterConfig(`filters: [c4]\nc4:\n${yaml}`);
      return new DocumentFilter({ sets: config.sets, config, stats: true }).run(blocks, "en");
    };
    const page = ["A heading without a full stop", "One. Two. Three sentences here."];
    expect(run("  filter_no_terminal_punct: true\n", page).blocks).toEqual(["One. Two. Three sentences here."]);
    expect(run("  filter_no_terminal_punct: false\n", page).blocks).toEqual(page);
    // Lines of 4 words: kept at min_words_per_line 4, dropped at 5.
    const four = ["Four words stand here.", "One. Two. Three sentences here."];
    expect(run("  min_words_per_line: 4\n", four).stats?.c4?.lines_too_few_words).toBe(0);
    expect(run("  min_words_per_line: 5\n", four).stats?.c4?.lines_too_few_words).toBe(1);
    const long = [`A ${"x".repeat(20)} word in this line.`, "One. Two. Three sentences here."];
    expect(run("  max_word_length: 20\n", long).stats?.c4?.lines_long_word).toBe(0);
    expect(run("  max_word_length: 19\n", long).stats?.c4?.lines_long_word).toBe(1);
    const lorem = ["Lorem ipsum dolor sit amet.", "One. Two. Three sentences here."];
    expect(run("  filter_lorem_ipsum: true\n", lorem).failures.map((f) => f.rule)).toEqual(["c4.lorem_ipsum"]);
    expect(run("  filter_lorem_ipsum: false\n", lorem).failures).toEqual([]);
  });

  it("Gopher's n-gram lists: an n left out is off; FineWeb's line length and new-line ratio", () => {
    const repeated = Array(30).fill("buy cheap shoes now").join(" ");
    const only3 = parseFilterConfig(
      "filters: [gopher_repetition]\ngopher_repetition:\n  top_n_grams: [[3, 0.18]]\n  dup_n_grams: []\n  dup_line_frac: null\n",
    );
    const failed = new DocumentFilter({ sets: only3.sets, config: only3 }).run([repeated], "en").failures.map((f) => f.rule);
    expect(failed).toEqual(["gopher_repetition.top_3gram_char_frac"]);
    // 4 lines of 10 words: 3 breaks over 40 words is 0.075.
    const lines = Array.from({ length: 4 }, (_, i) => `line ${i} has exactly ten words in it, told here.`);
    const at = parseFilterConfig("filters: [fineweb_quality]\nfineweb_quality:\n  new_line_ratio: 0.075\n  short_line_length: 10\n");
    const out = new DocumentFilter({ sets: at.sets, config: at, stats: true }).run(lines, "en");
    expect(out.stats?.fineweb?.new_line_ratio).toBe(0.075);
    expect(out.stats?.fineweb?.short_line_ratio).toBe(0);
    expect(out.failures).toEqual([]);
    const below = parseFilterConfig("filters: [fineweb_quality]\nfineweb_quality:\n  new_line_ratio: 0.07\n");
    expect(new DocumentFilter({ sets: below.sets, config: below }).run(lines, "en").failures.map((f) => f.rule)).toEqual([
      "fineweb.new_line_ratio",
    ]);
  });

  it("a stop-word list of the file's own, and line_punct_exclude_zero", () => {
    const text = [`${Array.from({ length: 60 }, (_, i) => `wort${i}`).join(" ")} und der`];
    const own = parseFilterConfig("filters: [gopher_quality]\ngopher_quality:\n  stop_words: [und, der]\n");
    expect(new DocumentFilter({ sets: own.sets, config: own }).run(text, "xx").failures).toEqual([]);
    const noList = parseFilterConfig("filters: [gopher_quality]\ngopher_quality:\n  stop_words: [the, of]\n");
    expect(new DocumentFilter({ sets: noList.sets, config: noList }).run(text, "xx").failures.map((f) => f.rule)).toEqual([
      "gopher_quality.stop_words",
    ]);
    const bare = ["no punctuation at the end of this line", "nor at the end of this one"];
    const zero = parseFilterConfig("filters: [fineweb_quality]\nfineweb_quality:\n  line_punct_exclude_zero: true\n");
    expect(new DocumentFilter({ sets: zero.sets, config: zero }).run(bare, "en").failures).toEqual([]);
    expect(new DocumentFilter({ sets: ["fineweb"] }).run(bare, "en").failures.map((f) => f.rule)).toEqual(["fineweb.line_punct_ratio"]);
  });
});
