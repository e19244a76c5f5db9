/**
 * Page structure the block features do not see (issue 35): teaser cards and grids of them,
 * article cards nested inside the main article, a block's place after the main text's end, and
 * figure captions and credits. The error study behind the issue found these behind about 40% of
 * the wrongly kept words that score above 0.9: one block at a time, a teaser's heading and
 * description look like an article's, and a caption looks like a short paragraph.
 *
 * Everything comes from what the segmenter already records per block (tag path, class/id words,
 * section ids) in one pass over the page's blocks; each distinct tag path and class string is
 * read once per page. What the other sets already carry is not repeated here: inside_figure,
 * class_media, class_related and class_hidden (extended.ts), the densest section and its span
 * (page-context.ts).
 *
 * - Nesting: how many <article> elements enclose the block, and whether it sits in a card (class
 *   words card, teaser, tile, promo, ...) inside an article, a <main> or a content-named element.
 * - Grids: how many sections (Block.parentId) hold a block of the same shape (tag path and class
 *   words), whether the block's section opens with a heading that is mostly a link, and the share
 *   of the page's text in shapes repeated three times or more.
 * - The main text's end: the last long paragraph of the densest section; blocks after it.
 * - Captions: inside <figcaption>, caption/credit class words, credit text ("(Image: …)",
 *   "Photo: …"), and "Read also:" lines.
 */
import type { SegmentedDocument } from "@winnow/segment";
import type { PageContext } from "./page-context.js";
import { int32s, uint8s } from "./reused.js";
import { clamp01, type DocumentContext, type FeatureSpec } from "./texrex.js";

const MAX_ARTICLES = 3;
const LOG_SHAPE = Math.log1p(20);
const END_SCALE = 20;
/** A grid: this many sections holding blocks of one shape. */
const GRID_SECTIONS = 3;
/** A long paragraph: at least this many characters (a Han or kana character counts three). */
const LONG_PARAGRAPH = 150;
/** Caption and "Read also" patterns are tried on blocks up to this long only. */
const SHORT_TEXT = 400;
/** A credit at a text's end is at most this long ("Photos by …" allows 60 characters of names). */
const TAIL_CHARS = 100;

export const STRUCTURE_SPECS: readonly FeatureSpec[] = [
  {
    name: "article_nesting",
    group: "structure",
    scaling: `<article> elements on the tag path, at most ${MAX_ARTICLES}, / ${MAX_ARTICLES}`,
  },
  {
    name: "nested_card",
    group: "structure",
    scaling: "{0,1}: inside two <article>s, or in a card-named element inside an <article>, <main> or content-named element",
  },
  { name: "card_class", group: "structure", scaling: "{0,1}: class/id words card, teaser, tile, promo, excerpt, related, ..." },
  { name: "shape_sections", group: "structure", scaling: "log(1+sections holding a block of its tag path and class words) / log(21)" },
  { name: "section_linked_heading", group: "structure", scaling: "{0,1}: its section opens with a heading that is mostly link text" },
  {
    name: "grid_card",
    group: "structure",
    scaling: `{0,1}: its shape is in ${GRID_SECTIONS}+ sections and its section opens with a linked heading`,
  },
  { name: "page_grid_share", group: "structure", scaling: `page: text in shapes found in ${GRID_SECTIONS}+ sections / page text` },
  { name: "after_main_end", group: "structure", scaling: "{0,1}: after the last long paragraph of the top section" },
  { name: "main_end_distance", group: "structure", scaling: `blocks after that paragraph / ${END_SCALE}, clamped (0 before it)` },
  { name: "in_figcaption", group: "structure", scaling: "{0,1}: <figcaption> on the tag path" },
  { name: "caption_class", group: "structure", scaling: "{0,1}: class/id words caption or credit" },
  { name: "caption_text", group: "structure", scaling: '{0,1}: a credit line: "Photo: …", "(Image: …)", "…/Getty Images"' },
  { name: "read_also", group: "structure", scaling: '{0,1}: a "Read also:" / "Related:" line' },
];

/**
 * Whole class words of cards and teasers. Not "item" (every menu and list item: 13% of WCXB dev's
 * text, a third of it content) nor "thumbnail" (WordPress marks the main article
 * "has-post-thumbnail": 87% of that text is content).
 */
const CARD_WORDS = new Set(["card", "cards", "teaser", "teasers", "tile", "tiles", "promo", "excerpt", "related", "snippet", "preview"]);
/** Whole class words of an element holding the page's main text ("body" and "text" name any wrapper). */
const CONTENT_WORDS = new Set(["article", "content", "main", "post", "entry", "story"]);
/**
 * Captions and credits: "caption" and "credit" also inside a longer class ("wp-caption-text",
 * "image-credit"), these two only as a whole class (as the set's figures were measured).
 */
const WHOLE_CAPTION_WORDS = new Set(["figcaption", "credits"]);
const MIN_WORD = 4;
const MAX_WORD = 10;

const CAPTION_LEAD = /^[([]?\s*(?:photo|image|picture|pic|foto|bild|credit|illustration|graphic|video)s?(?:\s+credit)?\s*[:：]/i;
const CAPTION_TAIL =
  /(?:[([]\s*(?:photo|image|picture|pic|foto|bild|credit|source|illustration)s?(?:\s+credit)?\s*[:：][^)\]]*[)\]]|(?:photo|image|picture)s?\s+(?:by|courtesy of)\s.{0,60}|getty images|shutterstock|istock(?:photo)?|\bap photo\b|reuters|dpa|afp)\s*[).]?$/i;
const READ_ALSO =
  /^(?:read (?:also|more)|see also|also read|related(?: articles?| stories| posts?| content)?|more on this(?: story| topic)?|recommended|lesen sie auch|mehr zum thema|auch interessant|voir aussi|lire aussi|à lire aussi|leer también|lee también|leia também|leggi anche)\s*[:：]|^(?:相关阅读|延伸阅读|相关文章|推荐阅读|関連記事)/i;

// Per tag path: <article>s on it (bits 0-1), <main> (bit 2), <figcaption> (bit 3).
const MAIN = 4;
const FIGCAPTION = 8;
// Per class string: card word (bit 0), card inside a content-named element (bit 1), caption word (bit 2).
const CARD = 1;
const CARD_IN_CONTENT = 2;
const CAPTION = 4;

function pathBits(tagPath: string): number {
  let articles = 0,
    bits = 0,
    start = 0;
  for (let i = 0; i <= tagPath.length; i++) {
    if (i === tagPath.length || tagPath.charCodeAt(i) === 47 /* / */) {
      const len = i - start;
      if (len === 7 && tagPath.startsWith("article", start)) articles++;
      else if (len === 4 && tagPath.startsWith("main", start)) bits |= MAIN;
      else if (len === 10 && tagPath.startsWith("figcaption", start)) bits |= FIGCAPTION;
      start = i + 1;
    }
  }
  return bits | Math.min(articles, MAX_ARTICLES);
}

const BAR = 124; // "|", between the elements of Block.classIds

/**
 * The bits of one class string: one pass over its characters, words cut at anything but a-z and
 * 0-9 (the string is lowercased), looked up only when as long as some listed word. Splitting the
 * string three ways was this set's largest cost.
 */
function classBits(classIds: string): number {
  let bits = 0,
    sawContent = false,
    card = false,
    content = false,
    start = -1;
  for (let i = 0; i <= classIds.length; i++) {
    const c = i < classIds.length ? classIds.charCodeAt(i) : BAR;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      const length = i - start;
      if (length >= MIN_WORD && length <= MAX_WORD) {
        const word = classIds.slice(start, i);
        if (CARD_WORDS.has(word)) card = true;
        else if (CONTENT_WORDS.has(word)) content = true;
        else if (word === "caption" || word === "credit") bits |= CAPTION;
        else if (WHOLE_CAPTION_WORDS.has(word) && (start === 0 || classIds.charCodeAt(start - 1) === 32) && (c === 32 || c === BAR)) {
          bits |= CAPTION;
        }
      }
      start = -1;
    }
    if (c === BAR) {
      if (card) bits |= sawContent ? CARD | CARD_IN_CONTENT : CARD;
      if (content) sawContent = true;
      card = false;
      content = false;
    }
  }
  return bits;
}

/** Per-document values of the structure set; arrays reused by the next document's (reused.ts). */
export interface StructureContext {
  pathFlags: Int32Array;
  classFlags: Int32Array;
  /** Per block: sections holding a block of its shape. */
  shapeSections: Int32Array;
  /** Per block: its section opens with a linked heading. */
  linkedHeading: Uint8Array;
  gridShare: number;
  /** The top section's last long paragraph; n when there is none. */
  mainEnd: number;
}

const reused = {
  pathFlags: int32s(),
  classFlags: int32s(),
  shapeOf: int32s(),
  shapeSections: int32s(),
  shapeLastSection: int32s(),
  shapeText: int32s(),
  firstOfSection: int32s(),
  linkedHeading: uint8s(),
  pathOfId: int32s(),
};
/**
 * Per distinct class string of the page: its bits, and a shape id per tag path seen with it. Keyed
 * by the block's own string (blocks under one element share it, and its hash), never by a joined
 * key: building "pathId classIds" per block made the set cost twice the context set's CPU.
 */
interface ClassEntry {
  bits: number;
  shapes: Map<number, number>;
}
const classEntries = new Map<string, ClassEntry>();

/** `page` is the context set's (the densest section); `base.stats` a CJK-aware scan. */
export function structureContext(doc: SegmentedDocument, base: DocumentContext, page: PageContext): StructureContext {
  const blocks = doc.blocks;
  const n = blocks.length;
  let maxPathId = 0,
    maxId = 0;
  for (let i = 0; i < n; i++) {
    const b = blocks[i];
    if (b.pathId > maxPathId) maxPathId = b.pathId;
    if (b.parentId > maxId) maxId = b.parentId;
  }
  const pathOfId = reused.pathOfId.zeros(maxPathId + 1).fill(-1);
  const pathFlags = reused.pathFlags.zeros(n);
  const classFlags = reused.classFlags.zeros(n);
  const shapeOf = reused.shapeOf.zeros(n);
  const firstOfSection = reused.firstOfSection.zeros(maxId + 1).fill(-1);
  classEntries.clear();
  let shapes = 0;
  for (let i = 0; i < n; i++) {
    const b = blocks[i];
    if (pathOfId[b.pathId] < 0) pathOfId[b.pathId] = pathBits(b.tagPath);
    pathFlags[i] = pathOfId[b.pathId];
    let entry = classEntries.get(b.classIds);
    if (entry === undefined) {
      entry = { bits: b.classIds.length === 0 ? 0 : classBits(b.classIds), shapes: new Map() };
      classEntries.set(b.classIds, entry);
    }
    classFlags[i] = entry.bits;
    let shape = entry.shapes.get(b.pathId);
    if (shape === undefined) {
      shape = shapes++;
      entry.shapes.set(b.pathId, shape);
    }
    shapeOf[i] = shape;
    if (firstOfSection[b.parentId] < 0) firstOfSection[b.parentId] = i;
  }
  // Sections per shape: a card's blocks are consecutive, so a shape counts a section each time
  // its blocks move to a section other than the last one it was seen in.
  const sectionsOfShape = reused.shapeSections.zeros(shapes);
  const lastSection = reused.shapeLastSection.zeros(shapes).fill(-1);
  const textOfShape = reused.shapeText.zeros(shapes);
  for (let i = 0; i < n; i++) {
    const s = shapeOf[i];
    const section = blocks[i].parentId;
    if (lastSection[s] !== section) {
      lastSection[s] = section;
      sectionsOfShape[s]++;
    }
    textOfShape[s] += blocks[i].textChars;
  }
  let gridText = 0;
  for (let s = 0; s < shapes; s++) if (sectionsOfShape[s] >= GRID_SECTIONS) gridText += textOfShape[s];
  // shapeOf becomes each block's section count (its shape ids are no longer needed).
  const shapeSections = shapeOf;
  for (let i = 0; i < n; i++) shapeSections[i] = sectionsOfShape[shapeOf[i]];
  const linkedHeading = reused.linkedHeading.zeros(n);
  for (let i = 0; i < n; i++) {
    const first = blocks[firstOfSection[blocks[i].parentId]];
    linkedHeading[i] = blocks[i].parentId !== 0 && first.heading > 0 && 2 * first.anchorChars >= first.textChars ? 1 : 0;
  }
  let mainEnd = n;
  if (page.bestSection !== 0) {
    const cjk = base.stats.cjk;
    for (let i = page.spanLast; i >= page.spanFirst && i >= 0; i--) {
      const b = blocks[i];
      const inBest = b.parentId === page.bestSection || b.grandparentId === page.bestSection;
      if (inBest && b.heading === 0 && b.textChars + 2 * cjk[i] >= LONG_PARAGRAPH) {
        mainEnd = i;
        break;
      }
    }
  }
  return {
    pathFlags,
    classFlags,
    shapeSections,
    linkedHeading,
    gridShare: gridText / Math.max(1, base.totalText),
    mainEnd,
  };
}

/**
 * The end of a text, where a credit stands: CAPTION_TAIL is anchored at the end only, so a regex
 * engine tries it from every position; the last TAIL_CHARS are enough for any credit it matches.
 */
function tail(text: string): string {
  return text.length <= TAIL_CHARS ? text : text.slice(text.length - TAIL_CHARS);
}

/** Writes block i's structure values at out[offset..]. */
export function writeStructure(doc: SegmentedDocument, ctx: StructureContext, i: number, out: Float32Array, offset: number): void {
  const b = doc.blocks[i];
  const path = ctx.pathFlags[i];
  const cls = ctx.classFlags[i];
  const articles = path & 3;
  const card = (cls & CARD) !== 0;
  let k = offset;
  out[k++] = articles / MAX_ARTICLES;
  out[k++] = articles >= 2 || (card && (articles > 0 || (path & MAIN) !== 0 || (cls & CARD_IN_CONTENT) !== 0)) ? 1 : 0;
  out[k++] = card ? 1 : 0;
  const sections = ctx.shapeSections[i];
  out[k++] = clamp01(Math.log1p(sections) / LOG_SHAPE);
  const linked = ctx.linkedHeading[i];
  out[k++] = linked;
  out[k++] = linked === 1 && sections >= GRID_SECTIONS ? 1 : 0;
  out[k++] = ctx.gridShare;
  const after = i > ctx.mainEnd;
  out[k++] = after ? 1 : 0;
  out[k++] = after ? clamp01((i - ctx.mainEnd) / END_SCALE) : 0;
  out[k++] = path & FIGCAPTION ? 1 : 0;
  out[k++] = cls & CAPTION ? 1 : 0;
  const short = b.textChars <= SHORT_TEXT;
  out[k++] = short && (CAPTION_LEAD.test(b.text) || CAPTION_TAIL.test(tail(b.text))) ? 1 : 0;
  out[k++] = short && READ_ALSO.test(b.text) ? 1 : 0;
}
