/**
 * What a page's comment markup says about a block, read from what the segmenter already recorded
 * (class and id words, tag path, text): a block of a threaded comment list (WordPress's
 * `ol.comment-list > li.comment > .comment-body`, Disqus, Gigya and most CMS threads), or the
 * chrome around comments (the reply form, the policy, "12 Comments" counters, "Load comments"
 * buttons, vote counts), or neither. Comment heads trained on page features confuse the two: the
 * form sits under the same class words as the thread. The rule settles what markup settles and
 * leaves the rest to the head.
 *
 * Only blocks under comment class words (or whose whole text announces comments) are looked at,
 * so a page without comment markup costs one bit test per block.
 */
import { isCommentMarker } from "@winnow/features";
import { CLASS_WORD_GROUPS, type SegmentedDocument } from "@winnow/segment";

/** Not said by the markup: the comment head decides. */
export const COMMENT_UNKNOWN = 0;
/** A block of a comment thread: a user comment, never main text. */
export const COMMENT_THREAD = 1;
/** Around the comments (form, policy, counter, button): neither main text nor a comment. */
export const COMMENT_CHROME = 2;

const COMMENTS = 1 << CLASS_WORD_GROUPS.findIndex(([group]) => group === "comments");

/** In a form control: the reply form's labels and buttons (not any <form>: ASP.NET pages wrap the whole page in one). */
const FORM_PATH = /(^|\/)(button|label|textarea|select|fieldset|option)(\/|$)/;

/**
 * Class words, anywhere in the block's six innermost ancestors, of the comment section's
 * non-comment parts: the reply form and its notes, the login prompt, the house rules.
 */
const CHROME_CONTAINER =
  /(^|[^a-z])(comments?[-_]?form|respond|reply[-_]?(form|box|title)|post[-_]?comment|add[-_]?comment|leave[-_]?(a[-_]?)?(comment|reply)|compose(box)?|logged[-_]?in|log[-_]?in|sign[-_]?in|register|policy|guidelines?|house[-_]?rules|rules|comment[-_]?notes|form[-_]?allowed|loading|subscribe|recirculation|sponsor(ed)?)([^a-z]|$)/;

/**
 * Words of the block's own element (the innermost one with class words): a counter, a title, a
 * sort or paging control, a button, a vote, an action link, the comment's avatar.
 */
const CHROME_ELEMENT = new Set([
  "count",
  "counter",
  "num",
  "number",
  "title",
  "header",
  "heading",
  "sort",
  "tabs",
  "tab",
  "more",
  "load",
  "btn",
  "button",
  "toggle",
  "jump",
  "link",
  "replylink",
  "share",
  "vote",
  "votes",
  "rating",
  "rate",
  "actions",
  "pagination",
  "paging",
  "pager",
  "navigation",
  "nav",
  "avatar",
  "cover",
]);

/** Text of the comment section's chrome: prompts, notices, policies, buttons. */
const CHROME_TEXT =
  /\b(required|will not be published|email address|e-mail address|log ?in|sign ?in|sign ?up|register|logged in|house rules|community guidelines|comment policy|moderat(ed|ion|or)|be respectful|views expressed|no longer accepting|comments? (are|is) (now )?closed|powered by|loading comments|(load|show|view|see|read|hide|sort|add|post|leave|write|join) (all |the )?(\d+ )?(comments?|a comment|a reply|the (conversation|discussion))|join the (conversation|discussion)|be the first to comment|no comments)\b/i;

/** "4 comments", "3 Responses to “Title”", "12 thoughts on …": a count heading. */
const COUNT_HEADING = /^\s*\d+\s+(comments?|responses?|replies|thoughts|reactions?)\b/i;

/** A block that is nothing but actions or numbers: "Reply", "Report", "Like 3", "12". */
const ACTIONS_ONLY =
  /^[\s\d|·•+\-()[\]]*((reply|report|share|flag|like|likes|dislike|quote|edit|delete|permalink|link to this|recommend|upvote|downvote|vote|abuse|report abuse)[\s\d|·•+\-()[\]]*)*$/i;

/**
 * Class words that mark a comment itself, not only the section: `comment` (WordPress's
 * `li.comment`, `comment-body`, `comment-123`), `commentlist`, `individualcomment`,
 * `articlecomment`, `commenttext`, Disqus: a word with "comment" in it that does not name the
 * whole section ("comments", "commentscontainer"), a part of its chrome ("commentsheader",
 * "addcomment", "commentform") or something else ("commented", "commentable", "commentary").
 */
function isThreadWord(word: string): boolean {
  if (word === "disqus" || word === "dsq") return true;
  return word.includes("comment") && !NOT_THREAD_WORD.test(word);
}

const NOT_THREAD_WORD =
  /^(comments|.*comments?(container|wrap|wrapper|area|section|box|block|panel|div|zone)\d*|.*comment(ed|able|ary|aries|ing)|(add|view|post|leave|write|no|read|show|load|more)comments?.*|.*(header|title|heading|count|counter|num|number|form|disclaimer|policy|rules|closed|nav|navigation|pager|paging|link|links|button|btn|notes?|login|register|tools?)\d*)$/;

const WORD = /[a-z0-9]+/g;

const CODE_PATH = /(^|\/)(pre|code)(\/|$)/;

/**
 * Per block, COMMENT_UNKNOWN, COMMENT_THREAD or COMMENT_CHROME; null when the page has no block
 * the markup says anything about (most pages).
 */
export function commentMarkup(doc: SegmentedDocument): Uint8Array | null {
  let out: Uint8Array | null = null;
  const blocks = doc.blocks;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    const underComments = (b.classMask & COMMENTS) !== 0;
    if (!underComments && !isCommentMarker(b.text)) continue;
    // Highlighted code marks its comments with a class too (Prism's "token comment", hljs-comment).
    if (CODE_PATH.test(b.tagPath)) continue;
    const role = underComments ? roleUnderComments(b.text, b.classIds, b.tagPath, b.heading) : COMMENT_CHROME;
    if (role === COMMENT_UNKNOWN) continue;
    out ??= new Uint8Array(blocks.length);
    out[i] = role;
  }
  return out;
}

/**
 * Class words of a comment section or of a comment: `comments`, `comments-area`, `gig-comments`,
 * `commentscontainer`, `comment`, `commentlist`, `respond`, Disqus. The class-word group is broader
 * ("commented", "commentary", "reply"): those alone leave the block to the head.
 */
const SECTION_WORD =
  /^([a-z]*comments[a-z0-9]*|comment|comment(list|body|content|text|meta|metadata|entry|entries|item|items|thread|author|message|box|area|wrap|wrapper|container|section|form)[0-9]*|disqus[a-z]*|dsq[a-z0-9]*|respond)$/;

function roleUnderComments(text: string, classIds: string, tagPath: string, heading: number): number {
  const elements = classIds.split(" | ");
  let section = false;
  let thread = false;
  for (const element of elements) {
    for (const w of element.match(WORD) ?? []) {
      if (SECTION_WORD.test(w)) section = true;
      if (isThreadWord(w)) thread = true;
    }
  }
  if (isCommentMarker(text) || COUNT_HEADING.test(text)) return COMMENT_CHROME;
  if (!section) return COMMENT_UNKNOWN;
  if (ACTIONS_ONLY.test(text) || FORM_PATH.test(tagPath) || CHROME_CONTAINER.test(classIds)) return COMMENT_CHROME;
  if (text.length < 200 && CHROME_TEXT.test(text)) return COMMENT_CHROME;
  const own = elements[elements.length - 1].match(WORD) ?? [];
  if (own.some((w) => CHROME_ELEMENT.has(w))) return COMMENT_CHROME;
  // A heading in the section but outside any comment ("Comments", "Have your say") is its title.
  if (!thread) return heading > 0 ? COMMENT_CHROME : COMMENT_UNKNOWN;
  return COMMENT_THREAD;
}
