/**
 * htmlparser2's Parser, reading the HTML elements' tag names without making a string for each.
 *
 * Why: the stock parser slices every start and end tag's name out of the page and lowercases it,
 * two short strings per element (V8 copies a slice under 13 characters), about 30 KB a page on
 * CleanEval and 100 KB on WCXB dev (benchmarks/results/2026-11-27-alloc.md), all of it garbage
 * right after the segmenter has looked the name up. Here a name in the HTML namespace is matched
 * in place against the standard's element names and the table's own string comes back: the
 * same characters, and a string whose hash V8 already knows for the segmenter's tag tables.
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

/** Open addressing over a power of two well above the names' count, so that probes stay short. */
const SLOTS = 1024;
const table: Array<string | undefined> = new Array(SLOTS).fill(undefined);

/** The slot a name's hash starts at; `code` reads its characters, lowercased ASCII. */
function hashOf(length: number, code: (i: number) => number): number {
  let h = length;
  for (let i = 0; i < length; i++) h = (h * 31 + code(i)) & (SLOTS - 1);
  return h;
}

for (const name of ELEMENT_NAMES) {
  let slot = hashOf(name.length, (i) => name.charCodeAt(i));
  while (table[slot] !== undefined) slot = (slot + 1) & (SLOTS - 1);
  table[slot] = name;
}

/**
 * The table's string for the characters of `buffer` from `from` to `to`, compared with ASCII
 * letters lowercased; undefined if the name is not there or holds anything but ASCII letters and
 * digits (whose lowercasing the table cannot stand in for).
 */
export function internedTagName(buffer: string, from: number, to: number): string | undefined {
  const length = to - from;
  if (length <= 0 || length > 10) return undefined;
  let h = length;
  for (let i = from; i < to; i++) {
    let c = buffer.charCodeAt(i);
    if (c >= 65 && c <= 90) c |= 0x20;
    else if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) return undefined;
    h = (h * 31 + c) & (SLOTS - 1);
  }
  for (let name = table[h]; name !== undefined; h = (h + 1) & (SLOTS - 1), name = table[h]) {
    if (name.length === length && sameLowercased(name, buffer, from)) return name;
  }
  return undefined;
}

/** Whether `buffer` from `from` holds `name` (lowercase ASCII) with its ASCII letters in any case. */
function sameLowercased(name: string, buffer: string, from: number): boolean {
  for (let i = 0; i < name.length; i++) {
    let c = buffer.charCodeAt(from + i);
    if (c >= 65 && c <= 90) c |= 0x20;
    if (c !== name.charCodeAt(i)) return false;
  }
  return true;
}

function install(): typeof Parser {
  const base = Parser.prototype as unknown as ParserInternals;
  const probe = new Parser({}) as unknown as ParserInternals;
  const usable =
    typeof base.readTagName === "function" &&
    Array.isArray(probe.buffers) &&
    typeof probe.bufferOffset === "number" &&
    Array.isArray(probe.foreignContext) &&
    probe.foreignContext.length === 1 &&
    probe.foreignContext[0] === HTML_CONTEXT &&
    probe.lowerCaseTagNames === true &&
    probe.htmlMode === true;
  if (!usable) return Parser;

  class TagNameParser extends Parser {}
  const own = TagNameParser.prototype as unknown as ParserInternals;
  const { readTagName } = base;
  own.readTagName = function (this: ParserInternals, start: number, endIndex: number): string {
    const context = this.foreignContext;
    if (this.lowerCaseTagNames && this.htmlMode && context.length === 1 && context[0] === HTML_CONTEXT) {
      const buffer = this.buffers[0];
      const from = start - this.bufferOffset;
      const to = endIndex - this.bufferOffset;
      // Inside the current buffer: then the stock getSlice would not have moved to the next one.
      if (buffer !== undefined && from >= 0 && to <= buffer.length) {
        const name = internedTagName(buffer, from, to);
        if (name !== undefined) return name;
      }
    }
    return readTagName.call(this, start, endIndex);
  };
  return TagNameParser;
}

/** The parser class the segmenter builds. */
export const TagNameParser: typeof Parser = install();
