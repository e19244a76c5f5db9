/**
 * HTML to text blocks in one pass of htmlparser2's callbacks: no DOM, no attribute objects.
 *
 * A block is the text between two block-level boundaries (the start or end of a BLOCK_TAGS element,
 * or a run of two or more <br>). Inline elements stay inside their block. Content of SKIP_TAGS and
 * of elements marked hidden is never text; it counts as markup.
 *
 * The open-element stack is explicit (arrays, no recursion), so 100,000-deep nesting costs memory
 * linear in the depth and nothing else; tag paths are capped at MAX_PATH_DEPTH ancestors.
 */
import { Parser } from "htmlparser2";
import { SkippingTokenizer } from "./skipping-tokenizer.js";
import { BLOCK_TAGS, SKIP_TAGS, headingLevel } from "./tags.js";
import { SubtreeFingerprinter } from "./subtrees.js";
import { ClassLink, PathTrie, classChainText, type PathNode } from "./ancestry.js";
import { WHITESPACE_RUN, foldWhitespace } from "./whitespace.js";
import { Doctype, type Block, type SegmentedDocument } from "./types.js";

/** Tag paths keep the innermost ancestors only beyond this depth (the outer ones say little). */
const MAX_PATH_DEPTH = 48;
/** Class/id words kept per element: utility-class soup (Tailwind) would otherwise dominate. */
const MAX_CLASS_ID_CHARS = 120;
/**
 * htmlparser2 keeps its open-element stack with Array#unshift, which turns quadratic in the depth
 * (10k levels parse in 0.2 s, 40k in 12 s). Real pages stay far below this; a page that goes deeper
 * is cut at that point and marked truncated, so one hostile record cannot stall a run.
 */
export const MAX_NESTING = 4096;
const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

export interface SegmentOptions {
  /** Keep only the innermost this-many ancestors in tagPath (default 48). */
  maxPathDepth?: number;
  /**
   * Also fingerprint candidate subtrees for site-template detection (doc.subtrees). Blocks and
   * every other output are the same with and without it.
   */
  subtrees?: boolean;
}

export class Segmenter {
  private readonly parser: Parser;
  private readonly pathTrie: PathTrie;
  private readonly subtrees: SubtreeFingerprinter | null;

  // Open-element stack, one slot per element, parallel arrays. Paths, containers and class chains
  // are kept per level, so a block takes them in O(1) and blocks of one element share them.
  private paths: PathNode[] = [];
  private containers: string[] = [];
  private classLinks: Array<ClassLink | null> = [];
  private skips: boolean[] = [];
  // Ids of the innermost three block-level elements open at each level (innermost first).
  private scope1: number[] = [];
  private scope2: number[] = [];
  private scope3: number[] = [];
  private nextScopeId = 1;
  private depth = 0;
  private skipDepth = 0; // open elements that hide their content
  private anchorDepth = 0;
  private headingDepth = 0;
  private headingLevelNow = 0;
  private inTitle = false;
  private truncated = false;

  // The block being collected.
  private text = "";
  private textHasContent = false;
  private blockPath: PathNode;
  private blockContainer = "";
  private blockClassLink: ClassLink | null = null;
  private blockHeading = 0;
  private blockParentId = 0;
  private blockGrandparentId = 0;
  private anchorCount = 0;
  private anchorChars = 0;
  private anchorSerial = 0;
  private countedAnchor = -1;
  private rawTextChars = 0; // text characters seen since the last boundary
  private lastBoundary = 0; // source index of the last boundary
  private emptyRun = 0;
  private brRun = 0;

  // The document.
  private blocks: Block[] = [];
  private title = "";
  private titleDone = false;
  private doctype: Doctype = Doctype.Undeclared;
  private totalTextChars = 0;
  private sourceLength = 0;

  constructor(options: SegmentOptions = {}) {
    this.pathTrie = new PathTrie(options.maxPathDepth ?? MAX_PATH_DEPTH);
    this.blockPath = this.pathTrie.top;
    this.subtrees = options.subtrees === true ? new SubtreeFingerprinter() : null;
    this.parser = new Parser(
      {
        onopentagname: (name) => this.openTag(name),
        onattribute: (name, value) => this.attribute(name, value),
        onclosetag: (name) => this.closeTag(name),
        ontext: (data) => this.textNode(data),
        onprocessinginstruction: (name, data) => this.declaration(name, data),
      },
      { decodeEntities: true, lowerCaseAttributeNames: false, Tokenizer: SkippingTokenizer },
    );
  }

  /**
   * Segment one whole document, given as one string or as consecutive pieces of it (as
   * decodeHtmlPieces cuts them). Blocks are the same either way. Not re-entrant: one call at a
   * time per Segmenter.
   */
  segment(html: string | readonly string[]): SegmentedDocument {
    const pieces = typeof html === "string" ? [html] : html;
    let length = 0;
    for (let i = 0; i < pieces.length; i++) length += pieces[i].length;
    this.reset(length);
    // The nesting guard pauses the parser from inside openTag; what follows is never read.
    for (let i = 0; i < pieces.length && !this.truncated; i++) this.parser.write(pieces[i]);
    this.parser.end();
    const truncated = this.truncated;
    this.flush(truncated ? this.parser.endIndex : this.sourceLength);
    const doc: SegmentedDocument = {
      title: this.title.replace(WHITESPACE_RUN, " ").trim(),
      doctype: this.doctype,
      blocks: this.blocks,
      markupChars: Math.max(0, this.sourceLength - this.totalTextChars),
      textChars: this.totalTextChars,
      truncated,
    };
    if (this.subtrees !== null) doc.subtrees = this.subtrees.finish();
    this.blocks = [];
    return doc;
  }

  private reset(sourceLength: number): void {
    this.parser.reset();
    this.subtrees?.reset();
    this.pathTrie.reset();
    this.blockPath = this.pathTrie.top;
    this.paths.length = 0;
    this.containers.length = 0;
    this.classLinks.length = 0;
    this.skips.length = 0;
    this.scope1.length = 0;
    this.scope2.length = 0;
    this.scope3.length = 0;
    this.nextScopeId = 1;
    this.depth = 0;
    this.skipDepth = 0;
    this.anchorDepth = 0;
    this.headingDepth = 0;
    this.headingLevelNow = 0;
    this.inTitle = false;
    this.truncated = false;
    this.text = "";
    this.textHasContent = false;
    this.anchorCount = 0;
    this.anchorChars = 0;
    this.anchorSerial = 0;
    this.countedAnchor = -1;
    this.rawTextChars = 0;
    this.lastBoundary = 0;
    this.emptyRun = 0;
    this.brRun = 0;
    this.blocks = [];
    this.title = "";
    this.titleDone = false;
    this.doctype = Doctype.Undeclared;
    this.totalTextChars = 0;
    this.sourceLength = sourceLength;
  }

  private openTag(name: string): void {
    const skip = SKIP_TAGS.has(name);
    const d = this.depth++;
    if (d === MAX_NESTING) {
      // No callback comes after a pause; end() then leaves the rest of the page unread.
      this.truncated = true;
      this.parser.pause();
    }
    this.subtrees?.open(d, name);
    this.paths[d] = this.pathTrie.child(d === 0 ? null : this.paths[d - 1], name);
    const isBlock = BLOCK_TAGS.has(name);
    this.containers[d] = isBlock ? name : d === 0 ? "" : this.containers[d - 1];
    const p1 = d === 0 ? 0 : this.scope1[d - 1],
      p2 = d === 0 ? 0 : this.scope2[d - 1];
    if (isBlock) {
      this.scope1[d] = this.nextScopeId++;
      this.scope2[d] = p1;
      this.scope3[d] = p2;
    } else {
      this.scope1[d] = p1;
      this.scope2[d] = p2;
      this.scope3[d] = d === 0 ? 0 : this.scope3[d - 1];
    }
    this.classLinks[d] = d === 0 ? null : this.classLinks[d - 1];
    this.skips[d] = skip;
    if (skip) this.skipDepth++;
    // <title> also names svg shapes; only the document's own title is wanted.
    if (name === "title" && !this.titleDone && !this.insideSvg()) this.inTitle = true;

    if (name === "br") {
      if (this.skipDepth === 0) this.lineBreak();
      return;
    }
    // Boundaries inside hidden content would split visible text around it for nothing.
    if (isBlock && this.skipDepth === 0) this.flush(this.parser.startIndex);
    if (name === "a") {
      this.anchorDepth++;
      this.anchorSerial++;
    } else {
      const level = headingLevel(name);
      if (level > 0) {
        this.headingDepth++;
        this.headingLevelNow = level;
      }
    }
  }

  private insideSvg(): boolean {
    for (let node = this.paths[this.depth - 1].parent; node !== null; node = node.parent) if (node.name === "svg") return true;
    return false;
  }

  private attribute(name: string, value: string): void {
    const d = this.depth - 1;
    if (d < 0 || (value.length === 0 && name !== "hidden")) return;
    if (name === "class" || name === "id") {
      const words = (value.length > MAX_CLASS_ID_CHARS ? value.slice(0, MAX_CLASS_ID_CHARS) : value).toLowerCase();
      // The level holds its parent's link until the element's own first class/id; a second
      // attribute (class, then id) replaces the element's link with one holding both.
      const parent = d === 0 ? null : this.classLinks[d - 1];
      const own = this.classLinks[d];
      this.classLinks[d] = new ClassLink(own !== parent && own !== null ? `${own.words} ${words}` : words, parent);
    } else if (
      (name === "hidden" || (name === "aria-hidden" && value === "true") || (name === "style" && HIDDEN_STYLE.test(value))) &&
      !this.skips[d]
    ) {
      // Attributes arrive before any child, so hiding the element now hides all of its content.
      this.skips[d] = true;
      this.skipDepth++;
    }
  }

  private closeTag(name: string): void {
    if (this.depth === 0) return;
    const d = --this.depth;
    this.subtrees?.close(d);
    if (this.skips[d]) this.skipDepth--;
    if (name === "title" && this.inTitle) {
      this.inTitle = false;
      this.titleDone = true;
    }
    if (name === "br") return;
    if (name === "a") {
      if (this.anchorDepth > 0) this.anchorDepth--;
    } else if (headingLevel(name) > 0 && this.headingDepth > 0) {
      this.headingDepth--;
      if (this.headingDepth === 0) this.headingLevelNow = 0;
    }
    if (this.skipDepth === 0 && BLOCK_TAGS.has(name)) this.flush(this.parser.endIndex + 1);
  }

  private declaration(name: string, data: string): void {
    if (name.length !== 8 || name.toLowerCase() !== "!doctype") return;
    const upper = data.toUpperCase();
    if (upper.includes("XHTML")) this.doctype = Doctype.Xhtml;
    else if (upper.includes("HTML 4") || upper.includes("HTML 3")) this.doctype = Doctype.Html4;
    else this.doctype = Doctype.Html5;
  }

  private textNode(data: string): void {
    if (this.inTitle) {
      this.title += data;
      return;
    }
    if (this.skipDepth > 0) return;
    this.subtrees?.text(this.depth - 1, data);
    this.rawTextChars += data.length;
    let piece = foldWhitespace(data);
    if (piece === " ") {
      if (this.textHasContent && this.text.charCodeAt(this.text.length - 1) !== 32) this.text += " ";
      return;
    }
    this.brRun = 0;
    if (!this.textHasContent) {
      piece = piece.trimStart();
      this.startBlock();
    } else if (piece.charCodeAt(0) === 32 && this.text.charCodeAt(this.text.length - 1) === 32) {
      piece = piece.slice(1);
    }
    this.text += piece;
    if (this.anchorDepth > 0) {
      // Folded text has no whitespace but single spaces, so trimming is at most one at each end.
      this.anchorChars += piece.length - (piece.charCodeAt(0) === 32 ? 1 : 0) - (piece.charCodeAt(piece.length - 1) === 32 ? 1 : 0);
      if (this.countedAnchor !== this.anchorSerial) {
        this.countedAnchor = this.anchorSerial;
        this.anchorCount++;
      }
    }
  }

  /** One <br> is a line break inside the block; a second in a row ends the block. */
  private lineBreak(): void {
    if (++this.brRun >= 2) {
      this.flush(this.parser.endIndex + 1);
    } else if (this.textHasContent && this.text.charCodeAt(this.text.length - 1) !== 32) {
      this.text += " ";
    }
  }

  /** The first text of a block fixes where the block sits in the tree. */
  private startBlock(): void {
    this.textHasContent = true;
    const d = this.depth - 1;
    this.blockPath = d < 0 ? this.pathTrie.top : this.paths[d];
    this.blockContainer = d < 0 ? "" : this.containers[d];
    this.blockClassLink = d < 0 ? null : this.classLinks[d];
    this.blockHeading = this.headingLevelNow;
    this.blockParentId = d < 0 ? 0 : this.scope2[d];
    this.blockGrandparentId = d < 0 ? 0 : this.scope3[d];
    this.subtrees?.startBlock(d);
  }

  /** End the current block at source index `at`; an empty one only counts toward emptyBefore. */
  private flush(at: number): void {
    const span = at - this.lastBoundary;
    this.lastBoundary = at;
    this.brRun = 0;
    if (!this.textHasContent) {
      this.rawTextChars = 0;
      this.emptyRun++;
      return;
    }
    const text = this.text.charCodeAt(this.text.length - 1) === 32 ? this.text.slice(0, -1) : this.text;
    this.totalTextChars += text.length;
    const path = this.blockPath,
      link = this.blockClassLink;
    this.blocks.push({
      index: this.blocks.length,
      text,
      tagPath: this.pathTrie.text(path),
      pathId: path.id,
      container: this.blockContainer,
      classIds: classChainText(link),
      classMask: link === null ? 0 : link.chainMask,
      nearClassMask: link === null ? 0 : link.nearMask,
      heading: this.blockHeading,
      anchorCount: this.anchorCount,
      anchorChars: Math.min(this.anchorChars, text.length),
      markupChars: Math.max(0, span - this.rawTextChars),
      textChars: text.length,
      emptyBefore: this.emptyRun,
      parentId: this.blockParentId,
      grandparentId: this.blockGrandparentId,
    });
    this.subtrees?.endBlock();
    this.text = "";
    this.textHasContent = false;
    this.anchorCount = 0;
    this.anchorChars = 0;
    this.countedAnchor = -1;
    this.rawTextChars = 0;
    this.emptyRun = 0;
  }
}

let shared: Segmenter | undefined;
let sharedWithSubtrees: Segmenter | undefined;

/**
 * Segment a document, whole or in pieces, with a shared Segmenter (parsing is synchronous, so
 * sharing is safe).
 */
export function segmentHtml(html: string | readonly string[], options?: { subtrees?: boolean }): SegmentedDocument {
  if (options?.subtrees === true) {
    sharedWithSubtrees ??= new Segmenter({ subtrees: true });
    return sharedWithSubtrees.segment(html);
  }
  shared ??= new Segmenter();
  return shared.segment(html);
}
