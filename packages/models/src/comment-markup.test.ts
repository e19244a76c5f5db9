import { readFileSync } from "node:fs";
import { segmentHtml } from "@winnow/segment";
import { describe, expect, it } from "vitest";
import { COMMENT_CHROME, COMMENT_THREAD, COMMENT_UNKNOWN, commentMarkup } from "./comment-markup.js";

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
});
