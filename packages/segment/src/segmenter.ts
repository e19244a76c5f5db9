/**
 * HTML to text blocks in one pass of htmlparser2's callbacks: no DOM, no attribute objects.
 *
 * A block is the text between two block-level boundaries (the start or end of a BLOCK_TAGS element,
 * or a run of two or more <br>). Inline elements stay inside their block. Content of SKIP_TAGS and
 * of elements marked hidden is never text; it counts as markup. Hidden means an attribute
 * (`hidden`, `aria-hidden`, `aria-modal`, an inline display:none), a class word that hides
 * (hidden-classes.ts), or a <dialog> without `open`; a React streamed segment is the exception
 * (see streamedId). A short <noscript>'s text is taken back when it closes, and CMS shortcodes
 * are cut from each block's text (shortcodes.ts). A page whose text sits almost all in one hidden
 * wrapper is read a second time with that wrapper shown (hidden-wrapper.ts); every other page is
 * read once. The tokenizer reads a self-closed <iframe/> and a stray <![CDATA[ as browsers do
 * (browser-tokenizer.ts).
 *
 * The open-element stack is explicit (arrays, no recursion), so 100,000-deep nesting costs memory
 * linear in the depth and nothing else; tag paths are capped at MAX_PATH_DEPTH ancestors.
 *
 * htmlparser2 has no insertion modes: a <head> that is never closed stays open to the end of the
 * page, and with it closed, content before <body> or after </body> sits under <html>. The segmenter
 * follows the HTML standard's tree builder where that decides what is text: a start tag that cannot
 * be in the head (see HEAD_TAGS), or text that is not whitespace, ends the head and makes its level
 * the body; body content where no body is open gets a body level of the segmenter's own; a second
 * html, head or body start tag is merged away (a "transparent" level: its parent's path, no
 * boundary). Until the first body is open, and while a head is, each start tag and text node looks
 * at this (a few integer comparisons); afterwards only html, head and body do.
 */
import type { Parser } from "htmlparser2";
import { BrowserTokenizer } from "./browser-tokenizer.js";
import { TagNameParser } from "./tag-name-parser.js";
import { BlockText } from "./block-text.js";
import { AFTER_HEAD_TAGS, HEAD_TAGS, TAG_BLOCK, TAG_KINDS, TAG_SKIP, headingLevel } from "./tags.js";
import { SubtreeFingerprinter } from "./subtrees.js";
import { ClassLink, PathTrie, classChainText, type PathNode } from "./ancestry.js";
import { foldWhitespace, isHtmlWhitespace } from "./whitespace.js";
import { InlineTracker } from "./inline.js";
import { Doctype, type Block, type CellLayout, type ListLayout, type MarkupObserver, type SegmentedDocument } from "./types.js";
import { StructureTracker, blockLayout, newLayout } from "./structure.js";
import { classHides } from "./hidden-classes.js";
import { stripShortcodes } from "./shortcodes.js";
import { HiddenWrapperTracker } from "./hidden-wrapper.js";
import { RepeatIndex } from "./repeats.js";

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
/**
 * A <noscript> whose text is shorter than this is dropped when it closes: that is the "please
 * enable JavaScript" kind. Longer ones stay, since some sites (Discourse forums) serve their
 * whole posts there.
 */
const NOSCRIPT_MAX_DROPPED_CHARS = 300;
/** Elements a class word does not hide (see onattribute()). */
const PAGE_LEVEL_TAGS: ReadonlySet<string> = new Set(["html", "body", "main"]);
/** Blocks of at least this many words are checked for an earlier copy on the page (Block.repeatOf). */
const REPEAT_MIN_WORDS = 5;

// Why the element just opened is hidden, as bits: each attribute that hides or shows it again
// (a streamed segment's id, a dialog's `open`) sets or clears its own bit.
const HIDDEN_BY_ATTRIBUTE = 1; // the `hidden` attribute
const HIDDEN_AS_CLOSED_DIALOG = 2; // <dialog> without `open`
const HIDDEN_OTHERWISE = 4; // inline style, aria-hidden, aria-modal, class words

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
  private readonly structure = new StructureTracker();
  private observer: MarkupObserver | null = null;
  /** Links and emphasis, only when segment() is asked for them. */
  private inline: InlineTracker | null = null;
  private inlineTracker: InlineTracker | null = null;
  private observing = false; // the observer wants the attributes of the element just opened
  private structureAttributes = false; // the element just opened is an ol, td or th
  private preText = ""; // raw text in <pre> since the last boundary
  // The element just opened, for its attributes: its name, why it is hidden (HIDDEN_* bits), and
  // whether it is a streamed segment (see streamedSegment).
  private openedName = "";
  private openedSkip = false; // a SKIP_TAGS element: hidden whatever its attributes say
  private hiddenBy = 0;
  private openedStreamed = false;
  private streamPlaceholders = false; // a React/Next.js <template id="B:0"> or "P:0" came
  // The outermost open <noscript> (-1: none) and what stood before it, to drop it if it is short.
  private noscriptLevel = -1;
  private noscriptBlocks = 0;
  private noscriptText = "";
  private noscriptHadText = false;
  private noscriptEndedInSpace = false;
  private noscriptChars = 0;
  /** Lowercased text of each block of REPEAT_MIN_WORDS or more words, to its first index. */
  private readonly repeatKeys = new RepeatIndex();
  /** The hidden element holding the most text, in case it is the whole page (hidden-wrapper.ts). */
  private readonly wrapper = new HiddenWrapperTracker();
  private openedAt = 0; // source index of the element just opened
  private shownAt = -1; // source index of an element read as shown whatever hides it (-1: none)
  private visibleChars = 0; // characters of the text nodes read as text

  // Open-element stack, one slot per element, parallel arrays. Paths, containers and class chains
  // are kept per level, so a block takes them in O(1) and blocks of one element share them.
  private paths: PathNode[] = [];
  private containers: string[] = [];
  /** The class and id words each open element gives itself ("" for none), cut as ClassLink.raw. */
  private classWords: string[] = [];
  /**
   * Each level's class chain (its own link, or the nearest ancestor's), made when a block first
   * asks for it (linkAt); undefined until then. Most elements with a class or id never hold a
   * block's first text, and making a link for each of them was the segmenter's largest
   * allocation after the blocks themselves (benchmarks/results/2026-11-27-alloc.md).
   */
  private classLinks: Array<ClassLink | null | undefined> = [];
  private skips: boolean[] = [];
  private tagSkips: boolean[] = []; // the level's element is a SKIP_TAGS one (script, style, ...)
  /**
   * The name each level's start tag gave and its TAG_KINDS bits, set together, so that an element
   * closing takes its kind from here where it looked the name up again. A level the segmenter
   * filled itself (its own body) keeps an earlier pair, and a closing name that is not the level's
   * own is looked up; either way the bits are TAG_KINDS' for the name compared.
   */
  private levelNames: string[] = [];
  private levelKinds: number[] = [];
  // Ids of the innermost three block-level elements open at each level (innermost first).
  private scope1: number[] = [];
  private scope2: number[] = [];
  private scope3: number[] = [];
  private nextScopeId = 1;
  private depth = 0;
  private skipDepth = 0; // open elements that hide their content
  private tagSkipDepth = 0; // of them, SKIP_TAGS elements
  private anchorDepth = 0;
  private headingDepth = 0;
  private headingLevelNow = 0;
  private inTitle = false;
  private truncated = false;

  // The document's structure, as levels of the stack (-1: none open).
  private htmlPath: PathNode | null = null; // the path node of the document's <html>, once it came
  private headLevel = -1; // a <head> still taking head content (its content is not text)
  private headIsDocument = false; // that head is the document's own: ending it opens the body
  private bodyLevel = -1; // the open body: a <body>, a head turned body, or the segmenter's own
  private syntheticLevel = -1; // a body level of the segmenter's own, not on htmlparser2's stack
  private sawDocument = false; // an html, head or body start tag came: a page, not a fragment
  private watchStructure = true; // headLevel >= 0 || bodyLevel < 0
  private openedTransparent = false; // the element just opened is merged away: attributes ignored

  // The block being collected (block-text.ts: its text nodes' code units, the string made once at
  // its end). Whether its text ends in a space is kept beside it, so that no append reads it back.
  private readonly text = new BlockText();
  private textHasContent = false;
  private textEndsInSpace = false;
  private blockPath: PathNode;
  private blockContainer = "";
  private blockClassLink: ClassLink | null = null;
  private blockHeading = 0;
  private blockParentId = 0;
  private blockList: ListLayout | null = null;
  private blockCell: CellLayout | null = null;
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
    // The segmenter is the parser's handler itself: its on* methods are htmlparser2's callbacks,
    // called straight from the parser. Arrow functions forwarding to private methods put a call of
    // their own on every tag, attribute and text node (about a twelfth of the segmenter's self
    // time on WCXB dev, benchmarks/results/2026-11-27-segmenter-speed.md).
    this.parser = new TagNameParser(this, {
      decodeEntities: true,
      lowerCaseAttributeNames: false,
      Tokenizer: BrowserTokenizer,
    });
  }

  /**
   * Segment one whole document, given as one string or as consecutive pieces of it (as
   * decodeHtmlPieces cuts them). Blocks are the same either way. Not re-entrant: one call at a
   * time per Segmenter.
   */
  segment(html: string | readonly string[], observer?: MarkupObserver, inline = false): SegmentedDocument {
    const pieces = typeof html === "string" ? [html] : html;
    const doc = this.read(pieces, observer ?? null, inline);
    const wrapperAt = this.wrapper.wrapperAt(this.visibleChars);
    if (wrapperAt < 0) return doc;
    // The page is hidden by a wrapper until its scripts run: read again with the wrapper shown.
    // The observer saw every element and text node already, hidden or not.
    this.shownAt = wrapperAt;
    try {
      return this.read(pieces, null, inline);
    } finally {
      this.shownAt = -1;
    }
  }

  /** One pass over the page. */
  private read(pieces: readonly string[], observer: MarkupObserver | null, inline: boolean): SegmentedDocument {
    let length = 0;
    for (let i = 0; i < pieces.length; i++) length += pieces[i].length;
    this.reset(length);
    this.observer = observer;
    // Links and emphasis (Markdown's --links): tracked only when asked for.
    this.inline = inline ? (this.inlineTracker ??= new InlineTracker()) : null;
    this.inline?.reset();
    // The nesting guard pauses the parser from inside onopentagname; what follows is never read.
    for (let i = 0; i < pieces.length && !this.truncated; i++) this.parser.write(pieces[i]);
    this.parser.end();
    const truncated = this.truncated;
    this.flush(truncated ? this.parser.endIndex : this.sourceLength);
    const doc: SegmentedDocument = {
      title: foldWhitespace(this.title).trim(),
      doctype: this.doctype,
      blocks: this.blocks,
      markupChars: Math.max(0, this.sourceLength - this.totalTextChars),
      textChars: this.totalTextChars,
      truncated,
    };
    if (this.subtrees !== null) doc.subtrees = this.subtrees.finish();
    this.blocks = [];
    this.observer = null;
    this.inline = null;
    return doc;
  }

  private reset(sourceLength: number): void {
    this.parser.reset();
    this.subtrees?.reset();
    this.structure.reset();
    this.observing = false;
    this.structureAttributes = false;
    this.preText = "";
    this.openedName = "";
    this.openedSkip = false;
    this.hiddenBy = 0;
    this.openedStreamed = false;
    this.streamPlaceholders = false;
    this.noscriptLevel = -1;
    this.noscriptText = "";
    this.noscriptChars = 0;
    this.repeatKeys.clear();
    this.wrapper.reset();
    this.openedAt = 0;
    this.visibleChars = 0;
    this.blockList = null;
    this.blockCell = null;
    this.pathTrie.reset();
    this.blockPath = this.pathTrie.top;
    this.paths.length = 0;
    this.containers.length = 0;
    this.classWords.length = 0;
    this.classLinks.length = 0;
    this.skips.length = 0;
    this.tagSkips.length = 0;
    this.levelNames.length = 0;
    this.levelKinds.length = 0;
    this.scope1.length = 0;
    this.scope2.length = 0;
    this.scope3.length = 0;
    this.nextScopeId = 1;
    this.depth = 0;
    this.skipDepth = 0;
    this.tagSkipDepth = 0;
    this.anchorDepth = 0;
    this.headingDepth = 0;
    this.headingLevelNow = 0;
    this.inTitle = false;
    this.truncated = false;
    this.htmlPath = null;
    this.headLevel = -1;
    this.headIsDocument = false;
    this.bodyLevel = -1;
    this.syntheticLevel = -1;
    this.sawDocument = false;
    this.watchStructure = true;
    this.openedTransparent = false;
    this.text.reset();
    this.textHasContent = false;
    this.textEndsInSpace = false;
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

  /** @internal htmlparser2's callback: a start tag. */
  onopentagname(name: string): void {
    // html, head and body are the only four-letter names that can change the structure once a body is open.
    const transparent = (this.watchStructure || name.length === 4) && this.beforeOpen(name);
    this.openedTransparent = transparent;
    const kind = TAG_KINDS.get(name) ?? 0;
    const skip = !transparent && (kind & TAG_SKIP) !== 0;
    const d = this.depth++;
    this.levelNames[d] = name;
    this.levelKinds[d] = kind;
    if (d === MAX_NESTING) {
      // No callback comes after a pause; end() then leaves the rest of the page unread.
      this.truncated = true;
      this.parser.pause();
    }
    this.subtrees?.open(d, name);
    if (transparent) {
      this.inheritLevel(d);
      return;
    }
    if (this.observer !== null) this.observing = this.observer.open(name, d);
    if (this.inline !== null && this.skipDepth === 0) this.inline.open(name, d, this.textHasContent ? this.text.length : 0);
    this.paths[d] = this.pathTrie.child(d === 0 ? null : this.paths[d - 1], name);
    const isBlock = (kind & TAG_BLOCK) !== 0;
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
    this.classWords[d] = "";
    this.classLinks[d] = undefined;
    this.skips[d] = skip;
    this.tagSkips[d] = skip;
    if (skip) {
      this.skipDepth++;
      this.tagSkipDepth++;
    }
    this.openedAt = this.parser.startIndex;
    this.openedName = name;
    this.openedSkip = skip;
    this.hiddenBy = 0;
    this.openedStreamed = false;
    // <title> also names svg shapes; only the document's own title is wanted.
    if (name === "title" && !this.titleDone && !this.insideSvg()) this.inTitle = true;

    if (name === "br") {
      if (this.skipDepth === 0) this.lineBreak();
      return;
    }
    // Boundaries inside hidden content would split visible text around it for nothing.
    if (isBlock) {
      if (this.skipDepth === 0) this.flush(this.parser.startIndex);
      this.structure.open(name, d);
      this.structureAttributes = name === "ol" || name === "td" || name === "th";
      // A dialog is closed unless its `open` attribute follows (hidden after the boundary, so that
      // an open one is a block of its own).
      if (name === "dialog") this.hideOpened(HIDDEN_AS_CLOSED_DIALOG, true);
    } else {
      this.structureAttributes = false;
      if (name === "noscript" && this.noscriptLevel < 0 && this.skipDepth === 0) this.openNoscript(d);
    }
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

  /**
   * What a start tag does to the document's structure before it is opened: it may end the head,
   * or open a body level below it. True when browsers would merge the element away (a second
   * html, head or body), so that its level is transparent.
   */
  private beforeOpen(name: string): boolean {
    const d = this.depth;
    if (this.headLevel >= 0) {
      // Inside the head's own title, script, noscript or template nothing ends the head.
      if (!this.inHead(d)) return false;
      if (HEAD_TAGS.has(name)) return name === "head" || name === "html";
      this.leaveHead(name);
      // A <body> here (under a merged <html> inside the head) joins the body the head became.
      return name === "body";
    }
    if (name === "html") {
      if (d !== 0 || this.htmlPath !== null) return true;
      this.htmlPath = this.pathTrie.child(null, "html");
      this.sawDocument = true;
      return false;
    }
    if (name === "head") {
      // A head inside the page still hides its title and styles, but ends as the document's does.
      const parent = d === 0 ? this.pathTrie.top : this.paths[d - 1];
      this.headIsDocument = this.bodyLevel < 0 && (parent === this.htmlPath || parent === this.pathTrie.top);
      this.headLevel = d;
      this.sawDocument = true;
      this.watchStructure = true;
      return false;
    }
    if (name === "body") {
      if (this.bodyLevel >= 0) {
        // Merged into the open body, unless that is the segmenter's own, implied right above it by
        // content between </head> and <body>: then the page's own body takes its place.
        if (this.bodyLevel !== this.syntheticLevel || d - 1 !== this.syntheticLevel) return true;
        this.closeSyntheticBody();
      }
      this.bodyLevel = this.depth;
      this.sawDocument = true;
      this.watchStructure = false;
      return false;
    }
    if (this.bodyLevel < 0 && this.atDocumentLevel(d) && !AFTER_HEAD_TAGS.has(name)) this.openSyntheticBody();
    return false;
  }

  /** Whether level `d` opens right in the open head (transparent levels count as their parent). */
  private inHead(d: number): boolean {
    return this.paths[d - 1] === this.paths[this.headLevel];
  }

  /**
   * Whether an element opened at level `d` would sit right in the document's <html> (or at the
   * root of a page without one), where browsers put body content into a body. Transparent levels
   * count as their parent.
   */
  private atDocumentLevel(d: number): boolean {
    const parent = d === 0 ? this.pathTrie.top : this.paths[d - 1];
    return parent === this.htmlPath || (parent === this.pathTrie.top && this.sawDocument);
  }

  /** Text where no body is open: outside whitespace, it ends the head or opens a body level. */
  private beforeText(data: string): void {
    const d = this.depth;
    if (this.headLevel >= 0) {
      if (this.inHead(d) && !isHtmlWhitespace(data)) this.leaveHead();
    } else if (this.bodyLevel < 0 && this.atDocumentLevel(d) && !isHtmlWhitespace(data)) {
      this.openSyntheticBody();
    }
  }

  /**
   * The open head ends without </head>: the document's head becomes the body at its level (as if
   * "</head><body>" stood here; htmlparser2 closes it as "head" later), a head inside the page
   * becomes transparent. A frameset takes the body's place, so it gets no body level.
   */
  private leaveHead(name = ""): void {
    const h = this.headLevel;
    this.headLevel = -1;
    if (this.skips[h]) {
      this.skips[h] = false;
      this.skipDepth--;
    }
    if (this.tagSkips[h]) {
      this.tagSkips[h] = false;
      this.tagSkipDepth--;
    }
    if (this.headIsDocument && name !== "frameset") {
      this.subtrees?.close(h);
      this.subtrees?.open(h, "body");
      this.makeBody(h);
      if (this.skipDepth === 0) this.flush(this.parser.startIndex);
    } else {
      this.inheritLevel(h);
    }
    // Levels still open above the head are merged ones (a second html or head): they follow it.
    for (let l = h + 1; l < this.depth; l++) this.inheritLevel(l);
    this.watchStructure = this.bodyLevel < 0;
  }

  /** A body level of the segmenter's own, for body content under <html> (or at the root of a page) with no body open. */
  private openSyntheticBody(): void {
    const d = this.depth++;
    this.subtrees?.open(d, "body");
    this.makeBody(d);
    this.syntheticLevel = d;
  }

  /** Closes the segmenter's own body level (the element holding it closed, or a <body> came). */
  private closeSyntheticBody(): void {
    const d = --this.depth;
    this.subtrees?.close(d);
    this.syntheticLevel = -1;
    this.bodyLevel = -1;
    this.watchStructure = true;
  }

  /** Level `d` becomes the open body, as onopentagname would fill it for <body>. */
  private makeBody(d: number): void {
    this.paths[d] = this.pathTrie.child(d === 0 ? this.htmlPath : this.paths[d - 1], "body");
    this.containers[d] = "body";
    this.scope1[d] = this.nextScopeId++;
    this.scope2[d] = d === 0 ? 0 : this.scope1[d - 1];
    this.scope3[d] = d === 0 ? 0 : this.scope2[d - 1];
    this.classWords[d] = "";
    this.classLinks[d] = undefined;
    this.skips[d] = false;
    this.tagSkips[d] = false;
    this.bodyLevel = d;
    this.watchStructure = this.headLevel >= 0;
  }

  /** Level `d` is transparent: the same path, container, sections and class words as its parent. */
  private inheritLevel(d: number): void {
    const root = d === 0;
    this.paths[d] = root ? this.pathTrie.top : this.paths[d - 1];
    this.containers[d] = root ? "" : this.containers[d - 1];
    this.scope1[d] = root ? 0 : this.scope1[d - 1];
    this.scope2[d] = root ? 0 : this.scope2[d - 1];
    this.scope3[d] = root ? 0 : this.scope3[d - 1];
    this.classWords[d] = "";
    this.classLinks[d] = undefined;
    this.skips[d] = false;
    this.tagSkips[d] = false;
  }

  /**
   * The class chain at level `d`: a link for each element up to it that has class or id words,
   * each made once and kept for the element's lifetime, so that the blocks of one element share
   * one link (and the texts and masks it caches) and an element's link is its parent's when it
   * has no words of its own.
   */
  private linkAt(d: number): ClassLink | null {
    let k = d;
    while (k >= 0 && this.classLinks[k] === undefined) k--;
    let link = k < 0 ? null : (this.classLinks[k] as ClassLink | null);
    for (k++; k <= d; k++) {
      const words = this.classWords[k];
      if (words !== "") link = new ClassLink(words, link);
      this.classLinks[k] = link;
    }
    return link;
  }

  /** TAG_KINDS' bits for `name` closing at level `d`: the level's own when it opened with that name. */
  private closingKind(d: number, name: string): number {
    return this.levelNames[d] === name ? this.levelKinds[d] : (TAG_KINDS.get(name) ?? 0);
  }

  private isTransparent(d: number): boolean {
    return this.paths[d] === (d === 0 ? this.pathTrie.top : this.paths[d - 1]);
  }

  private insideSvg(): boolean {
    for (let node = this.paths[this.depth - 1].parent; node !== null; node = node.parent) if (node.name === "svg") return true;
    return false;
  }

  /** @internal htmlparser2's callback: an attribute of the element just opened. */
  onattribute(name: string, value: string): void {
    const d = this.depth - 1;
    if (d < 0 || this.openedTransparent) return;
    if (this.observing) (this.observer as MarkupObserver).attribute(name, value);
    if (this.inline !== null && name === "href") this.inline.href(d, value);
    if (value.length === 0 && name !== "hidden" && name !== "open") return;
    if (this.structureAttributes) this.structure.attribute(name, value);
    if (name === "class" || name === "id") {
      const words = value.length > MAX_CLASS_ID_CHARS ? value.slice(0, MAX_CLASS_ID_CHARS) : value;
      // A second attribute (class, then id) joins the first: the element's link holds both.
      // Lowercased when first read (ClassLink.words): lowercasing the joined words is lowercasing
      // each. Attributes come before any child or text, so no link of this level was made yet.
      const own = this.classWords[d];
      this.classWords[d] = own === "" ? words : `${own} ${words}`;
      if (name === "class") {
        // A page's html, body or main hidden by class is unhidden by its scripts once they run
        // (a guard against a flash of unstyled content): the page itself, not a hidden part.
        if (classHides(value) && !PAGE_LEVEL_TAGS.has(this.openedName)) this.hideOpened(HIDDEN_OTHERWISE, true);
      } else {
        this.streamedId(value);
      }
    } else if (name === "hidden") {
      if (!this.openedStreamed) this.hideOpened(HIDDEN_BY_ATTRIBUTE, true);
    } else if (name === "open") {
      if (this.openedName === "dialog") this.hideOpened(HIDDEN_AS_CLOSED_DIALOG, false);
    } else if (((name === "aria-hidden" || name === "aria-modal") && value === "true") || (name === "style" && HIDDEN_STYLE.test(value))) {
      this.hideOpened(HIDDEN_OTHERWISE, true);
    }
  }

  /**
   * Sets or clears one reason (a HIDDEN_* bit) for hiding the element just opened. Attributes
   * arrive before any child, so hiding the element now hides all of its content.
   */
  private hideOpened(reason: number, on: boolean): void {
    // The wrapper the page is read again for: shown, whatever hides it.
    if (this.openedAt === this.shownAt) return;
    const d = this.depth - 1;
    this.hiddenBy = on ? this.hiddenBy | reason : this.hiddenBy & ~reason;
    const hidden = this.openedSkip || this.hiddenBy !== 0;
    if (hidden === this.skips[d]) return;
    this.skips[d] = hidden;
    this.skipDepth += hidden ? 1 : -1;
    if (!hidden) this.wrapper.show(d);
    else if (this.skipDepth === 1) this.wrapper.hide(d, this.openedAt);
  }

  /**
   * React's streamed server rendering (Next.js and others) sends the page's shell first, with a
   * placeholder (<template id="B:0">, or "P:0") where a part is still loading, and the part later
   * in <div hidden id="S:0">, which a script ($RC, $RS) moves into the placeholder's place. That
   * hidden div is the page's text (often its whole article), so it is read as visible: where it
   * stands, since moving blocks back is not possible in one pass. Only after a placeholder came,
   * so that a page's own hidden div named "S:1" stays hidden.
   */
  private streamedId(id: string): void {
    if (id.length < 3 || id.charCodeAt(1) !== 58 /* : */) return;
    const kind = id.charCodeAt(0);
    if (this.openedName === "template" && (kind === 66 /* B */ || kind === 80) /* P */ && isHexTail(id)) {
      this.streamPlaceholders = true;
    } else if (this.openedName === "div" && kind === 83 /* S */ && this.streamPlaceholders && isHexTail(id)) {
      this.openedStreamed = true;
      this.hideOpened(HIDDEN_BY_ATTRIBUTE, false);
    }
  }

  /** A <noscript> opens at level `d` with nothing above it hidden: its text is counted until it closes. */
  private openNoscript(d: number): void {
    this.noscriptLevel = d;
    this.noscriptBlocks = this.blocks.length;
    // A string, not a length: a block that ends inside the <noscript> with nothing but shortcodes
    // empties the buffer without ending a block, and the rollback must still find the text.
    this.noscriptText = this.textHasContent ? this.text.text() : "";
    this.noscriptHadText = this.textHasContent;
    this.noscriptEndedInSpace = this.textEndsInSpace;
    this.noscriptChars = 0;
  }

  /**
   * The outermost <noscript> closes: when its text is short, what it added goes again (the block
   * in progress is set back to what it held before it; blocks it ended are removed, but the one it
   * ended with text from before it stays whole).
   */
  private closeNoscript(): void {
    this.noscriptLevel = -1;
    const chars = this.noscriptChars;
    if (chars === 0 || chars >= NOSCRIPT_MAX_DROPPED_CHARS) return;
    if (this.blocks.length === this.noscriptBlocks) {
      this.text.set(this.noscriptText);
      this.textHasContent = this.noscriptHadText;
      this.textEndsInSpace = this.noscriptEndedInSpace;
    } else {
      const keep = this.noscriptBlocks + (this.noscriptHadText ? 1 : 0);
      for (let b = keep; b < this.blocks.length; b++) {
        const block = this.blocks[b];
        this.totalTextChars -= block.textChars;
        if (block.repeatOf < 0) this.repeatKeys.forget(block.text.toLowerCase(), b);
      }
      this.blocks.length = keep;
      this.subtrees?.dropBlocks(keep);
      this.text.clear();
      this.textHasContent = false;
      this.textEndsInSpace = false;
    }
    this.noscriptText = "";
  }

  /** @internal htmlparser2's callback: an element closes (an end tag, or implied). */
  onclosetag(name: string): void {
    if (this.depth === 0) return;
    // The segmenter's own body level is not on htmlparser2's stack: it closes with its parent.
    if (this.depth - 1 === this.syntheticLevel) {
      this.closeSyntheticBody();
      if (this.depth === 0) return;
    }
    const d = --this.depth;
    this.subtrees?.close(d);
    if (this.observer?.capturing === true) this.observer.close(d);
    if (this.skips[d]) {
      this.skipDepth--;
      if (this.tagSkips[d]) this.tagSkipDepth--;
      else this.wrapper.close(d);
    }
    if (d === this.noscriptLevel) this.closeNoscript();
    if (d === this.bodyLevel) {
      this.bodyLevel = -1;
      this.watchStructure = true;
    } else if (d === this.headLevel) {
      this.headLevel = -1;
      this.watchStructure = this.bodyLevel < 0;
    }
    if (name === "title" && this.inTitle) {
      this.inTitle = false;
      this.titleDone = true;
    }
    if (name === "br") return;
    this.inline?.close(d, this.textHasContent ? this.text.length : 0);
    if (name === "a") {
      if (this.anchorDepth > 0) this.anchorDepth--;
    } else if (headingLevel(name) > 0 && this.headingDepth > 0) {
      this.headingDepth--;
      if (this.headingDepth === 0) this.headingLevelNow = 0;
    }
    if (this.skipDepth === 0 && (this.closingKind(d, name) & TAG_BLOCK) !== 0 && !(name.length === 4 && this.isTransparent(d))) {
      this.flush(this.parser.endIndex + 1);
    }
    if (d <= this.structure.top) this.structure.close(d);
  }

  /** @internal htmlparser2's callback: a declaration (<!doctype ...>) or processing instruction. */
  onprocessinginstruction(name: string, data: string): void {
    if (name.length !== 8 || name.toLowerCase() !== "!doctype") return;
    const upper = data.toUpperCase();
    if (upper.includes("XHTML")) this.doctype = Doctype.Xhtml;
    else if (upper.includes("HTML 4") || upper.includes("HTML 3")) this.doctype = Doctype.Html4;
    else this.doctype = Doctype.Html5;
  }

  /** @internal htmlparser2's callback: a text node (entities decoded). */
  ontext(data: string): void {
    if (this.observer?.capturing === true) this.observer.text(data);
    if (this.inTitle) {
      this.title += data;
      return;
    }
    if (this.watchStructure) this.beforeText(data);
    if (this.skipDepth > 0) {
      if (this.tagSkipDepth === 0) this.wrapper.text(data.length);
      return;
    }
    this.subtrees?.text(this.depth - 1, data);
    this.rawTextChars += data.length;
    this.visibleChars += data.length;
    if (this.structure.inPre) this.preText += data;
    const piece = foldWhitespace(data);
    if (this.noscriptLevel >= 0) this.noscriptChars += piece.length;
    if (piece === " ") {
      if (this.textHasContent && !this.textEndsInSpace) {
        this.text.append(" ");
        this.textEndsInSpace = true;
      }
      return;
    }
    this.brRun = 0;
    // Folded text has no whitespace but single spaces, so trimming is at most one at each end: a
    // leading space the block does not want is skipped where the piece is copied, not sliced off.
    let from = 0;
    if (!this.textHasContent) {
      if (piece.charCodeAt(0) === 32) from = 1;
      this.startBlock();
    } else if (piece.charCodeAt(0) === 32 && this.textEndsInSpace) {
      from = 1;
    }
    this.text.append(piece, from);
    const end = piece.length - 1;
    const added = piece.length - from;
    if (added > 0) this.textEndsInSpace = piece.charCodeAt(end) === 32;
    if (this.anchorDepth > 0) {
      this.anchorChars +=
        added - (added > 0 && piece.charCodeAt(from) === 32 ? 1 : 0) - (added > 0 && piece.charCodeAt(end) === 32 ? 1 : 0);
      if (this.countedAnchor !== this.anchorSerial) {
        this.countedAnchor = this.anchorSerial;
        this.anchorCount++;
      }
    }
  }

  /** One <br> is a line break inside the block; a second in a row ends the block. */
  private lineBreak(): void {
    if (this.structure.inPre) this.preText += "\n";
    if (++this.brRun >= 2) {
      this.flush(this.parser.endIndex + 1);
    } else if (this.textHasContent && !this.textEndsInSpace) {
      this.text.append(" ");
      this.textEndsInSpace = true;
    }
  }

  /** The first text of a block fixes where the block sits in the tree. */
  private startBlock(): void {
    this.textHasContent = true;
    const d = this.depth - 1;
    this.blockPath = d < 0 ? this.pathTrie.top : this.paths[d];
    this.blockContainer = d < 0 ? "" : this.containers[d];
    this.blockClassLink = d < 0 ? null : this.linkAt(d);
    this.blockHeading = this.headingLevelNow;
    this.blockParentId = d < 0 ? 0 : this.scope2[d];
    this.blockGrandparentId = d < 0 ? 0 : this.scope3[d];
    this.blockList = this.structure.listLayout();
    const container = this.blockContainer;
    this.blockCell = container === "td" || container === "th" ? this.structure.cellLayout() : null;
    this.subtrees?.startBlock(d);
  }

  /**
   * The index of the first earlier block with the same text (compared in lowercase), for blocks
   * of REPEAT_MIN_WORDS words or more; -1 otherwise. Folded text has single spaces, so words are
   * counted by spaces.
   */
  private repeatOf(text: string): number {
    let spaces = 0;
    for (let i = text.indexOf(" "); i >= 0 && spaces < REPEAT_MIN_WORDS - 1; i = text.indexOf(" ", i + 1)) spaces++;
    if (spaces < REPEAT_MIN_WORDS - 1) return -1;
    const key = text.toLowerCase();
    const first = this.repeatKeys.firstOf(key);
    if (first < 0) this.repeatKeys.add(key, this.blocks.length);
    return first;
  }

  /** End the current block at source index `at`; an empty one only counts toward emptyBefore. */
  private flush(at: number): void {
    const span = at - this.lastBoundary;
    this.lastBoundary = at;
    this.brRun = 0;
    const pre = this.preText;
    if (pre.length > 0) this.preText = "";
    if (!this.textHasContent) {
      this.rawTextChars = 0;
      this.emptyRun++;
      return;
    }
    const raw = this.text.text(this.textEndsInSpace ? this.text.length - 1 : this.text.length);
    const stripped = stripShortcodes(raw);
    const text = stripped === raw ? raw : compactCopy(stripped);
    if (text.length === 0) {
      // Nothing but shortcodes: an empty block, as if it had had no text.
      this.text.clear();
      this.textHasContent = false;
      this.textEndsInSpace = false;
      this.rawTextChars = 0;
      this.emptyRun++;
      this.blockList = null;
      this.blockCell = null;
      this.inline?.endBlock(0);
      return;
    }
    this.totalTextChars += text.length;
    const path = this.blockPath,
      link = this.blockClassLink;
    const block: Block = {
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
      repeatOf: this.repeatOf(text),
      // Always present, so that every block has one shape (readers of blocks stay monomorphic).
      layout: undefined,
    };
    if (this.blockList !== null || this.blockCell !== null || pre.length > 0) {
      block.layout = blockLayout(this.blockList, this.blockCell, pre.length > 0 ? preformatted(pre) : null);
      this.blockList = null;
      this.blockCell = null;
    }
    const inline = this.inline?.endBlock(text.length) ?? null;
    // Link and emphasis ranges count characters of the text before shortcodes were cut: a block
    // that had any keeps its text and loses its ranges rather than get them in the wrong place.
    if (inline !== null && stripped === raw) (block.layout ??= newLayout(undefined, undefined, undefined)).inline = inline;
    this.blocks.push(block);
    this.subtrees?.endBlock();
    this.text.clear();
    this.textHasContent = false;
    this.textEndsInSpace = false;
    this.anchorCount = 0;
    this.anchorChars = 0;
    this.countedAnchor = -1;
    this.rawTextChars = 0;
    this.emptyRun = 0;
  }
}

/** Whether the characters of `id` after its first two ("S:", "B:") are hex digits (React's segment ids). */
function isHexTail(id: string): boolean {
  for (let i = 2; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/**
 * A copy of `s` as one flat string, one byte per character when every character fits. V8 keeps
 * a string two bytes per character when its source was (a page's decoded HTML is, for one curly
 * quote anywhere in it), and then every block of the page is too, ASCII or not: toLowerCase goes
 * through ICU, regexes and charCodeAt loops run slower. Copying through UTF-16 bytes lets V8
 * narrow what fits in Latin-1. Feature extraction over 400 WCXB dev pages went from 1.0 to 0.6 ms
 * a page (benchmarks/string-width.js widens texts on purpose to show it again). A block's text
 * gets this form from BlockText.text(), by the same decoding; this is for the rare text that
 * shortcode stripping changed after it.
 */
function compactCopy(s: string): string {
  return Buffer.from(s, "utf16le").toString("utf16le");
}

/** Pre text as written, less the newline right after <pre> (HTML drops it) and trailing whitespace. */
function preformatted(raw: string): string {
  const start = raw.charCodeAt(0) === 10 ? 1 : raw.charCodeAt(0) === 13 && raw.charCodeAt(1) === 10 ? 2 : 0;
  return raw.slice(start).trimEnd();
}

let shared: Segmenter | undefined;
let sharedWithSubtrees: Segmenter | undefined;

/**
 * Segment a document, whole or in pieces, with a shared Segmenter (parsing is synchronous, so
 * sharing is safe).
 */
export function segmentHtml(
  html: string | readonly string[],
  options?: { subtrees?: boolean; observer?: MarkupObserver; inline?: boolean },
): SegmentedDocument {
  if (options?.subtrees === true) {
    sharedWithSubtrees ??= new Segmenter({ subtrees: true });
    return sharedWithSubtrees.segment(html, options.observer, options.inline);
  }
  shared ??= new Segmenter();
  return shared.segment(html, options?.observer, options?.inline);
}
