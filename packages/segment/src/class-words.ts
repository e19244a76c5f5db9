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

const groupOfWord = new Map<string, number>();
const substringWords: Array<[string, number]> = [];
CLASS_WORD_GROUPS.forEach(([, words], group) => {
  for (const word of words) {
    if (!groupOfWord.has(word)) groupOfWord.set(word, group);
    if (word.length > SHORT) substringWords.push([word, group]);
  }
});

const TOKEN = /[a-z0-9]+/g;

/**
 * Masks of tokens seen before. Class names repeat across pages of a crawl ("menu-item", "elementor"),
 * so the substring scan runs once per distinct token; the cache is dropped whole when it fills.
 */
const tokenMasks = new Map<string, number>();
const TOKEN_CACHE_LIMIT = 100_000;

function tokenMask(token: string): number {
  let mask = tokenMasks.get(token);
  if (mask !== undefined) return mask;
  mask = 0;
  for (const [word, g] of substringWords) if (token.includes(word)) mask |= 1 << g;
  if (tokenMasks.size >= TOKEN_CACHE_LIMIT) tokenMasks.clear();
  tokenMasks.set(token, mask);
  return mask;
}

/** Bit mask of the groups whose keywords occur in a lowercased class/id string. */
export function classWordMask(classIds: string): number {
  if (classIds.length === 0) return 0;
  let mask = 0;
  TOKEN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = TOKEN.exec(classIds)) !== null) {
    const token = match[0];
    const group = groupOfWord.get(token);
    if (group !== undefined) {
      mask |= 1 << group;
    } else if (token.length > SHORT) {
      mask |= tokenMask(token);
    }
  }
  return mask;
}

/** Masks of whole class/id strings: "menu-item menu-item-type-post" repeats within and across pages. */
const elementMasks = new Map<string, number>();

/** classWordMask, computed once per distinct string (the cache is dropped whole when it fills). */
export function elementClassMask(classIds: string): number {
  let mask = elementMasks.get(classIds);
  if (mask === undefined) {
    mask = classWordMask(classIds);
    if (elementMasks.size >= TOKEN_CACHE_LIMIT) elementMasks.clear();
    elementMasks.set(classIds, mask);
  }
  return mask;
}
