import { describe, expect, it } from "vitest";
import { wordTokens } from "./tokens.js";

// Expected values were produced with Python 3.11: re.findall(r"\w+", text.lower()), with Han and
// kana characters then split one per token.
describe("wordTokens", () => {
  it("keeps precomposed accented letters and lowercases", () => {
    expect(wordTokens("Café DÉJÀ vu")).toEqual(["café", "déjà", "vu"]);
    expect(wordTokens("ÉCOLE Straße ΟΔΟΣ")).toEqual(["école", "straße", "οδος"]);
  });

  it("splits at combining marks, as Python's \\w does", () => {
    expect(wordTokens("cafe\u0301")).toEqual(["cafe"]);
    expect(wordTokens("नमस्ते")).toEqual(["नमस", "त"]);
  });

  it("counts every Han and kana character as a token, the prolonged sound mark included", () => {
    expect(wordTokens("東京タワー 2024年")).toEqual(["東", "京", "タ", "ワ", "ー", "2024", "年"]);
    expect(wordTokens("我们的生活，はじめまして。")).toEqual(["我", "们", "的", "生", "活", "は", "じ", "め", "ま", "し", "て"]);
    // Hangul puts spaces between words: its runs stay words.
    expect(wordTokens("한국어 문장")).toEqual(["한국어", "문장"]);
  });

  it("splits numbers at punctuation and keeps other numerics", () => {
    expect(wordTokens("3.14 and 1,000")).toEqual(["3", "14", "and", "1", "000"]);
    expect(wordTokens("½ Ⅻ ١٢٣ x²")).toEqual(["½", "ⅻ", "١٢٣", "x²"]);
  });

  it("treats underscores as word characters", () => {
    expect(wordTokens("foo_bar __init__")).toEqual(["foo_bar", "__init__"]);
  });

  it("splits at straight and typographic apostrophes", () => {
    expect(wordTokens("don't l’été")).toEqual(["don", "t", "l", "été"]);
  });

  it("returns [] for text without words", () => {
    expect(wordTokens("")).toEqual([]);
    expect(wordTokens(" — !! ")).toEqual([]);
  });
});
