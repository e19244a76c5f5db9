/**
 * What a page's comment markup says about a block, read from what the segmenter already recorded
 * (class and id words, tag path, text): a block of a threaded comment list (WordPress's
 * `ol.comment-list > li.comment > .comment-body`, Disqus, Gigya and most CMS threads), or the
 * chrome around comments (the reply form, the policy, "12 Comments" counters, "Load comments"
 * buttons, vote counts), or neither. Comment heads trained on page features confuse the two: the
 * form sits under the same class words as the thread. The rule settles what markup settles and
 * leaves the rest to the head, and settleComments applies it to a page's scores.
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
/**
 * A block of a run of signed comments ("Posted by: NAME on DATE" after each): a comment when the
 * page has an article before the run (see settleComments), whatever the head says.
 */
export const COMMENT_SIGNED = 3;
/**
 * Outside the comments, a block in forum markup (message, topic, postbody, …): a discussion's
 * opening post, left to the model, and no article that the thread would be comments on.
 */
export const COMMENT_DISCUSSION = 4;

/**
 * A block of a run that a comment heading or counter announces outside any comment markup ("Comments",
 * "Comments are now closed for this story", "12 comments so far", then the readers' posts in the
 * article's own container): a comment when the page has an article before the run, as a signed run's
 * block is (see settleComments and announcedRuns).
 */
export const COMMENT_ANNOUNCED = 5;

/** A comment threshold no score reaches (a head whose file names none finds no comments). */
export const NO_COMMENTS = 2;

const FORUM = 1 << CLASS_WORD_GROUPS.findIndex(([group]) => group === "forum");

const COMMENTS = 1 << CLASS_WORD_GROUPS.findIndex(([group]) => group === "comments");

/** In a form control: the reply form's labels and buttons (not any <form>: ASP.NET pages wrap the whole page in one). */
const FORM_PATH = /(^|\/)(button|label|textarea|select|fieldset|option)(\/|$)/;

/**
 * Class words, anywhere in the block's six innermost ancestors, of the comment section's
 * non-comment parts: the reply form and its notes, the login prompt, the house rules.
 */
const CHROME_CONTAINER =
  /(^|[^a-z])(comments?[-_]?form|respond|reply[-_]?(form|box|title)|post[-_]?comment|add[-_]?comment|leave[-_]?(a[-_]?)?(comment|reply)|compose(box)?|logged[-_]?in|log[-_]?in|sign[-_]?in|register|policy|guidelines?|house[-_]?rules|rules|comment[-_]?notes|form[-_]?allowed|(frm|form)[-_]?(comments?|box|inbox)[a-z]*|comments?[-_]?tools|loading|subscribe|recirculation|sponsor(ed)?)([^a-z]|$)/;

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
  /\b(required|will not be published|email address|e-mail address|log ?in|sign ?in|sign ?up|register|logged in|house rules|community guidelines|comment policy|moderat(ed|ion|or)|be respectful|views expressed|no longer accepting|comments? (are|is) (now )?closed|powered by|loading comments|(load|show|view|see|read|hide|sort|add|post|leave|write|join) (all |the )?(\d+ )?(comments?|a comment|a reply|the (conversation|discussion))|join the (conversation|discussion)|be the first to comment|no comments|cancel reply|notify me of (follow-?up|new)|save my name|subscribe to (comments|replies)|agree to the terms|report (this|as) (post|comment|inappropriate|offensive|abuse)|vote on this (comment|post)|\d+ (agree|disagree)\b|(max(imum)?\.?|limit:?) \d* ?characters|characters? (left|remaining|allowed)|required fields?|(add|post|submit|share) (your|a) (view|comment|say|opinion)s?|submit comments?|have your say|commenting (is )?(now )?(closed|turned off|disabled)|comments? (are |is )?(now )?(turned off|disabled)|no trackbacks|^loading\W*$|^hits:? \d+$)\b/i;

/**
 * A form field's label: "Name*", "Email ID*", "* Required field": short, and marked required.
 */
const FIELD_LABEL = /^(\s*\*\s.{0,30}|[^*\n]{1,25}\*\s*)$/;

/**
 * The comment section's house rules, which run longer than CHROME_TEXT's notices ("Some comments
 * posted here may be reviewed before they are displayed …", "TERMS OF USE: The views represented
 * here are not necessarily endorsed …"): up to POLICY_MAX_CHARS, with two of these phrases (one
 * alone is as likely a reader's complaint about the rules).
 */
const POLICY_TEXT =
  /\b(terms of (use|service)|comments? (posted here )?(may|will|are|is) (be )?(reviewed|moderated|screened)|keep your comments|offensive or abusive|not nec[ce]ss?arily (endorsed|reflect)|views (expressed|represented) (here|on this)|reserve the right to (remove|delete|edit|refuse)|we welcome your comments|submitted for (possible )?publication)\b/gi;

/** The longest block read as house rules (see POLICY_TEXT): longer ones are someone's comment. */
const POLICY_MAX_CHARS = 700;

/**
 * The counters and notices that stand for a comment section outside its markup, which
 * isCommentMarker's short list of headings leaves out: "View all 45 comments", "Showing Comments
 * 1 - 5 of 5", "12 comments so far", "There are 4 comments on this story", "7 Replies to “Title”",
 * "One comment", "No Comments Yet", "Comments closed", and the headings that name the readers'
 * comments: "Reader comments", "Comments from Examiner Readers" (the San Francisco Examiner's, over
 * posts in a `commentsdiv` that names only the section). The whole block, short.
 */
const COUNTER_LINE =
  /^\s*((readers?'?|users?'?) comments\s*$|comments? from (\w+ ){0,2}readers\s*$|(view|show|read|see|load) (all )?\d+ comments?|showing comments? \d|\d+ (comments?|responses?|replies) (so far|to\b)|there (are|is) (\d+|no) comments?|(one|no) (comments?|responses?|replies)( yet)?\s*$|comments? (are |is )?(now )?closed)/i;

function isCounterLine(text: string): boolean {
  return text.length <= 60 && COUNTER_LINE.test(text);
}

/**
 * "blog comments powered by Disqus": the comment platform's credit, left behind outside the thread
 * (Disqus's `a.dsq-brlink`, under no comment class) when the thread itself was loaded by script.
 */
const PLATFORM_CREDIT =
  /^\s*(blog |the )?(comments? )?powered by (disqus|livefyre|intensedebate|viafoura|spot\.im|openweb|facebook comments)\s*$/i;

function isPlatformCredit(text: string): boolean {
  return text.length <= 50 && text.includes("owered by") && PLATFORM_CREDIT.test(text);
}

/** "4 comments", "3 Responses to “Title”", "12 thoughts on …": a count heading. */
const COUNT_HEADING = /^\s*\d+\s+(comments?|responses?|replies|thoughts|reactions?)\b/i;

/**
 * A section title with its count, in the comments: "Reader views (5)", "Comments - 0", "Replies:
 * 12". The count in brackets or after a colon or dash: "Posted August 26" is a comment's date.
 */
const COUNT_TITLE = /^\s*[a-z' ]{1,30}\s*(\(\s*\d+\s*\)|[:-]\s*\d+)\s*$/i;

/** A block that is nothing but actions or numbers: "Reply", "Report", "Like 3", "12". */
const ACTIONS_ONLY =
  /^[\s\d|·•+\-()[\]]*((reply|report|share|flag|like|likes|dislike|quote|edit|delete|permalink|link to this|recommend|upvote|downvote|vote|abuse|report abuse|next|previous|prev|older|newer)[\s\d|·•+\-()[\]]*)*$/i;

/**
 * Class words that mark a comment itself, not only the section: `comment` (WordPress's
 * `li.comment`, `comment-body`, `comment-123`), `commentlist`, `individualcomment`,
 * `articlecomment`, `commenttext`, Disqus: a word with "comment" in it that does not name the
 * whole section ("comments", "commentscontainer"), a part of its chrome ("commentsheader",
 * "addcomment", "commentform") or something else ("commented", "commentable", "commentary",
 * "commentator", Word's "MsoCommentText" style of a reviewer's note in an exported document).
 */
function isThreadWord(word: string): boolean {
  if (word === "disqus" || word === "dsq") return true;
  return word.includes("comment") && !NOT_THREAD_WORD.test(word);
}

const NOT_THREAD_WORD =
  /^(mso.*|comments|.*comments?(container|wrap|wrapper|area|section|box|block|panel|div|zone)\d*|.*comment(ed|able|ary|aries|ing|ator|ators)|(add|view|post|leave|write|no|read|show|load|more)comments?.*|.*(header|title|heading|count|counter|num|number|form|disclaimer|policy|rules|closed|nav|navigation|pager|paging|link|links|button|btn|notes?|login|register|tools?)\d*)$/;

/**
 * A class name that joins the section's word to a part of each comment: "comments-body",
 * "comments_post", "comments-text". Split into words, "comments" alone names the whole section and
 * "body" says nothing, so the joined name is what marks the comments themselves (the section's own
 * parts are named "comments-area", "comments-head", "comments-form": not in this list).
 */
const THREAD_CLASS = /(^|\s)comments?[-_](body|post|posts|text|entry|entries|item|items|content|message|author|list|thread)(\s|$)/;

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
    if (!underComments && !isCommentMarker(b.text) && !isCounterLine(b.text) && !isPlatformCredit(b.text)) continue;
    // Highlighted code marks its comments with a class too (Prism's "token comment", hljs-comment).
    if (CODE_PATH.test(b.tagPath)) continue;
    const role = underComments ? roleUnderComments(b.text, b.classIds, b.tagPath, b.heading) : COMMENT_CHROME;
    if (role === COMMENT_UNKNOWN) continue;
    out ??= new Uint8Array(blocks.length);
    out[i] = role;
  }
  out = signedRuns(doc, out);
  out = announcedRuns(doc, out);
  if (out !== null)
    for (let i = 0; i < blocks.length; i++)
      if (out[i] === COMMENT_UNKNOWN && (blocks[i].classMask & FORUM) !== 0) out[i] = COMMENT_DISCUSSION;
  return out;
}

/**
 * "Posted by: Walters on December 29, 2007 01:15 PM", "Posted by: Brad, Glasgow on 11:16am Wed 9
 * Jan 08", "… Posted by Paul on January 6, 2008 2:09 PM": a comment's signature, a name then a
 * date or a time, alone in its block or closing it. An article has one byline; a run of these
 * signatures by different people is a comment thread, on the news sites of 2008 as on
 * Movable Type and Typepad blogs, most of which name no comment class at all.
 */
const SIGNATURE =
  /(^|[.!?"”)]\s+)posted by:?\s+([^|\n]{1,60}?)\s*(\bon\b|\bat\b|\||,|-|\bposted on:?)\s*[^\n]{0,40}?(\d{1,2}:\d{2}|\b(19|20)\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b\d{1,2} (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{2}\b)/i;

/** How far into a long block a closing signature may start: it closes the block, within its last characters. */
const SIGNATURE_TAIL = 160;

/** The fewest signatures, and of different names, that make a thread rather than a blog's listing of one author's posts. */
const MIN_SIGNATURES = 3;
const MIN_SIGNERS = 2;

/**
 * "Jane Roe said on March 3, 2012:", "pete wrote at 11:02 PM", "Sam commented on 4/3/09 at 9:15":
 * a block that is nothing but a name, a verb of saying and a date, opening the comment after it
 * (older WordPress and Blogger themes, forums' quoted replies). The whole block, short, and a date
 * in it: a news story's "Smith said on Monday that …" is longer and dateless.
 */
const SAID_SIGNATURE =
  /^([^\n:]{1,60}?)\s+(said|says|wrote|writes|commented|replied)(\s+(on|at|in))?:?\s+[^\n]{0,30}?(\d{1,2}:\d{2}|\b(19|20)\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b)[^\n]{0,20}$/i;

/** A verb SAID_SIGNATURE reads: a quick test before that pattern, on every short block. */
const SAID_VERB = / (said|says|wrote|writes|commented|replied)\b/i;

/** The longest block read as a "said on DATE" signature. */
const SAID_MAX_CHARS = 100;

/** A block's signature's name, lowercased, or null when the block carries none. */
function signer(text: string): string | null {
  if (text.length <= SAID_MAX_CHARS && SAID_VERB.test(text)) {
    const said = SAID_SIGNATURE.exec(text);
    if (said !== null) return said[1].toLowerCase();
  }
  const tail = text.length > SIGNATURE_TAIL ? text.slice(text.length - SIGNATURE_TAIL) : text;
  if (!/posted by/i.test(tail)) return null;
  const m = SIGNATURE.exec(tail);
  return m === null ? null : m[2].toLowerCase();
}

/**
 * A run of signed comments: from the first signature to the last, every block is the thread's,
 * and beyond either end, the blocks that look like the comments' text between signatures (same
 * tag path and class words) and are contiguous with the run, as many as the longest comment
 * (signatures open a comment on some sites, close it on others). Blocks the markup already called
 * chrome stay chrome. The head still has the last word (see settleComments):
 * a forum thread signed the same way is main text.
 */
function signedRuns(doc: SegmentedDocument, out: Uint8Array | null): Uint8Array | null {
  const blocks = doc.blocks;
  const signed: number[] = [];
  const names: string[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const name = signer(blocks[i].text);
    if (name === null) continue;
    signed.push(i);
    names.push(name);
  }
  out = reportedComments(doc, signed, out);
  // The article's own byline ("Posted by paul at 09:39 PM | Permalink") is no comment's signature:
  // it sits under other class words than the comments' signatures do ("blogbody posted" against
  // "comments-post"), or, styled like them, further from the next signature than comments stand
  // apart (its trackbacks between).
  const gaps = signed.slice(1).map((at, k) => at - signed[k] - 1);
  const typical = [...gaps].sort((a, b) => a - b)[gaps.length >> 1] ?? 0;
  const classOf = (k: number) => blocks[signed[k]].classIds;
  let start = signed.length > 2 && classOf(0) !== classOf(1) && classOf(1) === classOf(2) ? 1 : 0;
  while (start < gaps.length && gaps[start] > 2 * typical + 1) start++;
  if (signed.length - start < MIN_SIGNATURES || new Set(names.slice(start)).size < MIN_SIGNERS) return out;
  return markRun(doc, signed.slice(start), out);
}

/**
 * "Quote | Report this post", "Report abuse", "Report this comment": the line that closes each
 * comment where its signature opens it. The whole block, short: an article has none.
 */
const REPORT_LINE = /^[\s|·•]*(quote[\s|·•]+)?(report (this )?(post|comment|abuse)|report as inappropriate)[\s|·•]*$/i;
const REPORT_LINE_MAX_CHARS = 60;
/** The most blocks from a signature to its comment's report line: a comment of a dozen paragraphs. */
const REPORT_REACH = 12;

/**
 * Signed comments that a report line closes (a signature, the comment's text, "Quote | Report this
 * post"), however few: a story with one or two readers' comments (Newsquest's papers of 2008) has
 * too few signatures for a signed run, and the report line says what the signature alone does not,
 * that readers wrote them. The signature and the blocks up to the report line, before the next
 * signature and any heading, are the comment's; the report line is chrome.
 */
function reportedComments(doc: SegmentedDocument, signed: readonly number[], out: Uint8Array | null): Uint8Array | null {
  const blocks = doc.blocks;
  for (let k = 0; k < signed.length; k++) {
    const from = signed[k];
    const limit = Math.min(blocks.length, from + REPORT_REACH + 1, signed[k + 1] ?? blocks.length);
    let to = -1;
    for (let i = from + 1; i < limit && blocks[i].heading === 0; i++)
      if (blocks[i].textChars <= REPORT_LINE_MAX_CHARS && REPORT_LINE.test(blocks[i].text)) {
        to = i;
        break;
      }
    if (to < 0) continue;
    out ??= new Uint8Array(blocks.length);
    for (let i = from; i < to; i++) if (out[i] !== COMMENT_CHROME && !CODE_PATH.test(blocks[i].tagPath)) out[i] = COMMENT_SIGNED;
    out[to] = COMMENT_CHROME;
  }
  return out;
}

const DIGITS = /\d+/g;

function markRun(doc: SegmentedDocument, signed: readonly number[], out: Uint8Array | null): Uint8Array {
  const blocks = doc.blocks;
  const first = signed[0];
  const last = signed[signed.length - 1];
  // Digits aside: a comment numbered in its class ("entry com4", "comment-1532") is shaped like the others.
  const shape = (i: number) => `${blocks[i].pathId} ${blocks[i].classIds.replace(DIGITS, "")}`;
  const between = new Set<string>();
  const gaps: number[] = [];
  for (let k = 1; k < signed.length; k++) {
    gaps.push(signed[k] - signed[k - 1] - 1);
    for (let i = signed[k - 1] + 1; i < signed[k]; i++) between.add(shape(i));
  }
  // Signatures close each comment where what follows the last one is not a comment's text, else
  // they open it: the first comment then lies before the first signature, or the last one after
  // the last. As many blocks as a typical comment, no more: on a blog whose comments are styled
  // like its article, the article's paragraphs look just like the comments'.
  const typical = gaps.sort((a, b) => a - b)[gaps.length >> 1];
  const closing = last + 1 >= blocks.length || !between.has(shape(last + 1));
  let from = first;
  while (closing && from > 0 && first - from < typical && between.has(shape(from - 1))) from--;
  let to = last;
  while (!closing && to < blocks.length - 1 && to - last < typical && between.has(shape(to + 1))) to++;
  const roles = out ?? new Uint8Array(blocks.length);
  for (let i = from; i <= to; i++) if (roles[i] !== COMMENT_CHROME && !CODE_PATH.test(blocks[i].tagPath)) roles[i] = COMMENT_SIGNED;
  return roles;
}

/**
 * After a block that announces comments (isCommentMarker, a counter line; not a link to them, a
 * form's label or an invitation to write one), the blocks that follow it under the same class words
 * as the first of them, up to the next heading: on the news sites of 2008 (CTV, the Telegraph) the
 * readers' posts sit in the story's own container, in no comment markup, after a "Comments" heading
 * or a "Comments are now closed" notice. A heading ends the run (a tutorial's "Comments" section,
 * on source code comments, goes on to its next section's heading; a blog listing's "Comments (3)"
 * under each post is followed by the next post's title), and so does a block saying there are no
 * comments or a form field's label. Without class words there is no container to end the run, so
 * no run: on an unstyled page a "Discussion:" line in meeting minutes would take the rest of the
 * page. Blocks the markup already named keep their role; the article before the run decides
 * (settleComments).
 */
function announcedRuns(doc: SegmentedDocument, out: Uint8Array | null): Uint8Array | null {
  if (out === null) return out;
  const blocks = doc.blocks;
  for (let i = 0; i < blocks.length - 1; i++) {
    // A link to the comments ("Comments (3)" under a headline, a menu's "Comment") is no heading of
    // them; a form's label ("Comments:" over the reply box) announces the box.
    const b = blocks[i];
    if (out[i] !== COMMENT_CHROME || 2 * b.anchorChars >= b.textChars || FORM_PATH.test(b.tagPath) || !announcesComments(b.text)) continue;
    const under = blocks[i + 1].classIds;
    if (under === "") continue;
    let j = i + 1;
    for (; j < blocks.length && blocks[j].heading === 0 && blocks[j].classIds === under && !endsAnnouncedRun(blocks[j].text); j++)
      if (out[j] === COMMENT_UNKNOWN && !UNANNOUNCED_PATH.test(blocks[j].tagPath) && !ACTIONS_ONLY.test(blocks[j].text))
        out[j] = COMMENT_ANNOUNCED;
    i = j - 1;
  }
  return out;
}

/**
 * "There are currently no comments for this entry.", "Be the first to comment", a form field's
 * label ("Your name: *"): no comment follows, or the reply form has begun, and the run ends there.
 */
const NO_COMMENT_YET = /\b(no comments|be the first to comment)\b/i;

function endsAnnouncedRun(text: string): boolean {
  return (text.length <= 80 && NO_COMMENT_YET.test(text)) || FIELD_LABEL.test(text);
}

/** Code, and a form's controls ("Collapse", "Show replies" buttons): never a comment's text, left to the model. */
const UNANNOUNCED_PATH = /(^|\/)(pre|code|button|label|textarea|select|fieldset|option)(\/|$)/;

/** A marker that invites a comment ("Post a comment", "Leave a Reply", "Reply"): the reply form follows it, not comments. */
const WRITE_PROMPT = /\b(leave|post|add|write|join|schreiben)\b|^\W*reply\W*$/i;

/**
 * The word for comments in the languages isCommentMarker reads: a marker of "Discussion",
 * "Replies", "Responses" or "Reactions" alone announces no run (a paper's or a manual page's
 * "Discussion" section, a chemistry page's "Reactions").
 */
const COMMENT_WORD =
  /comment|kommentar|commentaire|réactions|comentario|comentário|commenti|reacties|komentarz|коммента|yorum|komentar|bình luận|评论|評論|留言|コメント|댓글|تعليق/i;

/** A block that announces the comments after it: "Comments", "12 Comments", "Comments are now closed"; not "No Comments". */
function announcesComments(text: string): boolean {
  if (NO_COMMENT_YET.test(text)) return false;
  return (isCommentMarker(text) && COMMENT_WORD.test(text) && !WRITE_PROMPT.test(text)) || isCounterLine(text);
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
  if (THREAD_CLASS.test(classIds)) thread = true;
  // A class word that is a comment's own ("articolocommentotesto", "usercomment", "commentsbody")
  // says the block is in the comments as plainly as the section's word does.
  if (thread) section = true;
  if (isCommentMarker(text) || COUNT_HEADING.test(text) || isCounterLine(text)) return COMMENT_CHROME;
  if (!section) return COMMENT_UNKNOWN;
  if (ACTIONS_ONLY.test(text) || FORM_PATH.test(tagPath) || CHROME_CONTAINER.test(classIds)) return COMMENT_CHROME;
  if (text.length < 200 && (CHROME_TEXT.test(text) || FIELD_LABEL.test(text) || COUNT_TITLE.test(text))) return COMMENT_CHROME;
  if (text.length <= POLICY_MAX_CHARS && (text.match(POLICY_TEXT)?.length ?? 0) >= 2) return COMMENT_CHROME;
  const own = elements[elements.length - 1].match(WORD) ?? [];
  if (own.some((w) => CHROME_ELEMENT.has(w))) return COMMENT_CHROME;
  // A heading in the section but outside any comment ("Comments", "Have your say") is its title.
  if (!thread) return heading > 0 ? COMMENT_CHROME : COMMENT_UNKNOWN;
  return COMMENT_THREAD;
}

/**
 * A comment's timestamp, alone in a short block: a time of day with a year, a month's name or a
 * numeric date ("Posted on 01/20/2008 at 6:01:41 PM", "January 7 17:00", "Dec 30, 2007 7:06 PM |
 * Link to this"), or a numeric date with its year ("14.05.2024"). Not a relative age ("2 hours
 * ago", "1 year ago"): discussion sites (reddit, lemmy, Hacker News) give those.
 */
const TIMESTAMP =
  /\b\d{1,2}:\d{2}\b.{0,30}\b(19|20)\d{2}\b|\b(19|20)\d{2}\b.{0,30}\b\d{1,2}:\d{2}\b|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}(st|nd|rd|th)?,? .{0,15}\b\d{1,2}:\d{2}\b|\b\d{1,2}(st|nd|rd|th)? (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*.{0,15}\b\d{1,2}:\d{2}\b|\b\d{1,2}[/.]\d{1,2}[/.](19|20)?\d{2}\b|\b(19|20)\d{2}-\d{2}-\d{2}\b/i;

/** The longest block read as a timestamp. */
const TIMESTAMP_MAX_CHARS = 80;
/** Timestamped blocks in a thread that make it a dated one. */
const MIN_TIMESTAMPS = 3;

/**
 * Whether the page's thread in comment markup stamps its comments with dates and times (three
 * blocks or more), as the comments under news stories and blog posts do ("Posted on 01/20/2008
 * at 6:01 PM"). Such a thread, after an article, is comments however long it runs (see
 * settleComments): a discussion site's thread, which can outgrow its opening post just as much,
 * gives ages instead ("1 year ago"), and a forum's opening post is in forum markup, no article.
 */
export function datedThread(doc: SegmentedDocument, roles: Uint8Array | null): boolean {
  if (roles === null) return false;
  const blocks = doc.blocks;
  let stamps = 0;
  for (let i = 0; i < roles.length; i++) {
    if (roles[i] !== COMMENT_THREAD || blocks[i].textChars > TIMESTAMP_MAX_CHARS) continue;
    if (TIMESTAMP.test(blocks[i].text) && ++stamps >= MIN_TIMESTAMPS) return true;
  }
  return false;
}

/**
 * Where the comment markup is plain, it overrides the head: the form, policy and counters around
 * comments are neither main text nor comments. A thread is the comments under an article when the
 * head calls at least half of its text comments (at its comment threshold; a head whose threshold
 * is "never" says nothing here: see leaningAt), or when the page has an article before it: at least ARTICLE_CHARS of
 * kept text outside comment and forum markup, and, for a thread in comment markup, no less text
 * than the thread (a run of signed comments, or a thread whose comments carry timestamps, per
 * `dated`, from datedThread, needs only the article). Then all of it is (comment
 * score NO_COMMENTS), never main text, the head's misses filled in by the markup. Otherwise the
 * page is a discussion (a forum thread, lobste.rs, reddit in comment markup), whose thread is what
 * the page is for, and the thread is left to the model as main text; the blocks of it the model
 * does not keep (and that are not mostly links) go to the `comments` field (comment score
 * NO_COMMENTS, the content score untouched). A head trained on other sites misses
 * markup it never saw (L3S-GN1's 2008 threads, held out): the article is what says so there.
 * A run a comment heading announces (COMMENT_ANNOUNCED) is comments block by block: a block the
 * model keeps, with at least ARTICLE_CHARS of kept text outside any markup role before it; the
 * blocks the model drops are left to the head (the rest of such a run is often the reply form).
 */
export function settleComments(
  pages: Float32Array[],
  comments: Float32Array[],
  markup: ReadonlyArray<Uint8Array | null>,
  texts: ReadonlyArray<Uint32Array | null>,
  links: ReadonlyArray<Uint32Array | null>,
  commentThreshold: number,
  keepThreshold: number,
  dated: ReadonlyArray<boolean> = [],
): void {
  const leans = leaningAt(commentThreshold);
  for (let p = 0; p < pages.length; p++) {
    const roles = markup[p];
    const chars = texts[p];
    if (roles === null || chars === null) continue;
    const content = pages[p];
    const said = comments[p];
    let threadChars = 0;
    let threadLinkChars = 0;
    let headChars = 0;
    // The text the model keeps before the first comment, outside comment and forum markup.
    let articleChars = 0;
    let threadSeen = false;
    // Kept text outside any markup role so far, and the announced blocks it makes comments (an
    // article before each, whatever thread the page has elsewhere).
    let keptBefore = 0;
    const announcedComment = new Uint8Array(roles.length);
    for (let b = 0; b < roles.length; b++) {
      if (roles[b] === COMMENT_SIGNED || roles[b] === COMMENT_THREAD) threadSeen = true;
      else if (roles[b] === COMMENT_UNKNOWN && content[b] >= keepThreshold) {
        if (!threadSeen) articleChars += chars[b];
        keptBefore += chars[b];
      } else if (roles[b] === COMMENT_ANNOUNCED && keptBefore >= ARTICLE_CHARS && content[b] >= keepThreshold) announcedComment[b] = 1;
      if (roles[b] !== COMMENT_THREAD && roles[b] !== COMMENT_SIGNED) continue;
      threadChars += chars[b];
      threadLinkChars += links[p]?.[b] ?? 0;
      if (said[b] >= leans) headChars += chars[b];
    }
    // A thread that is mostly links is a list of teasers tagged "comment" (an opinion section's),
    // not a discussion: the article does not settle it, unless its comments carry timestamps (a
    // 2008 paper that made each comment a link to itself; teasers give no time of day).
    const stamped = dated[p] === true;
    const article = stamped || threadLinkChars * 2 < threadChars ? articleChars : 0;
    const underArticle =
      headChars >= threadChars * HEAD_SHARE || article >= Math.max(ARTICLE_CHARS, threadChars) || (stamped && article >= ARTICLE_CHARS);
    const signedUnderArticle = underArticle || article >= ARTICLE_CHARS;
    for (let b = 0; b < roles.length; b++) {
      if (
        (roles[b] === COMMENT_THREAD && underArticle) ||
        (roles[b] === COMMENT_SIGNED && signedUnderArticle) ||
        announcedComment[b] === 1
      ) {
        content[b] = 0;
        // Above every comment threshold, "never" (NO_COMMENTS) included: the markup has settled it.
        said[b] = NO_COMMENTS;
      } else if (roles[b] === COMMENT_CHROME) {
        content[b] = 0;
        said[b] = 0;
      } else if (roles[b] === COMMENT_THREAD && chars[b] >= THREAD_FIELD_CHARS && 2 * (links[p]?.[b] ?? 0) < chars[b]) {
        // A thread the article does not settle is left to the model as main text; what the model
        // does not keep of it is still a comment, for the `comments` field (inCommentsField reads
        // only the blocks not kept). Not a block of mostly links: teasers under comment class words;
        // nor a short one: a forum's post chrome ("Members", "Posted March 19, 2024", "Link to post").
        said[b] = NO_COMMENTS;
      }
    }
  }
}

/** What the comment decision reads of a page with comment markup (see commentContext). */
export interface CommentContext {
  /** Per block, what the markup says (commentMarkup). */
  roles: Uint8Array;
  /** Per block, its text's and its links' characters. */
  chars: Uint32Array;
  links: Uint32Array;
  /** Whether its thread stamps its comments with dates (datedThread). */
  dated: boolean;
}

/**
 * What the comment decision needs of a page, read once when the page is segmented; null for a page
 * the markup says nothing about (most pages), which the head alone decides.
 */
export function commentContext(doc: SegmentedDocument): CommentContext | null {
  const roles = commentMarkup(doc);
  if (roles === null) return null;
  return {
    roles,
    chars: Uint32Array.from(doc.blocks, (b) => b.textChars),
    links: Uint32Array.from(doc.blocks, (b) => b.anchorChars),
    dated: datedThread(doc, roles),
  };
}

/**
 * The head's veto, in place: a block the comment head scores at or above `commentThreshold` is
 * never main text (content score 0). The first step of decideComments; the comment threshold's
 * choice in training weighs it alone.
 */
export function vetoComments(pages: Float32Array[], comments: ReadonlyArray<ArrayLike<number>>, commentThreshold: number): void {
  for (let p = 0; p < pages.length; p++) {
    const content = pages[p];
    const said = comments[p];
    for (let b = 0; b < content.length; b++) if (said[b] >= commentThreshold) content[b] = 0;
  }
}

/**
 * The comment decision of `winnow clean`, in place, for pages scored by a model with a comment
 * head: a block the head scores at or above `commentThreshold` is vetoed as main text (content
 * score 0), then the markup settles threads and chrome (settleComments). `winnow clean` and
 * training's held-out figures both call this, so the figures are the output's.
 */
export function decideComments(
  pages: Float32Array[],
  comments: Float32Array[],
  contexts: ReadonlyArray<CommentContext | null>,
  commentThreshold: number,
  keepThreshold: number,
): void {
  vetoComments(pages, comments, commentThreshold);
  settleComments(
    pages,
    comments,
    contexts.map((c) => c?.roles ?? null),
    contexts.map((c) => c?.chars ?? null),
    contexts.map((c) => c?.links ?? null),
    commentThreshold,
    keepThreshold,
    contexts.map((c) => c?.dated === true),
  );
}

/**
 * Whether a block goes to the `comments` field: not kept as main text, and a comment by the head
 * at the field's own threshold (the model's commentFieldThreshold, lower than the veto's: a block
 * the head is not sure enough of to veto as main text, and which the main text does not keep, is
 * still best read as a comment) or by the markup (after decideComments: a settled thread scores
 * above every threshold, chrome 0).
 */
export function inCommentsField(content: number, comment: number, keepThreshold: number, fieldThreshold: number): boolean {
  return content < keepThreshold && comment >= fieldThreshold;
}

/**
 * Kept text before a thread that makes the page an article with comments: about a hundred words,
 * more than a forum's title, byline and breadcrumbs, less than the shortest news story.
 */
const ARTICLE_CHARS = 600;
/**
 * Characters below which an unsettled thread's block the model drops stays out of the `comments`
 * field: a forum's per-post chrome (member titles, "Posted DATE", "Share on other sites") is
 * shorter, a comment's sentence longer. Held out, 40 keeps the field F1 the rule gave (L3S-GN1
 * 0.458 -> 0.457, GoogleTrends-2017 0.404 -> 0.403); 80 loses L3S-GN1's part of it.
 */
const THREAD_FIELD_CHARS = 40;
/** Share of a thread's text the head must lean to comments for the thread to be comments (see settleComments). */
const HEAD_SHARE = 0.5;
/**
 * The head score at which the thread decision counts a block as the head's comment: the model's
 * comment threshold, and none where that is "never" (NO_COMMENTS: vetoing cost some set's main
 * text when it was chosen). It leaned at 0.5 there, which, once "never" was every fold's choice,
 * settled discussion threads as comments (lobste.rs came out empty); not leaning, left out of
 * eight sets on the recipe's folds: CleanEval 0.908 -> 0.909, magic-html 0.806 -> 0.811 (forums
 * 0.714 -> 0.727), L3S-GN1 0.942 -> 0.941, the others level; GoogleTrends-2017's comments field
 * F1 0.312 -> 0.364 and empty on 0.806 -> 0.910 of its pages without comments
 * (experiments/loso-replay.js; CHANGELOG, 2026-11-28).
 */
function leaningAt(commentThreshold: number): number {
  return commentThreshold <= 1 ? commentThreshold : NO_COMMENTS;
}
