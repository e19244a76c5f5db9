/**
 * What sits above a block, kept so that each block takes it in O(1) and equal things are one object.
 *
 * Tag paths form a per-document trie: sibling elements with the same name share a node, so the
 * hundreds of blocks under "html/body/div/p" share one path string and one id, and the string is
 * built only for nodes that start a block. Building "parent/name" on every start tag instead makes
 * a fresh string per element, which every later per-block lookup must flatten and hash again.
 *
 * Class/id words form a chain of the elements that have any, innermost last; each link carries the
 * class-word masks of the innermost few links, computed on the first block that asks for them.
 */
import { classWordMask } from "./class-words.js";

export class PathNode {
  children: Map<string, PathNode> | null = null;
  /** The tag path, once a block asked for it. */
  text: string | null = null;
  /** Document-unique id of `text` (-1 until the text is built). */
  id = -1;
  constructor(
    readonly name: string,
    readonly parent: PathNode | null,
    /** Number of names on the path from the root (the root node itself is 0). */
    readonly depth: number,
  ) {}
}

export class PathTrie {
  private root = new PathNode("", null, 0);
  private nextId = 0;
  /** Capped paths of different nodes can be equal strings; they must get one id. */
  private readonly cappedIds = new Map<string, number>();

  constructor(
    /** Paths keep only the innermost this-many names beyond it. */
    private readonly maxDepth: number,
  ) {}

  /** The node above every element: the path of text outside any element is "". */
  get top(): PathNode {
    return this.root;
  }

  reset(): void {
    this.root = new PathNode("", null, 0);
    this.nextId = 0;
    this.cappedIds.clear();
  }

  /** The node for element `name` under `parent` (null: at the root). */
  child(parent: PathNode | null, name: string): PathNode {
    const p = parent ?? this.root;
    const children = (p.children ??= new Map());
    let node = children.get(name);
    if (node === undefined) {
      node = new PathNode(name, p, p.depth + 1);
      children.set(name, node);
    }
    return node;
  }

  /** The node's path string, e.g. "html/body/div/p"; beyond maxDepth, "…/" and the innermost names. */
  text(node: PathNode): string {
    if (node.text !== null) return node.text;
    if (node.depth <= this.maxDepth || node.depth <= 1) {
      node.text = node.depth <= 1 ? node.name : `${this.text(node.parent as PathNode)}/${node.name}`;
      node.id = this.nextId++;
    } else {
      const names = new Array<string>(this.maxDepth);
      let at: PathNode = node;
      for (let k = this.maxDepth - 1; k >= 0; k--, at = at.parent as PathNode) names[k] = at.name;
      const text = `…/${names.join("/")}`;
      let id = this.cappedIds.get(text);
      if (id === undefined) {
        id = this.nextId++;
        this.cappedIds.set(text, id);
      }
      node.text = text;
      node.id = id;
    }
    return node.text;
  }
}

/** Blocks see the class/id words of their innermost this-many ancestors that have any. */
const MAX_CLASS_ID_ELEMENTS = 6;
/** The "near" mask covers the innermost this-many of them. */
const NEAR_ELEMENTS = 2;
const CLASS_ID_SEPARATOR = " | ";

/**
 * One element with class/id words, linked to the nearest such ancestor. Masks are computed on
 * first use: most elements with a class never hold a block's text directly.
 */
export class ClassLink {
  /** The joined words of this link and its ancestors (see Block.classIds), once a block asked. */
  text: string | null = null;
  private own = -1;
  private chain = -1;
  private near = 0;

  private lowered: string | null = null;

  constructor(
    /** Class and id words of the element as written (each value cut at MAX_CLASS_ID_CHARS). */
    readonly raw: string,
    readonly parent: ClassLink | null,
  ) {}

  /**
   * Lowercased class and id words of the element. Lowercased on first use: most elements with a
   * class never hold a block's text or sit within its innermost few links, and lowercasing every
   * class and id value of a page was a tenth of the segmenter's own time.
   */
  get words(): string {
    if (this.lowered === null) this.lowered = this.raw.toLowerCase();
    return this.lowered;
  }

  /** Class-word groups of this element's own words. */
  get ownMask(): number {
    if (this.own < 0) this.own = classWordMask(this.words);
    return this.own;
  }

  /** Class-word groups of the innermost MAX_CLASS_ID_ELEMENTS links. */
  get chainMask(): number {
    if (this.chain < 0) this.computeMasks();
    return this.chain;
  }

  /** Class-word groups of the innermost NEAR_ELEMENTS links. */
  get nearMask(): number {
    if (this.chain < 0) this.computeMasks();
    return this.near;
  }

  private computeMasks(): void {
    let chain = this.ownMask,
      near = chain;
    let link = this.parent;
    for (let k = 1; k < MAX_CLASS_ID_ELEMENTS && link !== null; k++, link = link.parent) {
      chain |= link.ownMask;
      if (k < NEAR_ELEMENTS) near |= link.ownMask;
    }
    this.chain = chain;
    this.near = near;
  }
}

/** The words of the innermost MAX_CLASS_ID_ELEMENTS links, outermost first, joined by " | ". */
export function classChainText(link: ClassLink | null): string {
  if (link === null) return "";
  if (link.text !== null) return link.text;
  let text = link.words;
  let at = link.parent;
  for (let k = 1; k < MAX_CLASS_ID_ELEMENTS && at !== null; k++, at = at.parent) text = `${at.words}${CLASS_ID_SEPARATOR}${text}`;
  link.text = text;
  return text;
}
