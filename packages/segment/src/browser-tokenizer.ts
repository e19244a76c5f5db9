/**
 * htmlparser2's tokenizer (with the segmenter's skipping, skipping-tokenizer.ts), changed where
 * it reads markup that browsers show as text into something that hides the rest of the page.
 *
 * - A self-closed `<iframe … />` is an empty frame. htmlparser2 (v12) follows the HTML standard
 *   and reads an iframe's content as raw text up to `</iframe>`, ignoring the `/`. Tag managers
 *   tell sites to paste `<noscript><iframe src="…" style="display:none" /></noscript>` into the
 *   body: browsers run scripts and read the whole <noscript> as raw text up to `</noscript>`, so
 *   they show the page; the segmenter reads a <noscript>'s content as markup (some forums serve
 *   their posts there), and the iframe's raw text ran to the end of the page (WCXB dev 2838, a
 *   React streamed page: 10 of 462 words kept). Outside a <noscript>, an iframe's content is
 *   fallback text no browser shows either way, and `<iframe … />` meant a frame with none.
 * - `<![CDATA[` in HTML content is a bogus comment that ends at the next `>`, as browsers read it
 *   (only SVG and MathML have CDATA sections, and their content is never text here). htmlparser2
 *   waited for `]]>`, which an HTML page stray `<![CDATA[` never has (WCXB dev 4492, a XenForo
 *   forum thread: no text at all).
 *
 * The overrides replace state methods on the subclass's own prototype, and only when htmlparser2
 * still has the methods and fields they rely on; otherwise the class is its parent's and pages
 * read as they did before.
 */
import type { Tokenizer } from "htmlparser2";
import { SkippingTokenizer } from "./skipping-tokenizer.js";

const GT = 0x3e; // >
const OPEN_BRACKET = 0x5b; // [
/** "CDATA[": the sequence after `<!` that opens a CDATA section. */
const CDATA_LENGTH = 6;

/** The parts of htmlparser2's Tokenizer (v12) these overrides read and call. */
interface TokenizerInternals {
  index: number;
  sectionStart: number;
  state: number;
  sequenceIndex: number;
  xmlMode: boolean;
  isSpecial: boolean;
  currentSequence: Uint8Array;
  cbs: ParserInternals;
  stateInSelfClosingTag(c: number): void;
  stateCDATASequence(c: number): void;
}

/** The parts of htmlparser2's Parser (v12) a closed self-closing tag goes through. */
interface ParserInternals {
  endIndex: number;
  startIndex: number;
  closeCurrentTag?: (isOpenImplied: boolean) => void;
}

/** Whether the raw-text end sequence the tokenizer looks for is `</iframe`. */
function endsIframe(sequence: Uint8Array): boolean {
  // "</iframe": the only raw-text end sequence of eight bytes whose third is "i".
  return sequence.length === 8 && sequence[2] === 0x69 && sequence[3] === 0x66;
}

function install(): typeof Tokenizer {
  const base = SkippingTokenizer.prototype as unknown as TokenizerInternals;
  // A fresh tokenizer is in the text state: its number, as htmlparser2's enum of states is not exported.
  const probe = new SkippingTokenizer({}, {} as never) as unknown as TokenizerInternals;
  const textState = probe.state;
  const usable =
    typeof base.stateInSelfClosingTag === "function" &&
    typeof base.stateCDATASequence === "function" &&
    typeof textState === "number" &&
    typeof probe.isSpecial === "boolean" &&
    typeof probe.xmlMode === "boolean" &&
    typeof probe.sequenceIndex === "number" &&
    probe.currentSequence instanceof Uint8Array &&
    typeof probe.sectionStart === "number";
  if (!usable) return SkippingTokenizer;
  class BrowserTokenizer extends SkippingTokenizer {}
  const own = BrowserTokenizer.prototype as unknown as TokenizerInternals;
  const { stateInSelfClosingTag, stateCDATASequence } = base;

  // What htmlparser2 does for every tag with `recognizeSelfClosing` on, for an iframe only: the
  // parser closes the element at once and the tokenizer goes back to text.
  own.stateInSelfClosingTag = function (this: TokenizerInternals, c: number): void {
    const parser = this.cbs;
    if (c !== GT || !this.isSpecial || !endsIframe(this.currentSequence) || typeof parser.closeCurrentTag !== "function") {
      stateInSelfClosingTag.call(this, c);
      return;
    }
    parser.endIndex = this.index;
    parser.closeCurrentTag(false);
    parser.startIndex = this.index + 1;
    this.sectionStart = this.index + 1;
    this.state = textState;
    this.isSpecial = false;
  };
  // On the `[` that would complete "CDATA[", the stock state is given a character that does not
  // match: it then reads a bogus comment up to the next `>`, as for any other `<!…`.
  own.stateCDATASequence = function (this: TokenizerInternals, c: number): void {
    if (c === OPEN_BRACKET && this.sequenceIndex === CDATA_LENGTH - 1 && !this.xmlMode) stateCDATASequence.call(this, 0);
    else stateCDATASequence.call(this, c);
  };
  return BrowserTokenizer;
}

/** The tokenizer class the segmenter hands htmlparser2's Parser. */
export const BrowserTokenizer: typeof Tokenizer = install();
