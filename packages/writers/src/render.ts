/**
 * A document's kept blocks as plain text and as Markdown, with the structure the segmenter
 * recorded (see @winnow/segment's BlockLayout).
 *
 * Plain text: blocks separated by a blank line, as ever; a table row is one line with its cells
 * separated by tabs (a cell spanning n columns is followed by n-1 empty ones) and the rows of a
 * table on consecutive lines; <pre> text keeps its line breaks and indentation.
 *
 * Markdown (CommonMark with GitHub's pipe tables): headings as `#`, list items with their marker
 * and nesting, a table's cells as a pipe table whose first row is the header, <pre> in a fenced
 * block. Only what would start a Markdown construct at the start of a paragraph is escaped:
 * emphasis characters inside running text are left as they are, unless links and emphasis are
 * written (MarkdownOptions.links), when they are escaped so that only the page's markup reads as
 * markup.
 */
import type { InlineSpan } from "@winnow/segment";
import type { DocumentBlock } from "./types.js";

type Blocks = ReadonlyArray<DocumentBlock>;

/** How Markdown is written beyond the blocks' structure. */
export interface MarkdownOptions {
  /**
   * Links as `[text](url)` (resolved against `baseUrl`; only http, https, mailto and ftp) and
   * emphasis as `*em*`, `**strong**` and `` `code` ``, where the segmenter recorded them
   * (`--links`). The characters that would read as such markup in the text are then escaped.
   */
  links?: boolean;
  /** The page's URL, against which relative links resolve. */
  baseUrl?: string;
}

const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:", "ftp:"]);
/** In text between inline markers: what Markdown would read as emphasis, code or a link. */
const INLINE_SPECIAL = /[\\`*_[\]]/g;

/** An absolute URL fit for a Markdown link, or null (javascript:, a bare #fragment, unparsable). */
function linkTarget(href: string, baseUrl: string | undefined): string | null {
  if (href.startsWith("#")) return null;
  let url: URL;
  try {
    url = new URL(href, baseUrl);
  } catch {
    return null;
  }
  if (!LINK_PROTOCOLS.has(url.protocol)) return null;
  return url.href.replace(/\(/g, "%28").replace(/\)/g, "%29");
}

/**
 * A block's text with its inline ranges as Markdown. Ranges that cross another are dropped (only
 * nested ones can be written); spaces at a range's edges move outside its markers.
 */
export function inlineMarkdown(text: string, spans: readonly InlineSpan[], baseUrl?: string): string {
  const open: Array<{ at: number; marker: string; code: boolean }> = [];
  const close: Array<{ at: number; marker: string; code: boolean }> = [];
  const codeEnds: number[] = []; // ends of the code ranges taken: nothing is written inside one
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const stack: number[] = [];
  for (const span of sorted) {
    let { start, end } = span;
    while (start < end && text.charCodeAt(start) === 32) start++;
    while (end > start && text.charCodeAt(end - 1) === 32) end--;
    if (end <= start) continue;
    while (stack.length > 0 && stack[stack.length - 1] <= start) stack.pop();
    if (stack.length > 0 && end > stack[stack.length - 1]) continue; // crosses an outer range
    if (codeEnds.some((codeEnd) => codeEnd > start)) continue; // inside code, taken literally
    let before: string;
    let after: string;
    if (span.kind === "link") {
      const target = span.href === undefined ? null : linkTarget(span.href, baseUrl);
      if (target === null) continue;
      before = "[";
      after = `](${target})`;
    } else if (span.kind === "code") {
      if (text.slice(start, end).includes("`")) continue;
      before = after = "`";
    } else {
      before = after = span.kind === "strong" ? "**" : "*";
    }
    const code = span.kind === "code";
    if (code) codeEnds.push(end);
    stack.push(end);
    open.push({ at: start, marker: before, code });
    close.push({ at: end, marker: after, code });
  }
  // Closing markers of inner ranges come first at a shared position: sort by position, inner first.
  const closeOrder = close.map((c, i) => ({ ...c, i })).sort((a, b) => a.at - b.at || b.i - a.i);
  let out = "";
  let pos = 0;
  let o = 0;
  let c = 0;
  let inCode = false;
  const escaped = (from: number, to: number): string =>
    inCode ? text.slice(from, to) : text.slice(from, to).replace(INLINE_SPECIAL, "\\$&");
  while (o < open.length || c < closeOrder.length) {
    const nextOpen = o < open.length ? open[o].at : Number.POSITIVE_INFINITY;
    const nextClose = c < closeOrder.length ? closeOrder[c].at : Number.POSITIVE_INFINITY;
    // At one position a range that ends closes before one that starts opens.
    const at = Math.min(nextOpen, nextClose);
    out += escaped(pos, at);
    pos = at;
    const marker = nextClose <= nextOpen ? closeOrder[c++] : open[o++];
    out += marker.marker;
    if (marker.code) inCode = nextOpen < nextClose;
  }
  return out + escaped(pos, text.length);
}

/** The row of table cells starting at `from`: the blocks of one row, and where the next starts. */
function rowEnd(blocks: Blocks, from: number): number {
  const row = blocks[from].layout?.cell?.row;
  let i = from + 1;
  while (i < blocks.length && blocks[i].layout?.cell?.row === row) i++;
  return i;
}

/** The row's cells as text, a spanning cell followed by empty ones; blocks of one cell share it. */
function rowCells(blocks: Blocks, from: number, to: number): string[] {
  const cells: string[] = [];
  let column = -1;
  for (let i = from; i < to; i++) {
    const cell = blocks[i].layout?.cell;
    if (cell === undefined) continue;
    if (cell.column === column && cells.length > 0) {
      cells[cells.length - 1 - (cell.span - 1)] += ` ${blocks[i].text}`;
      continue;
    }
    column = cell.column;
    cells.push(blocks[i].text);
    for (let s = 1; s < cell.span; s++) cells.push("");
  }
  return cells;
}

/** Plain text: see the module comment. Blocks without layout come out exactly as before. */
export function plainText(blocks: Blocks): string {
  const n = blocks.length;
  // Concatenation builds a rope that is flattened once by the consumer; no intermediate array.
  let s = "";
  let previousTable = -1;
  for (let i = 0; i < n; ) {
    const block = blocks[i];
    const layout = block.layout;
    const cell = layout?.cell;
    if (cell !== undefined) {
      const end = rowEnd(blocks, i);
      const line = rowCells(blocks, i, end).join("\t");
      s += i === 0 ? line : cell.table === previousTable ? `\n${line}` : `\n\n${line}`;
      previousTable = cell.table;
      i = end;
      continue;
    }
    previousTable = -1;
    const text = layout?.pre ?? block.text;
    s += i === 0 ? text : `\n\n${text}`;
    i++;
  }
  return s;
}

/** Characters that start a Markdown block when they open a paragraph. */
const BLOCK_START = /^(#{1,6}(?=\s|$)|[>+*-](?=\s|$)|=+\s*$|-{3,}\s*$|\d{1,9}[.)](?=\s|$)|`{3,}|~{3,}|\|)/;

function paragraph(text: string): string {
  return BLOCK_START.test(text) ? `\\${text}` : text;
}

function tableCell(text: string): string {
  return text
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|")
    .replace(/\s*\n\s*/g, " ");
}

function fenced(code: string): string {
  let longest = 0;
  for (const run of code.match(/`{3,}/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}\n${code}\n${fence}`;
}

/** A pipe table from the consecutive rows of one table starting at `from`; returns where it ends. */
function pipeTable(blocks: Blocks, from: number, out: string[]): number {
  const table = blocks[from].layout?.cell?.table;
  const rows: string[][] = [];
  let i = from;
  while (i < blocks.length && blocks[i].layout?.cell?.table === table) {
    const end = rowEnd(blocks, i);
    rows.push(rowCells(blocks, i, end).map(tableCell));
    i = end;
  }
  let width = 1;
  for (const row of rows) width = Math.max(width, row.length);
  const line = (cells: string[]): string => {
    let s = "|";
    for (let c = 0; c < width; c++) s += ` ${cells[c] ?? ""} |`;
    return s;
  };
  const lines = [line(rows[0]), `|${" --- |".repeat(width)}`];
  for (let r = 1; r < rows.length; r++) lines.push(line(rows[r]));
  out.push(lines.join("\n"));
  return i;
}

/** A block's running text as Markdown: with links and emphasis when asked, escaped then. */
function runningText(block: DocumentBlock, options: MarkdownOptions): string {
  if (options.links !== true) return block.text;
  const spans = block.layout?.inline;
  return spans === undefined ? block.text.replace(INLINE_SPECIAL, "\\$&") : inlineMarkdown(block.text, spans, options.baseUrl);
}

/** Markdown: see the module comment. */
export function markdownText(blocks: Blocks, options: MarkdownOptions = {}): string {
  const parts: string[] = [];
  // Parts joined by a blank line, except list items that follow one another (a tight list).
  const joins: boolean[] = [];
  for (let i = 0; i < blocks.length; ) {
    const block = blocks[i];
    const layout = block.layout;
    if (layout?.cell !== undefined) {
      joins.push(false);
      i = pipeTable(blocks, i, parts);
      continue;
    }
    const list = layout?.list;
    let md: string;
    if (block.heading > 0) md = `${"#".repeat(block.heading)} ${runningText(block, options)}`;
    else if (layout?.pre !== undefined) md = fenced(layout.pre);
    else md = paragraph(runningText(block, options));
    if (list !== undefined) {
      const indent = "    ".repeat(list.depth - 1);
      const lead = list.first ? `${list.marker} ` : " ".repeat(list.marker.length + 1);
      md = `${indent}${lead}${md.replace(/\n/g, `\n${indent}${" ".repeat(list.marker.length + 1)}`)}`;
    }
    joins.push(list?.first === true && i > 0 && blocks[i - 1].layout?.list !== undefined);
    parts.push(md);
    i++;
  }
  let s = parts.length > 0 ? parts[0] : "";
  for (let p = 1; p < parts.length; p++) s += (joins[p] ? "\n" : "\n\n") + parts[p];
  return s;
}
