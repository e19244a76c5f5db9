/**
 * Tag tables for segmentation. Sets of lowercase names: the parser lowercases tag names in HTML mode.
 */

/** Elements whose start and end separate text blocks (as a browser would start a new line). */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "caption",
  "center",
  "dd",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "frameset",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "html",
  "legend",
  "li",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
]);

/**
 * Elements whose content is never page text: code, styling, embedded documents, form widgets with
 * option lists, and the head (whose <title> is taken separately; the segmenter ends a head that is
 * never closed where a browser would, see HEAD_TAGS). <noscript> is not among them:
 * some sites (Discourse forums) serve their posts only there; the segmenter drops a short one
 * (the "please enable JavaScript" kind) when it closes.
 */
export const SKIP_TAGS: ReadonlySet<string> = new Set([
  "script",
  "style",
  "template",
  "svg",
  "math",
  "iframe",
  "object",
  "embed",
  "canvas",
  "select",
  "datalist",
  "textarea",
  "head",
  "video",
  "audio",
  "map",
]);

/**
 * Start tags that stay inside an open <head>: the HTML standard's "in head" insertion mode keeps
 * these there (a second head or html is merged away). Any other start tag, and any text but
 * whitespace, ends the head where it stands and opens the body, though no </head> or <body> came.
 */
export const HEAD_TAGS: ReadonlySet<string> = new Set([
  "base",
  "basefont",
  "bgsound",
  "head",
  "html",
  "link",
  "meta",
  "noframes",
  "noscript",
  "script",
  "style",
  "template",
  "title",
]);

/**
 * Start tags that do not open the body between </head> and <body> ("after head": browsers put
 * them in the head, or, for frameset, in place of the body). Any other start tag opens the body.
 */
export const AFTER_HEAD_TAGS: ReadonlySet<string> = new Set([
  "base",
  "basefont",
  "bgsound",
  "frameset",
  "link",
  "meta",
  "noframes",
  "script",
  "style",
  "template",
  "title",
]);

/** h1..h6 to their level; 0 for every other name. */
export function headingLevel(name: string): number {
  if (name.length === 2 && name.charCodeAt(0) === 104 /* h */) {
    const level = name.charCodeAt(1) - 48;
    if (level >= 1 && level <= 6) return level;
  }
  return 0;
}

/** TAG_KINDS bits. */
export const TAG_BLOCK = 1;
export const TAG_SKIP = 2;

/**
 * BLOCK_TAGS and SKIP_TAGS in one table, for the segmenter's start tags (their end tags read it back from the level): one lookup per element
 * where two hashed a fresh tag-name string twice.
 */
export const TAG_KINDS: ReadonlyMap<string, number> = (() => {
  const kinds = new Map<string, number>();
  for (const name of BLOCK_TAGS) kinds.set(name, TAG_BLOCK);
  for (const name of SKIP_TAGS) kinds.set(name, (kinds.get(name) ?? 0) | TAG_SKIP);
  return kinds;
})();
