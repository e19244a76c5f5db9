/**
 * htmlparser2's Parser, reading tag names and common attribute names without making a string
 * for each.
 *
 * Why: the stock parser slices every start and end tag's name out of the page and lowercases it,
 * two short strings per element (V8 copies a slice under 13 characters), and slices every
 * attribute's name: about 40 KB a page on CleanEval and 100 KB on WCXB dev
 * (benchmarks/results/2026-11-27-alloc.md), all of it garbage right after the segmenter has
 * looked the name up. Here a name is matched in place against a table (the HTML elements; the
 * attributes most pages carry) and the table's own string comes back: the same characters, and a
 * string whose hash V8 already knows for the segmenter's tables.
 *
 * Attribute names are taken as written, as the segmenter asks (lowerCaseAttributeNames: false);
 * with lowercasing on, the stock method runs.
 *
 * Only where the stock method would return the lowercased slice unchanged: HTML mode with
 * lowercased names, outside SVG and MathML (and their integration points), the name wholly in the
 * parser's current buffer, ASCII letters and digits only, a name the table holds ("image", which
 * the stock method turns into "img", is not in it). Anything else goes to the stock method. The
 * override is installed only when htmlparser2 still has the fields it reads; otherwise the class
 * is the stock Parser and pages read as they did before.
 */
import { Parser } from "htmlparser2";

/** The parts of htmlparser2's Parser (v12) the override reads and calls. */
interface ParserInternals {
  readTagName(start: number, endIndex: number): string;
  onattribname(start: number, endIndex: number): void;
  startIndex: number;
  attribname: string;
  lowerCaseAttributeNames: boolean;
  buffers: string[];
  bufferOffset: number;
  foreignContext: number[];
  lowerCaseTagNames: boolean;
  htmlMode: boolean;
}

/** htmlparser2's ForeignContext.None: the HTML namespace. */
const HTML_CONTEXT = 0;

/** The HTML standard's element names, with the obsolete ones pages still use. */
const ELEMENT_NAMES = [
  "a abbr acronym address area article aside audio b base basefont bdi bdo big blink blockquote body br button canvas",
  "caption center cite code col colgroup data datalist dd del details dfn dialog dir div dl dt em embed fieldset",
  "figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input",
  "ins kbd label legend li link main map mark marquee menu meta meter nav nobr noembed noframes noscript object ol",
  "optgroup option output p param picture plaintext pre progress q rp rt ruby s samp script search section select",
  "slot small source span strike strong style sub summary sup svg math table tbody td template textarea tfoot th",
  "thead time title tr track tt u ul var video wbr xmp",
]
  .join(" ")
  .split(" ");

/** The attribute names most elements carry, as pages write them (attribute names are not lowercased). */
const ATTRIBUTE_NAMES = [
  "class id href src style title alt rel type name content property itemprop itemtype itemscope width height",
  "border align valign colspan rowspan cellpadding cellspacing bgcolor color face size lang dir role target",
  "value action method for tabindex hidden open start srcset sizes loading async defer charset http-equiv",
  "onclick data-src data-id aria-label aria-hidden aria-expanded aria-controls aria-modal datetime",
]
  .join(" ")
  .split(" ");

/** Open addressing over a power of two well above the names' count, so that probes stay short. */
const SLOTS = 1024;

/**
 * Names in a hash table searched with the characters of a buffer in place. A name may hold
 * lowercase ASCII letters, digits and '-'; with `lowercase`, uppercase ASCII letters in the buffer
 * match their lowercase (tag names, which the stock parser lowercases), else they match nothing
 * (attribute names, taken as written). Any other character matches nothing: its lowercasing (the
 * Kelvin sign is a k) is the stock method's business.
 */
class NameTable {
  private readonly slots: Array<string | undefined> = new Array(SLOTS).fill(undefined);
  /**
   * The character a name holds for each ASCII code unit, -1 where none: one load per character
   * where a chain of range tests ran twice (hashing, then matching), and this was a tenth of the
   * segmenter's own time on WCXB dev (benchmarks/results/2026-11-27-segmenter-speed.md).
   */
  private readonly fold = new Int8Array(128).fill(-1);

  constructor(names: readonly string[], lowercase: boolean) {
    for (let c = 0; c < 128; c++) {
      if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45) this.fold[c] = c;
      else if (lowercase && c >= 65 && c <= 90) this.fold[c] = c | 0x20;
    }
    for (const name of names) {
      let h = name.length;
      for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) & (SLOTS - 1);
      while (this.slots[h] !== undefined) h = (h + 1) & (SLOTS - 1);
      this.slots[h] = name;
    }
  }

  /** The table's string for `buffer` from `from` to `to`, or undefined. */
  find(buffer: string, from: number, to: number): string | undefined {
    const length = to - from;
    if (length <= 0 || length > MAX_NAME) return undefined;
    const fold = this.fold;
    let h = length;
    for (let i = from; i < to; i++) {
      const c = buffer.charCodeAt(i);
      const f = c < 128 ? fold[c] : -1;
      if (f < 0) return undefined;
      h = (h * 31 + f) & (SLOTS - 1);
    }
    for (let name = this.slots[h]; name !== undefined; h = (h + 1) & (SLOTS - 1), name = this.slots[h]) {
      if (name.length === length && this.matches(name, buffer, from)) return name;
    }
    return undefined;
  }

  /** Whether `name` is the buffer's characters from `from` on, folded (each is ASCII: the hash pass saw to that). */
  private matches(name: string, buffer: string, from: number): boolean {
    const fold = this.fold;
    for (let i = 0; i < name.length; i++) if (fold[buffer.charCodeAt(from + i)] !== name.charCodeAt(i)) return false;
    return true;
  }
}

/** The longest name either table holds. */
const MAX_NAME = 14;

/** Tag names, lowercased as the stock parser does. */
const tagNames = new NameTable(ELEMENT_NAMES, true);
/** Attribute names, as written. */
const attributeNames = new NameTable(ATTRIBUTE_NAMES, false);

/**
 * The table's string for the tag name in `buffer` from `from` to `to`, compared with ASCII
 * letters lowercased; undefined if the name is not there or holds anything but ASCII letters and
 * digits (whose lowercasing the table cannot stand in for).
 */
export function internedTagName(buffer: string, from: number, to: number): string | undefined {
  return tagNames.find(buffer, from, to);
}

/** The table's string for the attribute name in `buffer` from `from` to `to`, exactly as written; or undefined. */
export function internedAttributeName(buffer: string, from: number, to: number): string | undefined {
  return attributeNames.find(buffer, from, to);
}

/**
 * The table's name for the characters from `start` to `endIndex` (positions in the page) when
 * they lie wholly in the parser's current buffer, where the stock getSlice would read them without
 * moving to the next buffer; undefined otherwise.
 */
function findInPlace(parser: ParserInternals, table: NameTable, start: number, endIndex: number): string | undefined {
  // The table is an object of one class, not a function per table: tag and attribute names share
  // one call site here, and a call site that saw two functions was not inlined.
  const buffer = parser.buffers[0];
  const from = start - parser.bufferOffset;
  const to = endIndex - parser.bufferOffset;
  return buffer !== undefined && from >= 0 && to <= buffer.length ? table.find(buffer, from, to) : undefined;
}

function install(): typeof Parser {
  const base = Parser.prototype as unknown as ParserInternals;
  const probe = new Parser({}) as unknown as ParserInternals;
  const usable =
    typeof base.readTagName === "function" &&
    typeof base.onattribname === "function" &&
    Array.isArray(probe.buffers) &&
    typeof probe.bufferOffset === "number" &&
    typeof probe.startIndex === "number" &&
    typeof probe.attribname === "string" &&
    typeof probe.lowerCaseAttributeNames === "boolean" &&
    Array.isArray(probe.foreignContext) &&
    probe.foreignContext.length === 1 &&
    probe.foreignContext[0] === HTML_CONTEXT &&
    probe.lowerCaseTagNames === true &&
    probe.htmlMode === true;
  if (!usable) return Parser;

  class TagNameParser extends Parser {}
  const own = TagNameParser.prototype as unknown as ParserInternals;
  const { readTagName, onattribname } = base;
  own.readTagName = function (this: ParserInternals, start: number, endIndex: number): string {
    const context = this.foreignContext;
    if (this.lowerCaseTagNames && this.htmlMode && context.length === 1 && context[0] === HTML_CONTEXT) {
      const name = findInPlace(this, tagNames, start, endIndex);
      if (name !== undefined) return name;
    }
    return readTagName.call(this, start, endIndex);
  };
  // As the stock method: the name as written where names are not lowercased (the segmenter's way).
  own.onattribname = function (this: ParserInternals, start: number, endIndex: number): void {
    const name = this.lowerCaseAttributeNames ? undefined : findInPlace(this, attributeNames, start, endIndex);
    if (name === undefined) {
      onattribname.call(this, start, endIndex);
      return;
    }
    this.startIndex = start;
    this.attribname = name;
  };
  return TagNameParser;
}

/** The parser class the segmenter builds. */
export const TagNameParser: typeof Parser = install();
