/** Whitespace folding for the segmenter's text nodes. */

export const WHITESPACE_RUN = /\s+/g;

/** Whether a UTF-16 unit is whitespace as /\s/ defines it. */
export function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return (
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * `data` with each run of whitespace folded to one space, as data.replace(/\s+/g, " ") gives it.
 * Most text nodes need no change or are whitespace only; a scan of char codes settles both
 * without building a string, and only mixed nodes go to the regex.
 */
export function foldWhitespace(data: string): string {
  let fold = false,
    allSpace = true,
    previousSpace = false;
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i);
    if (isSpace(c)) {
      if (c !== 32 || previousSpace) fold = true;
      previousSpace = true;
    } else {
      allSpace = false;
      previousSpace = false;
    }
    if (fold && !allSpace) return data.replace(WHITESPACE_RUN, " ");
  }
  return !fold ? data : allSpace ? " " : data.replace(WHITESPACE_RUN, " ");
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
