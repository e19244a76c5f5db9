/** Whitespace folding for the segmenter's text nodes. */

/**
 * The runs of whitespace that folding changes: any run holding a character other than a plain
 * space, or two characters or more. A lone space is left alone, which is what makes folding
 * cheap: a global replace allocates about 80 bytes of bookkeeping for every match, and with
 * /\s+/g every space between two words was a match (a fifth of the default path's allocated bytes,
 * benchmarks/results/2026-11-27-alloc.md). Each alternative runs to the end of the whitespace it
 * starts in (greedy), and a run it does not match is a single space, so no match starts inside a
 * run: the result is replace(/\s+/g, " ")'s, character for character.
 */
const FOLDABLE_RUN = /[^\S ]\s*| \s+/g;

/**
 * `data` with each run of whitespace folded to one space, as data.replace(/\s+/g, " ") gives it.
 * A text node with nothing to fold comes back as it is, without a copy.
 */
export function foldWhitespace(data: string): string {
  return data.replace(FOLDABLE_RUN, " ");
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
