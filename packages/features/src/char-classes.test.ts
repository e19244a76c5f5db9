import { describe, expect, it } from "vitest";
import { ASCII_FOLD, CJK, CLASS, LOWER, LOWER_SPECIAL, WORD } from "./char-classes.js";

describe("the code unit table", () => {
  it("marks \\p{L}\\p{N}, CJK letters and every unit's lower case as the regexes and toLowerCase say", () => {
    const word = /^[\p{L}\p{N}]$/u;
    const cjk = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]$/u;
    let special = 0;
    for (let c = 0; c < 65536; c++) {
      const ch = String.fromCharCode(c);
      const surrogate = c >= 0xd800 && c <= 0xdfff;
      const isWord = !surrogate && word.test(ch);
      if (((CLASS[c] & WORD) !== 0) !== isWord) expect.fail(`WORD of U+${c.toString(16)}`);
      // Han and kana letters as the features have always looked for them: in U+2E80..U+FAFF (halfwidth katakana not).
      const inRange = c >= 0x2e80 && c < 0xfb00;
      if (((CLASS[c] & CJK) !== 0) !== (isWord && inRange && cjk.test(ch))) expect.fail(`CJK of U+${c.toString(16)}`);
      if (ASCII_FOLD[c] !== (c >= 65 && c <= 90 ? c + 32 : c)) expect.fail(`ASCII_FOLD of U+${c.toString(16)}`);
      if (CLASS[c] & LOWER_SPECIAL) {
        special++;
        continue;
      }
      if (!surrogate && String.fromCharCode(LOWER[c]) !== ch.toLowerCase()) expect.fail(`LOWER of U+${c.toString(16)}`);
    }
    // İ (two units lower-cased) and Σ (σ or ς by its neighbours).
    expect(special).toBe(2);
    expect(CLASS[0x130] & LOWER_SPECIAL).toBeTruthy();
    expect(CLASS[0x3a3] & LOWER_SPECIAL).toBeTruthy();
  });
});
