import { describe, expect, it } from "vitest";
import { DocumentFilter, defaultSettings, parseFilterNames, type RuleSetName } from "./index.js";

/** Runs one set over `blocks` and returns the set's values and the rules that failed. */
function judge(set: RuleSetName, blocks: string[], lang = "en") {
  const outcome = new DocumentFilter({ sets: [set], stats: true }).run(blocks, lang);
  const values = outcome.stats?.[set] as unknown as Record<string, number>;
  return { values, failed: outcome.failures.map((f) => f.rule), outcome };
}

/** n distinct ordinary words ("w0001 w0002 ..."), 5 characters each. */
function distinctWords(n: number, prefix = "w"): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, "0")}`);
}

/** A prose paragraph of `n` words holding exactly two stop words and no repeats. */
function prose(n: number): string {
  return ["the", "of", ...distinctWords(n - 2)].join(" ");
}

describe("parseFilterNames", () => {
  it("expands gopher, keeps the fixed order and refuses unknown names", () => {
    expect(parseFilterNames(["fineweb_quality", "c4", "gopher"])).toEqual(["gopher_quality", "gopher_repetition", "c4", "fineweb"]);
    expect(parseFilterNames(["fineweb_quality"])).toEqual(["fineweb"]);
    // FineWeb's recipe holds every set.
    expect(parseFilterNames(["fineweb"])).toEqual(["gopher_quality", "gopher_repetition", "c4", "fineweb"]);
    expect(parseFilterNames(["gopher-quality"])).toEqual(["gopher_quality"]);
    expect(() => parseFilterNames(["gopher", "refinedweb"])).toThrow(/unknown filter refinedweb/);
  });
});

describe("Gopher quality", () => {
  it("word count: 50 passes, 49 fails; symbols are not words", () => {
    expect(judge("gopher_quality", [prose(50)]).failed).toEqual([]);
    const r = judge("gopher_quality", [`${prose(49)} - | -`]);
    expect(r.values.word_count).toBe(49);
    expect(r.failed).toEqual(["gopher_quality.word_count"]);
  });

  it("word count: 100,000 passes, 100,001 fails", () => {
    const words = (n: number) => ["the", "of", ...Array.from({ length: n - 2 }, (_, i) => `w${i}`)].join(" ");
    expect(judge("gopher_quality", [words(100_000)]).failed).toEqual([]);
    const over = judge("gopher_quality", [words(100_001)]);
    expect(over.values.word_count).toBe(100_001);
    expect(over.failed).toEqual(["gopher_quality.word_count"]);
  });

  it("mean word length: 3 and 10 pass, below 3 and above 10 fail", () => {
    const words = (len: number) => [
      "the",
      "of",
      ...Array.from({ length: 58 }, (_, i) => String.fromCharCode(97 + (i % 26)).repeat(len) + i),
    ];
    // Word i is `len` letters plus its number (1 or 2 digits); the mean is measured, then judged.
    const short = judge("gopher_quality", [words(1).join(" ")]);
    expect(short.values.mean_word_length).toBeLessThan(3);
    expect(short.failed).toContain("gopher_quality.mean_word_length");
    const long = judge("gopher_quality", [words(10).join(" ")]);
    expect(long.values.mean_word_length).toBeGreaterThan(10);
    expect(long.failed).toContain("gopher_quality.mean_word_length");
    const three = judge("gopher_quality", [["the", "and", ...Array.from({ length: 58 }, () => "cat")].join(" ")]);
    expect(three.values.mean_word_length).toBe(3);
    expect(three.failed).not.toContain("gopher_quality.mean_word_length");
    const ten = judge("gopher_quality", [["the", "and", ...Array.from({ length: 58 }, () => "abcdefghij")].join(" ")]);
    expect(ten.values.mean_word_length).toBeCloseTo((3 + 3 + 580) / 60, 4);
    expect(ten.failed).not.toContain("gopher_quality.mean_word_length");
  });

  it("hash and ellipsis per word: 0.1 passes, above fails", () => {
    const base = distinctWords(98);
    const at = judge("gopher_quality", [["the", "of", ...base.slice(0, 88), ...Array(10).fill("#tag")].join(" ")]);
    expect(at.values.hash_ratio).toBe(0.1);
    expect(at.failed).toEqual([]);
    const over = judge("gopher_quality", [["the", "of", ...base.slice(0, 87), ...Array(11).fill("#tag")].join(" ")]);
    expect(over.values.hash_ratio).toBe(0.11);
    expect(over.failed).toEqual(["gopher_quality.hash_ratio"]);
    const dotsAt = judge("gopher_quality", [[...Array(10).fill("wait..."), "the", "of", ...base.slice(0, 88)].join(" ")]);
    expect(dotsAt.values.ellipsis_ratio).toBe(0.1);
    expect(dotsAt.failed).toEqual([]);
    const dots = judge("gopher_quality", [[...Array(11).fill("wait…"), "the", "of", ...base.slice(0, 87)].join(" ")]);
    expect(dots.values.ellipsis_ratio).toBe(0.11);
    expect(dots.failed).toContain("gopher_quality.ellipsis_ratio");
  });

  it("bullet lines: 90% passes, more fails", () => {
    const line = (i: number) => `the of ${distinctWords(8, `b${i}x`).join(" ")}`;
    const lines = (bullets: number, total: number) =>
      Array.from({ length: total }, (_, i) => (i < bullets ? `• ${line(i)}` : line(i))).join("\n");
    expect(judge("gopher_quality", [lines(9, 10)]).values.bullet_lines).toBe(0.9);
    expect(judge("gopher_quality", [lines(9, 10)]).failed).toEqual([]);
    expect(judge("gopher_quality", [lines(10, 10)]).failed).toEqual(["gopher_quality.bullet_lines"]);
    expect(judge("gopher_quality", [lines(10, 10).replace(/•/g, "-")]).failed).toEqual(["gopher_quality.bullet_lines"]);
  });

  it("lines ending in an ellipsis: 30% passes, more fails", () => {
    const line = (i: number) => `the of ${distinctWords(8, `e${i}x`).join(" ")}`;
    const lines = (ellipses: number) => Array.from({ length: 10 }, (_, i) => (i < ellipses ? `${line(i)} ...` : line(i))).join("\n");
    const at = judge("gopher_quality", [lines(3)]);
    expect(at.values.ellipsis_lines).toBe(0.3);
    expect(at.failed).not.toContain("gopher_quality.ellipsis_lines");
    expect(judge("gopher_quality", [lines(4)]).failed).toContain("gopher_quality.ellipsis_lines");
  });

  it("words with a letter: 80% passes, fewer fails", () => {
    const words = (numbers: number) => [
      "the",
      "of",
      ...distinctWords(98 - numbers),
      ...Array.from({ length: numbers }, (_, i) => String(1000 + i)),
    ];
    expect(judge("gopher_quality", [words(20).join(" ")]).values.alpha_words).toBe(0.8);
    expect(judge("gopher_quality", [words(20).join(" ")]).failed).toEqual([]);
    expect(judge("gopher_quality", [words(21).join(" ")]).failed).toEqual(["gopher_quality.alpha_words"]);
  });

  it("stop words: two pass, one fails; case and punctuation do not hide them", () => {
    expect(judge("gopher_quality", [`The, ${distinctWords(58).join(" ")} of.`]).values.stop_words).toBe(2);
    expect(judge("gopher_quality", [`The, ${distinctWords(58).join(" ")} of.`]).failed).toEqual([]);
    expect(judge("gopher_quality", [`The ${distinctWords(59).join(" ")}`]).failed).toEqual(["gopher_quality.stop_words"]);
  });

  it("uses the document language's stop words, and per-character words for Chinese", () => {
    const german = `Der Hund und die Katze ${distinctWords(55).join(" ")}`;
    expect(judge("gopher_quality", [german], "de").values.stop_words).toBeGreaterThanOrEqual(3);
    expect(judge("gopher_quality", [german], "en").failed).toContain("gopher_quality.stop_words");
    // 60 Han characters: 60 words of one character. The word-length rule does not apply to them.
    const chinese =
      "近期一些美国政客不断渲染所谓的中国新能源产能过剩论调指责中国向全球输出新能源产业过剩产能其目的是维护本土产业抹黑中国的发展成就";
    const zh = judge("gopher_quality", [chinese], "zh");
    expect(zh.values.word_count).toBe(chinese.length);
    expect(zh.values.mean_word_length).toBe(1);
    expect(zh.values.stop_words).toBeGreaterThanOrEqual(2);
    expect(zh.failed).toEqual([]);
  });

  it("cuts Thai into dictionary words, not characters", () => {
    const thai = "ภาษาไทยเป็นภาษาที่ไม่มีการเว้นวรรคระหว่างคำ";
    const r = new DocumentFilter({ sets: [], stats: true }).run([thai], "th");
    expect(r.stats?.words).toBeGreaterThan(5);
    expect(r.stats?.words).toBeLessThan(thai.length / 2);
  });
});

describe("Gopher repetition", () => {
  const para = (i: number) => `the of ${distinctWords(8, `p${i}x`).join(" ")}`;

  it("duplicate lines and paragraphs: 30% pass, more fail", () => {
    const blocks = (dups: number) => [...Array.from({ length: 10 - dups }, (_, i) => para(i)), ...Array(dups).fill(para(0))];
    const at = judge("gopher_repetition", blocks(3));
    expect(at.values.dup_para_frac).toBe(0.3);
    expect(at.values.dup_line_frac).toBe(0.3);
    expect(at.failed).not.toContain("gopher_repetition.dup_para_frac");
    const over = judge("gopher_repetition", blocks(4));
    expect(over.failed).toEqual(expect.arrayContaining(["gopher_repetition.dup_para_frac", "gopher_repetition.dup_line_frac"]));
  });

  it("characters in duplicate lines: 20% passes, more fails", () => {
    // Nine distinct paragraphs, and a repeat of one sized to a share of the text.
    const unique = Array.from({ length: 9 }, (_, i) => para(i));
    const text = (extra: string[]) => [...unique, ...extra];
    const r = judge("gopher_repetition", text([unique[0], unique[1]]));
    expect(r.values.dup_line_char_frac).toBeCloseTo((2 * unique[0].length) / text([unique[0], unique[1]]).join("\n\n").length, 3);
    expect(r.values.dup_line_char_frac).toBeLessThanOrEqual(0.2);
    expect(r.failed).not.toContain("gopher_repetition.dup_line_char_frac");
    expect(r.values.dup_para_char_frac).toBe(r.values.dup_line_char_frac);
    expect(r.failed).not.toContain("gopher_repetition.dup_para_char_frac");
    const more = judge("gopher_repetition", text([unique[0], unique[1], unique[2]]));
    expect(more.values.dup_line_char_frac).toBeGreaterThan(0.2);
    expect(more.failed).toContain("gopher_repetition.dup_line_char_frac");
    expect(more.failed).toContain("gopher_repetition.dup_para_char_frac");
  });

  it("top 2-gram: its characters times its count, over the text", () => {
    // "ab cd" (5 characters) 40 times among distinct words.
    const words = [...Array.from({ length: 40 }, () => "ab cd"), ...distinctWords(100)];
    const text = words.join(" ");
    const r = judge("gopher_repetition", [text]);
    expect(r.values.top_2gram_char_frac).toBeCloseTo((5 * 40) / text.length, 3);
    expect(r.failed).toContain("gopher_repetition.top_2gram_char_frac");
    const fewer = [...Array.from({ length: 20 }, () => "ab cd"), ...distinctWords(100)].join(" ");
    expect(judge("gopher_repetition", [fewer]).values.top_2gram_char_frac).toBeLessThanOrEqual(0.2);
  });

  it("top 3- and 4-grams: 0.18 and 0.16", () => {
    // A 4-gram of 4 two-letter words ("ab cd ef gh": 11 characters) repeated among distinct words.
    const text = (repeats: number, filler: number) =>
      [...Array.from({ length: repeats }, () => "ab cd ef gh"), ...distinctWords(filler)].join(" ");
    const low = judge("gopher_repetition", [text(10, 100)]);
    expect(low.values.top_4gram_char_frac).toBeCloseTo((11 * 10) / text(10, 100).length, 4);
    expect(low.failed).toEqual([]);
    const high = judge("gopher_repetition", [text(40, 100)]);
    expect(high.values.top_3gram_char_frac).toBeGreaterThan(0.18);
    expect(high.values.top_4gram_char_frac).toBeGreaterThan(0.16);
    expect(high.failed).toEqual(expect.arrayContaining(["gopher_repetition.top_3gram_char_frac", "gopher_repetition.top_4gram_char_frac"]));
  });

  it("duplicated 10-grams: at most 0.10 passes", () => {
    // One 10-word phrase (50 characters without spaces) repeated once in a text sized around 500 characters.
    const phrase = distinctWords(10, "r").join(" ");
    const at = (fillerWords: number) => `${phrase} ${distinctWords(fillerWords).join(" ")} ${phrase}`;
    const pass = judge("gopher_repetition", [at(80)]);
    expect(pass.values.dup_10gram_char_frac).toBeLessThanOrEqual(0.1);
    expect(pass.failed).not.toContain("gopher_repetition.dup_10gram_char_frac");
    const fail = judge("gopher_repetition", [at(60)]);
    expect(fail.values.dup_10gram_char_frac).toBeGreaterThan(0.1);
    expect(fail.failed).toContain("gopher_repetition.dup_10gram_char_frac");
  });

  it("duplicated 5- to 10-grams count overlapping repeats once", () => {
    const phrase = distinctWords(10, "r").join(" ");
    const filler = distinctWords(200).join(" ");
    const once = judge("gopher_repetition", [`${phrase} ${filler}`]);
    expect(once.values.dup_5gram_char_frac).toBe(0);
    const twice = judge("gopher_repetition", [`${phrase} ${filler} ${phrase}`]);
    // The second copy of the 10 words (50 characters without spaces) is repeated.
    const text = `${phrase} ${filler} ${phrase}`;
    expect(twice.values.dup_10gram_char_frac).toBeCloseTo(50 / text.length, 4);
    expect(twice.values.dup_5gram_char_frac).toBeCloseTo(50 / text.length, 4);
    expect(twice.failed).toEqual([]);
    const spam = judge("gopher_repetition", [Array(6).fill(phrase).join(" ")]);
    expect(spam.failed).toEqual(
      expect.arrayContaining(["gopher_repetition.dup_5gram_char_frac", "gopher_repetition.dup_10gram_char_frac"]),
    );
  });
});

describe("C4", () => {
  const sentence = (i: number) => `This is sentence number ${i} of a test.`;

  it("keeps lines ending in terminal punctuation with 5 words or more, and drops javascript and policy lines", () => {
    const blocks = [
      `${sentence(1)} ${sentence(2)}`,
      "Menu Home About",
      "Please enable Javascript to view this page properly.",
      "This site uses cookies to improve your visit.",
      "Four words only here.",
      `Heading without a stop\n${sentence(3)} [1]`,
      "Trailing off like this for a while...",
    ];
    const r = judge("c4", blocks);
    expect(r.values).toMatchObject({
      lines: 8,
      lines_kept: 2,
      lines_no_terminal_punct: 3,
      lines_too_few_words: 1,
      lines_javascript: 1,
      lines_policy: 1,
      sentences: 3,
    });
    expect(r.failed).toEqual([]);
    expect(r.outcome.blocks).toEqual([`${sentence(1)} ${sentence(2)}`, sentence(3)]);
    expect(r.outcome.kept).toEqual([0, 5]);
  });

  it("drops a line with a word longer than 1,000 characters", () => {
    const r = judge("c4", [`A line with a ${"x".repeat(1001)} word in it.`, `A line with a ${"x".repeat(1000)} word in it.`]);
    expect(r.values.lines_long_word).toBe(1);
    expect(r.values.lines_kept).toBe(1);
  });

  it("fewer than 3 sentences fails; 3 pass", () => {
    expect(judge("c4", [sentence(1), sentence(2)]).failed).toEqual(["c4.sentences"]);
    expect(judge("c4", [sentence(1), sentence(2), sentence(3)]).failed).toEqual([]);
  });

  it("lorem ipsum or a curly brace in a kept line fails the page", () => {
    const three = [sentence(1), sentence(2), sentence(3)];
    expect(judge("c4", [...three, "Lorem ipsum dolor sit amet, consectetur."]).failed).toEqual(["c4.lorem_ipsum"]);
    expect(judge("c4", [...three, "The function body is { return x; } here."]).failed).toEqual(["c4.curly_brace"]);
    // Only kept lines count, as in the C4 code: a brace in a dropped line does not.
    expect(judge("c4", [...three, "function f() { return 1 }"]).failed).toEqual([]);
  });

  it("counts words per character in Chinese lines and knows the ideographic full stop", () => {
    const r = judge("c4", ["中国科学院专家介绍研究项目进展情况。", "空间站小型受控生命生态实验。", "实验取得成功。"], "zh");
    expect(r.values.lines_kept).toBe(3);
    expect(r.values.sentences).toBe(3);
    expect(r.failed).toEqual([]);
  });
});

describe("FineWeb", () => {
  const long = (i: number, end: string) => `the of ${distinctWords(6, `f${i}x`).join(" ")}${end}`;

  // FineWeb drops a document AT the bound ("<= 0.12", ">= 0.67", ">= 0.1": the paper and datatrove's code).
  it("lines ending in punctuation: above 12% passes, 12% fails", () => {
    const lines = (punct: number, total: number) => Array.from({ length: total }, (_, i) => long(i, i < punct ? "." : "")).join("\n");
    const at = judge("fineweb", [lines(3, 25)]);
    expect(at.values.line_punct_ratio).toBe(0.12);
    expect(at.failed).toContain("fineweb.line_punct_ratio");
    const above = judge("fineweb", [lines(13, 100)]);
    expect(above.values.line_punct_ratio).toBe(0.13);
    expect(above.failed).not.toContain("fineweb.line_punct_ratio");
  });

  it("short lines (30 characters or less): below 67% passes, 67% fails", () => {
    const lines = (short: number, total: number) =>
      Array.from({ length: total }, (_, i) => (i < short ? `Short line ${i}.` : long(i, "."))).join("\n");
    expect(judge("fineweb", [lines(67, 100)]).values.short_line_ratio).toBe(0.67);
    expect(judge("fineweb", [lines(67, 100)]).failed).toEqual(["fineweb.short_line_ratio"]);
    expect(judge("fineweb", [lines(66, 100)]).values.short_line_ratio).toBe(0.66);
    expect(judge("fineweb", [lines(66, 100)]).failed).toEqual([]);
  });

  it("characters in duplicated lines: below 10% passes, 10% or more fails", () => {
    const unique = Array.from({ length: 20 }, (_, i) => long(i, "."));
    const ok = judge("fineweb", [[...unique, unique[0], unique[1]].join("\n")]);
    expect(ok.values.dup_line_char_frac).toBeLessThan(0.1);
    expect(ok.failed).toEqual([]);
    const bad = judge("fineweb", [[...unique, unique[0], unique[1], unique[2]].join("\n")]);
    expect(bad.values.dup_line_char_frac).toBeGreaterThan(0.1);
    expect(bad.failed).toEqual(["fineweb.dup_line_char_frac"]);
  });
});

describe("DocumentFilter", () => {
  it("computes every set's values with stats, but judges only the chosen sets", () => {
    const filter = new DocumentFilter({ sets: ["fineweb"], stats: true });
    const out = filter.run(["Menu", "Home"], "en");
    expect(out.failures.map((f) => f.rule)).toEqual(["fineweb.line_punct_ratio", "fineweb.short_line_ratio"]);
    expect(Object.keys(out.stats ?? {})).toEqual([
      "words",
      "cjk_words",
      "lines",
      "chars",
      "gopher_quality",
      "gopher_repetition",
      "c4",
      "fineweb",
    ]);
    expect(out.stats).toMatchObject({ words: 2, lines: 2, chars: 10 });
  });

  it("takes other thresholds by rule id, and rules switched off", () => {
    const settings = defaultSettings();
    settings.rules["gopher_quality.word_count"] = { min: 2 };
    const filter = new DocumentFilter({ sets: ["gopher_quality"], config: { settings, languages: {} } });
    expect(filter.run(["the cat sat with the dog"], "en").failures).toEqual([]);
    expect(new DocumentFilter({ sets: ["gopher_quality"] }).run(["the cat sat with the dog"], "en").failures.map((f) => f.rule)).toEqual([
      "gopher_quality.word_count",
    ]);
    const off = defaultSettings();
    off.rules["gopher_quality.word_count"] = null;
    const without = new DocumentFilter({ sets: ["gopher_quality"], config: { settings: off, languages: {} } });
    expect(without.run(["the cat sat with the dog"], "en").failures).toEqual([]);
  });
});
