/**
 * Data for a page goes into `<script type="application/json">` and is read with JSON.parse, never
 * as markup. Inside that element only "</script" (or "<!--") could end it early, so every "<",
 * ">" and "&" is written as a \u escape, which JSON.parse turns back into the same character.
 * U+2028 and U+2029 are escaped too, for any consumer that evaluates the text as JavaScript.
 */
const UNSAFE = /[<>&\u2028\u2029]/g;

export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
