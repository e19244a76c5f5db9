import type { SubtreeIndex } from "./subtrees.js";

/** Doctype classes used by the texrex document features. */
export enum Doctype {
  Undeclared = 0,
  Html4 = 1,
  Html5 = 2,
  Xhtml = 3,
}

/** A run of text between two block-level boundaries, with what classifiers need to know about it. */
export interface Block {
  /** Position in the document's block array (empty blocks are not in the array, see emptyBefore). */
  index: number;
  /** Whitespace-folded text. Never empty. */
  text: string;
  /**
   * Ancestor tag names from the root, joined by "/", e.g. "html/body/div/article/p"; beyond 48
   * ancestors, "…/" and the innermost 48. Blocks with equal paths share one string.
   */
  tagPath: string;
  /** Small integer naming tagPath within the document: equal paths, equal ids (for integer work). */
  pathId: number;
  /** Name of the nearest enclosing block-level element ("p", "div", "td", "li", "h2", ...). */
  container: string;
  /**
   * Lowercased class and id words of the innermost six ancestors that have any, outermost first;
   * one element's words are space separated, elements are separated by " | ".
   */
  classIds: string;
  /** Class-word groups (see CLASS_WORD_GROUPS, bit g = group g) found in classIds. */
  classMask: number;
  /** The same for the innermost two elements of classIds only. */
  nearClassMask: number;
  /** 1-6 when the block is a heading h1-h6, else 0. */
  heading: number;
  /** Number of <a href> elements that contribute text to the block. */
  anchorCount: number;
  /** Characters of the block's text that lie inside <a> elements. */
  anchorChars: number;
  /** Characters of markup (tags, attributes, comments, scripts, skipped elements) since the previous block. */
  markupChars: number;
  /** Characters of text in the block (text.length). */
  textChars: number;
  /** Empty blocks (boundaries with no text) seen right before this one. */
  emptyBefore: number;
  /**
   * Document-unique ids of the block-level element enclosing the block's container, and of the one
   * above that (0 when there is none): blocks sharing an id sit in the same section of the page.
   */
  parentId: number;
  grandparentId: number;
  /**
   * The index of the first earlier block of the page with the same text (compared in lowercase),
   * for blocks of five words or more; -1 for every other block. Mobile and desktop copies of one
   * text, carousel clones and paired captions are one text more than once: a page's output keeps
   * one copy of those (see @winnow/models' dropRepeatedBlocks). Features do not read it.
   */
  repeatOf: number;
  /** The structure the block sits in (list item, table cell, <pre>); undefined for a plain block. */
  layout?: BlockLayout;
}

/** In a list item (ul, ol): how a writer marks it. */
export interface ListLayout {
  /** Lists open around the block: 1 for a top-level list, 2 for one nested in it, ... */
  depth: number;
  /** "-" for ul, "3." (the item's number, after `start`) for ol. */
  marker: string;
  /** The first block of its item (the one that carries the marker; the item's later blocks continue it). */
  first: boolean;
}

/** Text right in a table cell (the block's nearest block-level element is a td or th). */
export interface CellLayout {
  /** Document-unique ids of the table and the row: blocks of one row share `row`. */
  table: number;
  row: number;
  /** The cell's first column, counting the spans of the cells before it (0-based). */
  column: number;
  /** colspan (1 when none; at most 64). */
  span: number;
  /** A th, or any cell of a thead row. */
  header: boolean;
}

/** Every layout has all four fields, in this order, those a block lacks undefined (one hidden class: newLayout). */
export interface BlockLayout {
  list?: ListLayout;
  cell?: CellLayout;
  /** In <pre>: the text with its line breaks and indentation as written (text holds it folded). */
  pre?: string;
  /** Only when segmenting with `inline`: links and emphasis inside the block's text. */
  inline?: InlineSpan[];
}

export type InlineKind = "link" | "em" | "strong" | "code";

/** An inline element inside a block: its [start, end) range of the block's text. */
export interface InlineSpan {
  start: number;
  end: number;
  kind: InlineKind;
  /** Links: the href as written (relative or absolute); absent when the link had none. */
  href?: string;
}

/**
 * Watches the markup as the segmenter parses, for readers of what is not text (page metadata):
 * one pass serves both. `open` is called for each start tag (merged-away html, head and body
 * excepted); the element's attributes follow only when it returned true. While `capturing` is
 * true, every text node (hidden ones and script content included) goes to `text`, and every close
 * to `close`, so an observer follows an element of its choice to its end.
 */
export interface MarkupObserver {
  readonly capturing: boolean;
  open(name: string, level: number): boolean;
  attribute(name: string, value: string): void;
  text(data: string): void;
  close(level: number): void;
}

export interface SegmentedDocument {
  title: string;
  doctype: Doctype;
  blocks: Block[];
  /** Total markup characters and text characters of the whole document. */
  markupChars: number;
  textChars: number;
  /** True when parsing stopped early because nesting went deeper than MAX_NESTING (see segmenter). */
  truncated: boolean;
  /** Candidate-subtree fingerprints, only when segmented with the `subtrees` option. */
  subtrees?: SubtreeIndex;
}
