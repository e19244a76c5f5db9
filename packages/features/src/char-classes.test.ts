import { describe, expect, it } from "vitest";
import {
  ASCII_FOLD,
  CJK,
  CLASS,
  LOWER,
  LOWER_SPECIAL,
  T_CJK,
  T_DIGIT,
  T_FULL_STOP,
  T_LETTER,
  T_PUNCT,
  T_SENTENCE_END,
  T_UPPER,
  WORD,
} from "./char-classes.js";

// texrex's classes as the features were trained on them, one test per unit.
function isPunctuation(c: number): boolean {
  if (c < 128) return /[!-/:-@[-`{-~]/.test(String.fromCharCode(c));
  const inRange = (from: number, to: number) => c >= from && c <= to;
  return (
    [0xa1, 0xab, 0xb7, 0xbb, 0xbf].includes(c) ||
    inRange(0x2010, 0x2027) ||
    inRange(0x2030, 0x205e) ||
    inRange(0x3001, 0x3003) ||
    inRange(0x3008, 0x3011) ||
    inRange(0xff01, 0xff0f) ||
    inRange(0xff1a, 0xff20)
  );
}
function texrexBits(c: number, cjk: boolean): number {
  if (c >= 48 && c <= 57) return T_DIGIT;
  const ascii = /[A-Za-z]/.test(String.fromCharCode(c));
  const letter =
    c < 128 ? ascii : c >= 0xc0 && c !== 0xd7 && c !== 0xf7 && !isPunctuation(c) && c !== 0x3000 && !(c >= 0x2000 && c <= 0x200b);
  if (letter) {
    const upper = (c >= 65 && c <= 90) || (c >= 0xc0 && c <= 0xde && c !== 0xd7);
    return T_LETTER | (upper ? T_UPPER : 0) | (cjk ? T_CJK : 0);
  }
  if (!isPunctuation(c)) return 0;
  const end = [46, 33, 63, 0x3002, 0xff01, 0xff1f, 0x2026].includes(c);
  return T_PUNCT | (end ? T_SENTENCE_END : 0) | ([0x3002, 0xff01, 0xff1f].includes(c) ? T_FULL_STOP : 0);
}
const TEXREX_BITS = T_LETTER | T_UPPER | T_DIGIT | T_PUNCT | T_SENTENCE_END | T_CJK | T_FULL_STOP;

describe("the code unit table", () => {
  it("marks texrex's classes, \\p{L}\\p{N}, CJK letters and every unit's lower case as their definitions say", () => {
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
      if ((CLASS[c] & TEXREX_BITS) !== texrexBits(c, (CLASS[c] & CJK) !== 0)) expect.fail(`texrex class of U+${c.toString(16)}`);
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
