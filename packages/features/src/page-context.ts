/**
 * Page-level context for each block: what kind of page this is, where its main text most likely
 * is, and cues that do not depend on the page's language. What is main content depends on the
 * page: a list of links is boilerplate beside an article and the content of a listing page; the
 * posts of a thread are the content of a forum page and the comments under an article are not.
 * A block classifier that sees one block at a time cannot tell these apart without them.
 *
 * - Language: tokens that handle scripts without spaces, and function-word shares for the page's
 *   own language (function-words.ts).
 * - The densest section, as Readability picks its top candidate: every paragraph-like block
 *   scores 1 + its commas + one per 100 characters (at most 3) for the element around its
 *   container and half that for the one above; a section's score is then scaled by its share of
 *   text outside links. Blocks inside that section, and the run of blocks from its first to its
 *   last, are where an article's text is.
 * - Page type signals: link density, and how much of the text sits under comment, forum, product
 *   and list markup, how many headings there are and how long blocks are.
 * - Comments: where a heading-like block names the comments ("12 Comments", "Kommentare",
 *   "评论", ...), or comment markup starts, after the densest section.
 */
import { CLASS_WORD_GROUPS, type SegmentedDocument } from "@winnow/segment";
import { countLanguages, isListedIn, LANGUAGES, LISTED_WORDS } from "./function-words.js";
import { float64s, int32s, uint8s } from "./reused.js";
import { clamp01, type DocumentContext, type FeatureSpec } from "./texrex.js";

function groupBit(name: string): number {
  return 1 << CLASS_WORD_GROUPS.findIndex(([group]) => group === name);
}
const COMMENTS = groupBit("comments");
const FORUM = groupBit("forum");
const PRODUCT = groupBit("product");

/**
 * Short blocks that announce user comments, in the languages of the shared sets and beyond: the
 * word for comments, replies, reactions or discussion, alone or with a count.
 */
const COMMENT_MARKER =
  /^[\s\d#()[\].:·|-]*(comments?|responses?|replies|reply|reactions?|discussion|leave a (comment|reply)|post a comment|add a comment|join the discussion|kommentare?|kommentar schreiben|commentaires?|réactions|comentarios?|comentários?|commenti|reacties|komentarze?|комментари[иейя]?|отзывы|yorumlar?|komentar|bình luận|评论|評論|留言|网友评论|コメント|댓글|التعليقات|تعليقات)[\s\d()[\].:!|-]*$/iu;
const MARKER_MAX_CHARS = 60;

/** A short block that announces user comments ("12 Comments", "Leave a Reply", "评论"). */
export function isCommentMarker(text: string): boolean {
  return text.length <= MARKER_MAX_CHARS && COMMENT_MARKER.test(text);
}

const LOG_HEADINGS = Math.log1p(50);
const LOG_MEAN_TOKENS = Math.log1p(100);
const SPAN_SCALE = 20;

export const CONTEXT_SPECS: readonly FeatureSpec[] = [
  {
    name: "function_words",
    group: "context",
    scaling: "share of tokens that are function words of the page's language / that share over the page / 2, clamped",
  },
  { name: "page_language_known", group: "context", scaling: "{0,1}: at least 5% of the page's tokens are function words of one list" },
  { name: "in_best_section", group: "context", scaling: "{0,1}: under the Readability-style top section" },
  { name: "section_score_ratio", group: "context", scaling: "best score of the block's two sections / the top score" },
  { name: "in_best_span", group: "context", scaling: "{0,1}: between the top section's first and last block" },
  { name: "best_span_distance", group: "context", scaling: `blocks outside that span / ${SPAN_SCALE}, clamped` },
  { name: "best_section_text_share", group: "context", scaling: "page: text of the top section / page text" },
  { name: "page_link_density", group: "context", scaling: "page: anchor chars / text chars" },
  { name: "page_comments_share", group: "context", scaling: "page: share of text under comment class words" },
  { name: "page_forum_share", group: "context", scaling: "page: share of text under forum class words" },
  { name: "page_product_share", group: "context", scaling: "page: share of text under product class words" },
  { name: "page_list_share", group: "context", scaling: "page: share of text in list items" },
  { name: "page_headings", group: "context", scaling: "page: log(1+heading blocks) / log(51)" },
  { name: "page_mean_tokens", group: "context", scaling: "page: log(1+mean tokens per block) / log(101)" },
  { name: "after_comment_marker", group: "context", scaling: "{0,1}: after a block announcing comments, past the top section's start" },
  { name: "comment_markup_after_best", group: "context", scaling: "{0,1}: under comment class words, after the top section's span" },
  { name: "is_comment_marker", group: "context", scaling: "{0,1}: the block announces comments" },
];

/** Per-document values of the context set; its arrays are reused by the next document's (reused.ts). */
export interface PageContext {
  /** Tokens per block (the block scan's, which pageContext's caller reuses from page to page). */
  tokens: Int32Array;
  functionWords: Int32Array;
  pageFunctionWords: number;
  /** The top section's id (0: none), its score, each block's best section score. */
  bestSection: number;
  sectionScore: Float64Array;
  bestScore: number;
  spanFirst: number;
  spanLast: number;
  bestSectionTextShare: number;
  linkDensity: number;
  commentsShare: number;
  forumShare: number;
  productShare: number;
  listShare: number;
  headings: number;
  meanTokens: number;
  /** First block announcing comments at or after the top span's start; n when none. */
  commentMarker: number;
  markers: Uint8Array;
}

// Scratch reused from page to page: pageContext runs once per page and only grows these.
const perLanguage = new Int32Array(LANGUAGES.length);
/** Per listed word: how often the page uses it, and the words it uses, each once (reset after each page). */
const timesSeen = new Int32Array(LISTED_WORDS);
const seen = new Int32Array(LISTED_WORDS);
let sectionScratch = new Float64Array(3 * 4096);
const reused = { functionWords: int32s(), sectionScore: float64s(), markers: uint8s() };

/**
 * `base.stats` must come from a scan with function words (ScanOptions.functionWords): its tokens
 * and their function-word entries are read here.
 */
export function pageContext(doc: SegmentedDocument, base: DocumentContext): PageContext {
  const blocks = doc.blocks;
  const n = blocks.length;
  const { tokens, cjk, firstEntry, entries } = base.stats;
  perLanguage.fill(0);
  // Languages are counted once per distinct word: common words ("a", "de", "la") are listed by
  // dozens of languages, and the page repeats them hundreds of times.
  let distinct = 0;
  for (let e = 0; e < firstEntry[n]; e++) if (timesSeen[entries[e]]++ === 0) seen[distinct++] = entries[e];
  let allTokens = 0;
  for (let i = 0; i < n; i++) allTokens += tokens[i];
  for (let d = 0; d < distinct; d++) {
    const entry = seen[d];
    countLanguages(entry, timesSeen[entry], perLanguage);
    timesSeen[entry] = 0;
  }
  // The page's language: the list that claims most of its tokens.
  let language = -1;
  for (let b = 0, best = 0; b < perLanguage.length; b++) {
    if (perLanguage[b] > best) {
      best = perLanguage[b];
      language = b;
    }
  }
  const functionWords = reused.functionWords.zeros(n);
  let pageFunctionWords = 0;
  if (language >= 0) {
    for (let i = 0; i < n; i++) {
      let hits = 0;
      for (let e = firstEntry[i]; e < firstEntry[i + 1]; e++) if (isListedIn(entries[e], language)) hits++;
      functionWords[i] = hits;
      pageFunctionWords += hits;
    }
  }

  // Readability's top candidate, on the segmenter's two levels of sections.
  let maxId = 0;
  for (const b of blocks) maxId = Math.max(maxId, b.parentId, b.grandparentId);
  // Sections are numbered up to the page's element count: scratch reused from page to page
  // rather than three fresh arrays of that size each time.
  if (sectionScratch.length < 3 * (maxId + 1)) sectionScratch = new Float64Array(6 * (maxId + 1));
  const score = sectionScratch.subarray(0, maxId + 1).fill(0);
  const text = sectionScratch.subarray(maxId + 1, 2 * (maxId + 1)).fill(0);
  const anchor = sectionScratch.subarray(2 * (maxId + 1), 3 * (maxId + 1)).fill(0);
  let anchors = 0,
    comments = 0,
    forum = 0,
    product = 0,
    list = 0,
    headings = 0;
  for (let i = 0; i < n; i++) {
    const b = blocks[i];
    text[b.parentId] += b.textChars;
    anchor[b.parentId] += b.anchorChars;
    if (b.grandparentId !== b.parentId) {
      text[b.grandparentId] += b.textChars;
      anchor[b.grandparentId] += b.anchorChars;
    }
    anchors += b.anchorChars;
    if (b.classMask & COMMENTS) comments += b.textChars;
    if (b.classMask & FORUM) forum += b.textChars;
    if (b.classMask & PRODUCT) product += b.textChars;
    if (b.container === "li") list += b.textChars;
    if (b.heading > 0) headings++;
    // Readability skips paragraphs under 25 characters; a CJK sentence packs more per character.
    if (b.textChars + 2 * cjk[i] < 25 || b.heading > 0) continue;
    const s = 1 + base.stats.commas[i] + Math.min(3, Math.floor(b.textChars / 100));
    if (b.parentId !== 0) score[b.parentId] += s;
    if (b.grandparentId !== 0 && b.grandparentId !== b.parentId) score[b.grandparentId] += s / 2;
  }
  let bestSection = 0,
    bestScore = 0;
  for (let id = 1; id <= maxId; id++) {
    if (score[id] === 0) continue;
    score[id] *= 1 - (text[id] === 0 ? 0 : anchor[id] / text[id]);
    if (score[id] > bestScore) {
      bestScore = score[id];
      bestSection = id;
    }
  }
  const sectionScore = reused.sectionScore.zeros(n);
  let spanFirst = n,
    spanLast = -1;
  for (let i = 0; i < n; i++) {
    const b = blocks[i];
    sectionScore[i] = Math.max(score[b.parentId], score[b.grandparentId]);
    if (bestSection !== 0 && (b.parentId === bestSection || b.grandparentId === bestSection)) {
      if (spanFirst === n) spanFirst = i;
      spanLast = i;
    }
  }
  const markers = reused.markers.zeros(n);
  let commentMarker = n;
  for (let i = 0; i < n; i++) {
    const b = blocks[i];
    if (isCommentMarker(b.text)) {
      markers[i] = 1;
      if (commentMarker === n && (spanFirst === n || i >= spanFirst)) commentMarker = i;
    }
  }
  const total = Math.max(1, base.totalText);
  return {
    tokens,
    functionWords,
    pageFunctionWords: allTokens === 0 ? 0 : pageFunctionWords / allTokens,
    bestSection,
    sectionScore,
    bestScore,
    spanFirst,
    spanLast,
    bestSectionTextShare: bestSection === 0 ? 0 : text[bestSection] / total,
    linkDensity: anchors / total,
    commentsShare: comments / total,
    forumShare: forum / total,
    productShare: product / total,
    listShare: list / total,
    headings,
    meanTokens: n === 0 ? 0 : allTokens / n,
    commentMarker,
    markers,
  };
}

/** Writes block i's context values at out[offset..]. */
export function writeContext(doc: SegmentedDocument, ctx: PageContext, i: number, out: Float32Array, offset: number): void {
  const b = doc.blocks[i];
  const tokens = ctx.tokens[i];
  let k = offset;
  // Relative to the page, so that the value means the same in languages whose lists differ in reach.
  const page = ctx.pageFunctionWords;
  out[k++] = tokens === 0 || page === 0 ? 0 : clamp01(ctx.functionWords[i] / tokens / page / 2);
  out[k++] = page >= 0.05 ? 1 : 0;
  const inBest = ctx.bestSection !== 0 && (b.parentId === ctx.bestSection || b.grandparentId === ctx.bestSection);
  out[k++] = inBest ? 1 : 0;
  out[k++] = ctx.bestScore === 0 ? 0 : ctx.sectionScore[i] / ctx.bestScore;
  const inSpan = i >= ctx.spanFirst && i <= ctx.spanLast;
  out[k++] = inSpan ? 1 : 0;
  const outside = ctx.spanLast < 0 ? SPAN_SCALE : i < ctx.spanFirst ? ctx.spanFirst - i : i > ctx.spanLast ? i - ctx.spanLast : 0;
  out[k++] = clamp01(outside / SPAN_SCALE);
  out[k++] = ctx.bestSectionTextShare;
  out[k++] = clamp01(ctx.linkDensity);
  out[k++] = ctx.commentsShare;
  out[k++] = ctx.forumShare;
  out[k++] = ctx.productShare;
  out[k++] = ctx.listShare;
  out[k++] = clamp01(Math.log1p(ctx.headings) / LOG_HEADINGS);
  out[k++] = clamp01(Math.log1p(ctx.meanTokens) / LOG_MEAN_TOKENS);
  out[k++] = i > ctx.commentMarker ? 1 : 0;
  out[k++] = b.classMask & COMMENTS && ctx.spanLast >= 0 && i > ctx.spanLast ? 1 : 0;
  out[k++] = ctx.markers[i];
}
