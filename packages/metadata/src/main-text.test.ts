// chooseByMainText on small pages: the collector's answer (finish's, as before) and the answer
// once the blocks of the main text are known. The main text is given here as the blocks a model
// keeps on such a page (the headline and the paragraphs); the clean page tests run the model.
import { segmentHtml } from "@winnow/segment";
import { describe, expect, it } from "vitest";
import { MetadataCollector } from "./collector.js";
import { chooseByMainText } from "./main-text.js";
import type { PageMetadata } from "./types.js";

const NOW = Date.UTC(2026, 10, 25);
const LONG =
  "The council met on Tuesday evening and voted on the proposal after a long debate about the costs, " +
  "the schedule and what the neighbourhood had asked for in the letters it sent over the summer.";

/**
 * The page's metadata as finish() gives it (`before`) and as chooseByMainText gives it
 * (`after`), the main text being the blocks whose text `isMain` accepts.
 */
function choose(
  html: string,
  isMain: (text: string, heading: number) => boolean,
  url = "https://example.org/news/story",
): { before: PageMetadata; after: PageMetadata } {
  const collector = new MetadataCollector();
  const doc = segmentHtml(html, { observer: collector });
  const { metadata, shown } = collector.finishWithShown(url, NOW, doc.blocks, doc.title);
  const texts = doc.blocks.map((b) => b.text);
  const kept = doc.blocks.flatMap((b, i) => (isMain(b.text, b.heading) ? [i] : []));
  expect(kept.length).toBeGreaterThan(0);
  // finishWithShown's metadata is finish()'s.
  const again = new MetadataCollector();
  segmentHtml(html, { observer: again });
  expect(again.finish(url, NOW, doc.blocks, doc.title)).toEqual(metadata);
  return { before: metadata, after: chooseByMainText(metadata, shown, kept, texts) };
}

/** The headline and the long paragraphs: what a model keeps of these pages. */
const headlineAndText = (text: string, heading: number): boolean => heading === 1 || text.length > 100;

describe("chooseByMainText", () => {
  it("a listing whose only shown dates are its teasers', away from its text, gets no date", () => {
    const teasers = ["Tomatoes in pots", "Pruning roses", "Compost basics"]
      .map((t, i) => `<li><h3>${t}</h3><p>Read more</p><time>March ${i + 1}, 2021</time></li>`)
      .join("");
    const html = `<html><head><title>Latest from the blog</title></head><body><nav><a href="/">Home</a></nav>
<h1>Latest from the blog</h1><p>${LONG}</p><p>${LONG}</p>
<h2>Recent posts</h2><ul class="teasers">${teasers}</ul></body></html>`;
    const { before, after } = choose(html, headlineAndText);
    // Today's choice: the first teaser's <time>, beside the headline's window.
    expect(before.date).toBe("2021-03-01");
    expect(after.date).toBeUndefined();
    expect(after).toEqual({ ...before, date: undefined });
  });

  it("the dateline under an article's headline beats a sidebar's date that comes first", () => {
    const html = `<html><head><title>Council approves budget</title></head><body>
<aside><h3>Popular</h3><ul><li><a href="/old">An older story</a></li><li><time datetime="2019-01-02">Jan 2, 2019</time></li></ul></aside>
<article><h1>Council approves budget</h1><p class="dateline">March 4, 2021</p><p>${LONG}</p><p>${LONG}</p></article></body></html>`;
    const { before, after } = choose(html, headlineAndText);
    expect(before.date).toBe("2019-01-02");
    expect(after.date).toBe("2021-03-04");
  });

  it("the dateline under the headline beats a CMS's stamp in the markup; an update's line does not", () => {
    const page = (line: string) => `<html><head><title>Council approves budget</title>
<meta property="article:published_time" content="2020-11-30T08:00:00Z"></head><body>
<article><h1>Council approves budget</h1><p>${line}</p><p>${LONG}</p><p>${LONG}</p></article></body></html>`;
    const dated = choose(page("March 4, 2021"), headlineAndText);
    expect(dated.before.date).toBe("2020-11-30T08:00:00Z");
    expect(dated.after.date).toBe("2021-03-04");
    const updated = choose(page("Last updated: March 4, 2021"), headlineAndText);
    expect(updated.after.date).toBe("2020-11-30T08:00:00Z");
  });

  it("one day apart where the markup gives the page's own offset is a time zone: the markup's date stands", () => {
    const html = `<html><head><title>Late vote</title>
<meta property="article:published_time" content="2021-03-04T23:30:00-05:00"></head><body>
<article><h1>Late vote</h1><p>March 5, 2021</p><p>${LONG}</p></article></body></html>`;
    const { after } = choose(html, headlineAndText);
    expect(after.date).toBe("2021-03-04T23:30:00-05:00");
  });

  it("an author named only in a sidebar, far from the main text, is no author; a byline at its head stays", () => {
    const sidebar = Array.from({ length: 9 }, (_, i) => `<li><a href="/s/${i}">Story number ${i + 1}</a></li>`).join("");
    const page = (byline: string, aside: string) => `<html><head><title>How to prune roses</title></head><body>
<article><h1>How to prune roses</h1>${byline}<p>${LONG}</p><p>${LONG}</p></article>
<aside><h3>More stories</h3><ul>${sidebar}</ul>${aside}</aside></body></html>`;
    const away = choose(page("", '<div class="byline">By Jane Roe</div>'), headlineAndText);
    expect(away.before.author).toBe("Jane Roe");
    expect(away.after.author).toBeUndefined();
    const head = choose(page('<div class="byline">By Jane Roe</div>', ""), headlineAndText);
    expect(head.before.author).toBe("Jane Roe");
    expect(head.after.author).toBe("Jane Roe");
  });

  it("a byline at the main text's head names a page whose author the collector did not find (below a long menu)", () => {
    const menu = Array.from({ length: 130 }, (_, i) => `<li><a href="/c/${i}">Category ${i + 1}</a></li>`).join("");
    const page = (byline: string) => `<html><head><title>Hot-swappable keyboards</title></head><body><nav><ul>${menu}</ul></nav>
<article><h1>Hot-swappable keyboards</h1>${byline}<p>${LONG}</p><p>${LONG}</p></article></body></html>`;
    const named = choose(page("<p>By Jerry Chu</p>"), headlineAndText);
    expect(named.before.author).toBeUndefined();
    expect(named.after.author).toBe("Jerry Chu");
    // A line that is no byline names no one.
    const sentence = choose(page("<p>By adding a keyboard you get more keys.</p>"), headlineAndText);
    expect(sentence.after.author).toBeUndefined();
  });

  it("the date line under the main text's head dates a page the collector left undated (below a long menu), not a front page", () => {
    const menu = Array.from({ length: 130 }, (_, i) => `<li><a href="/c/${i}">Category ${i + 1}</a></li>`).join("");
    const html = `<html><head><title>海姑娘的博客</title></head><body><nav><ul>${menu}</ul></nav>
<div class="post"><h2>湘菜粤菜 兵分两路</h2><p>2005-06-14 03:25:55</p><p>${LONG}</p><p>${LONG}</p></div></body></html>`;
    const isMain = (text: string, heading: number): boolean => heading === 2 || text.length > 100;
    const dated = choose(html, isMain);
    expect(dated.before.date).toBeUndefined();
    expect(dated.after.date).toBe("2005-06-14");
    // A site's front page publishes nothing dated of its own: its first teaser's date is not its.
    expect(choose(html, isMain, "https://example.org/").after.date).toBeUndefined();
  });

  it("a labelled date at the main text's end dates a blog post that shows no date beside its headline", () => {
    const archive = Array.from(
      { length: 24 },
      (_, i) => `<li><a href="/a/${i}">${2005 - (i >> 3)}年${12 - (i % 8)}月 (${i + 1})</a></li>`,
    ).join("");
    const page = (footer: string) => `<html><head><title>李建忠的博客</title></head><body><div class="site">李建忠的博客</div>
<ul class="archive">${archive}</ul><div class="post"><h2>很高兴入住博客堂</h2><p>${LONG}</p><p>${LONG}</p>
<p>${footer}</p></div><h3>评论</h3></body></html>`;
    const isMain = (text: string, heading: number): boolean => heading === 2 || text.length > 100;
    const dated = choose(page("发表于 2004年12月27日 12:40 - (阅读:3727;评论:63)"), isMain);
    expect(dated.before.date).toBeUndefined();
    expect(dated.after.date).toBe("2004-12-27");
    // An unlabelled date there (a footer's, a comment's) is not the post's.
    expect(choose(page("2004年12月27日 12:40"), isMain).after.date).toBeUndefined();
  });

  it("a page of which nothing is kept keeps finish()'s choice, and only date and author ever change", () => {
    const collector = new MetadataCollector();
    const html = `<html lang="en"><head><title>T</title><meta name="description" content="D"></head><body>
<h1>T</h1><p>${LONG}</p><ul>${"<li>x</li>".repeat(12)}</ul><div class="byline">By Jane Roe</div><time>March 1, 2021</time></body></html>`;
    const doc = segmentHtml(html, { observer: collector });
    const { metadata, shown } = collector.finishWithShown("https://example.org/a", NOW, doc.blocks, doc.title);
    const texts = doc.blocks.map((b) => b.text);
    expect(chooseByMainText(metadata, shown, [], texts)).toBe(metadata);
    const after = chooseByMainText(metadata, shown, [1], texts);
    expect(metadata.author).toBe("Jane Roe");
    expect(after.author).toBeUndefined();
    const { author: _a, date: _d, dateModified: _m, ...rest } = after;
    const { author: _a2, date: _d2, dateModified: _m2, ...restBefore } = metadata;
    expect(rest).toEqual(restBefore);
  });
});
