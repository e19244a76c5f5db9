import { segmentHtml } from "@winnow/segment";
import { describe, expect, it } from "vitest";
import { TEXREX_CONTEXT } from "./feature-sets.js";
import { scanText } from "./block-scan.js";
import { LANGUAGES } from "./function-words.js";

/** Context values of every block by name, with the block texts. */
function context(html: string): Array<Record<string, number> & { text: string }> {
  const doc = segmentHtml(html);
  const rows = TEXREX_CONTEXT.extract(doc);
  return doc.blocks.map((block, b) => {
    const out: Record<string, number> & { text: string } = { text: block.text } as Record<string, number> & { text: string };
    TEXREX_CONTEXT.specs.forEach((spec, k) => (out[spec.name] = rows[b * TEXREX_CONTEXT.size + k]));
    return out;
  });
}

const para = (text: string, n = 3) => `<p>${Array.from({ length: n }, () => text).join(" ")}</p>`;

describe("language-independent word cues", () => {
  it("count each Han and kana character as a word and end sentences at 。 without a space", () => {
    const stats = (text: string, cjkWords: boolean) => {
      const s = scanText(text, { cjkWords });
      return { words: s.words[0], sentences: s.sentences[0] };
    };
    expect(stats("我们今天去了北京。天气很好。", true)).toEqual({ words: 12, sentences: 2 });
    // The extended set's own count, for models trained on it, stays as it was: runs of letters.
    expect(stats("我们今天去了北京。天气很好。", false)).toEqual({ words: 2, sentences: 1 });
    expect(stats("Tokyo 東京タワー 2024", true).words).toBe(7);
  });

  it("find function words in several languages, Chinese characters one by one", () => {
    const found = (text: string) => {
      const s = scanText(text, { cjkWords: true, functionWords: true });
      return { tokens: s.tokens[0], cjk: s.cjk[0], listed: s.firstEntry[1] };
    };
    expect(found("Der Hund und die Katze sind im Garten")).toMatchObject({ tokens: 8, listed: 5 });
    expect(found("我们的生活")).toMatchObject({ tokens: 5, cjk: 5 });
    expect(found("我们的生活").listed).toBeGreaterThan(0);
    expect(LANGUAGES).toEqual(expect.arrayContaining(["de", "en", "es", "ja", "pt", "zh"]));
  });

  it("mark prose as rich in the page language's function words, a menu as poor, in German as in English", () => {
    const html = (menu: string, prose: string) => `<html><body><ul><li><a href="/a">${menu}</a></li></ul>${para(prose)}</body></html>`;
    for (const [menu, prose] of [
      [
        "Startseite Politik Wirtschaft Sport",
        "Der Bürgermeister hat am Montag erklärt, dass die Stadt in diesem Jahr mehr Geld für die Schulen ausgeben wird.",
      ],
      [
        "Home Politics Business Sport",
        "The mayor said on Monday that the city would spend more money on its schools this year than it did before.",
      ],
    ]) {
      const [m, p] = context(html(menu, prose));
      expect(p.function_words).toBeGreaterThan(m.function_words);
      expect(p.page_language_known).toBe(1);
    }
  });
});

describe("page context", () => {
  const article =
    '<html><head><title>A story</title></head><body><div id="nav"><a href="/">Home</a> <a href="/news">News</a></div>' +
    `<div id="story"><h1>A story</h1>${para("The council met on Tuesday, and after a long debate, it agreed to repair the old bridge.")}` +
    `${para("Work will start in spring, the engineers said, and the bridge will stay open to walkers.")}</div>` +
    '<div class="comments"><h3>12 Comments</h3><p>Great news, finally!</p><p>About time they fixed it.</p></div></body></html>';

  it("finds the densest section as Readability would and places blocks relative to it", () => {
    const blocks = context(article);
    const prose = blocks.filter((b) => b.text.startsWith("The council") || b.text.startsWith("Work will"));
    const menu = blocks.find((b) => b.text.startsWith("Home"))!;
    for (const b of prose) {
      expect(b.in_best_section).toBe(1);
      expect(b.in_best_span).toBe(1);
      expect(b.section_score_ratio).toBe(1);
    }
    expect(menu.in_best_section).toBe(0);
    expect(menu.best_span_distance).toBeGreaterThan(0);
  });

  it("marks the block that announces comments and what follows it", () => {
    const blocks = context(article);
    const marker = blocks.find((b) => b.text === "12 Comments")!;
    const comment = blocks.find((b) => b.text === "About time they fixed it.")!;
    const prose = blocks.find((b) => b.text.startsWith("Work will"))!;
    expect(marker.is_comment_marker).toBe(1);
    expect(comment.after_comment_marker).toBe(1);
    expect(comment.comment_markup_after_best).toBe(1);
    expect(prose.after_comment_marker).toBe(0);
    expect(comment.page_comments_share).toBeGreaterThan(0);
  });

  it("gives page-level values alike to every block of a page, all within [0, 1]", () => {
    const blocks = context(article);
    for (const name of ["best_section_text_share", "page_link_density", "page_headings", "page_mean_tokens"]) {
      expect(new Set(blocks.map((b) => b[name])).size).toBe(1);
    }
    for (const b of blocks) {
      for (const spec of TEXREX_CONTEXT.specs) expect(b[spec.name]).toBeGreaterThanOrEqual(0);
      for (const spec of TEXREX_CONTEXT.specs) expect(b[spec.name]).toBeLessThanOrEqual(1);
    }
  });
});
