import { readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { LanguageIdentifier } from "./index.js";

const FIXTURES = new URL("../../../fixtures/", import.meta.url);

/** Gold main text of real pages with the language each set gives (WCXB's sample is all English). */
function goldPages(): Array<{ id: string; text: string; expected: string }> {
  const pages: Array<{ id: string; text: string; expected: string }> = [];
  for (const set of ["magic-html-sample", "wcxb-sample"]) {
    const dir = new URL(`${set}/ground-truth/`, FIXTURES);
    for (const name of readdirSync(dir).sort()) {
      const page = JSON.parse(readFileSync(new URL(name, dir), "utf8"));
      const guess: string = page._internal?.language_guess ?? "en";
      pages.push({ id: `${set}/${name}`, text: page.ground_truth.main_content, expected: guess.split("-")[0] });
    }
  }
  return pages;
}

let lid: LanguageIdentifier;
beforeAll(async () => {
  lid = await LanguageIdentifier.load();
});

describe("LanguageIdentifier", () => {
  it("names the language of all 30 fixture pages (English, Chinese, Japanese, Turkish, Arabic)", () => {
    const pages = goldPages();
    const wrong = pages.filter((p) => lid.identify(p.text)?.lang !== p.expected).map((p) => p.id);
    expect(pages.length).toBe(30);
    expect(new Set(pages.map((p) => p.expected))).toEqual(new Set(["en", "zh", "ja", "tr", "ar"]));
    expect(wrong).toEqual([]);
  });

  it("reads past line breaks (fastText alone would stop at the first)", () => {
    expect(lid.identify("Hi\nDas ist ein ganz gewöhnlicher deutscher Satz mit vielen Wörtern.")?.lang).toBe("de");
  });

  it("identifies only the start of a long text, cut at a space", async () => {
    const short = await LanguageIdentifier.load({ maxChars: 60 });
    const text = `${"This sentence is written in plain English for the test. ".repeat(2)}${"Ceci est une phrase écrite en français. ".repeat(50)}`;
    expect(short.identify(text)?.lang).toBe("en");
    expect(lid.identify(text)?.lang).toBe("fr");
  });

  it("gives a score from 0 to 1 and no guess for a text without letters", () => {
    const guess = lid.identify("Ceci est une phrase écrite en français, assez longue pour être sûre.");
    expect(guess?.lang).toBe("fr");
    expect(guess?.score).toBeGreaterThan(0.5);
    expect(guess?.score).toBeLessThanOrEqual(1);
    expect(lid.identify("12 34 -- 56")).toBeNull();
    expect(lid.identify("")).toBeNull();
  });

  it("names a document's blocks as identify() names their join, at every cut (identifyBlocks)", async () => {
    // The join identify() would be given: single spaces, none before the first non-empty text.
    const join = (texts: string[]): string => texts.reduce((text, t) => (text === "" ? t : `${text} ${t}`), "");
    const blocks = (texts: string[]) => texts.map((text) => ({ text }));
    const pages = goldPages().map((p) => p.text.split("\n"));
    for (const maxChars of [60, 1000]) {
      const cut = await LanguageIdentifier.load({ maxChars });
      for (const texts of pages) expect(cut.identifyBlocks(blocks(texts))).toEqual(cut.identify(join(texts)));
    }
    // Around the limit, where the cut back to a space and the join's spaces decide what is read.
    const short = await LanguageIdentifier.load({ maxChars: 60 });
    const english = "This sentence is written in plain English for the test";
    const french = "Ceci est une phrase écrite en français pour le test et rien";
    const cases: string[][] = [
      [],
      ["", ""],
      ["", "", english],
      [english, "", french],
      [english.slice(0, 29), french.slice(0, 30)], // 60 characters with the space
      [english.slice(0, 29), french.slice(0, 31)], // 61
      [english.slice(0, 29), french.slice(0, 29)], // 59
      [english.slice(0, 59), "", french],
      ["12 34", "--", french],
      [`${english}\n${french}`, french],
    ];
    for (const texts of cases) expect(short.identifyBlocks(blocks(texts))).toEqual(short.identify(join(texts)));
    expect(short.identifyBlocks(blocks([english, french]))?.lang).toBe("en");
    expect(short.identifyBlocks(blocks(["", "--", french]))?.lang).toBe("fr");
  });
});
