/**
 * Slides that a carousel library copied to make its loop seamless. Owl Carousel, Slick, Swiper,
 * bxSlider, Glide, Splide and tiny-slider put a clone of the first and last slides (or of all of
 * them) at both ends of the track and mark each copy with a class of their own; a reader sees one
 * slide at a time, each once. The copies sit under the same tag path as the slides they copy, so
 * the rule that keeps one copy of a repeated block (Block.repeatOf, which keeps copies of one list
 * entry) lets them through: on the held-out GoogleTrends-2017 pages they were 1,917 wrongly kept
 * words (92% of the words the MLP kept under such classes; issue 35, "carousel clones").
 *
 * The segmenter leaves them out as it leaves out class-hidden text: the slide itself stays.
 */

/** Whole class words that carousel libraries give only to their copies of slides. */
const CLONE_WORDS: ReadonlySet<string> = new Set([
  "cloned", // Owl Carousel: `owl-item cloned`
  "slick-cloned",
  "swiper-slide-duplicate",
  "bx-clone",
  "glide__slide--clone",
  "splide__slide--clone",
  "tns-slide-cloned",
]);

/** Cheap first look: one native scan of the value, as classHides does. */
const HINT = /clone|slide-duplicate/;

/** Whether a class attribute value marks its element as a carousel's copy of a slide. */
export function classMarksClone(value: string): boolean {
  if (!HINT.test(value)) return false;
  for (const word of value.split(/[\t\n\f\r ]+/)) if (CLONE_WORDS.has(word)) return true;
  return false;
}
