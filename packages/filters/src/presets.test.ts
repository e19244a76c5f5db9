import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DocumentFilter, FINEWEB2_LANGUAGES, fineWebConfig, presetConfig, RULES } from "./index.js";

/**
 * FineWeb's recipe, figure by figure, written out here independently of presets.ts, each with
 * where it comes from:
 * - [G] Rae et al. 2021 (Gopher), appendix A.1.1 and table A1; the same figures are the defaults
 *   of datatrove's GopherQualityFilter and GopherRepetitionFilter, which FineWeb ran unchanged
 *   (datatrove examples/fineweb.py).
 * - [C] datatrove's C4QualityFilter defaults (min_num_sentences=5, min_words_per_line=3,
 *   max_word_length=1000), run by examples/fineweb.py with filter_no_terminal_punct=False.
 * - [F] Penedo et al. 2024 (FineWeb), section 3.4: lines ending in punctuation <= 0.12, characters
 *   in duplicated lines >= 0.1, lines shorter than 30 characters >= 0.67 remove a document.
 */
const FINEWEB_TABLE: Array<[rule: string, min: number | undefined, max: number | undefined, source: string]> = [
  ["gopher_repetition.dup_line_frac", undefined, 0.3, "G"],
  ["gopher_repetition.dup_para_frac", undefined, 0.3, "G"],
  ["gopher_repetition.dup_line_char_frac", undefined, 0.2, "G"],
  ["gopher_repetition.dup_para_char_frac", undefined, 0.2, "G"],
  ["gopher_repetition.top_2gram_char_frac", undefined, 0.2, "G"],
  ["gopher_repetition.top_3gram_char_frac", undefined, 0.18, "G"],
  ["gopher_repetition.top_4gram_char_frac", undefined, 0.16, "G"],
  ["gopher_repetition.dup_5gram_char_frac", undefined, 0.15, "G"],
  ["gopher_repetition.dup_6gram_char_frac", undefined, 0.14, "G"],
  ["gopher_repetition.dup_7gram_char_frac", undefined, 0.13, "G"],
  ["gopher_repetition.dup_8gram_char_frac", undefined, 0.12, "G"],
  ["gopher_repetition.dup_9gram_char_frac", undefined, 0.11, "G"],
  ["gopher_repetition.dup_10gram_char_frac", undefined, 0.1, "G"],
  ["gopher_quality.word_count", 50, 100_000, "G"],
  ["gopher_quality.mean_word_length", 3, 10, "G"],
  ["gopher_quality.hash_ratio", undefined, 0.1, "G"],
  ["gopher_quality.ellipsis_ratio", undefined, 0.1, "G"],
  ["gopher_quality.bullet_lines", undefined, 0.9, "G"],
  ["gopher_quality.ellipsis_lines", undefined, 0.3, "G"],
  ["gopher_quality.alpha_words", 0.8, undefined, "G"],
  ["gopher_quality.stop_words", 2, undefined, "G"],
  ["c4.lorem_ipsum", undefined, 0, "C"],
  ["c4.curly_brace", undefined, 0, "C"],
  ["c4.sentences", 5, undefined, "C"],
  ["fineweb.line_punct_ratio", 0.12, undefined, "F"],
  ["fineweb.short_line_ratio", undefined, 0.67, "F"],
  ["fineweb.dup_line_char_frac", undefined, 0.1, "F"],
];

/**
 * FineWeb 2's per-language thresholds carried over, from huggingface/fineweb-2's configs
 * (cmn_Hani.yml, jpn_Jpan.yml, tur_Latn.yml, arb_Arab.yml): line_punct_thr, dup_line_frac,
 * top 2-gram, dup 10-gram, min/max_avg_word_length, max_non_alpha_words_ratio, new_line_ratio.
 */
const FINEWEB2_TABLE: Record<string, [number, number, number, number, number, number, number, number]> = {
  zh: [0.106, 0.287, 0.256, 0.127, 1, 5, 0.735, 0.178],
  ja: [0.167, 0.375, 0.121, 0.223, 1, 5, 0.759, 0.162],
  tr: [0.2, 0.303, 0.094, 0.107, 3, 21, 0.773, 0.273],
  ar: [0.143, 0.304, 0.197, 0.109, 2, 9, 0.787, 0.189],
};

describe("--filters fineweb: FineWeb's recipe", () => {
  const config = fineWebConfig();

  it("runs every set, each rule at the figure FineWeb published", () => {
    expect(config.sets).toEqual(["gopher_quality", "gopher_repetition", "c4", "fineweb"]);
    const on = Object.entries(config.settings.rules).filter(([, b]) => b !== null);
    expect(on.map(([id]) => id).sort()).toEqual(FINEWEB_TABLE.map(([id]) => id).sort());
    for (const [id, min, max] of FINEWEB_TABLE)
      expect(config.settings.rules[id], id).toEqual({ ...(min !== undefined && { min }), ...(max !== undefined && { max }) });
    // FineWeb's own rules drop a document at the bound itself.
    expect(RULES.fineweb.filter((r) => r.strict).map((r) => r.id)).toEqual([
      "fineweb.line_punct_ratio",
      "fineweb.short_line_ratio",
      "fineweb.dup_line_char_frac",
    ]);
  });

  it("runs C4 with its terminal-punctuation line rule off and datatrove's line length, as examples/fineweb.py does", () => {
    expect(config.settings.c4).toEqual({
      removeCitations: true,
      filterNoTerminalPunct: false,
      minWordsPerLine: 3,
      maxWordLength: 1000,
      filterJavascript: true,
      filterPolicy: true,
    });
    expect(config.settings.fineweb).toEqual({ shortLineLength: 30, linePunctExcludeZero: false });
  });

  it("carries FineWeb 2's thresholds for zh, ja, tr and ar", () => {
    expect(Object.keys(config.languages).sort()).toEqual(["ar", "ja", "tr", "zh"]);
    for (const [lang, [punct, dupLine, top2, dup10, minLen, maxLen, alpha, newLine]] of Object.entries(FINEWEB2_TABLE)) {
      const r = config.languages[lang].rules;
      expect(r["fineweb.line_punct_ratio"], lang).toEqual({ min: punct });
      expect(r["gopher_repetition.dup_line_frac"], lang).toEqual({ max: dupLine });
      expect(r["gopher_repetition.top_2gram_char_frac"], lang).toEqual({ max: top2 });
      expect(r["gopher_repetition.dup_10gram_char_frac"], lang).toEqual({ max: dup10 });
      expect(r["gopher_quality.mean_word_length"], lang).toEqual({ min: minLen, max: maxLen });
      expect(r["gopher_quality.alpha_words"], lang).toEqual({ min: alpha });
      expect(r["fineweb.new_line_ratio"], lang).toEqual({ max: newLine });
      expect(config.languages[lang].stopWords?.length, lang).toBeGreaterThan(10);
      // The rest is FineWeb's.
      expect(r["c4.sentences"]).toEqual({ min: 5 });
    }
    expect(FINEWEB2_LANGUAGES.tr.file).toBe("configs/tur_Latn.yml");
  });

  it("keeps each set alone at its own published figures: c4 as its paper, fineweb_quality as FineWeb's", () => {
    const c4 = presetConfig(["c4"]);
    expect(c4.sets).toEqual(["c4"]);
    expect(c4.settings.c4.filterNoTerminalPunct).toBe(true);
    expect(c4.settings.c4.minWordsPerLine).toBe(5);
    expect(c4.settings.rules["c4.sentences"]).toEqual({ min: 3 });
    const fw = presetConfig(["fineweb_quality"]);
    expect(fw.sets).toEqual(["fineweb"]);
    expect(fw.settings.rules["fineweb.line_punct_ratio"]).toEqual({ min: 0.12 });
    expect(fw.settings.rules["fineweb.new_line_ratio"]).toBeNull();
    expect(fw.languages).toEqual({});
  });
});

/** The main text of a real page (WCXB dev, in fixtures/): headings and list items without end punctuation. */
function realPage(): string[] {
  const url = new URL("../../../fixtures/wcxb-sample/ground-truth/", import.meta.url);
  const page = JSON.parse(readFileSync(new URL("0575.json", url), "utf8"));
  return (page.ground_truth.main_content as string).split(/\n+/).filter((b) => b.trim() !== "");
}

describe("C4 within FineWeb's recipe, on a real page", () => {
  it("keeps the lines without terminal punctuation that C4 alone drops", () => {
    const blocks = realPage();
    const alone = new DocumentFilter({ sets: ["c4"], stats: true }).run(blocks, "en");
    expect(alone.stats?.c4?.lines_no_terminal_punct).toBeGreaterThan(0);
    const fw = new DocumentFilter({ sets: ["c4"], stats: true, config: fineWebConfig() }).run(blocks, "en");
    expect(fw.stats?.c4?.lines_no_terminal_punct).toBe(0);
    expect(fw.stats?.c4?.lines_kept).toBeGreaterThan(alone.stats?.c4?.lines_kept ?? 0);
  });
});
