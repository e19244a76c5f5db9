import { readFileSync } from "node:fs";
import { segmentHtml } from "@winnow/segment";
import { describe, expect, it } from "vitest";
import {
  COMMENT_ANNOUNCED,
  COMMENT_CHROME,
  COMMENT_DISCUSSION,
  COMMENT_SIGNED,
  COMMENT_THREAD,
  COMMENT_UNKNOWN,
  commentMarkup,
  datedThread,
  inCommentsField,
  NO_COMMENTS,
  settleComments,
} from "./comment-markup.js";

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/comments/${name}`, import.meta.url), "utf8");

/** Each block's text with what the markup says of it. */
function roles(html: string): Map<string, number> {
  const doc = segmentHtml(html);
  const said = commentMarkup(doc);
  return new Map(doc.blocks.map((b, i) => [b.text, said?.[i] ?? COMMENT_UNKNOWN]));
}

/** Looks up, in `roles`' map, the role of the first block whose text starts with the given words. */
function byStart(r: Map<string, number>): (start: string) => number | undefined {
  return (start) => [...r].find(([text]) => text.startsWith(start))?.[1];
}

describe("commentMarkup", () => {
  it("reads a WordPress thread as comments and its title, reply links and form as chrome", () => {
    const r = roles(fixture("wordpress-thread.html"));
    const of = byStart(r);
    expect(of("We inherited a neglected Bramley")).toBe(COMMENT_THREAD);
    expect(of("Tobias Wren says:")).toBe(COMMENT_THREAD);
    expect(of("January 17, 2024 at 7:03 am")).toBe(COMMENT_THREAD);
    expect(of("3 thoughts on")).toBe(COMMENT_CHROME);
    expect(of("Reply")).toBe(COMMENT_CHROME);
    expect(of("Leave a Reply")).toBe(COMMENT_CHROME);
    expect(of("Your email address will not be published")).toBe(COMMENT_CHROME);
    expect(of("Name *")).toBe(COMMENT_CHROME);
    expect(of("Website")).toBe(COMMENT_CHROME);
    expect(of("Old apple trees that have gone unpruned")).toBe(COMMENT_UNKNOWN);
    expect(of("Winter pruning of old apple trees")).toBe(COMMENT_UNKNOWN);
  });

  it("calls a counter and a comment policy chrome, outside a thread too", () => {
    const r = roles(fixture("counter-and-form.html"));
    expect(r.get("12 comments")).toBe(COMMENT_CHROME);
    expect(r.get("Comments are moderated and will appear once approved. Please be respectful to other readers.")).toBe(COMMENT_CHROME);
    expect([...r.values()]).not.toContain(COMMENT_THREAD);
  });

  it("calls counters and notices chrome outside comment markup: 'View all 45 comments', 'Showing Comments 1 - 5 of 5', 'Comments closed'", () => {
    const lines = [
      "View all 45 comments",
      "Showing Comments 1 - 5 of 5",
      "12 comments so far",
      "There are 4 comments on this story",
      "7 Replies to “Pruning old trees”",
      "One comment",
      "No Comments Yet",
      "Comments closed",
    ];
    const article = "Old apple trees that have gone unpruned for a decade need three winters of work, not one.";
    const r = roles(`<html><body><p>${article}</p>${lines.map((line) => `<div>${line}</div>`).join("")}</body></html>`);
    for (const line of lines) expect([line, r.get(line)]).toEqual([line, COMMENT_CHROME]);
    expect(r.get(article)).toBe(COMMENT_UNKNOWN);
  });

  it("calls a comment form's required fields, character limits, house rules and tools chrome, though they sit under comment class words", () => {
    const rules =
      "TERMS OF USE: The views represented here are not necessarily endorsed by this site and its allied websites. All messages will be moderated and no message that has inflammatory, abusive, derogatory language will be published.";
    const html = `<html><body><div class="frmcommentmain"><p>Message*</p><p>Maximum characters allowed 1200</p><p>Name*</p><p>Email ID*</p>
<p>${rules}</p><p>I agree to the terms of use.</p></div>
<div class="articlecomments"><p>Some comments posted here may be reviewed before they are displayed, including submissions with hyperlinks or with language that is flagged by word filters. Please keep your comments respectful of others.</p>
<p>Reader views (5)</p><p>Add your view</p><p>Commenting is turned off for this blog.</p><p>No trackbacks or pings yet.</p></div>
<div class="commentblogview commenttools"><p>Hits: 275</p><p>Set as favorite</p></div>
<div class="comments"><div class="comment"><p>Quote | Report this post</p><p>4 agree | 5 disagree Vote on this comment: I agree or I disagree</p><p>[1 2 3] next</p>
<p>We welcome your comments on this story. Comments are submitted for possible publication and may be edited.</p></div></div>
<div class="articlecomments"><div class="comment"><p>I have read the terms of use twice and still cannot find where it says we may not post links to the council's own report, which is public.</p></div></div></body></html>`;
    const r = roles(html);
    for (const line of ["Message*", "Maximum characters allowed 1200", "Name*", "Email ID*", rules, "I agree to the terms of use."])
      expect([line, r.get(line)]).toEqual([line, COMMENT_CHROME]);
    const of = byStart(r);
    expect(of("Some comments posted here may be reviewed")).toBe(COMMENT_CHROME);
    for (const line of [
      "Reader views (5)",
      "Add your view",
      "Commenting is turned off for this blog.",
      "No trackbacks or pings yet.",
      "Hits: 275",
      "Set as favorite",
      "Quote | Report this post",
      "4 agree | 5 disagree Vote on this comment: I agree or I disagree",
      "[1 2 3] next",
      "We welcome your comments on this story. Comments are submitted for possible publication and may be edited.",
    ])
      expect([line, r.get(line)]).toEqual([line, COMMENT_CHROME]);
    expect(
      roles(`<html><body><div class="comment"><p>Posted August 26</p><p>Mind the gap.</p></div></body></html>`).get("Posted August 26"),
    ).toBe(COMMENT_THREAD);
    // A reader's comment that mentions the rules is still a comment.
    expect(of("I have read the terms of use twice")).toBe(COMMENT_THREAD);
  });

  it("says nothing about a page without comment markup", () => {
    expect(commentMarkup(segmentHtml(fixture("no-comments.html")))).toBeNull();
  });

  it("leaves highlighted code's comments and words like 'commentary' or 'commented' to the head", () => {
    const html = `<html><body><article class="post commented"><p>A paragraph of the article itself, long enough to read.</p></article>
<pre><code><span class="token comment"># initialize the repository</span>
git init</code></pre><section class="commentary"><p>An opinion column is main text.</p></section></body></html>`;
    expect(commentMarkup(segmentHtml(html))).toBeNull();
  });

  it("reads a run of 'Posted by: NAME on DATE' signatures as signed comments, the first comment before its signature", () => {
    const r = roles(fixture("signed-comments.html"));
    const of = byStart(r);
    expect(of("Four crossings is not a service")).toBe(COMMENT_SIGNED);
    expect(of("Posted by: Islander on 9:14am")).toBe(COMMENT_SIGNED);
    expect(of("Go to the meeting on Thursday")).toBe(COMMENT_SIGNED);
    expect(of("I was there the last time")).toBe(COMMENT_SIGNED);
    expect(of("Posted by: Old Skipper")).toBe(COMMENT_SIGNED);
    // The article, and what follows the last signature, are not the thread's.
    expect(of("A public meeting has been called")).toBe(COMMENT_UNKNOWN);
    expect(of("The harbour ferry will run")).toBe(COMMENT_UNKNOWN);
    expect(of("Have your say")).toBe(COMMENT_UNKNOWN);
  });

  it("leaves the article's own 'Posted by' byline, and the paragraphs above it, out of the signed run", () => {
    const r = roles(fixture("signed-byline.html"));
    const of = byStart(r);
    expect(of("Posted by Nell at 09:39 PM")).toBe(COMMENT_UNKNOWN);
    expect(of("The first loaf was dense")).toBe(COMMENT_UNKNOWN);
    expect(of("Rye is the secret")).toBe(COMMENT_SIGNED);
    expect(of("Posted by: Dora")).toBe(COMMENT_SIGNED);
  });

  it("leaves out a byline signed like the comments but under other class words, right above them", () => {
    const comment = (name: string, text: string) =>
      `<p class="comment-text">${text}</p><span class="comments-sig">Posted by: ${name} on December 29, 2007 01:15 PM</span>`;
    const html = `<html><body><div class="blogbody"><p>The article's only paragraph, about the caucus polls and who leads them this week.</p>
<span class="posted">Posted by Eric at December 29, 2007 12:03 PM | Email This</span></div><div class="feedback">
${comment("Walters", "First reader's view of the polls.")}${comment("Travis", "A second reader disagrees.")}${comment("Bruce", "A third reader sums it up.")}</div></body></html>`;
    const r = roles(html);
    expect(r.get("Posted by Eric at December 29, 2007 12:03 PM | Email This")).toBe(COMMENT_UNKNOWN);
    expect(r.get("The article's only paragraph, about the caucus polls and who leads them this week.")).toBe(COMMENT_UNKNOWN);
    expect(r.get("First reader's view of the polls.")).toBe(COMMENT_SIGNED);
    expect(r.get("Posted by: Bruce on December 29, 2007 01:15 PM")).toBe(COMMENT_SIGNED);
  });

  it("reads the last signed comment as the run's though its class numbers it anew ('entry com3')", () => {
    // The Herald's threads of 2008: each signature opens a comment whose class counts the comments.
    const comment = (k: number, name: string) =>
      `<div class="b_box">Posted by: ${name}, Glasgow on 6:5${k}pm Thu 10 Jan 08</div><div class="entry com${k}"><p>Comment ${k} opens with a point about the sports council.</p><p>Comment ${k} closes with another about the budget.</p></div>`;
    const html = `<html><body><div class="content_main"><p>The story, one paragraph about the ministers and the sports council.</p>${["Brad", "Miss Priss", "Kay", "Lou"].map((n, k) => comment(k, n)).join("")}</div><div class="footer"><p>Copyright the Herald, all rights reserved.</p></div></body></html>`;
    const of = byStart(roles(html));
    expect(of("Comment 0 opens")).toBe(COMMENT_SIGNED);
    expect(of("Comment 3 opens")).toBe(COMMENT_SIGNED);
    expect(of("Comment 3 closes")).toBe(COMMENT_SIGNED);
    expect(of("The story, one paragraph")).toBe(COMMENT_UNKNOWN);
    expect(of("Copyright the Herald")).toBe(COMMENT_UNKNOWN);
  });

  it("reads a comment signed 'Posted by: NAME on DATE' and closed by a 'Report this post' line as signed, one alone or two", () => {
    // The Newsquest papers of 2008: a signature opens each comment, "Quote | Report this post" closes it.
    const comment = (k: number, name: string) =>
      `<div class="b_box">Posted by: ${name} on 5:1${k}pm Tue 1 Jan 08</div><div class="entry com${k}">Reader ${k} opens with a point about the league.</div><div class="entry com${k}">Reader ${k} closes with the home form.</div><div class="b_box"><a href="/q">Quote</a> | <a href="/r">Report this post</a></div>`;
    const page = (names: string[]) =>
      `<html><body><div class="content_main"><p>The match report, one paragraph about the goals and the table.</p><p>Print Email this</p>${names.map((n, k) => comment(k, n)).join("")}<p>Share this: Digg | reddit</p></div></body></html>`;
    for (const names of [["Dom, London"], ["sigil, terminus", "Al Spade, Bradford"]]) {
      const of = byStart(roles(page(names)));
      expect(of("Posted by: Dom") ?? of("Posted by: sigil")).toBe(COMMENT_SIGNED);
      expect(of("Reader 0 opens")).toBe(COMMENT_SIGNED);
      expect(of(`Reader ${names.length - 1} closes`)).toBe(COMMENT_SIGNED);
      expect(of("Quote | Report this post")).toBe(COMMENT_CHROME);
      expect(of("The match report")).toBe(COMMENT_UNKNOWN);
      expect(of("Share this")).toBe(COMMENT_UNKNOWN);
    }
    // A byline with no report line after it is the article's, however it is worded.
    const byline = `<html><body><p>Posted by: Nell on 9:39pm Tue 1 Jan 08</p><p>The post's only paragraph.</p><p>Share this: Digg</p></body></html>`;
    expect(commentMarkup(segmentHtml(byline))).toBeNull();
  });

  it("needs three signatures by two names: one author's signed posts are not a thread", () => {
    const post = (n: number) =>
      `<div class="post"><p>Entry ${n} of the diary, a paragraph about the garden and the weather this week.</p><p>Posted by Ann on March ${n}, 2005 at 9:0${n} PM</p></div>`;
    const html = `<html><body>${[1, 2, 3, 4].map(post).join("")}</body></html>`;
    expect(commentMarkup(segmentHtml(html))).toBeNull();
  });

  it("reads a class name that joins 'comments' to a part of each comment ('comments-body') as the thread", () => {
    const r = roles(fixture("comments-body-class.html"));
    expect(r.get("Comments")).toBe(COMMENT_CHROME);
    const of = byStart(r);
    expect(of("We drive forty minutes")).toBe(COMMENT_THREAD);
    expect(of("Posted by: Glen")).toBe(COMMENT_THREAD);
    expect(of("The county library closes on Sundays")).toBe(COMMENT_UNKNOWN);
  });

  it("reads a class word with 'comment' inside a longer word ('articolocommentotesto') as the thread", () => {
    const r = roles(fixture("comment-word-class.html"));
    const of = byStart(r);
    expect(of("Marco, Torino")).toBe(COMMENT_THREAD);
    expect(of("Sara, Milano")).toBe(COMMENT_THREAD);
    expect(of("Castello went top of the league")).toBe(COMMENT_UNKNOWN);
  });

  it("leaves 'commentator' and Word's 'MsoCommentText' to the head", () => {
    const html = `<html><body><div class="commentator-column"><p>A column by our commentator, long enough to be read as prose.</p></div>
<p class="MsoCommentText">A reviewer's note kept in a document exported from a word processor.</p></body></html>`;
    expect(commentMarkup(segmentHtml(html))).toBeNull();
  });

  it("reads a run of 'NAME said on DATE:' lines as signed comments, each opening the comment after it", () => {
    const comment = (name: string, date: string, text: string) => `<p>${name} said on ${date}:</p><p>${text}</p>`;
    const html = `<html><body><div class="entry"><p>The county will close the old bridge for repairs from May, and the detour adds ten minutes.</p></div>
<div class="responses">${comment("Jane Roe", "March 3, 2012", "I cross it twice a day, ten minutes is a lot.")}${comment("Bob", "March 4, 2012 at 5:01 pm", "Better than the bridge falling down.")}${comment("Jane Roe", "March 4, 2012 at 6:12 pm", "Fair enough, Bob.")}</div></body></html>`;
    const of = byStart(roles(html));
    expect(of("Jane Roe said on March 3, 2012:")).toBe(COMMENT_SIGNED);
    expect(of("I cross it twice a day")).toBe(COMMENT_SIGNED);
    expect(of("Bob said on March 4, 2012 at 5:01 pm:")).toBe(COMMENT_SIGNED);
    // The last comment's text follows its signature.
    expect(of("Fair enough, Bob.")).toBe(COMMENT_SIGNED);
    expect(of("The county will close the old bridge")).toBe(COMMENT_UNKNOWN);
  });

  it("reads no 'said on' sentence of a story as a signature: a quote is longer, or has no date", () => {
    const html = `<html><body><p>Smith said on Monday:</p><p>"We will rebuild."</p><p>Jones said on Tuesday:</p><p>"Not this year."</p>
<p>Brown said on March 3, 2012 that the county would pay for the work, and that the detour would add no more than ten minutes.</p>
<p>Green said on March 4, 2012 that the bridge had been closed before, in 1998, for six months of work on its piers.</p>
<p>Smith said on March 5, 2012 that she was glad, and that the town had waited long enough for the repairs to begin.</p></body></html>`;
    expect(commentMarkup(segmentHtml(html))).toBeNull();
  });

  it("calls the WordPress reply form's notes chrome: cancel, follow-up notices, 'save my name'", () => {
    // In the comments' own area, not under a "respond" or "comment-form" class that says "form" already.
    const html = `<html><body><div class="comments-area"><p>Cancel reply</p><p>Notify me of follow-up comments by email.</p>
<p>Notify me of new posts by email.</p><p>Save my name, email, and website in this browser for the next time I comment.</p></div></body></html>`;
    const r = roles(html);
    expect(r.get("Cancel reply")).toBe(COMMENT_CHROME);
    expect(r.get("Notify me of follow-up comments by email.")).toBe(COMMENT_CHROME);
    expect(r.get("Notify me of new posts by email.")).toBe(COMMENT_CHROME);
    expect(r.get("Save my name, email, and website in this browser for the next time I comment.")).toBe(COMMENT_CHROME);
  });

  it("reads a Disqus block's messages as the thread and its 'powered by Disqus' credit, under no comment class, as chrome", () => {
    const html = `<html><body><article><p>The harbour wall was finished this week, two years late and a third over budget.</p></article>
<div id="dsq-content"><ul id="dsq-comments"><li class="dsq-comment"><div class="dsq-comment-body"><div class="dsq-comment-message">
<p>Two years late is early for this council.</p></div></div></li></ul></div>
<a href="http://disqus.com" class="dsq-brlink">blog comments powered by <span class="logo-disqus">Disqus</span></a></body></html>`;
    const r = roles(html);
    expect(r.get("Two years late is early for this council.")).toBe(COMMENT_THREAD);
    expect(r.get("blog comments powered by Disqus")).toBe(COMMENT_CHROME);
    expect(r.get("The harbour wall was finished this week, two years late and a third over budget.")).toBe(COMMENT_UNKNOWN);
  });

  it("calls a thread dated where three of its comments carry a date and a time, not where they give ages", () => {
    const thread = (stamps: string[]) =>
      `<html><body><p>The article before the comments, a paragraph of the story itself.</p><ol class="commentlist">${stamps
        .map(
          (stamp, k) =>
            `<li class="comment"><p class="comment-meta">${stamp}</p><p class="comment-body">Reader ${k} has a view on it.</p></li>`,
        )
        .join("")}</ol></body></html>`;
    const dated = (stamps: string[]) => {
      const doc = segmentHtml(thread(stamps));
      return datedThread(doc, commentMarkup(doc));
    };
    expect(dated(["Posted on 01/20/2008 at 6:01:41 PM", "January 7 17:00", "Dec 30, 2007 7:06 PM | Link to this"])).toBe(true);
    expect(dated(["14.05.2024", "15.05.2024", "7:42 pm December 27, 2011"])).toBe(true);
    expect(dated(["1 year ago", "2 hours ago", "3 days ago", "26 points"])).toBe(false);
    // Two stamps are not enough.
    expect(dated(["January 7 17:00", "January 7 17:05", "a week ago"])).toBe(false);
  });

  it("marks a forum's opening post, in forum markup outside the comments, as a discussion's", () => {
    const r = roles(fixture("forum-thread.html"));
    const of = byStart(r);
    expect(of("I have been turning small brass parts")).toBe(COMMENT_DISCUSSION);
    expect(of("Check the bed near the chuck")).toBe(COMMENT_THREAD);
  });
});

describe("commentMarkup: runs a comment heading announces", () => {
  const story = (after: string) =>
    `<html><body><div class="storybox"><h1>Premiers meet the Prime Minister</h1><p>The premiers met the Prime Minister over dinner on Friday and asked for more help.</p><p>The talks ran for three hours and ended without a deal on the fund.</p>${after}</div></body></html>`;
  const readers = `<p>Stephen B: the time has come to cut the fat from government.</p><p>Lina: industry should pay for its own retooling.</p><p>Ralph: the usual second and third helpings, then.</p>`;

  it("reads the blocks after a 'Comments are now closed' notice or a 'Comments' heading, in the story's own container, as announced", () => {
    for (const notice of ["<b>Comments are now closed for this story</b>", "<div>Comments</div>", "<p>12 comments so far</p>"]) {
      const of = byStart(roles(story(`${notice}${readers}`)));
      expect(of("Stephen B:")).toBe(COMMENT_ANNOUNCED);
      expect(of("Ralph:")).toBe(COMMENT_ANNOUNCED);
      expect(of("The talks ran for three hours")).toBe(COMMENT_UNKNOWN);
    }
  });

  it("reads a heading that names the readers' comments ('Comments from Examiner Readers', 'Reader comments') as announcing them", () => {
    for (const heading of ["<strong>Comments from Examiner Readers</strong>", "<b>Reader comments</b>", "<b>Readers' comments</b>"]) {
      const of = byStart(roles(story(heading + readers)));
      expect(of("Stephen B:")).toBe(COMMENT_ANNOUNCED);
      expect(of("Ralph:")).toBe(COMMENT_ANNOUNCED);
      expect(of("The talks ran for three hours")).toBe(COMMENT_UNKNOWN);
    }
    // Under a class word that names only the section (the Examiner's `commentsdiv`), the same.
    const section = `<html><body><div class="story"><p>The story, in one paragraph about the game.</p></div><div class="commentsdiv"><p><strong>Comments from Examiner Readers</strong></p><p>Examiner Reader said: the names under the picture are mixed up.</p><p>Examiner Reader said: good to see our kids in the paper.</p></div></body></html>`;
    const inSection = byStart(roles(section));
    expect(inSection("Comments from Examiner Readers")).toBe(COMMENT_CHROME);
    expect(inSection("Examiner Reader said: the names")).toBe(COMMENT_ANNOUNCED);
    expect(inSection("Examiner Reader said: good")).toBe(COMMENT_ANNOUNCED);
    // A story's sentence about readers' comments is no heading: too long, and not the whole block.
    const of = byStart(roles(story(`<p>Comments from readers poured in overnight, most of them angry about the fund.</p>${readers}`)));
    expect(of("Stephen B:")).toBe(COMMENT_UNKNOWN);
  });

  it("leaves a run's buttons and action lines to the model", () => {
    const of = byStart(roles(story(`<div>Comments</div>${readers}<button>Collapse</button><p>Reply | Report</p>`)));
    expect(of("Lina:")).toBe(COMMENT_ANNOUNCED);
    expect(of("Collapse")).toBe(COMMENT_UNKNOWN);
    expect(of("Reply | Report")).toBe(COMMENT_UNKNOWN);
  });

  it("ends the run at a heading, at other class words, at a 'no comments' notice and at a form field's label", () => {
    const more = "<p>Elsewhere: the budget is due in March and will be tabled by the minister.</p>";
    const of = byStart(roles(story(`<div>Comments</div>${readers}<h3>More from politics</h3>${more}`)));
    expect(of("Lina:")).toBe(COMMENT_ANNOUNCED);
    expect(of("Elsewhere:")).toBe(COMMENT_UNKNOWN);
    const aside = roles(
      `<html><body><div class="story"><p>The story.</p><div>Comments</div>${readers}</div><div class="related">${more}</div></body></html>`,
    );
    expect(byStart(aside)("Ralph:")).toBe(COMMENT_ANNOUNCED);
    expect(byStart(aside)("Elsewhere:")).toBe(COMMENT_UNKNOWN);
    expect(byStart(roles(story(`<div>Comments</div><p>There are currently no comments for this entry.</p>${more}`)))("Elsewhere:")).toBe(
      COMMENT_UNKNOWN,
    );
    expect(byStart(roles(story(`<div>Comments</div><p>Your name: *</p>${more}`)))("Elsewhere:")).toBe(COMMENT_UNKNOWN);
  });

  it("announces nothing after a link to the comments, a form's label, an invitation to write, 'No Comments', a 'Discussion' heading, or on a page without class words", () => {
    const none = (before: string) => byStart(roles(story(`${before}${readers}`)))("Lina:");
    expect(none(`<p><a href="#comments">Comments (3)</a></p>`)).toBe(COMMENT_UNKNOWN);
    expect(none("<label>Comments:</label>")).toBe(COMMENT_UNKNOWN);
    expect(none("<div>Post a comment</div>")).toBe(COMMENT_UNKNOWN);
    expect(none("<div>Leave a Reply</div>")).toBe(COMMENT_UNKNOWN);
    expect(none("<div>No Comments</div>")).toBe(COMMENT_UNKNOWN);
    // A manual page's or a paper's "Discussion" section, a chemistry page's "Reactions": no comments.
    expect(none("<h2>Discussion</h2>")).toBe(COMMENT_UNKNOWN);
    expect(none("<div>DISCUSSION</div>")).toBe(COMMENT_UNKNOWN);
    expect(none("<div>Reactions</div>")).toBe(COMMENT_UNKNOWN);
    expect(none("<div>Réactions</div>")).toBe(COMMENT_ANNOUNCED);
    const minutes = `<html><body><p>Motion by Halstead: approve the standard.</p><p>Discussion:</p><p>Why not include the bicycle helmet standard?</p></body></html>`;
    expect(byStart(roles(minutes))("Why not include")).toBe(COMMENT_UNKNOWN);
  });
});

describe("settleComments", () => {
  const KEEP = 0.5;
  /** One page: its roles, block lengths, content scores and a head that calls nothing a comment (a head trained elsewhere). */
  function settle(roles: number[], chars: number[], content: number[], links: number[] = chars.map(() => 0)) {
    const pages = [Float32Array.from(content)];
    const comments = [new Float32Array(roles.length).fill(0.1)];
    settleComments(pages, comments, [Uint8Array.from(roles)], [Uint32Array.from(chars)], [Uint32Array.from(links)], 0.9, KEEP);
    return { content: [...pages[0]], comments: [...comments[0]] };
  }
  const U = COMMENT_UNKNOWN;
  const T = COMMENT_THREAD;
  const S = COMMENT_SIGNED;
  const D = COMMENT_DISCUSSION;

  it("takes a signed run after an article of 600 kept characters out of the main text, the head's say or not", () => {
    const r = settle([U, U, S, S, S], [400, 300, 2000, 50, 2000], [0.9, 0.9, 0.8, 0.8, 0.8]);
    expect(r.content).toEqual([expect.closeTo(0.9), expect.closeTo(0.9), 0, 0, 0]);
    expect(r.comments.slice(2)).toEqual([NO_COMMENTS, NO_COMMENTS, NO_COMMENTS]);
  });

  it("leaves a signed run to the model where less than 600 characters are kept before it, or only dropped ones", () => {
    expect(settle([U, S, S, S], [500, 100, 50, 100], [0.9, 0.8, 0.8, 0.8]).content[1]).toBeCloseTo(0.8);
    expect(settle([U, U, S, S], [500, 500, 100, 50], [0.9, 0.1, 0.8, 0.8]).content[2]).toBeCloseTo(0.8);
  });

  it("takes a thread in comment markup out only where the article is as long as the thread", () => {
    expect(settle([U, T, T], [700, 300, 300], [0.9, 0.8, 0.8]).content).toEqual([expect.closeTo(0.9), 0, 0]);
    expect(settle([U, T, T], [700, 400, 400], [0.9, 0.8, 0.8]).content).toEqual([
      expect.closeTo(0.9),
      expect.closeTo(0.8),
      expect.closeTo(0.8),
    ]);
  });

  it("takes a dated thread after an article out of the main text however long it runs, and though its comments are links", () => {
    const pages = (dated: boolean, links = 0) => {
      const content = [Float32Array.from([0.9, 0.8, 0.8])];
      const comments = [new Float32Array(3).fill(0.1)];
      const roles = [Uint8Array.from([U, T, T])];
      settleComments(content, comments, roles, [Uint32Array.from([700, 2000, 2000])], [Uint32Array.from([0, links, links])], 0.9, KEEP, [
        dated,
      ]);
      return { content: [...content[0]], comments: [...comments[0]] };
    };
    expect(pages(true).content).toEqual([expect.closeTo(0.9), 0, 0]);
    expect(pages(true).comments.slice(1)).toEqual([NO_COMMENTS, NO_COMMENTS]);
    expect(pages(true, 1900).content).toEqual([expect.closeTo(0.9), 0, 0]);
    // Undated, the same thread outgrows its article and is left to the model.
    expect(pages(false).content).toEqual([expect.closeTo(0.9), expect.closeTo(0.8), expect.closeTo(0.8)]);
  });

  it("leaves a 'thread' that is mostly links to the model: teasers tagged 'comment', not a discussion", () => {
    const kept = settle([U, T, T], [900, 100, 100], [0.9, 0.8, 0.8], [0, 90, 20]);
    expect(kept.content.slice(1)).toEqual([expect.closeTo(0.8), expect.closeTo(0.8)]);
    expect(settle([U, T, T], [900, 100, 100], [0.9, 0.8, 0.8], [0, 40, 20]).content.slice(1)).toEqual([0, 0]);
  });

  it("marks an unsettled thread's blocks comments for the field, their content scores untouched, not those of mostly links", () => {
    // The thread outgrows its 700-character article: left to the model, which keeps one block and drops two.
    const r = settle([U, T, T, T], [700, 400, 400, 400], [0.9, 0.8, 0.2, 0.2], [0, 0, 0, 300]);
    expect(r.content).toEqual([expect.closeTo(0.9), expect.closeTo(0.8), expect.closeTo(0.2), expect.closeTo(0.2)]);
    // The kept block is a comment too: the field reads only the blocks the main text does not keep (inCommentsField).
    expect(r.comments).toEqual([expect.closeTo(0.1), NO_COMMENTS, NO_COMMENTS, expect.closeTo(0.1)]);
    expect(inCommentsField(r.content[2], r.comments[2], KEEP, 0.9)).toBe(true);
    expect(inCommentsField(r.content[1], r.comments[1], KEEP, 0.9)).toBe(false);
    expect(inCommentsField(r.content[3], r.comments[3], KEEP, 0.9)).toBe(false);
  });

  it("leaves an unsettled thread's short blocks out of the field: a forum post's chrome", () => {
    // "Members", "Posted March 19, 2024": dropped by the model, under 40 characters, no comment.
    const r = settle([U, T, T, T], [700, 900, 21, 39], [0.9, 0.8, 0.2, 0.2], [0, 0, 0, 0]);
    expect(r.comments.slice(1)).toEqual([NO_COMMENTS, expect.closeTo(0.1), expect.closeTo(0.1)]);
    expect(inCommentsField(r.content[2], r.comments[2], KEEP, 0.9)).toBe(false);
    expect(inCommentsField(r.content[3], r.comments[3], KEEP, 0.9)).toBe(false);
  });

  it("takes an announced run's kept blocks out of the main text after 600 kept characters, its dropped ones left to the head", () => {
    const A = COMMENT_ANNOUNCED;
    const r = settle([U, U, A, A, A], [400, 300, 200, 200, 200], [0.9, 0.9, 0.8, 0.2, 0.8]);
    expect(r.content).toEqual([expect.closeTo(0.9), expect.closeTo(0.9), 0, expect.closeTo(0.2), 0]);
    expect(r.comments).toEqual([expect.closeTo(0.1), expect.closeTo(0.1), NO_COMMENTS, expect.closeTo(0.1), NO_COMMENTS]);
    expect(inCommentsField(r.content[3], r.comments[3], KEEP, 0.9)).toBe(false);
    // Under 600 kept characters before it (a counter under the headline): the article itself, left alone.
    expect(settle([U, A, A], [500, 400, 400], [0.9, 0.8, 0.8]).content).toEqual([
      expect.closeTo(0.9),
      expect.closeTo(0.8),
      expect.closeTo(0.8),
    ]);
    // A thread elsewhere on the page does not stop the article before the run counting.
    expect(settle([U, T, U, A], [700, 100, 100, 300], [0.9, 0.8, 0.9, 0.8]).content[3]).toBe(0);
  });

  it("counts no forum post as an article: a discussion's replies stay with the model", () => {
    expect(settle([D, D, T, T], [800, 800, 100, 100], [0.9, 0.9, 0.8, 0.8]).content.slice(2)).toEqual([
      expect.closeTo(0.8),
      expect.closeTo(0.8),
    ]);
  });

  it("still follows the head where it calls the thread comments, with no article at all", () => {
    const pages = [Float32Array.from([0.8, 0.8])];
    const comments = [Float32Array.from([0.95, 0.95])];
    settleComments(pages, comments, [Uint8Array.from([T, T])], [Uint32Array.from([100, 100])], [new Uint32Array(2)], 0.9, KEEP);
    expect([...pages[0]]).toEqual([0, 0]);
  });

  it("lets a head whose comment threshold is 'never' say nothing of a thread: a discussion stays main text", () => {
    // The head leans to comments (0.6) on every post of a thread with no article before it.
    const decide = (commentThreshold: number) => {
      const pages = [Float32Array.from([0.3, 0.8, 0.8])];
      const comments = [Float32Array.from([0.1, 0.6, 0.6])];
      const roles = [Uint8Array.from([U, T, T])];
      settleComments(pages, comments, roles, [Uint32Array.from([80, 400, 400])], [new Uint32Array(3)], commentThreshold, KEEP);
      return [...pages[0]];
    };
    // A head trusted at 0.55 settles the thread as comments; one whose threshold is never, does not.
    expect(decide(0.55)).toEqual([expect.closeTo(0.3), 0, 0]);
    expect(decide(NO_COMMENTS)).toEqual([expect.closeTo(0.3), expect.closeTo(0.8), expect.closeTo(0.8)]);
  });
});
