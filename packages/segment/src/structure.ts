/**
 * The structure a block sits in, for writers that render it (Markdown lists, pipe tables, fenced
 * code; tab-separated rows in plain text): lists and their nesting, table rows and cells, <pre>.
 *
 * Only ul, ol, li, table, thead, tbody, tfoot, tr, td, th and pre open a frame, so the segmenter
 * calls in here for those block-level tags alone; a close costs one integer comparison unless it
 * closes a frame (see Segmenter.onclosetag). Elements closed implicitly (an unclosed <li> or <td>)
 * close their frames too: htmlparser2 reports every close, implied ones included.
 */
import type { BlockLayout, ListLayout, CellLayout } from "./types.js";

const enum Kind {
  List,
  Item,
  Table,
  Section, // thead, tbody, tfoot
  Row,
  Cell,
  Pre,
}

/** One open structural element. Fields a kind does not use stay at their defaults. */
class Frame {
  /** Items seen (lists), cell columns taken (rows). */
  count = 0;
  /** A block of this item already carries its marker. */
  marked = false;
  constructor(
    readonly kind: Kind,
    readonly level: number,
    /** ol (lists), th or inside thead (cells, rows, sections). */
    readonly flag: boolean,
    /** Document-unique id (tables, rows), marker (items as text), column (cells). */
    public id: number,
    public marker = "",
  ) {}
}

/** Table cells wider than this are taken as this wide (colspan="1000" exists in the wild). */
const MAX_SPAN = 64;

export class StructureTracker {
  private frames: Frame[] = [];
  /** The stack level of the innermost open frame, -1 when none: what onclosetag compares with. */
  top = -1;
  private lists = 0;
  private pres = 0;
  private nextId = 1;
  /** The frame whose attributes matter (ol start, td colspan), until the next start tag. */
  private attributed: Frame | null = null;

  reset(): void {
    this.frames.length = 0;
    this.top = -1;
    this.lists = 0;
    this.pres = 0;
    this.nextId = 1;
    this.attributed = null;
  }

  get inPre(): boolean {
    return this.pres > 0;
  }

  /** A block-level start tag at stack level `level`. */
  open(name: string, level: number): void {
    this.attributed = null;
    // Structure tags have 2, 3 or 5 letters: p, main, section and the like are turned away at once.
    const n = name.length;
    if (n < 2 || n === 4 || n > 5) return;
    switch (name) {
      case "ul":
      case "ol": {
        const list = new Frame(Kind.List, level, name === "ol", 0);
        if (list.flag) this.attributed = list;
        this.push(list);
        this.lists++;
        return;
      }
      case "li": {
        const list = this.innermost(Kind.List);
        let marker = "-";
        if (list !== null) {
          list.count++;
          if (list.flag) marker = `${list.id + list.count}.`;
        }
        this.push(new Frame(Kind.Item, level, false, 0, marker));
        return;
      }
      case "table":
        this.push(new Frame(Kind.Table, level, false, this.nextId++));
        return;
      case "thead":
      case "tbody":
      case "tfoot":
        this.push(new Frame(Kind.Section, level, name === "thead", 0));
        return;
      case "tr": {
        const section = this.innermost(Kind.Section);
        this.push(new Frame(Kind.Row, level, section?.flag === true, this.nextId++));
        return;
      }
      case "td":
      case "th": {
        const row = this.innermost(Kind.Row);
        if (row === null) return;
        const cell = new Frame(Kind.Cell, level, name === "th" || row.flag, row.count, "1");
        row.count++;
        this.attributed = cell;
        this.push(cell);
        return;
      }
      case "pre":
        this.push(new Frame(Kind.Pre, level, false, 0));
        this.pres++;
        return;
    }
  }

  /** An attribute of the element just opened: `start` of an ol, `colspan` of a cell. */
  attribute(name: string, value: string): void {
    const frame = this.attributed;
    if (frame === null) return;
    const n = Number.parseInt(value, 10);
    if (!Number.isFinite(n)) return;
    if (frame.kind === Kind.List && name === "start") frame.id = n - 1;
    else if (frame.kind === Kind.Cell && name === "colspan" && n > 1) {
      const span = Math.min(n, MAX_SPAN);
      frame.marker = String(span);
      const row = this.innermost(Kind.Row);
      if (row !== null) row.count += span - 1;
    }
  }

  /** The element at stack level `level` closed (called only when level <= top). */
  close(level: number): void {
    this.attributed = null;
    const frames = this.frames;
    while (frames.length > 0 && frames[frames.length - 1].level >= level) {
      const frame = frames.pop() as Frame;
      if (frame.kind === Kind.List) this.lists--;
      else if (frame.kind === Kind.Pre) this.pres--;
    }
    this.top = frames.length === 0 ? -1 : frames[frames.length - 1].level;
  }

  /** The list item a block starting now belongs to; the first block of an item takes its marker. */
  listLayout(): ListLayout | null {
    const item = this.innermost(Kind.Item);
    if (item === null) return null;
    const first = !item.marked;
    item.marked = true;
    return { depth: Math.max(1, this.lists), marker: item.marker, first };
  }

  /** The cell of a block whose nearest block-level element is a td or th. */
  cellLayout(): CellLayout | null {
    const frames = this.frames;
    // No read past the end (and no undefined where a frame is expected): either deoptimises the
    // caller's optimised code.
    if (frames.length === 0) return null;
    const cell = frames[frames.length - 1];
    if (cell.kind !== Kind.Cell) return null;
    const row = this.innermost(Kind.Row) as Frame;
    const table = this.innermost(Kind.Table);
    return { table: table === null ? 0 : table.id, row: row.id, column: cell.id, span: Number(cell.marker), header: cell.flag };
  }

  private innermost(kind: Kind): Frame | null {
    const frames = this.frames;
    for (let i = frames.length - 1; i >= 0; i--) {
      const frame = frames[i];
      if (frame.kind === kind) return frame;
      // A list item or cell belongs to the nearest list or row; an inner table hides the outer one's rows.
      if (frame.kind === Kind.Table && kind !== Kind.Table && kind !== Kind.List && kind !== Kind.Item) return null;
    }
    return null;
  }

  private push(frame: Frame): void {
    this.frames.push(frame);
    this.top = frame.level;
  }
}

/** The layout of a block from its parts, null when it sits in no structure. */
export function blockLayout(list: ListLayout | null, cell: CellLayout | null, pre: string | null): BlockLayout | undefined {
  if (list === null && cell === null && pre === null) return undefined;
  return newLayout(list ?? undefined, cell ?? undefined, pre ?? undefined);
}

/**
 * A layout with all four fields, those it lacks undefined and in one order: every layout then has
 * one hidden class. Built field by field, the subsets made a dozen, and the writers' and the
 * cleaner's reads of `layout.cell` or `layout.pre` went polymorphic and then deoptimised ("wrong
 * map") each time a page brought a new subset (issue 33).
 */
export function newLayout(list: ListLayout | undefined, cell: CellLayout | undefined, pre: string | undefined): BlockLayout {
  return { list, cell, pre, inline: undefined };
}
