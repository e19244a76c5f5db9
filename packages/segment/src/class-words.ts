/**
 * Class and id words of a block's ancestors, folded into groups that signal boilerplate or content
 * ("nav", "footer", "cookie", "comment", "article-body", ...). Authors name their containers for
 * what they hold, and that is the strongest cheap signal a single page gives beyond the texrex set.
 * It lives beside the segmenter, which masks each element's words once (for the first block under
 * it), so that blocks carry integer masks and no later stage re-reads the words.
 *
 * Matching is by substring for long keywords ("mainmenu", "site-footer") and by whole token for
 * short ones ("ad", "nav"), so "header" does not fire on "ad" nor "shadow" on "ad".
 */

export const CLASS_WORD_GROUPS = [
  ["navigation", ["nav", "menu", "breadcrumb", "navbar", "toolbar", "skip", "dropdown", "megamenu"]],
  ["header", ["header", "masthead", "banner", "topbar", "branding", "logo"]],
  ["footer", ["footer", "copyright", "colophon", "bottom", "legal"]],
  ["sidebar", ["sidebar", "aside", "widget", "rail", "secondary"]],
  ["comments", ["comment", "reply", "respond", "disqus", "discussion"]],
  ["social", ["share", "sharing", "social", "facebook", "twitter", "follow", "whatsapp", "linkedin", "pinterest"]],
  ["consent", ["cookie", "consent", "gdpr", "privacy", "notice", "alert"]],
  ["related", ["related", "recommend", "popular", "trending", "suggest", "teaser", "more", "also", "latest"]],
  ["advert", ["ad", "ads", "advert", "advertisement", "sponsor", "sponsored", "promo", "dfp", "taboola", "outbrain"]],
  ["content", ["content", "article", "post", "entry", "main", "body", "text", "story", "prose", "markdown", "rich", "blog"]],
  ["byline", ["author", "byline", "meta", "date", "time", "published", "dateline", "info"]],
  ["hidden", ["modal", "popup", "overlay", "dialog", "hidden", "sr", "screen", "visually", "offscreen", "tooltip"]],
  ["taxonomy", ["tag", "tags", "category", "categories", "label", "topic", "topics"]],
  ["paging", ["pagination", "pager", "paging", "next", "prev", "previous"]],
  ["account", ["login", "signin", "signup", "subscribe", "newsletter", "register", "account", "cart", "checkout"]],
  ["search", ["search", "searchform"]],
  ["media", ["caption", "figure", "credit", "photo", "image", "img", "gallery", "video"]],
  ["product", ["product", "price", "description", "detail", "details", "spec", "specs", "review", "rating", "sku"]],
  ["forum", ["question", "answer", "thread", "message", "forum", "postbody", "topic"]],
  ["title", ["title", "headline", "heading", "h1"]],
] as const;

export const CLASS_WORD_GROUP_COUNT = CLASS_WORD_GROUPS.length;

/** Keywords this short only count as whole tokens ("ad" must not fire inside "header"). */
const SHORT = 3;

// The rule, per token (a run of [a-z0-9]): a token that is itself a keyword gives that keyword's
// (first) group; any other token longer than SHORT gives the groups of every keyword longer than
// SHORT inside it. Class strings are mostly unique to their site (hashed CSS-module names), so
// caches keyed by them rarely hit, and nearly every element's string gets masked: 1.26 million
// over the 1,358 dev pages. An Aho-Corasick automaton reads each token in one pass, one table
// load per character, with no substrings and no regex.

/** a-z are symbols 0-25, 0-9 are 26-35; anything else ends a token (-1). */
function symbol(c: number): number {
  if (c >= 97 && c <= 122) return c - 97;
  if (c >= 48 && c <= 57) return c - 22;
  return -1;
}

const SYMBOLS = 36;

/** The automaton: NEXT[state * SYMBOLS + symbol], and per state what it says. */
const { NEXT, DEPTH, WHOLE, FOUND } = (() => {
  // The keyword trie first (state 0 is the root; 0 in `next` means no edge yet).
  const next: number[] = [];
  const depth: number[] = [];
  const whole: number[] = []; // group of the keyword spelled by the state, -1 for none
  const found: number[] = []; // groups of the keywords longer than SHORT that end at the state
  const addState = (d: number) => {
    for (let k = 0; k < SYMBOLS; k++) next.push(0);
    depth.push(d);
    whole.push(-1);
    found.push(0);
    return depth.length - 1;
  };
  addState(0);
  CLASS_WORD_GROUPS.forEach(([, words], group) => {
    for (const word of words) {
      let state = 0;
      for (let i = 0; i < word.length; i++) {
        const at = state * SYMBOLS + symbol(word.charCodeAt(i));
        if (next[at] === 0) next[at] = addState(depth[state] + 1);
        state = next[at];
      }
      if (whole[state] < 0) whole[state] = group;
      if (word.length > SHORT) found[state] |= 1 << group;
    }
  });
  // Then failure links, breadth first: every missing edge goes where the longest proper suffix
  // would go, and each state also reports the keywords ending at its suffixes.
  const fail = new Array<number>(depth.length).fill(0);
  const queue: number[] = [];
  for (let k = 0; k < SYMBOLS; k++) if (next[k] !== 0) queue.push(next[k]);
  for (let q = 0; q < queue.length; q++) {
    const state = queue[q];
    found[state] |= found[fail[state]];
    for (let k = 0; k < SYMBOLS; k++) {
      const child = next[state * SYMBOLS + k];
      if (child !== 0) {
        fail[child] = next[fail[state] * SYMBOLS + k];
        queue.push(child);
      } else {
        next[state * SYMBOLS + k] = next[fail[state] * SYMBOLS + k];
      }
    }
  }
  return { NEXT: Int32Array.from(next), DEPTH: Int32Array.from(depth), WHOLE: Int32Array.from(whole), FOUND: Int32Array.from(found) };
})();

/** Bit mask of the groups whose keywords occur in a lowercased class/id string. */
export function classWordMask(classIds: string): number {
  let mask = 0,
    state = 0,
    length = 0,
    inside = 0;
  for (let i = 0; i <= classIds.length; i++) {
    const k = i < classIds.length ? symbol(classIds.charCodeAt(i)) : -1;
    if (k >= 0) {
      state = NEXT[state * SYMBOLS + k];
      inside |= FOUND[state];
      length++;
    } else if (length > 0) {
      // The state spells the token's longest suffix that begins a keyword: the whole token
      // when its depth is the token's length.
      if (DEPTH[state] === length && WHOLE[state] >= 0) mask |= 1 << WHOLE[state];
      else if (length > SHORT) mask |= inside;
      state = 0;
      length = 0;
      inside = 0;
    }
  }
  return mask;
}
