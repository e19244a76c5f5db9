import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DocumentFilter, presetConfig, RuleReport, splitWords } from "./index.js";

/** The gold main text of the real pages in fixtures/ (WCXB's are English; magic-html's in five languages). */
function pages(): Array<{ text: string; lang: string }> {
  const out: Array<{ text: string; lang: string }> = [];
  for (const set of ["wcxb-sample", "magic-html-sample"]) {
    const dir = new URL(`../../../fixtures/${set}/ground-truth/`, import.meta.url);
    for (const name of readdirSync(dir).sort()) {
      const page = JSON.parse(readFileSync(new URL(name, dir), "utf8"));
      const lang = (page._internal?.language_guess ?? "en").split("-")[0];
      // Paragraphs separated by a blank line, as winnow writes text.
      out.push({ text: (page.ground_truth.main_content as string).split(/\n+/).join("\n\n"), lang });
    }
  }
  return out;
}

describe("what each rule would drop", () => {
  it("counts, per rule, the documents whose value is past the bound, and their words", () => {
    const corpus = pages();
    const report = new RuleReport(presetConfig(["gopher", "c4", "fineweb_quality"]));
    for (const p of corpus) report.add(p.text, p.lang);
    const json = report.toJSON();
    expect(json.documents).toBe(corpus.length);
    expect(json.words).toBe(corpus.reduce((n, p) => n + splitWords(p.text).count, 0));

    // The same counts from each document's recorded values and the published bounds, read here.
    const measure = new DocumentFilter({ sets: ["gopher_quality", "gopher_repetition", "c4", "fineweb"], stats: true });
    let short = 0;
    let shortWords = 0;
    let fewLinesPunct = 0;
    for (const p of corpus) {
      const stats = measure.run(p.text.split("\n\n"), p.lang).stats;
      if ((stats?.gopher_quality?.word_count ?? 0) < 50) {
        short++;
        shortWords += splitWords(p.text).count;
      }
      if ((stats?.fineweb?.line_punct_ratio ?? 0) <= 0.12) fewLinesPunct++;
    }
    const row = (rule: string) => json.rules.find((r) => r.rule === rule);
    expect(row("gopher_quality.word_count")).toMatchObject({ fails: "< 50 or > 100000", documents: short, words: shortWords });
    expect(row("gopher_quality.word_count")?.share).toBeCloseTo(short / corpus.length, 4);
    expect(row("fineweb.line_punct_ratio")).toMatchObject({ fails: "<= 0.12", documents: fewLinesPunct });
    expect(json.rules).toHaveLength(8 + 13 + 3 + 3);
    expect(json.any.documents).toBeGreaterThanOrEqual(Math.max(...json.rules.map((r) => r.documents)));
    expect(json.any.documents).toBeLessThanOrEqual(corpus.length);
  });

  it("reports only the rules that are on, at the configured bounds", () => {
    const report = new RuleReport(presetConfig(["fineweb_quality"]));
    report.add("Menu\n\nHome\n\nContact", "en");
    report.add("A real sentence that ends well and goes on for quite a while longer than thirty characters.", "en");
    const json = report.toJSON();
    expect(json.rules.map((r) => r.rule)).toEqual(["fineweb.line_punct_ratio", "fineweb.short_line_ratio", "fineweb.dup_line_char_frac"]);
    expect(json.rules.map((r) => r.documents)).toEqual([1, 1, 0]);
    expect(json.any).toEqual({ documents: 1, words: 3, share: 0.5, wordsShare: 0.15 }); // 3 of 3 + 17 words
  });
});
