import { readFileSync } from "node:fs";
import { segmentHtml } from "@winnow/segment";
import { describe, expect, it } from "vitest";
import { COMMENT_CHROME, COMMENT_DISCUSSION, COMMENT_SIGNED, COMMENT_THREAD, COMMENT_UNKNOWN, commentMarkup } from "./comment-markup.js";

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/comments/${name}`, import.meta.url), "utf8");

/** Each block's text with what the markup says of it. */
function roles(html: string): Map<string, number> {
  const doc = segmentHtml(html);
  const said = commentMarkup(doc);
  return new Map(doc.blocks.map((b, i) => [b.text, said?.[i] ?? COMMENT_UNKNOWN]));
}

describe("commentMarkup", () => {
  it("reads a WordPress thread as comments and its title, reply links and form as chrome", () => {
    const r = roles(fixture("wordpress-thread.html"));
    const of = (start: string) => [...r].find(([text]) => text.startsWith(start))?.[1];
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
    const of = (start: string) => [...r].find(([text]) => text.startsWith(start))?.[1];
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
    const of = (start: string) => [...r].find(([text]) => text.startsWith(start))?.[1];
    expect(of("Posted by Nell at 09:39 PM")).toBe(COMMENT_UNKNOWN);
    expect(of("The first loaf was dense")).toBe(COMMENT_UNKNOWN);
    expect(of("Rye is the secret")).toBe(COMMENT_SIGNED);
    expect(of("Posted by: Dora")).toBe(COMMENT_SIGNED);
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
    const of = (start: string) => [...r].find(([text]) => text.startsWith(start))?.[1];
    expect(of("We drive forty minutes")).toBe(COMMENT_THREAD);
    expect(of("Posted by: Glen")).toBe(COMMENT_THREAD);
    expect(of("The county library closes on Sundays")).toBe(COMMENT_UNKNOWN);
  });

  it("reads a class word with 'comment' inside a longer word ('articolocommentotesto') as the thread", () => {
    const r = roles(fixture("comment-word-class.html"));
    const of = (start: string) => [...r].find(([text]) => text.startsWith(start))?.[1];
    expect(of("Marco, Torino")).toBe(COMMENT_THREAD);
    expect(of("Sara, Milano")).toBe(COMMENT_THREAD);
    expect(of("Castello went top of the league")).toBe(COMMENT_UNKNOWN);
  });

  it("leaves 'commentator' and Word's 'MsoCommentText' to the head", () => {
    const html = `<html><body><div class="commentator-column"><p>A column by our commentator, long enough to be read as prose.</p></div>
<p class="MsoCommentText">A reviewer's note kept in a document exported from a word processor.</p></body></html>`;
    expect(commentMarkup(segmentHtml(html))).toBeNull();
  });

  it("marks a forum's opening post, in forum markup outside the comments, as a discussion's", () => {
    const r = roles(fixture("forum-thread.html"));
    const of = (start: string) => [...r].find(([text]) => text.startsWith(start))?.[1];
    expect(of("I have been turning small brass parts")).toBe(COMMENT_DISCUSSION);
    expect(of("Check the bed near the chuck")).toBe(COMMENT_THREAD);
  });
});
