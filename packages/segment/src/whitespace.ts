/** Whitespace folding for the segmenter's text nodes. */

export const WHITESPACE_RUN = /\s+/g;

/** A whitespace character other than a plain space, or two spaces in a row: what folding changes. */
const NEEDS_FOLDING = /[\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}/;

/**
 * `data` with each run of whitespace folded to one space, as data.replace(/\s+/g, " ") gives it.
 * Most text nodes need no change or are whitespace only: one native scan settles whether a node
 * needs the replace at all (a char-code loop over every text character in JavaScript cost more).
 */
export function foldWhitespace(data: string): string {
  return NEEDS_FOLDING.test(data) ? data.replace(WHITESPACE_RUN, " ") : data;
}

/**
 * Whether `data` is only the HTML standard's ASCII whitespace (tab, LF, FF, CR, space) or a
 * byte-order mark: text that a browser's tree builder leaves where it is, where any other text
 * ends the head and opens the body. Non-breaking spaces are text here, as they are to browsers.
 */
export function isHtmlWhitespace(data: string): boolean {
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13 && c !== 12 && c !== 0xfeff) return false;
  }
  return true;
}
