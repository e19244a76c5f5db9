import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BlockScans, COPYRIGHT, ENDS_WITH_PUNCTUATION, type ScanOptions, scanText } from "./block-scan.js";
import { CJK, CLASS, T_CJK, T_DIGIT, T_FULL_STOP, T_LETTER, T_PUNCT, T_SENTENCE_END, T_UPPER } from "./char-classes.js";
import { countWords, IN_TITLE, STOPWORD, type WordCounts, WordList } from "./words.js";

// Independent definitions of what the scan counts, one pass each, with regexes where they were.

/** texrex's statistics, one branch per class, as the scan's branch-free counts must add up. */
function texrexReference(text: string, cjkWords: boolean) {
  let letters = 0,
    uppercase = 0,
    digits = 0,
    punctuation = 0,
    words = 0,
    sentences = 0,
    commas = 0,
    inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const k = CLASS[c];
    const wordChar = (k & (T_DIGIT | T_LETTER)) !== 0;
    if (k & T_DIGIT) digits++;
    if (k & T_LETTER) letters++;
    if (k & T_UPPER) uppercase++;
    if (k & T_PUNCT) punctuation++;
    if (c === 44 || c === 0xff0c || c === 0x3001 || c === 0x060c) commas++;
    const next = text.charCodeAt(i + 1);
    if (k & T_SENTENCE_END && (i + 1 === text.length || next === 32 || (cjkWords && k & T_FULL_STOP))) sentences++;
    const own = cjkWords && (k & T_CJK) !== 0;
    if (wordChar && (!inWord || own)) words++;
    inWord = wordChar && !own;
  }
  if (words > 0 && sentences === 0) sentences = 1;
  const emails = text.match(/[\w.+-]+@[\w-]+\.[\w.-]+/g)?.length ?? 0;
  const urls = text.match(/\b(?:https?:\/\/|www\.)\S+/gi)?.length ?? 0;
  const hashtags = text.match(/(?:^|\s)#[\p{L}\p{N}_]+/gu)?.length ?? 0;
  const last = text.length === 0 ? 0 : text.charCodeAt(text.length - 1);
  const flags = (text.includes("©") ? COPYRIGHT : 0) | (CLASS[last] & T_PUNCT ? ENDS_WITH_PUNCTUATION : 0);
  return { letters, uppercase, digits, punctuation, words, sentences, commas, emails, urls, hashtags, flags };
}

const STOPWORDS_ISO = createRequire(import.meta.url)("stopwords-iso") as Record<string, readonly string[]>;
/** Every list's words, as function-words.ts keeps them (CJK entries of one character only). */
const FUNCTION_WORDS = new Set(
  Object.values(STOPWORDS_ISO)
    .flat()
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 0 && !(CLASS[w.charCodeAt(0)] & CJK && w.length > 1)),
);

const isWordUnit = (u: number) => (u < 0xd800 || u > 0xdfff) && /^[\p{L}\p{N}]$/u.test(String.fromCharCode(u));
/** Han and kana letters, in U+2E80..U+FAFF as the features have always looked for them. */
const isCjkUnit = (u: number) =>
  isWordUnit(u) && u >= 0x2e80 && u < 0xfb00 && /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]$/u.test(String.fromCharCode(u));

/** Tokens: BMP letter and digit runs (a surrogate is none), each Han or kana letter alone; function words with A–Z folded. */
function tokenReference(text: string) {
  const tokens: string[] = [];
  let run = "";
  for (let i = 0; i <= text.length; i++) {
    const u = i < text.length ? text.charCodeAt(i) : 32;
    if (isWordUnit(u) && !isCjkUnit(u)) {
      run += String.fromCharCode(u);
      continue;
    }
    if (run !== "") tokens.push(run);
    run = "";
    if (isCjkUnit(u)) tokens.push(String.fromCharCode(u));
  }
  const fold = (t: string) => t.replace(/[A-Z]/g, (ch) => ch.toLowerCase());
  const cjk = tokens.filter((t) => isCjkUnit(t.charCodeAt(0))).length;
  return { tokens: tokens.length, cjk, listed: tokens.filter((t) => FUNCTION_WORDS.has(fold(t))).length };
}

function scanOf(text: string, options: ScanOptions): BlockScans {
  return scanText(text, options);
}

function texrexOf(s: BlockScans) {
  return {
    letters: s.letters[0],
    uppercase: s.uppercase[0],
    digits: s.digits[0],
    punctuation: s.punctuation[0],
    words: s.words[0],
    sentences: s.sentences[0],
    commas: s.commas[0],
    emails: s.emails[0],
    urls: s.urls[0],
    hashtags: s.hashtags[0],
    flags: s.flags[0],
  };
}

const LISTED = new WordList([
  [["the", "garden", "東", "straße", "σοφία", "i̇stanbul", "𝐀𝐁"], IN_TITLE],
  [["the", "of", "and", "à", "a"], STOPWORD],
]);

/** Unicode words and their kinds, over the lower-cased copy as the features counted them before the scan. */
function wordReference(text: string, cjkWords: boolean): WordCounts {
  const out: WordCounts = { words: 0, inTitle: 0, stopwords: 0 };
  countWords(text.toLowerCase(), LISTED, out, cjkWords);
  return out;
}

function checkAll(text: string): void {
  for (const cjkWords of [false, true]) {
    const s = scanOf(text, { cjkWords, listed: LISTED, functionWords: cjkWords });
    expect(texrexOf(s), `${JSON.stringify(text)} cjk ${cjkWords}`).toEqual(texrexReference(text, cjkWords));
    expect({ words: s.unicodeWords[0], inTitle: s.inTitle[0], stopwords: s.stopwords[0] }, JSON.stringify(text)).toEqual(
      wordReference(text, cjkWords),
    );
    if (cjkWords) expect({ tokens: s.tokens[0], cjk: s.cjk[0], listed: s.firstEntry[1] }).toEqual(tokenReference(text));
  }
}

describe("the block scan", () => {
  it("counts nothing in an empty text", () => {
    const s = scanOf("", { cjkWords: true, listed: LISTED, functionWords: true });
    expect(texrexOf(s)).toEqual({
      letters: 0,
      uppercase: 0,
      digits: 0,
      punctuation: 0,
      words: 0,
      sentences: 0,
      commas: 0,
      emails: 0,
      urls: 0,
      hashtags: 0,
      flags: 0,
    });
    expect([s.unicodeWords[0], s.tokens[0], s.cjk[0], s.firstEntry[1]]).toEqual([0, 0, 0, 0]);
  });

  it("agrees with one-pass-per-count definitions on hand-picked texts", () => {
    for (const text of [
      "The garden of the house and Gardens.",
      "我们今天去了北京。天气很好。東京タワー tokyo 2024",
      "Der Hund und die Katze sind im Garten",
      // Surrogate pairs: a math-bold letter (a word unit to the lower-cased count, none to tokens), an emoji, lone halves.
      "𝐀𝐁 math bold 😀 emoji \ud800 lone \udc00 halves 𝐀b",
      // Units whose lower case is special: İ becomes two units, Σ is σ or ς by its neighbours.
      "İstanbul ΣΟΦΊΑ σοφία ΟΔΟΣ",
      "123 4,5 ٣ ½ 2024-11-26 10:30",
      "...!!! ??? --- ,,, 。。。 ！？ … ©© ،،",
      "mail me@example.org, see https://example.org/x and WWW.Example.com #news #tech",
      "www.x a.www.b http:/x ftp://y",
      `${"a".repeat(10_000)} the ${"東".repeat(300)} ${"x1".repeat(5000)}`,
      "Ünïcödé STRASSE Straße À LA CARTE à",
      " \t\n ",
    ]) {
      checkAll(text);
    }
  });

  it("agrees with them on any string", () => {
    const unit = fc.constantFrom(
      ..."aAbZé É the of  .,!?。！？、，@#:/w1٣½東京タワー©،".split(""),
      "İ",
      "Σ",
      "σ",
      "𝐀",
      "😀",
      "\ud800",
      "\udc00",
      "\u0307",
      "www.",
      "://",
    );
    const text = fc.array(fc.oneof(unit, fc.string({ unit: "binary", maxLength: 3 })), { maxLength: 40 }).map((p) => p.join(""));
    fc.assert(
      fc.property(text, (s) => {
        checkAll(s);
      }),
      { numRuns: 1500 },
    );
  });

  it("keeps each block's function-word entries apart, and reuses its arrays for a smaller page", () => {
    const options: ScanOptions = { cjkWords: true, functionWords: true };
    const blocks = ["the cat and the dog", "", "xyz qqq", "der und die"].map((text) => ({ text }));
    const s = scanText("", options);
    s.scanAll(blocks, options);
    const listed = (i: number) => s.firstEntry[i + 1] - s.firstEntry[i];
    expect([0, 1, 2, 3].map(listed)).toEqual(blocks.map((b) => tokenReference(b.text).listed));
    const letters = s.letters;
    s.scanAll(blocks.slice(0, 2), options);
    expect(s.letters).toBe(letters);
    expect(s.count).toBe(2);
    expect(listed(0)).toBe(tokenReference("the cat and the dog").listed);
  });

  it("refuses function words without CJK-aware counting, whose tokens would not be the words it counts", () => {
    expect(() => scanText("the", { cjkWords: false, functionWords: true })).toThrow(/CJK-aware/);
  });
});
