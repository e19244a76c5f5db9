/**
 * Class and id words of a block's ancestors, folded into groups that signal boilerplate or content
 * ("nav", "footer", "cookie", "comment", "article-body", ...). Authors name their containers for
 * what they hold, and that is the strongest cheap signal a single page gives beyond the texrex set.
 * It lives beside the segmenter, which masks each element's words once as its attributes arrive,
 * so that blocks carry integer masks and no later stage re-reads the words.
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
// SHORT inside it. Both are read off one trie of the keywords, walked from each position of the
// token: no substrings, no regex, no per-token cache, which matter because class strings are
// mostly unique to their site (hashed CSS-module names), so caches keyed by them rarely hit.

/** a-z are symbols 0-25, 0-9 are 26-35; anything else ends a token (-1). */
function symbol(c: number): number {
  if (c >= 97 && c <= 122) return c - 97;
  if (c >= 48 && c <= 57) return c - 22;
  return -1;
}

const SYMBOLS = 36;
const trieNext: number[] = []; // node * SYMBOLS + symbol -> node, 0 for none (node 0 is the root)
const wholeWordGroup: number[] = []; // per node: the group of the keyword ending there, -1 for none
const containedMask: number[] = []; // per node: groups of the keywords longer than SHORT ending there

function addNode(): number {
  const node = wholeWordGroup.length;
  for (let s = 0; s < SYMBOLS; s++) trieNext.push(0);
  wholeWordGroup.push(-1);
  containedMask.push(0);
  return node;
}

addNode();
CLASS_WORD_GROUPS.forEach(([, words], group) => {
  for (const word of words) {
    let node = 0;
    for (let i = 0; i < word.length; i++) {
      const at = node * SYMBOLS + symbol(word.charCodeAt(i));
      node = trieNext[at] === 0 ? (trieNext[at] = addNode()) : trieNext[at];
    }
    if (wholeWordGroup[node] < 0) wholeWordGroup[node] = group;
    if (word.length > SHORT) containedMask[node] |= 1 << group;
  }
});
const NEXT = Int32Array.from(trieNext);
const WHOLE = Int32Array.from(wholeWordGroup);
const CONTAINED = Int32Array.from(containedMask);

/** Groups of the keywords inside classIds[start, end), a token. */
function tokenMask(classIds: string, start: number, end: number): number {
  // Walk from the token's start over the whole token: is the token itself a keyword?
  let node = 0;
  for (let i = start; i < end && node >= 0; i++) node = NEXT[node * SYMBOLS + symbol(classIds.charCodeAt(i))] || -1;
  if (node > 0 && WHOLE[node] >= 0) return 1 << WHOLE[node];
  if (end - start <= SHORT) return 0;
  let mask = 0;
  for (let from = start; from < end; from++) {
    node = 0;
    for (let i = from; i < end; i++) {
      node = NEXT[node * SYMBOLS + symbol(classIds.charCodeAt(i))];
      if (node === 0) break;
      mask |= CONTAINED[node];
    }
  }
  return mask;
}

/** Bit mask of the groups whose keywords occur in a lowercased class/id string. */
export function classWordMask(classIds: string): number {
  let mask = 0, start = -1;
  for (let i = 0; i <= classIds.length; i++) {
    const inToken = i < classIds.length && symbol(classIds.charCodeAt(i)) >= 0;
    if (inToken) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      mask |= tokenMask(classIds, start, i);
      start = -1;
    }
  }
  return mask;
}
