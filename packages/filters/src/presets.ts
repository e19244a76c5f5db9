/**
 * What the names of `--filters` stand for: the sets that decide and the settings they decide
 * with. Every name but `fineweb` keeps each set's own published defaults (rules.ts, settings.ts);
 * `fineweb` is FineWeb's recipe as its authors ran it, and the per-language thresholds FineWeb 2
 * published for the languages this project can test. docs/corpus.md has the same figures with
 * their sources, and presets.test.ts checks them against a table of its own.
 */
import { type FilterName, filterName, parseFilterNames } from "./rules.js";
import { copySettings, defaultSettings, type FilterConfig, type FilterSettings } from "./settings.js";

/**
 * FineWeb (Penedo et al. 2024, section 3.4, and the pipeline it published, datatrove's
 * examples/fineweb.py): Gopher repetition and quality with datatrove's defaults (the Gopher
 * paper's figures), C4 with datatrove's C4QualityFilter defaults (5 sentences, lines of at least
 * 3 words) and its terminal-punctuation line rule off (`filter_no_terminal_punct=False`), then
 * FineWeb's three rules with the paper's thresholds.
 */
export function fineWebSettings(): FilterSettings {
  const s = defaultSettings();
  s.c4.filterNoTerminalPunct = false;
  s.c4.minWordsPerLine = 3;
  s.rules["c4.sentences"] = { min: 5 };
  return s;
}

/** FineWeb 2's published per-language thresholds (huggingface/fineweb-2, configs/<lang>_<script>.yml). */
interface FineWeb2Language {
  dup_line_frac: number;
  /** [2-gram, 3-gram, 4-gram] */
  top_n_grams: [number, number, number];
  /** [5-gram, ..., 10-gram] */
  dup_n_grams: [number, number, number, number, number, number];
  line_punct_thr: number;
  min_avg_word_length: number;
  max_avg_word_length: number;
  max_non_alpha_words_ratio: number;
  new_line_ratio: number;
  stopwords: string[];
}

/**
 * The languages carried over: those the tests have real pages of (fixtures/magic-html-sample:
 * Chinese, Japanese, Turkish, Arabic). From huggingface/fineweb-2 configs/cmn_Hani.yml,
 * jpn_Jpan.yml, tur_Latn.yml and arb_Arab.yml; lid.176 labels them zh, ja, tr, ar.
 */
export const FINEWEB2_LANGUAGES: Readonly<Record<string, { file: string; values: FineWeb2Language }>> = {
  zh: {
    file: "configs/cmn_Hani.yml",
    values: {
      dup_line_frac: 0.287,
      top_n_grams: [0.256, 0.201, 0.171],
      dup_n_grams: [0.198, 0.182, 0.167, 0.154, 0.14, 0.127],
      line_punct_thr: 0.106,
      min_avg_word_length: 1,
      max_avg_word_length: 5,
      max_non_alpha_words_ratio: 0.735,
      new_line_ratio: 0.178,
      stopwords: [
        "的",
        "年",
        "在",
        "月",
        "是",
        "和",
        "日",
        "了",
        "於",
        "·",
        "為",
        "有",
        "被",
        "人",
        "中",
        "为",
        "他",
        "與",
        "後",
        "也",
        "而",
        "由",
      ],
    },
  },
  ja: {
    file: "configs/jpn_Jpan.yml",
    values: {
      dup_line_frac: 0.375,
      top_n_grams: [0.121, 0.129, 0.145],
      dup_n_grams: [0.307, 0.283, 0.264, 0.248, 0.234, 0.223],
      line_punct_thr: 0.167,
      min_avg_word_length: 1,
      max_avg_word_length: 5,
      max_non_alpha_words_ratio: 0.759,
      new_line_ratio: 0.162,
      stopwords: ["の", "に", "を", "は", "た", "て", "が", "と", "で", "年", "し", "・", "月", "れ", "さ"],
    },
  },
  tr: {
    file: "configs/tur_Latn.yml",
    values: {
      dup_line_frac: 0.303,
      top_n_grams: [0.094, 0.114, 0.136],
      dup_n_grams: [0.168, 0.151, 0.135, 0.123, 0.116, 0.107],
      line_punct_thr: 0.2,
      min_avg_word_length: 3,
      max_avg_word_length: 21,
      max_non_alpha_words_ratio: 0.773,
      new_line_ratio: 0.273,
      stopwords: [
        "ve",
        "bir",
        "olarak",
        "bu",
        "ile",
        "için",
        "olan",
        "da",
        "de",
        "tarafından",
        "yılında",
        "sonra",
        "en",
        "daha",
        "ilk",
        "the",
      ],
    },
  },
  ar: {
    file: "configs/arb_Arab.yml",
    values: {
      dup_line_frac: 0.304,
      top_n_grams: [0.197, 0.172, 0.146],
      dup_n_grams: [0.165, 0.153, 0.142, 0.131, 0.12, 0.109],
      line_punct_thr: 0.143,
      min_avg_word_length: 2,
      max_avg_word_length: 9,
      max_non_alpha_words_ratio: 0.787,
      new_line_ratio: 0.189,
      stopwords: [
        "،",
        "في",
        "من",
        "على",
        "إلى",
        "عام",
        "أن",
        "مع",
        "أو",
        "هو",
        "عن",
        "التي",
        "كان",
        "بين",
        "ما",
        "كانت",
        "هي",
        "المتحدة",
        "بعد",
      ],
    },
  },
};

/** `base` with a FineWeb 2 language's thresholds in place of its own. */
function withFineWeb2(base: FilterSettings, v: FineWeb2Language): FilterSettings {
  const s = copySettings(base);
  s.rules["gopher_repetition.dup_line_frac"] = { max: v.dup_line_frac };
  v.top_n_grams.forEach((max, i) => {
    s.rules[`gopher_repetition.top_${i + 2}gram_char_frac`] = { max };
  });
  v.dup_n_grams.forEach((max, i) => {
    s.rules[`gopher_repetition.dup_${i + 5}gram_char_frac`] = { max };
  });
  s.rules["fineweb.line_punct_ratio"] = { min: v.line_punct_thr };
  s.rules["gopher_quality.mean_word_length"] = { min: v.min_avg_word_length, max: v.max_avg_word_length };
  s.rules["gopher_quality.alpha_words"] = { min: v.max_non_alpha_words_ratio };
  s.rules["fineweb.new_line_ratio"] = { max: v.new_line_ratio };
  s.stopWords = [...v.stopwords];
  return s;
}

/** The FineWeb recipe for every language, with FineWeb 2's thresholds for those carried over. */
export function fineWebConfig(): FilterConfig {
  const settings = fineWebSettings();
  return { sets: parseFilterNames(["fineweb"]), settings, languages: fineWeb2Languages(settings) };
}

/** FineWeb 2's languages, each `base` with that language's thresholds in place. */
function fineWeb2Languages(base: FilterSettings): Record<string, FilterSettings> {
  const languages: Record<string, FilterSettings> = {};
  for (const [lang, { values }] of Object.entries(FINEWEB2_LANGUAGES)) languages[lang] = withFineWeb2(base, values);
  return languages;
}

/**
 * The per-language settings that `names` carry, on top of `base` (a preset's settings as a config
 * file changed them): a file's keys reach every language, except where the preset has a
 * language's own figure.
 */
export function presetLanguages(names: readonly string[], base: FilterSettings): Record<string, FilterSettings> {
  return names.map(filterName).includes("fineweb") ? fineWeb2Languages(base) : {};
}

/**
 * The configuration `--filters a,b` names: with `fineweb` among them, FineWeb's recipe (which holds
 * every set); otherwise the named sets with their published defaults. Throws a RangeError for an
 * unknown name.
 */
export function presetConfig(names: readonly string[]): FilterConfig {
  const sets = parseFilterNames(names);
  const canonical = names.map(filterName).filter((n): n is FilterName => n !== null);
  if (canonical.includes("fineweb")) return fineWebConfig();
  return { sets, settings: defaultSettings(), languages: {} };
}
