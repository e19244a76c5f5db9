/**
 * Class words that hide an element by the stylesheets that go with them, where no inline style or
 * attribute says so: utility classes of Bootstrap, Tailwind, Foundation and WordPress themes
 * (`.hidden`, `.sr-only`, `.d-none`, ...), closed modals and off-canvas panels, and the success and
 * error messages of forms, which scripts show after a submit. Browsers never show their text on
 * the page as served, and it is not the page's main text (issue 35: about a quarter of the wrongly
 * kept words on pages of several types).
 *
 * A carousel's copies of its slides count as hidden too. Owl Carousel, Slick, Swiper, bxSlider,
 * Glide, Splide and tiny-slider put a clone of the first and last slides (or of all of them) at both
 * ends of the track to make the loop seamless, each marked with a class of the library's own; a
 * reader sees each slide once. The copies sit under the same tag path as the slides they copy, so
 * the rule that keeps one copy of a repeated block (which keeps copies of one list's entries) let
 * them through. Of the eight shared sets' 3,402 pages, 7 carry such copies; on two GoogleTrends-2017
 * pages the model kept 907 of their words, which that set's gold does not hold twice.
 *
 * Responsive variants are whole words of their own (`.hidden-xs`, `.hidden-sm` hide on small
 * screens only) and do not match; a hiding word next to a responsive display word
 * (`hidden md:block`, `d-none d-lg-flex`) shows the element on a desktop, so it is kept.
 */

/** Whole class words that hide an element wherever the stylesheet that defines them is loaded. */
const HIDING_WORDS: ReadonlySet<string> = new Set([
  "hidden",
  "hide",
  "is-hidden",
  "sr-only",
  "visually-hidden",
  "visuallyhidden",
  "screen-reader-text",
  "screen-reader-only",
  "element-invisible",
  "d-none",
  "invisible",
  // Webflow's form messages, shown by script after a submit.
  "w-form-done",
  "w-form-fail",
  // Carousels' copies of slides: Owl Carousel's `owl-item cloned`, then Slick, Swiper, bxSlider,
  // Glide, Splide, tiny-slider.
  "cloned",
  "slick-cloned",
  "swiper-slide-duplicate",
  "bx-clone",
  "glide__slide--clone",
  "splide__slide--clone",
  "tns-slide-cloned",
]);

/** Containers hidden until a script opens them, unless a word below says they are open. */
const CLOSED_UNLESS_OPEN: ReadonlySet<string> = new Set(["modal", "offcanvas"]);
/**
 * A modal named by its own component, in BEM or kebab style (`mol-ads-cmp--modal`,
 * `select-menu-modal`, `newsletter_modal`): as closed as a plain `modal`. Held out, such
 * words held 5,621 wrongly kept words of WCXB dev, magic-html and GoogleTrends-2017 against 232
 * rightly kept (a product-details panel); dropping them moved 17 pages up and 4 down.
 */
const NAMED_MODAL = /[a-z0-9](?:--|__|-|_)modal$/;
const OPEN_WORDS: ReadonlySet<string> = new Set(["show", "in", "open", "is-open", "active", "is-active", "visible", "is-visible"]);

/** Tailwind's `md:block`, Bootstrap's `d-lg-flex`: shown from some screen width on. */
const RESPONSIVE_DISPLAY =
  /^(?:[a-z0-9-]+:(?:block|flex|grid|inline|inline-block|inline-flex|inline-grid|table|contents|flow-root)|d-(?:sm|md|lg|xl|xxl)-(?!none)[a-z-]+)$/;

/**
 * Cheap first look: a class value holding none of these substrings cannot hide by class. One
 * regular expression is one native scan of the value; eight `includes` calls were eight, and this
 * runs on every class attribute of every page (about 550 a WCXB page). The carousel words joined
 * the same scan: a second regular expression for them cost 7% more time than this one.
 */
const HINT = /hid|sr-only|d-none|invisible|screen-reader|modal|offcanvas|w-form-|clone|slide-duplicate/;

/**
 * Whether a class attribute value hides its element by class alone. Class words are matched as
 * written in lowercase, as the frameworks spell them (CSS class selectors are case-sensitive).
 */
export function classHides(value: string): boolean {
  if (!HINT.test(value)) return false;
  let hides = false,
    closable = false,
    open = false;
  for (const word of value.split(/[\t\n\f\r ]+/)) {
    if (word.length === 0) continue;
    if (HIDING_WORDS.has(word)) hides = true;
    else if (CLOSED_UNLESS_OPEN.has(word) || NAMED_MODAL.test(word)) closable = true;
    else if (OPEN_WORDS.has(word)) open = true;
    else if (RESPONSIVE_DISPLAY.test(word)) return false;
  }
  return hides || (closable && !open);
}
