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
 * option lists, and the head (whose <title> is taken separately). <noscript> is not among them:
 * some sites (Discourse forums) serve their posts only there, and the classifier can drop the
 * "please enable JavaScript" kind.
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

/** h1..h6 to their level; 0 for every other name. */
export function headingLevel(name: string): number {
  if (name.length === 2 && name.charCodeAt(0) === 104 /* h */) {
    const level = name.charCodeAt(1) - 48;
    if (level >= 1 && level <= 6) return level;
  }
  return 0;
}
