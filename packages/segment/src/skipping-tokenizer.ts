/**
 * htmlparser2's tokenizer, with its long uninteresting runs skipped by String#indexOf instead of
 * one trip round its state machine per character.
 *
 * Why: on modern pages four characters in ten are inside <script> and <style>, and most of the
 * rest are attribute values (class lists, URLs, inline styles) and text. With entity decoding on,
 * htmlparser2 visits each of those characters in its `parse` loop, and its one skipping helper
 * (`fastForwardTo`) is itself a charCodeAt loop. indexOf is a native, vectorised search, so jumping
 * straight to the next character that can change the state (`<` in text and raw text, the quote or
 * `&` in an attribute value) does the same work for far less: everything between is never looked at
 * by the states these overrides stand in for.
 *
 * How: htmlparser2 takes a Tokenizer class as an option (ParserOptions.Tokenizer). Its state
 * methods are private in its typings, so the subclass swaps them on its own prototype, and only when
 * htmlparser2 still has the methods and fields this relies on; otherwise the stock tokenizer is used
 * (slower, same output). The segmenter's and the features' digest tests pin the output, so a
 * change in htmlparser2's internals that altered it would fail them.
 */
import { Tokenizer } from "htmlparser2";

const LT = 0x3c; // <
const AMP = 0x26; // &
const DOUBLE_QUOTE = 0x22;

/** The parts of htmlparser2's Tokenizer (v12) these overrides read and call. */
interface TokenizerInternals {
  buffer: string;
  index: number;
  offset: number;
  decodeEntities: boolean;
  /** Ours: where the next `&` of the buffer is (a buffer position), or -1 while unknown. */
  ampersandAt: number;
  write(chunk: string): void;
  reset(): void;
  stateText(c: number): void;
  fastForwardTo(c: number): boolean;
  handleInAttributeValue(c: number, quote: number): void;
}

/** The first `&` at or after `from` (the buffer's length if none). */
function ampersandFrom(t: TokenizerInternals, from: number): number {
  // One search per `&` passed, not per call: the position stays valid until the scan passes it.
  if (t.ampersandAt < from) {
    const at = t.buffer.indexOf("&", from);
    t.ampersandAt = at < 0 ? t.buffer.length : at;
  }
  return t.ampersandAt;
}

/**
 * Moves the tokenizer to just before `stop` (a buffer position), so that `parse` reads the
 * character at `stop` next; the end of the buffer when `stop` is -1, as fastForwardTo does.
 */
function skipTo(t: TokenizerInternals, stop: number): void {
  t.index = (stop < 0 ? t.buffer.length : stop) + t.offset - 1;
}

function install(): typeof Tokenizer {
  const base = Tokenizer.prototype as unknown as TokenizerInternals;
  const probe = new Tokenizer({ decodeEntities: true }, {} as never) as unknown as TokenizerInternals;
  const usable =
    typeof base.stateText === "function" &&
    typeof base.fastForwardTo === "function" &&
    typeof base.handleInAttributeValue === "function" &&
    typeof base.write === "function" &&
    typeof base.reset === "function" &&
    typeof probe.index === "number" &&
    typeof probe.offset === "number" &&
    typeof probe.buffer === "string" &&
    probe.decodeEntities === true;
  if (!usable) return Tokenizer;

  class SkippingTokenizer extends Tokenizer {
    ampersandAt = -1;
  }
  const own = SkippingTokenizer.prototype as unknown as TokenizerInternals;
  const { stateText, handleInAttributeValue, write, reset } = base;

  own.write = function (this: TokenizerInternals, chunk: string): void {
    this.ampersandAt = -1;
    write.call(this, chunk);
  };
  own.reset = function (this: TokenizerInternals): void {
    this.ampersandAt = -1;
    reset.call(this);
  };
  // Text: the stock state stops at `<` and `&`; every other character only moves the index.
  own.stateText = function (this: TokenizerInternals, c: number): void {
    if (c === LT || c === AMP || !this.decodeEntities) {
      stateText.call(this, c);
      return;
    }
    const from = this.index - this.offset;
    const lt = this.buffer.indexOf("<", from + 1);
    const amp = ampersandFrom(this, from + 1);
    skipTo(this, lt < 0 ? amp : Math.min(lt, amp));
  };
  // Raw text (<script>, <style>) and the other stock uses: the same search, done natively.
  own.fastForwardTo = function (this: TokenizerInternals, c: number): boolean {
    // As the stock loop leaves it: on the character when found, else on the buffer's last one.
    const at = this.buffer.indexOf(String.fromCharCode(c), this.index - this.offset + 1);
    if (at < 0) skipTo(this, -1);
    else this.index = at + this.offset;
    return at >= 0;
  };
  // Quoted attribute values: only the closing quote and `&` matter.
  own.handleInAttributeValue = function (this: TokenizerInternals, c: number, quote: number): void {
    if (c === quote || c === AMP || !this.decodeEntities) {
      handleInAttributeValue.call(this, c, quote);
      return;
    }
    const from = this.index - this.offset;
    const end = this.buffer.indexOf(quote === DOUBLE_QUOTE ? '"' : "'", from + 1);
    const amp = ampersandFrom(this, from + 1);
    skipTo(this, end < 0 ? amp : Math.min(end, amp));
  };
  return SkippingTokenizer;
}

/** The tokenizer class to hand htmlparser2's Parser. */
export const SkippingTokenizer: typeof Tokenizer = install();
