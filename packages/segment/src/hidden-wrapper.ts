/**
 * A wrapper that hides the whole page until its scripts run.
 *
 * Some sites serve every word inside one element hidden by markup, which a script shows once the
 * page has loaded (a guard against a flash of unstyled content, or a preloader): `<div class="root
 * hide">` (cedardb.com), `<div style="visibility:hidden;min-height:100vh">` (GeeksforGeeks' Next.js
 * pages). Read as markup says, the page has no text at all (three WCXB dev pages, 4,900 gold words,
 * came out empty). A hidden part of a page is smaller than what shows; so an element that is
 * hidden by markup (an attribute, an inline style or a class word, not by being a <script> or
 * another element whose content is never text) and holds WRAPPER_TEXT_RATIO times the text of
 * the whole visible page or more is taken for the page itself, and the page is read again with
 * that element shown.
 *
 * The ratio is high because hidden panels can hold more text than a short page: a cookie-consent
 * centre (OneTrust's "Privacy Preference Center"), a form's hidden steps, a collapsed mega menu.
 * On WCXB dev and magic-html those held 1.1 to 3 times the visible text (six pages that lost
 * F1 when shown), the pages hidden whole 11 times or more (0422, 4020: everything; 0658, 0631,
 * 2991).
 *
 * This tracks, in the segmenter's one pass, the outermost element hidden that way at any time and
 * the text under it (text inside elements whose content is never text does not count), and keeps
 * the one with the most.
 */

/** Below this many characters of hidden text, a page is never read again (a short hidden note on an empty page is not the page). */
const MIN_WRAPPER_CHARS = 200;
/** How many times the visible text the hidden element must hold (raw text-node characters both). */
const WRAPPER_TEXT_RATIO = 10;

export class HiddenWrapperTracker {
  private level = -1; // the level of the outermost element hidden by markup now open (-1: none)
  private at = -1; // its start index in the source
  private chars = 0; // text characters under it so far
  private bestAt = -1;
  private bestChars = 0;

  reset(): void {
    this.level = -1;
    this.at = -1;
    this.chars = 0;
    this.bestAt = -1;
    this.bestChars = 0;
  }

  /** The element at `level`, opened at source index `at`, is now hidden and nothing around it is. */
  hide(level: number, at: number): void {
    this.level = level;
    this.at = at;
    this.chars = 0;
  }

  /** The element at `level` is shown again before any child (a dialog's `open`, a streamed segment's id). */
  show(level: number): void {
    if (level === this.level) this.level = -1;
  }

  /** Text under the hidden element, outside any element whose content is never text. */
  text(chars: number): void {
    if (this.level >= 0) this.chars += chars;
  }

  /** The element at `level` closes. */
  close(level: number): void {
    if (level !== this.level) return;
    this.level = -1;
    if (this.chars > this.bestChars) {
      this.bestChars = this.chars;
      this.bestAt = this.at;
    }
  }

  /**
   * The start index of the element to show when the page is read again, or -1 when the page
   * stands as read: its hidden text must be WRAPPER_TEXT_RATIO times the `visibleChars`
   * characters that showed, or more.
   */
  wrapperAt(visibleChars: number): number {
    // An element still open at the end of the page counts too.
    if (this.level >= 0) this.close(this.level);
    return this.bestChars >= MIN_WRAPPER_CHARS && this.bestChars >= WRAPPER_TEXT_RATIO * visibleChars ? this.bestAt : -1;
  }
}
