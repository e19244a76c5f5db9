/**
 * Inline markup inside a block's text, for Markdown with `--links`: links (with their href) and
 * emphasis (em/i, strong/b, code), each as a [start, end) range of the block's folded text.
 *
 * Off by default: the segmenter calls in here only when asked (segmentHtml's `inline`), so a run
 * that does not want links pays one null check per tag. Ranges are taken from the text's length
 * as the tags open and close, so whitespace the folding adds or drops at a boundary can fall just
 * inside a range; the renderer moves it out.
 */
import type { InlineKind, InlineSpan } from "./types.js";

/** The tags read, and what each is. */
const KIND_OF: Readonly<Record<string, InlineKind>> = { a: "link", em: "em", i: "em", strong: "strong", b: "strong", code: "code" };

interface OpenElement {
  kind: InlineKind;
  level: number;
  start: number;
  href: string;
}

export class InlineTracker {
  private opened: OpenElement[] = [];
  private spans: InlineSpan[] = [];

  reset(): void {
    this.opened.length = 0;
    this.spans = [];
  }

  /** A start tag at stack level `level`, the block's text being `at` characters long. */
  open(name: string, level: number, at: number): void {
    if (name.length > 6) return;
    const kind = KIND_OF[name];
    if (kind !== undefined) this.opened.push({ kind, level, start: at, href: "" });
  }

  /** An href attribute of the element just opened at `level`. */
  href(level: number, value: string): void {
    const top = this.opened.at(-1);
    if (top !== undefined && top.level === level && top.kind === "link") top.href = value;
  }

  /** The element at `level` closes, the block's text being `at` characters long. */
  close(level: number, at: number): void {
    // htmlparser2 reports every close, implied ones included, so the stack unwinds in order; an
    // element opened where nothing was tracked (hidden content) is simply not on it.
    let top = this.opened.at(-1);
    while (top !== undefined && top.level >= level) {
      this.opened.pop();
      this.add(top, at);
      top = this.opened.at(-1);
    }
  }

  /**
   * The block of `length` characters ends: its ranges, or null when it has none. Elements still
   * open go on into the next block from its first character.
   */
  endBlock(length: number): InlineSpan[] | null {
    for (const open of this.opened) {
      this.add(open, length);
      open.start = 0;
    }
    if (this.spans.length === 0) return null;
    const spans = this.spans;
    this.spans = [];
    let kept = 0;
    for (const span of spans) {
      if (span.end > length) span.end = length;
      if (span.end > span.start) spans[kept++] = span;
    }
    spans.length = kept;
    return kept === 0 ? null : spans;
  }

  private add(open: OpenElement, end: number): void {
    if (end <= open.start) return;
    const span: InlineSpan = { start: open.start, end, kind: open.kind };
    if (open.kind === "link" && open.href !== "") span.href = open.href;
    this.spans.push(span);
  }
}
