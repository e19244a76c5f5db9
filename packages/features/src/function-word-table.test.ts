import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { buildFunctionWordTable, decodeFunctionWordTable, encodeFunctionWordTable, TABLE_FILE } from "./function-word-table.js";
import { FUNCTION_WORDS, isListedIn, LANGUAGES, LISTED_WORDS } from "./function-words.js";
import { hashOf } from "./words.js";

const STOPWORDS = createRequire(import.meta.url)("stopwords-iso") as Record<string, readonly string[]>;

/** The languages listing entry `entry` of the loaded table, by code. */
function listedIn(entry: number): string[] {
  return LANGUAGES.filter((_, bit) => isListedIn(entry, bit));
}

describe("the function-word table built at build time", () => {
  it("is the table the stopword lists give: every word at the same entry, listed in the same languages", () => {
    const fresh = buildFunctionWordTable(STOPWORDS);
    expect(LANGUAGES).toEqual(fresh.languages);
    expect(LISTED_WORDS).toBe(fresh.words.length);
    expect(FUNCTION_WORDS.longest).toBe(fresh.index.longest);
    for (let entry = 0; entry < fresh.words.length; entry++) {
      const word = fresh.words[entry];
      expect(FUNCTION_WORDS.indexOf(word, 0, word.length, hashOf(word, 0, word.length))).toBe(entry);
      for (let bit = 0; bit < fresh.languages.length; bit++) {
        const mask = bit < 32 ? fresh.maskLo[entry] >>> bit : fresh.maskHi[entry] >>> (bit - 32);
        if (isListedIn(entry, bit) !== ((mask & 1) === 1)) throw new Error(`${word}: language ${fresh.languages[bit]} differs`);
      }
    }
  });

  it("finds words as the lists have them, ASCII capitals folded, and nothing else", () => {
    const find = (text: string) => FUNCTION_WORDS.indexOf(text, 0, text.length, hashOf(text.toLowerCase(), 0, text.length));
    expect(listedIn(find("the"))).toContain("en");
    expect(listedIn(find("The"))).toContain("en");
    expect(listedIn(find("und"))).toContain("de");
    expect(listedIn(find("的"))).toContain("zh");
    expect(find("winnow")).toBe(-1);
    // Multi-character Chinese entries are left out: text is cut into single characters there.
    expect(STOPWORDS.zh.some((word) => word.length > 1 && find(word) >= 0)).toBe(false);
  });

  it("reads back what it writes, from any byte offset, and refuses a file that is not one", () => {
    const lists = { en: ["The", "of", ""], de: ["der", "of"], zh: ["的", "我们"] };
    const bytes = encodeFunctionWordTable(buildFunctionWordTable(lists));
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    const table = decodeFunctionWordTable(shifted.subarray(1));
    expect(table.languages).toEqual(["de", "en", "zh"]);
    expect(table.words).toEqual(["der", "of", "the", "的"]);
    expect([...table.maskLo]).toEqual([0b001, 0b011, 0b010, 0b100]);
    expect(table.index.indexOf("xx of", 3, 5, hashOf("of", 0, 2))).toBe(1);
    expect(() => decodeFunctionWordTable(bytes.subarray(0, bytes.length - 1))).toThrow(/length/);
    const other = bytes.slice();
    other[0] ^= 0xff;
    expect(() => decodeFunctionWordTable(other)).toThrow(/format or byte order/);
  });

  it("is the file the build wrote", () => {
    const written = readFileSync(TABLE_FILE);
    expect(Buffer.compare(written, Buffer.from(encodeFunctionWordTable(buildFunctionWordTable(STOPWORDS))))).toBe(0);
  });
});
