import { describe, expect, it } from "vitest";
import { normaliseSnippetText, snippetRates } from "./snippets.js";

describe("snippetRates", () => {
  const extracted = "The Quick  brown\nfox jumps.\n\nOver the\u00a0lazy dog";

  it("matches across line breaks, nbsp and case", () => {
    const r = snippetRates(extracted, ["quick brown fox", "OVER THE LAZY"], []);
    expect(r.withRate).toBe(1);
    expect(r.withFound).toBe(2);
  });

  it("counts present `with` and absent `without` snippets", () => {
    const r = snippetRates(extracted, ["brown fox", "purple cow"], ["Home", "lazy dog", "Log in"]);
    expect(r).toEqual({
      withRate: 0.5,
      withoutRate: 2 / 3,
      withFound: 1,
      withTotal: 2,
      withoutAbsent: 2,
      withoutTotal: 3,
    });
  });

  it("gives rate 1 for empty lists and skips blank snippets", () => {
    const r = snippetRates("", ["  ", ""], []);
    expect(r).toMatchObject({ withRate: 1, withTotal: 0, withoutRate: 1, withoutTotal: 0 });
  });

  it("normalises text", () => {
    expect(normaliseSnippetText("  A\t B \n")).toBe("a b");
  });
});
