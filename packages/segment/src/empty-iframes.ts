/**
 * A self-closed `<iframe … />` read as an empty frame, not as the start of raw text.
 *
 * Why: htmlparser2 (v12) follows the HTML standard and reads an iframe's content as raw text up to
 * `</iframe>`, ignoring the `/` of `<iframe … />`. Tag managers tell sites to paste
 * `<noscript><iframe src="…" style="display:none" /></noscript>` right after `<body>` (or, on
 * React streamed pages, right before the streamed segments): browsers run scripts, read the
 * whole <noscript> as raw text up to `</noscript>`, and show the page; the segmenter reads a
 * <noscript>'s content as markup (some forums serve their posts there), so the iframe's raw text
 * ran to the end of the page and every word after it was lost (WCXB dev 2838: 10 of 462 words).
 * Outside a <noscript> an iframe's content is fallback text no browser shows either way, and the
 * author of `<iframe … />` meant a frame with none.
 *
 * How: the tokenizer's self-closing state, for an iframe only, does what htmlparser2 does for
 * every tag when `recognizeSelfClosing` is on: back to text, and the parser closes the element at
 * once. Only when the tokenizer and parser still have the members this relies on; otherwise the
 * class is its parent's (the page then reads as before this change).
 */
import type { Tokenizer } from "htmlparser2";
import { SkippingTokenizer } from "./skipping-tokenizer.js";

const GT = 0x3e; // >

/** The parts of htmlparser2's Tokenizer (v12) this override reads and calls. */
interface TokenizerInternals {
  index: number;
  sectionStart: number;
  state: number;
  isSpecial: boolean;
  currentSequence: Uint8Array;
  cbs: ParserInternals;
  stateInSelfClosingTag(c: number): void;
}

/** The parts of htmlparser2's Parser (v12) a closed self-closing tag goes through. */
interface ParserInternals {
  endIndex: number;
  startIndex: number;
  closeCurrentTag?: (isOpenImplied: boolean) => void;
}

/** Whether the raw-text end sequence the tokenizer looks for is `</iframe`. */
function endsIframe(sequence: Uint8Array): boolean {
  // "</iframe": the only raw-text sequence of eight bytes whose third is "i".
  return sequence.length === 8 && sequence[2] === 0x69 && sequence[3] === 0x66;
}

function install(): typeof Tokenizer {
  const base = SkippingTokenizer.prototype as unknown as TokenizerInternals;
  // A fresh tokenizer is in the text state: its number, as htmlparser2's enum of states is not exported.
  const probe = new SkippingTokenizer({}, {} as never) as unknown as TokenizerInternals;
  const textState = probe.state;
  const usable =
    typeof base.stateInSelfClosingTag === "function" &&
    typeof textState === "number" &&
    typeof probe.isSpecial === "boolean" &&
    probe.currentSequence instanceof Uint8Array &&
    typeof probe.sectionStart === "number";
  if (!usable) return SkippingTokenizer;
  class EmptyIframeTokenizer extends SkippingTokenizer {}
  const own = EmptyIframeTokenizer.prototype as unknown as TokenizerInternals;
  const { stateInSelfClosingTag } = base;
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
  return EmptyIframeTokenizer;
}

/** The tokenizer class the segmenter hands htmlparser2's Parser. */
export const SegmenterTokenizer: typeof Tokenizer = install();
