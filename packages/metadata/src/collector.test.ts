import { createRequire } from "node:module";
import { segmentHtml } from "@winnow/segment";
import { describe, expect, it, vi } from "vitest";
import { MetadataCollector } from "./collector.js";
import { normaliseDate } from "./dates.js";

const NOW = Date.UTC(2026, 10, 25);

function metadataOf(html: string, url = "https://example.org/news/story.html") {
  const collector = new MetadataCollector();
  const doc = segmentHtml(html, { observer: collector });
  return { doc, meta: collector.finish(url, NOW, doc.blocks, doc.title) };
}

const ISSUE_PAGE = `<!doctype html><html lang="de"><head><meta charset="utf-8">
<title>Wahl 2024</title>
<meta name="author" content="Erika Mustermann">
<meta property="article:published_time" content="2024-03-05T08:30:00+01:00">
<meta property="article:modified_time" content="2024-03-06T10:00:00Z">
<meta property="og:site_name" content="Tagesblatt">
<meta name="description" content="Was die Wahl   bedeutet.">
<meta property="article:section" content="Politik">
<meta property="article:tag" content="Wahl"><meta property="article:tag" content="Bund">
<link rel="canonical" href="/politik/wahl-2024">
</head><body><article><h1>Wahl 2024</h1><p>Der Text des Artikels ist hier.</p></article></body></html>`;

describe("MetadataCollector", () => {
  it("reads <html lang>, <meta> (OpenGraph, article:*) and the canonical link", () => {
    const { doc, meta } = metadataOf(ISSUE_PAGE);
    expect(meta).toEqual({
      declaredLang: "de",
      author: "Erika Mustermann",
      date: "2024-03-05T08:30:00+01:00",
      dateModified: "2024-03-06T10:00:00Z",
      sitename: "Tagesblatt",
      description: "Was die Wahl bedeutet.",
      canonicalUrl: "https://example.org/politik/wahl-2024",
      categories: ["Politik"],
      tags: ["Wahl", "Bund"],
    });
    // The blocks are what they are without an observer.
    expect(doc.blocks.map((b) => b.text)).toEqual(segmentHtml(ISSUE_PAGE).blocks.map((b) => b.text));
  });

  it("takes a canonical link whose rel names it among other words, and no link whose rel only holds the word", () => {
    const page = (rel: string) => `<html><head><link rel="${rel}" href="/a/b"></head><body><p>x</p></body></html>`;
    expect(metadataOf(page("alternate canonical")).meta.canonicalUrl).toBe("https://example.org/a/b");
    expect(metadataOf(page("canonical nofollow")).meta.canonicalUrl).toBe("https://example.org/a/b");
    for (const rel of ["noncanonical", "canonicals", "alternate  canonicalx", "canonical-x"]) {
      expect(metadataOf(page(rel)).meta.canonicalUrl).toBeUndefined();
    }
  });

  it("prefers JSON-LD (in a @graph, authors as objects) over <meta>", () => {
    const html = `<html><head><meta name="author" content="Desk">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
 {"@type":"WebSite","name":"Example Times"},
 {"@type":"NewsArticle","datePublished":"2021-07-14","dateModified":"2021-07-15T09:00:00Z",
  "author":[{"@type":"Person","name":"Ann Lee"},{"@type":"Person","name":"Bo Chen"}],
  "articleSection":["World"],"keywords":"floods, weather"}]}</script>
<script type="application/ld+json">{ not json </script></head><body><p>Body text.</p></body></html>`;
    const { meta } = metadataOf(html);
    expect(meta.author).toBe("Ann Lee; Bo Chen");
    expect(meta.date).toBe("2021-07-14");
    expect(meta.dateModified).toBe("2021-07-15T09:00:00Z");
    expect(meta.sitename).toBe("Example Times");
    expect(meta.categories).toEqual(["World"]);
    expect(meta.tags).toEqual(["floods", "weather"]);
  });

  it("reads visible bylines, <time> and rel=tag links when the head says nothing", () => {
    const html = `<html><body><div class="post-meta"><span class="byline">By Jane Roe</span>
<time datetime="2019-11-02">2 November 2019</time></div><p>Story text here.</p>
<a rel="tag" href="/t/a">gardening</a> <a rel="tag" href="/t/b">soil</a>
<div class="comment-author">Troll 99</div><time datetime="2020-01-01">later</time></body></html>`;
    const { meta } = metadataOf(html);
    expect(meta.author).toBe("Jane Roe");
    expect(meta.date).toBe("2019-11-02");
    expect(meta.tags).toEqual(["gardening", "soil"]);
  });

  it("takes a <time> element's text when it has no datetime, and a date in the URL last", () => {
    expect(metadataOf("<p>x</p><time>March 4, 2021</time>").meta.date).toBe("2021-03-04");
    expect(metadataOf("<p>x</p>", "https://example.org/2018/06/30/story").meta.date).toBe("2018-06-30");
    expect(metadataOf("<p>x</p>", "https://example.org/2018/6/3/story").meta.date).toBe("2018-06-03");
    expect(metadataOf("<p>x</p>", "https://example.org/news/20180630/story").meta.date).toBe("2018-06-30");
    expect(metadataOf("<p>x</p>", "https://example.org/item/201806301234").meta.date).toBeUndefined();
  });

  it("gives no date from the future or before 1995, and falls back to the next candidate", () => {
    const html = `<html><head><meta property="article:published_time" content="2031-01-01">
<meta name="dc.date" content="1990-05-05"><meta name="date" content="2012-12-12"></head><body><p>x</p></body></html>`;
    expect(metadataOf(html).meta.date).toBe("2012-12-12");
    expect(metadataOf('<meta name="date" content="2099-01-01"><p>x</p>').meta).toEqual({});
  });

  it("takes content-language when <html> has no lang, and forgets one page at the next", () => {
    const collector = new MetadataCollector();
    segmentHtml('<html><head><meta http-equiv="Content-Language" content="fr, en"></head><body><p>x</p></body></html>', {
      observer: collector,
    });
    expect(collector.finish("", NOW)).toEqual({ declaredLang: "fr" });
    segmentHtml("<p>nothing said</p>", { observer: collector });
    expect(collector.finish("", NOW)).toEqual({});
  });
});

describe("attribute names the collector does not read", () => {
  it("reads a <meta>'s name, property and http-equiv beside attributes of any length, and nothing from id, data-* and aria-* elsewhere", () => {
    const { meta } = metadataOf(
      `<html><head><meta id="m" data-a="author" http-equiv="Content-Language" content="it">
<meta data-long-attribute-name="x" property="article:published_time" aria-hidden="true" content="2024-03-05T08:30:00Z">
<meta x="1" name="author" data-testid="meta-author" content="Erika Mustermann"></head>
<body><div id="byline" data-class="byline" aria-label="author"><p>Some text of the page, long enough to be one.</p></div></body></html>`,
    );
    expect(meta).toEqual({ declaredLang: "it", date: "2024-03-05T08:30:00Z", author: "Erika Mustermann" });
  });
});

describe("dates a corpus builder can trust", () => {
  it("reads <time datetime> with a space before the time, inside a discussion page's byline, and the author as a name", () => {
    const html = `<html><body><div class="story"><a href="/s/x">Caches all the way down</a>
<div class="byline"><span>via <a href="/~scvalex" class="u-author">scvalex</a></span>
<time datetime="2024-08-12 10:00:23">1 year ago</time> | <a href="/t/caches">caches</a> | <a href="/s/x#c">12 comments</a></div></div>
<p>Comment text of some length here.</p></body></html>`;
    const { meta } = metadataOf(html, "https://lobste.rs/s/x");
    expect(meta.date).toBe("2024-08-12");
    expect(meta.author).toBe("scvalex");
  });

  it.each([
    ["Mar 4, 2021 11:30 PM", "2021-03-04"],
    ["Thu, 04 Mar 2021 GMT", "2021-03-04"],
    ["Published Oct 20, 2025 at 5:00 PM PST", "2025-10-20T17:00:00-08:00"],
    ["Thu, 04 Mar 2021 23:30:00 +0900", "2021-03-04T23:30:00+09:00"],
    ["4. März 2021", "2021-03-04"],
    ["le 4 mars 2021", "2021-03-04"],
    ["12 de marzo de 2024", "2024-03-12"],
    ["5 марта 2021 г.", "2021-03-05"],
    ["发表于 2024年3月5日 10:20", "2024-03-05"],
    ["Last updated: November 13, 2025", "2025-11-13"],
  ])("prose %s is %s, whatever the machine's zone", (input, expected) => {
    expect(normaliseDate(input, NOW)).toBe(expected);
  });

  it("tries English, then the page's declared language (all of chrono-node's when it declares none)", () => {
    expect(normaliseDate("4. März 2021", NOW, "de-AT")).toBe("2021-03-04");
    expect(normaliseDate("4. März 2021", NOW, "")).toBe("2021-03-04");
    expect(normaliseDate("4. März 2021", NOW, "en")).toBeUndefined();
    expect(normaliseDate("2024年3月5日", NOW, "en")).toBe("2024-03-05");
    expect(metadataOf('<html lang="fr"><body><p class="date">Publié le 4 mars 2021</p><p>x</p></body></html>').meta.date).toBe(
      "2021-03-04",
    );
  });

  it("takes the text of an element whose class says date, and a byline's date, after the markup's", () => {
    const visible = metadataOf('<html><body><h1>T</h1><div class="single-post-date">July 8, 2025</div><p>Body text.</p></body></html>');
    expect(visible.meta.date).toBe("2025-07-08");
    const byline = metadataOf('<html><body><p class="byline">By Jane Roe, 4 March 2021</p><p>Body text.</p></body></html>');
    expect(byline.meta).toMatchObject({ date: "2021-03-04", author: "Jane Roe" });
    const marked = metadataOf(
      '<html><head><meta property="article:published_time" content="2020-01-02"></head><body><div class="date">July 8, 2025</div><p>x</p></body></html>',
    );
    expect(marked.meta.date).toBe("2020-01-02");
  });

  it("bounds dates by the capture, not the clock: a later one gives way to the next candidate", () => {
    const html = `<html><head><meta property="article:published_time" content="2024-06-01T10:00:00Z"></head>
<body><time datetime="2019-05-05">5 May 2019</time><p>x</p></body></html>`;
    const collector = new MetadataCollector();
    segmentHtml(html, { observer: collector });
    expect(collector.finish("", Date.UTC(2024, 6, 1)).date).toBe("2024-06-01T10:00:00Z");
    segmentHtml(html, { observer: collector });
    expect(collector.finish("", Date.UTC(2020, 0, 1)).date).toBe("2019-05-05");
    // Without a capture date only 1995 bounds it.
    segmentHtml(html, { observer: collector });
    expect(collector.finish("").date).toBe("2024-06-01T10:00:00Z");
  });
});

describe("a publication date only where the page reads as a publication", () => {
  const menu = (n: number) =>
    `<ul class="menu">${Array.from({ length: n }, (_, i) => `<li><a href="/m${i}">Menu entry ${i}</a></li>`).join("")}</ul>`;
  const paragraphs = (n: number) =>
    Array.from({ length: n }, (_, i) => `<p>Paragraph ${i} of the page, long enough to be text.</p>`).join("");

  it("a service page dated only far from its headline has no date; its modification date stays", () => {
    const html = `<html><head><title>Plumbing services</title><meta property="article:modified_time" content="2025-03-03T10:00:00Z"></head>
<body><h1>Plumbing services</h1>${paragraphs(30)}<p class="post-date">Updated March 3, 2025</p></body></html>`;
    const { meta } = metadataOf(html, "https://example.org/plumbing");
    expect(meta.date).toBeUndefined();
    expect(meta.dateModified).toBe("2025-03-03T10:00:00Z");
    // The same line beside the headline dates the page: that is where an article shows its date.
    const article = html.replace("<h1>Plumbing services</h1>", '<h1>Plumbing services</h1><p class="post-date">Updated March 3, 2025</p>');
    expect(metadataOf(article, "https://example.org/plumbing").meta.date).toBe("2025-03-03");
  });

  it("an author, article markup or a date in the URL date a page whatever stands beside its headline", () => {
    const far = `<h1>Storm hits the coast</h1>${paragraphs(30)}<p class="post-date">March 4, 2021</p>`;
    const page = (head: string) => `<html><head><title>Storm hits the coast</title>${head}</head><body>${far}</body></html>`;
    expect(metadataOf(page('<meta name="author" content="Jane Roe">'), "https://example.org/storm").meta.date).toBe("2021-03-04");
    expect(metadataOf(page('<meta property="article:published_time" content="2021-03-04">'), "https://example.org/storm").meta.date).toBe(
      "2021-03-04",
    );
    expect(metadataOf(page(""), "https://example.org/2021/03/04/storm").meta.date).toBe("2021-03-04");
    const marked = far.replace('<p class="post-date">March 4, 2021</p>', '<p>On <time pubdate datetime="2021-03-04">4 March</time></p>');
    expect(metadataOf(page(""), "https://example.org/storm").meta.date).toBeUndefined();
    expect(metadataOf(page("").replace(far, marked), "https://example.org/storm").meta.date).toBe("2021-03-04");
  });

  it("a product's release date beside its title is no publication date", () => {
    const store = (label: string) => `<html><head><title>Star Pilot on the store</title></head><body>${menu(5)}
<div class="name">Star Pilot</div><p>A space game for up to four players, with a long description of its worlds.</p>
${label}${paragraphs(8)}</body></html>`;
    expect(
      metadataOf(store('<div>Release Date:</div><div class="date">21 Aug, 2012</div>'), "https://example.org/app/7").meta.date,
    ).toBeUndefined();
    expect(metadataOf(store("<div>Released 21 Aug, 2012</div>"), "https://example.org/app/7").meta.date).toBeUndefined();
    // The same line under another label dates the page, as a post's date does.
    expect(metadataOf(store('<div>Posted:</div><div class="date">21 Aug, 2012</div>'), "https://example.org/app/7").meta.date).toBe(
      "2012-08-21",
    );
  });

  it("a page filed under a shop's, a service's or a manual's section has no publication date, unless its URL holds one", () => {
    const html = `<html><head><title>Ceramic mug</title><meta property="og:type" content="article">
<meta property="article:published_time" content="2018-12-21T21:10:33+00:00"><meta name="author" content="Jane Roe"></head>
<body><h1>Ceramic mug</h1><p>Posted on March 4, 2021</p>${paragraphs(5)}</body></html>`;
    for (const url of [
      "https://example.org/product/mug/",
      "https://example.org/eu/products/mug",
      "https://example.org/docs/18/select.html",
    ])
      expect(metadataOf(html, url).meta.date).toBeUndefined();
    expect(metadataOf(html, "https://example.org/blog/mug?from=/products/").meta.date).toBe("2018-12-21T21:10:33+00:00");
    expect(metadataOf(html, "https://example.org/products/mug?id=7").meta.date).toBe("2018-12-21T21:10:33+00:00");
    // A plain file's URL is a place on a disk.
    expect(metadataOf(html, "file:///home/me/docs/mug.html").meta.date).toBe("2018-12-21T21:10:33+00:00");
    expect(metadataOf(html, "file:///").meta.date).toBe("2018-12-21T21:10:33+00:00");
    expect(metadataOf(html, "https://products.example.org/mug").meta.date).toBe("2018-12-21T21:10:33+00:00");
    expect(metadataOf(html, "https://example.org/services/2021/03/04/mug").meta.date).toBe("2018-12-21T21:10:33+00:00");
    expect(metadataOf(html, "").meta.date).toBe("2018-12-21T21:10:33+00:00");
  });

  it("a site's front page has no publication date: it lists the site's latest items", () => {
    const html = `<html><head><title>Tech blog</title><meta property="article:published_time" content="2024-07-23T05:50:32-07:00">
<meta name="author" content="Man Yue Mo"></head><body><h1>Tech blog</h1><p>Man Yue Mo · March 6, 2026</p>${paragraphs(5)}</body></html>`;
    for (const url of ["https://blog.example.org/", "https://blog.example.org", "https://example.org/index.php"])
      expect(metadataOf(html, url).meta.date).toBeUndefined();
    // A query or a fragment may route to an article or a thread, and any other path is no front page.
    for (const url of [
      "https://example.org/index.php?/topic/2018-ai",
      "https://example.org/?fArticleId=nw20071231",
      "https://example.org/#/post?id=1080035365",
      "https://example.org/category/story.cfm?objectid=10486887",
      "https://example.org/tech-blog",
    ])
      expect(metadataOf(html, url).meta.date).toBe("2024-07-23T05:50:32-07:00");
  });

  it("a topic's, a section's or a tag's listing has no publication date; a forum thread filed under /topic/ has", () => {
    const html = `<html><head><title>Cloud</title><meta property="article:published_time" content="2025-12-19T08:00:00Z">
<meta name="author" content="Jane Roe"></head><body><h1>Cloud</h1><p>Posted on December 19, 2025</p>${paragraphs(5)}</body></html>`;
    for (const url of [
      "https://example.org/topic/cloud/",
      "https://example.org/topics/machine-learning",
      "https://example.org/sections/science/",
      "https://example.org/tag/Car%20Rental",
    ])
      expect(metadataOf(html, url).meta.date).toBeUndefined();
    // A thread's id, an article filed under a topic, and a dated URL are a publication's.
    for (const url of [
      "https://forum.example.org/topic/188682-new-case/",
      "https://example.org/topic/18427/rc1-of-v4",
      "https://example.org/topics/gadgets/best-scooter",
      "https://forum.example.org/topic/catering-tips",
      "https://example.org/forums/topic/top-3-mentalists/",
      "https://boards.example.org/topic/fav-nail-colour/",
    ])
      expect(metadataOf(html, url).meta.date).toBe("2025-12-19T08:00:00Z");
    expect(metadataOf(html, "https://example.org/sections/2025/12/19/cloud").meta.date).toBe("2025-12-19T08:00:00Z");
  });

  it("reads the day at the end of a byline beside the headline", () => {
    const page = (line: string) =>
      `<html><head><title>Home gym setups</title></head><body>${menu(5)}<h1>Home gym setups</h1><p>${line}</p>${paragraphs(5)}</body></html>`;
    expect(metadataOf(page("by ALLIN ONE on Jan 22, 2025"), "https://example.org/blogs/news/gym").meta.date).toBe("2025-01-22");
    expect(
      metadataOf(page("Reviewed by Justin Roe, Trial Attorney at Roe &amp; Roe, on December 9, 2024"), "https://example.org/blog/gym").meta
        .date,
    ).toBe("2024-12-09");
  });

  it("reads a date line that ends with its reading time", () => {
    const html = `<html><head><title>Token counts</title></head><body><h1>Token counts</h1><p>December 18, 2025 ・ 3 min read</p>${paragraphs(3)}</body></html>`;
    expect(metadataOf(html, "https://example.org/blog/tokens").meta.date).toBe("2025-12-18");
  });

  it("reads the date line beside a headline that a long menu pushes past the page's first 80 blocks", () => {
    const html = `<html><head><title>Storm hits the coast</title></head><body>${menu(120)}
<h1>Storm hits the coast</h1><p>Posted on March 4, 2021</p>${paragraphs(5)}</body></html>`;
    expect(metadataOf(html, "https://example.org/storm").meta.date).toBe("2021-03-04");
  });

  it("takes the block that repeats the <title> as the headline of a page without <h1>", () => {
    const html = (between: number) => `<html><head><title>Storm hits the coast - Daily News</title></head><body>${menu(10)}
<div class="headline">Storm hits the coast</div>${paragraphs(between)}<div>2021-03-04 10:20</div>${paragraphs(3)}</body></html>`;
    expect(metadataOf(html(1), "https://example.org/storm").meta.date).toBe("2021-03-04");
    expect(metadataOf(html(30), "https://example.org/storm").meta.date).toBeUndefined();
  });
});

describe("the page's own lines, when its markup says nothing", () => {
  it("a Chinese blog's post line, the poster then 发表于 and the day, names its author", () => {
    const page = (line: string) => `<html><head><title>洞庭一叶</title></head><body><div>Blog名:洞庭一叶 日志:279 评论:587</div>
<div>${line}</div><h2>陈天华《警世钟》</h2><p>长梦千年何日醒，睡乡谁遣警钟鸣？腥风血雨难为我，好个江山忍送人！</p></body></html>`;
    expect(metadataOf(page("[湖湘文化]陈天华《警世钟》 ggjjzhzz 发表于 2005-9-15 11:46:00")).meta.author).toBe("ggjjzhzz");
    expect(metadataOf(page("海姑娘 发表于 2005-06-14 03:25")).meta.author).toBe("海姑娘");
    // "发表于" with no name before it, or no day after it, names no one.
    expect(metadataOf(page("发表于 2004年12月27日 12:40 - (阅读:3727;评论:63)")).meta.author).toBeUndefined();
    expect(metadataOf(page("ggjjzhzz 发表了新文章")).meta.author).toBeUndefined();
  });

  it("a reporter's credit closing the story's last paragraph names its author", () => {
    const page = (end: string) => `<html><head><title>著名戏曲导演沈斌去世</title></head><body><h1>著名戏曲导演沈斌去世 享年74岁</h1>
<p>2022-02-13 23:37</p><p>记者从上海昆剧团获悉，上海昆剧团国家一级导演沈斌同志，因病医治无效，于2022年2月12日23时16分在上海逝世，享年74岁。沈斌1947年生于上海，1959年进入上海市戏曲学校昆剧二班学习武生，师从盖春来、谭金霖及郑传鉴、方传芸等名师，1978年上海昆剧团成立时即入团工作，1986年入中国戏曲学院导演系进修，系统全面地学习戏曲导演艺术。他为各家昆剧院团教学导戏，传承与导演昆曲优秀传统经典折子戏和录像百余折。${end}</p></body></html>`;
    // The paragraph is longer than the lines read for a byline.
    expect(metadataOf(page("")).doc.blocks.some((b) => b.text.length > 160)).toBe(true);
    expect(metadataOf(page("（总台记者 张倩）")).meta.author).toBe("张倩");
    expect(metadataOf(page("(本报记者 李明)")).meta.author).toBe("李明");
    // A closing remark in brackets that credits no reporter names no one.
    expect(metadataOf(page("（完）")).meta.author).toBeUndefined();
    expect(metadataOf(page("（来源：新华社）")).meta.author).toBeUndefined();
  });

  it("a Chinese news page's line under its headline, a whole numeric date and time among the site and the source, dates it", () => {
    const page = (line: string) => `<html><head><title>CCER经济学人分析中国经济热度</title></head><body>
<h1>CCER经济学人分析中国经济热度</h1><p>${line}</p><p>中国社会科学院金融研究所所长李扬说，宏观政策应该相对稳定，但是改革一定要加快。</p></body></html>`;
    expect(metadataOf(page("http://biz.163.com 2005-04-25 08:24:06 来源: 第一财经日报 网友评论 0 条")).meta.date).toBe("2005-04-25");
    expect(metadataOf(page("BUSINESS.SOHU.COM 2005年3月11日12:12 来源：[ 人民网 ]")).meta.date).toBe("2005-03-11");
    // Without its time of day a long line's date is not read as the page's (a mention in a sentence).
    expect(metadataOf(page("http://biz.163.com 2005-04-25 来源: 第一财经日报 网友评论 0 条 更多内容")).meta.date).toBeUndefined();
  });

  it("a short line that labels a date, or is one, and a Chinese credit", () => {
    const html = `<html><head><title>多数夫妻生活有名无实</title></head><body><table><tr><td><b>多数夫妻生活有名无实</b></td></tr>
<tr><td>2005-04-05 06:40</td></tr><tr><td><p>对这种现象，金医生解释说，日本男人普遍热爱自己的公司。</p>
<p>（ 责任编辑：山石 ）</p></td></tr></table></body></html>`;
    expect(metadataOf(html).meta).toMatchObject({ date: "2005-04-05", author: "山石" });
    const updated =
      '<html><body><h1>Webcams</h1><p>Some text about the webcams of the park.</p><p style="text-align:right">Last updated: November 13, 2025</p></body></html>';
    expect(metadataOf(updated).meta.date).toBe("2025-11-13");
    const line =
      '<html><body><h1>Kitchen sinks in the cloud</h1><div class="text-200">October 3, 2024</div><p>Body text here.</p></body></html>';
    expect(metadataOf(line).meta.date).toBe("2024-10-03");
  });

  it("a line 'By …' names its author only when names (then perhaps a date) are all it says", () => {
    const named = (line: string) =>
      metadataOf(`<html><body><h1>T</h1><p>${line}</p><p>Body text of the story.</p></body></html>`).meta.author;
    expect(named("By Jon Foster - 2025-09-13 Updated: 2025-09-13")).toBe("Jon Foster");
    expect(named("by ibby")).toBe("ibby");
    expect(named("By using this site, you agree to our Privacy Policy.")).toBeUndefined();
    expect(named("by default the settings are kept")).toBeUndefined();
  });

  it("a byline-classed box's call to action ('Get in touch') names no one; a handle or a name then a category does", () => {
    const box = (inner: string) =>
      metadataOf(
        `<html><body><h1>Data platforms</h1><p>Body text of the story.</p><div class="cmp-meet-author"><p>${inner}</p></div></body></html>`,
      ).meta.author;
    expect(box("Get in touch")).toBeUndefined();
    expect(box("Contact us today")).toBeUndefined();
    expect(box("ibby in news")).toBe("ibby");
    expect(box("Jane Roe in Politics")).toBe("Jane Roe");
    expect(box("Jane Roe in politics")).toBe("Jane Roe");
  });

  it("a long line is not read, nor one that merely holds a year", () => {
    const long = `<html><body><p>Published ${"words ".repeat(40)} on March 4, 2021.</p><p>Founded in 2005 by friends.</p></body></html>`;
    expect(metadataOf(long).meta).toEqual({});
  });
});

describe("authors a corpus builder can trust", () => {
  it.each([
    ["By Jane Doe and John Roe", "Jane Doe; John Roe"],
    ["Written by: Ann Lee, Bo Chen, and Max Muster", "Ann Lee; Bo Chen; Max Muster"],
    ["By Emily Way | Updated on Dec 9, 2025", "Emily Way"],
    ["16 December 2025 by Sam O'Brien", "Sam O'Brien"],
    ["Posted by BeauHD on Friday December 19, 2025 @08:00PM", "BeauHD"],
    ["von Erika Mustermann", "Erika Mustermann"],
    ["Doris Munoz-Mantilla, MD", "Doris Munoz-Mantilla"],
    ["By the Lavazza Team", "the Lavazza Team"],
  ])("the byline %s names %s", (byline, expected) => {
    expect(metadataOf(`<html><body><div class="author-byline">${byline}</div><p>Body.</p></body></html>`).meta.author).toBe(expected);
  });

  it("a byline's elements: 'By' and each name in its own element, a bio after them", () => {
    const html = `<html><body><div class="article-author"><span>By</span> <a href="/a/1">Ann Lee</a> <span>and</span>
<a href="/a/2">Bo Chen</a><p>Ann covers the climate for our desk since 2012 and likes hiking.</p></div><p>Body.</p></body></html>`;
    expect(metadataOf(html).meta.author).toBe("Ann Lee; Bo Chen");
  });

  it("Yoast's twitter:label1 'Written by' pair, a link to an author's page, a class that says authors", () => {
    const twitter = `<html><head><meta name="twitter:label1" content="Written by"><meta name="twitter:data1" content="Tyler Brown">
<meta name="twitter:label2" content="Est. reading time"><meta name="twitter:data2" content="6 minutes"></head><body><p>x</p></body></html>`;
    expect(metadataOf(twitter).meta.author).toBe("Tyler Brown");
    const link =
      '<html><body><div class="meta"><span><a href="/authors/trevor-jackins">Trevor Jackins</a></span></div><p>x</p></body></html>';
    expect(metadataOf(link).meta.author).toBe("Trevor Jackins");
    const authors = '<html><body><div class="content-hub-hero__content-authors">By Angela Williams</div><p>x</p></body></html>';
    expect(metadataOf(authors).meta.author).toBe("Angela Williams");
  });

  it("a link to an author's page in any case, and a /byline/ page, as the pattern reads them", () => {
    const linked = (href: string) =>
      metadataOf(`<html><body><h1>Tides</h1><div class="meta"><span><a href="${href}">Jane Roe</a></span></div><p>x</p></body></html>`).meta
        .author;
    expect(linked("/byline/jane-roe")).toBe("Jane Roe");
    expect(linked("https://example.org/Author/Jane-Roe")).toBe("Jane Roe");
    expect(linked("/AUTHORS/jane-roe/")).toBe("Jane Roe");
    expect(linked("/de/Autor/jane-roe")).toBe("Jane Roe");
    // A section that starts like one ("/autos/", "/blog/") is no author's page.
    expect(linked("/autos/jane-roe")).toBeUndefined();
    expect(linked("/Blog/jane-roe")).toBeUndefined();
  });

  it("no sentence, no count, no publisher is an author", () => {
    const sentence =
      '<html><head><meta name="author" content="Our team of experts reviews every product we recommend"></head><body><p>x</p></body></html>';
    expect(metadataOf(sentence).meta.author).toBeUndefined();
    const masthead = `<html><head><meta name="author" content="USA TODAY"><meta property="og:site_name" content="USA TODAY"></head><body><p>x</p></body></html>`;
    expect(metadataOf(masthead).meta.author).toBeUndefined();
    // The host's own one-word name, where the page names no person, is the site crediting itself:
    // its author on a dated page (a publication), the publisher's name on an undated one.
    const host = '<html><head><meta name="author" content="Instructables"></head><body><p>x</p></body></html>';
    expect(metadataOf(host, "https://www.instructables.com/Build-a-Box/").meta.author).toBeUndefined();
    const dated = host.replace("</head>", '<meta property="article:published_time" content="2024-03-01"></head>');
    expect(metadataOf(dated, "https://www.instructables.com/Build-a-Box/").meta).toMatchObject({
      author: "Instructables",
      date: "2024-03-01",
    });
    // A site named after its author keeps the author.
    const own =
      '<html><head><meta name="author" content="Rick Steves"><meta property="og:site_name" content="Rick Steves"></head><body><p>x</p></body></html>';
    expect(metadataOf(own, "https://www.ricksteves.com/watch-read-listen").meta.author).toBe("Rick Steves");
    // ... unless the page names a person elsewhere: the site's name in its meta author gives way.
    const person = `<html><head><meta name="author" content="British Heart Foundation"><meta property="og:site_name" content="British Heart Foundation"></head>
<body><p class="article-author">by Tracy Parker, Dietitian</p><p>x</p></body></html>`;
    expect(metadataOf(person).meta.author).toBe("Tracy Parker");
  });

  it("JSON-LD authors: objects and arrays, an organisation left out for the byline's person", () => {
    const html = `<html><head><script type="application/ld+json">{"@type":"Article","datePublished":"2025-01-02",
"author":[{"@type":"Person","name":"Ann Lee"},{"@type":"Organization","name":"Cleveland Clinic"},"Bo Chen"],
"publisher":{"@type":"Organization","name":"Cleveland Clinic"}}</script></head><body><p>x</p></body></html>`;
    expect(metadataOf(html).meta).toMatchObject({ author: "Ann Lee; Bo Chen", sitename: "Cleveland Clinic", date: "2025-01-02" });
    const organisationOnly = `<html><head><script type="application/ld+json">{"@type":"Article","author":{"@type":"Organization","name":"Cleveland Clinic"}}</script></head>
<body><div class="byline">By Holly Wilgus</div><p>x</p></body></html>`;
    expect(metadataOf(organisationOnly).meta.author).toBe("Holly Wilgus");
  });

  it("cXense's <meta name=\"cXenseParse:author\">, before a visible guess (a quoted expert's link)", () => {
    const html = `<html><head><meta name="cXenseParse:author" content="April Fulton"></head><body>
<p>Says <a href="/people/elizabeth-hoge/author/">Elizabeth Hoge</a>, a psychiatrist.</p></body></html>`;
    expect(metadataOf(html).meta.author).toBe("April Fulton");
  });

  it("JSON-LD authors given by @id: the graph's Person of that @id, an Organization of that @id left out", () => {
    const html = `<html><head><script type="application/ld+json">{"@context":"https://schema.org","@graph":[
{"@type":"Article","@id":"https://example.org/p/#article","author":[{"@id":"https://example.org/#/schema/person/1"},{"@id":"https://example.org/#org"}],"datePublished":"2025-01-02"},
{"@type":"Organization","@id":"https://example.org/#org","name":"Acme Media"},
{"@type":"Person","@id":"https://example.org/#/schema/person/1","name":"Ann Lee"}]}</script></head><body><p>x</p></body></html>`;
    expect(metadataOf(html).meta.author).toBe("Ann Lee");
  });

  it("takes the date beside the headline before a JSON-LD datePublished equal to its dateModified (a CMS's save stamp)", () => {
    const page = (published: string, shown: string) => `<html><head><script type="application/ld+json">{"@type":"Article",
"datePublished":"${published}","dateModified":"2025-11-13T09:21:40Z","author":{"@type":"Person","name":"Tracy Parker"}}</script></head>
<body><h1>Eat well</h1>${shown}<p>Text of the article, long enough to be read as text.</p></body></html>`;
    const stamp = "2025-11-13T09:21:40Z";
    expect(metadataOf(page(stamp, '<p class="date">12 November 2025</p>')).meta.date).toBe("2025-11-12");
    // The same day: the stamp's time is kept. No other date: the stamp dates the page.
    expect(metadataOf(page(stamp, '<p class="date">13 November 2025</p>')).meta.date).toBe(stamp);
    expect(metadataOf(page(stamp, "")).meta.date).toBe(stamp);
    // A date elsewhere on the page (a teaser's, a masthead's today) is not the page's own.
    const teaser = `${"<p>Another paragraph of the article, long enough to be text.</p>".repeat(30)}<p class="date">1 May 2025</p>`;
    expect(metadataOf(page(stamp, teaser)).meta.date).toBe(stamp);
    // A datePublished of its own is the page's, whatever the page shows.
    expect(metadataOf(page("2025-10-01T08:00:00Z", '<p class="date">12 November 2025</p>')).meta.date).toBe("2025-10-01T08:00:00Z");
  });

  it("takes a JSON-LD WebPage's date only for a page that names who wrote it, after any date the page shows: a CMS dates every page it saves", () => {
    // A service page: its WebPage says when the page was first saved, and nothing is published.
    const service = `<html><head><script type="application/ld+json">{"@context":"https://schema.org","@graph":[
{"@type":"WebPage","datePublished":"2020-07-04T00:27:57+00:00","dateModified":"2025-10-16T20:02:36+00:00"},
{"@type":"WebSite","name":"Acme"}]}</script></head><body><h1>Data services</h1><p>What we do.</p></body></html>`;
    const page = metadataOf(service, "https://example.org/services/data").meta;
    expect(page.date).toBeUndefined();
    expect(page.dateModified).toBe("2025-10-16T20:02:36+00:00");
    // A post: its article's date, wherever the WebPage stands in the graph.
    const post = `<html><head><script type="application/ld+json">{"@graph":[
{"@type":["WebPage","ItemPage"],"datePublished":"2020-01-01"},
{"@type":"BlogPosting","datePublished":"2024-05-06","author":{"@type":"Person","name":"Ann Lee"}}]}</script></head><body><p>x</p></body></html>`;
    expect(metadataOf(post).meta).toMatchObject({ date: "2024-05-06", author: "Ann Lee" });
    // A WebPage alone beside the page's other sources: those decide.
    const withMeta = `<html><head><meta property="article:published_time" content="2023-02-03">
<script type="application/ld+json">{"@type":"WebPage","datePublished":"2019-01-01"}</script></head><body><p>x</p></body></html>`;
    expect(metadataOf(withMeta).meta.date).toBe("2023-02-03");
    // A page that names its writer (a post, a forum thread): the date it shows, else its WebPage's.
    const written = `<html><head><meta name="author" content="Jane Roe"><script type="application/ld+json">{"@graph":[
{"@type":"WebPage","datePublished":"2021-06-07T10:00:00+00:00"}]}</script></head><body><div class="date">Updated July 1, 2025</div><p>x</p></body></html>`;
    expect(metadataOf(written).meta).toMatchObject({ author: "Jane Roe", date: "2025-07-01" });
    const named = written.replace('<div class="date">Updated July 1, 2025</div>', "");
    expect(metadataOf(named).meta).toMatchObject({ author: "Jane Roe", date: "2021-06-07T10:00:00+00:00" });
    // An untyped object, or one of a type that publishes, still gives its date.
    const untyped = `<html><head><script type="application/ld+json">{"datePublished":"2022-02-02"}</script></head><body><p>x</p></body></html>`;
    expect(metadataOf(untyped).meta.date).toBe("2022-02-02");
  });

  it("names no one for a role: Webmaster, like admin or editor", () => {
    const html = `<html><head><meta name="author" content="Webmaster"></head><body><p>x</p></body></html>`;
    expect(metadataOf(html).meta.author).toBeUndefined();
  });

  it.each([
    ["By Paul Frew, Home and Digital Security Expert", "Paul Frew"],
    ["By: Benjamin Johnson, Sr. Director of Operations, Atlas Van Lines - 10+ Years in the Moving Industry", "Benjamin Johnson"],
    ["Jane Roe, Staff Writer, and John Doe", "Jane Roe"],
    ["Our Editors", "Our Editors"],
  ])("a role after a name ends the names: %s names %s", (byline, expected) => {
    expect(metadataOf(`<html><body><div class="byline">${byline}</div><p>Body.</p></body></html>`).meta.author).toBe(expected);
  });

  it("reads a byline inside an element whose class says date (WordPress's status-publish article, a posted-by span)", () => {
    const html = `<html><body><article class="post-5299 page type-page status-publish hentry"><h1>Telescopes</h1>
<div class="entry-meta"><span class="posted-by"><span class="meta-label">By</span><span class="author vcard"><a class="url fn n" href="/about/">Trevor Jones</a></span></span></div>
<p>The best telescope for a beginner is the one that gets used.</p><p>Posted March 4, 2021</p></article></body></html>`;
    expect(metadataOf(html).meta).toMatchObject({ author: "Trevor Jones" });
    // The date capture around it reads what it read before: the byline's names are no date.
    const dated = `<html><body><div class="post-date">March 4, 2021 <span class="author">by Ann Lee</span></div><p>x</p></body></html>`;
    expect(metadataOf(dated).meta).toMatchObject({ author: "Ann Lee", date: "2021-03-04" });
  });

  it("reads the page's lines when the markup names no one, down to block 120 (a byline under a long menu)", () => {
    const menu = Array.from({ length: 100 }, (_, i) => `<li><a href="/c/${i}">Category ${i}</a></li>`).join("");
    const html = `<html><head><meta name="author" content="Webmaster"></head><body><ul>${menu}</ul><h1>Keyboards</h1>
<p><time>Apr 17, 2025</time></p><p>By Jerry Chu</p><p>Hot-swappable keyboards let you change switches without solder.</p></body></html>`;
    const { doc, meta } = metadataOf(html);
    expect(doc.blocks.findIndex((b) => b.text === "By Jerry Chu")).toBeGreaterThan(80);
    expect(meta.author).toBe("Jerry Chu");
  });

  it.each([
    ["By Evan Lehmann, Eagle Washington Bureau", "Evan Lehmann"],
    ["By Ray Chesterton January 18, 2008 12:00am", "Ray Chesterton"],
    ["By Attorney Ilona Bray, Attorney Richard A. Boswell", "Attorney Ilona Bray; Attorney Richard A. Boswell"],
    ["By law, children's clothes and upholstery fabric must be given a flame-retardant finish", undefined],
    ["Author Information", undefined],
  ])("names, not a bureau, a month, a title's role or a sentence: the line %s names %s", (line, expected) => {
    expect(metadataOf(`<html><body><h1>News</h1><p>${line}</p><p>Body of the story.</p></body></html>`).meta.author).toBe(expected);
  });

  it("a post whose date-class wrapper holds a class naming its author (Serendipity) is no byline; its 'Posted by' line is", () => {
    const body = "For Black Friday I got an early Christmas present, a Toshiba Satellite. Its innards are all Intel. ".repeat(12);
    const html = `<html><body><div class="serendipity_Entry_Date"><h3 class="serendipity_date">Sunday, November 26. 2006</h3>
<div class="serendipity_entry serendipity_entry_author_Ian-Monroe"><div class="serendipity_entry_body"><h3>Laptop</h3><p>${body}</p></div></div></div>
<p>Posted by Mark Kretschmann in markey at 05:46 | Comments (0)</p></body></html>`;
    expect(metadataOf(html).meta.author).toBe("Mark Kretschmann");
    expect(metadataOf("<html><body><p>Danke. Posted by in</p><p>x</p></body></html>").meta.author).toBeUndefined();
  });

  it("a post's text wrapped in an author class is no author box", () => {
    const post = "I have had a week of freedom from the entanglements of university and it has been great. ".repeat(4);
    const html = `<html><body><div class="author"><p>Danke. Posted by in</p><p>${post}</p></div></body></html>`;
    expect(metadataOf(html).meta.author).toBeUndefined();
  });

  it("a listing's filters are no bylines: 'By Category', 'By Use Case'", () => {
    const html = `<html><body><ul><li>Shop</li><li>By Category</li><li>By Use Case</li><li>By Team Size</li></ul><p>Our products.</p></body></html>`;
    expect(metadataOf(html).meta.author).toBeUndefined();
    expect(metadataOf(`<html><body><p>By Jane Price</p><p>x</p></body></html>`).meta.author).toBe("Jane Price");
  });

  it("an author box longer than a byline: the name on its first line, not the bio", () => {
    const bio = "is a growth-focused marketing professional specializing in healthcare technology and B2B SaaS. ".repeat(3);
    const html = `<html><body><p>Text of the post.</p><div class="blog_author-wrapper"><div>Lauren Vetter</div>
<div>Lauren Vetter ${bio}</div></div></body></html>`;
    expect(metadataOf(html).meta.author).toBe("Lauren Vetter");
  });

  it("a forum post's username (phpBB, vBulletin) when nothing else names the page's author", () => {
    const html = `<html><body><h1>Boot fails after update</h1><div class="post"><dl class="postprofile"><dt>
<a href="./memberlist.php?mode=viewprofile&amp;u=421190" class="username">b.scherer</a></dt><dd>Posts: 12</dd></dl>
<div class="content">My laptop stopped booting.</div></div><div class="post"><dl><dt><a class="username" href="./memberlist.php?u=2">helper</a></dt></dl>
<div class="content">Try the fallback image.</div></div></body></html>`;
    expect(metadataOf(html).meta.author).toBe("b.scherer");
    // A byline ranks before it.
    expect(metadataOf(html.replace("<h1>", '<div class="byline">By Ann Lee</div><h1>')).meta.author).toBe("Ann Lee");
  });

  it("Chinese credits without a colon, and a writer's credit before an editor's", () => {
    const reporter =
      "<html><body><h1>学生近视</h1><p>顶端新闻·河南商报记者马俊峰/文受访者供图</p><p>每天看着孩子们直着脖子。</p></body></html>";
    expect(metadataOf(reporter).meta.author).toBe("马俊峰");
    const from = "<html><body><h1>金融改革</h1><p><b>本报记者罗科苏盈发自北京</b></p><p>23日下午，在会上。</p></body></html>";
    expect(metadataOf(from).meta.author).toBe("罗科苏盈");
    const closing = "<html><body><p>电价改革的初衷。</p><p>（姚峰 上海报道）</p></body></html>";
    expect(metadataOf(closing).meta.author).toBe("姚峰");
    const both =
      "<html><body><table><tr><td>编辑： 金金</td><td>来源： 21世纪经济报道</td><td>作者：宋怡 杨志华</td></tr></table><p>正文。</p></body></html>";
    expect(metadataOf(both).meta.author).toBe("宋怡 杨志华");
  });

  it("a forum's username is a handle: digits and lowercase are its own, a role is still no one", () => {
    const thread = (starter: string) => `<html><body><h1>Living with MND</h1><div class="p-description">
<span class="u-srOnly">Thread starter</span> <a href="/members/1/" class="username">${starter}</a></div>
<article class="message"><section itemprop="author" itemscope><a href="/members/2/" class="username">ShiftKicker</a></section><p>Hello.</p></article></body></html>`;
    expect(metadataOf(thread("lulug30")).meta.author).toBe("lulug30");
    expect(metadataOf(thread("Guest")).meta.author).toBe("ShiftKicker");
  });

  it("a forum's <link rel=\"author\"> to a user's page names its handle; a blog's author slug does not", () => {
    const nodebb = `<html><head><link rel="author" href="https://community.example.org/user/luizjr4"></head>
<body><ul class="posts"><li><a class="author-name" href="/users/suty">Suty</a><p>Reply.</p></li></ul></body></html>`;
    expect(metadataOf(nodebb).meta.author).toBe("luizjr4");
    const blog = `<html><head><link rel="author" href="https://blog.example.org/author/jane-doe/"></head><body><p>x</p></body></html>`;
    expect(metadataOf(blog).meta.author).toBeUndefined();
  });

  it("names the thread's starter where a screen reader's label says so (XenForo), not the first post's user", () => {
    const html = `<html><body><h1>Suggestions for a beginner MTB</h1><div class="p-description"><ul class="listInline">
<li><i class="fa--xf far fa-user" title="Thread starter"></i><span class="u-srOnly">Thread starter</span>
<a href="/members/kevin.13697/" class="username u-concealed" dir="auto">Kevin</a></li>
<li><span class="u-srOnly">Start date</span> <time datetime="2024-01-02T10:00:00+0000">Jan 2, 2024</time></li></ul></div>
<article class="message"><section class="message-user" itemprop="author" itemscope><h4><a href="/members/rick.2/" class="username">Rick-Australia</a></h4></section>
<div class="message-content"><p>Welcome to the forum, Kevin.</p></div></article></body></html>`;
    expect(metadataOf(html).meta).toMatchObject({ author: "Kevin", date: "2024-01-02T10:00:00+00:00" });
    // Any other screen reader's text labels nothing, and gives way to a date inside it.
    const other = `<html><body><span class="screen-reader-text">Posted on <time datetime="2023-05-06">May 6</time></span>
<span class="sr-only">Share</span> <a href="/share">Facebook</a><p>x</p></body></html>`;
    expect(metadataOf(other).meta).toEqual({ date: "2023-05-06" });
  });
});

describe("authors held out of the last rules (issue 34, second round)", () => {
  it('an itemprop="author" Person\'s itemprop="name" is the name as marked (element text or <meta content>)', () => {
    // XenForo's hidden first-post Person: the element's text goes on with the avatar's letter.
    const hidden = `<html><body><h1>Suggestions for a beginner MTB</h1><div class="hidden"><div itemprop="author" itemscope>
<span class="username" itemprop="name">Ejp55230</span><meta itemprop="url" content="https://forum.example.org/members/ejp55230.1/">
<div class="avatar"><span>E</span></div></div></div><p>Which bike?</p></body></html>`;
    expect(metadataOf(hidden).meta.author).toBe("Ejp55230");
    const meta = `<html><body><div class="card" itemprop="author" itemscope><meta itemprop="name" content="Tony B">
<a href="/members/tony-b.5/">Tony B</a> <span>8,415 posts</span></div><p>Reply.</p></body></html>`;
    expect(metadataOf(meta).meta.author).toBe("Tony B");
    // A member's id in hex is no displayed name: the next Person's is.
    const hex = `<html><body><div itemprop="author" itemscope><meta itemprop="name" content="01fe20bec297"></div>
<div itemprop="author" itemscope><span itemprop="name">Pete O'Hanlon</span></div><p>x</p></body></html>`;
    expect(metadataOf(hex).meta.author).toBe("Pete O'Hanlon");
    // A role marked as the name is still no one.
    const role = `<html><body><div itemprop="author" itemscope><span itemprop="name">admin</span></div><p>x</p></body></html>`;
    expect(metadataOf(role).meta.author).toBeUndefined();
  });

  it("a label alone in its block ('Author', 'By', 'Author(s)') names the block(s) after it, past an avatar's initials", () => {
    const one = `<html><body><h1>AI in medicine</h1><div><h3>Published</h3><p>August 30, 2024</p></div>
<div><h3>Author</h3><p>Lisa D. Ellis</p></div><div><h3>Related Program</h3><p>AI in Clinical Medicine</p></div></body></html>`;
    expect(metadataOf(one).meta.author).toBe("Lisa D. Ellis");
    const initials = `<html><body><h1>Batching</h1><p>Text of the post.</p><div>By</div><div><span>CP</span></div>
<div>Chengcheng Pei</div><div>Staff Software Engineer</div></body></html>`;
    expect(metadataOf(initials).meta.author).toBe("Chengcheng Pei");
    // A plural label: one name a block, up to the first block that names no one.
    const several = `<html><body><h1>Report</h1><h6>Author(s)</h6><ul><li>John A. Alic</li><li>David C. Mowery</li>
<li>Edward S. Rubin</li></ul><p>Download pdf</p></body></html>`;
    expect(metadataOf(several).meta.author).toBe("John A. Alic; David C. Mowery; Edward S. Rubin");
    // A forum table's headers ("Author", "Message") and a menu after a plural label name no one.
    const table = `<html><body><h1>Thread</h1><table><tr><th>Author</th><th>Message</th></tr></table><p>Text of the post.</p></body></html>`;
    expect(metadataOf(table).meta.author).toBeUndefined();
    const menu = `<html><body><h1>Home</h1><div>Authors</div><div>Winners!, My NaNoWriMo, FAQs, The Basics</div><p>x</p></body></html>`;
    expect(metadataOf(menu).meta.author).toBeUndefined();
    // A label followed by a sentence names no one.
    const sentence = `<html><body><h1>Zero waste</h1><div>Written By</div><p>I dove into the zero waste lifestyle in 2015 and never looked back.</p></body></html>`;
    expect(metadataOf(sentence).meta.author).toBeUndefined();
  });

  it("a listing's teasers, each with its byline, name no author; a page whose writer is named again keeps its byline", () => {
    const people = ["Marko Zivkovic", "Andrew Orr", "Charles Martin", "Wesley Hilliard", "Malcolm Owen", "William Gallagher"];
    const teasers = (names: string[]) =>
      names
        .map((n, i) => `<article><h2><a href="/p/${i}">Story ${i}</a></h2><span class="byline">By ${n}</span><p>Teaser ${i}.</p></article>`)
        .join("\n");
    const listing = `<html><body><h1>Latest news</h1>${teasers(people)}<p>Older posts</p></body></html>`;
    expect(metadataOf(listing).meta.author).toBeUndefined();
    // Five people are not yet a listing: related posts under an article.
    expect(metadataOf(`<html><body><h1>News</h1>${teasers(people.slice(0, 5))}</body></html>`).meta.author).toBe("Marko Zivkovic");
    // The page's own writer first and again among the related posts' bylines.
    const article = `<html><body><h1>Review</h1>${teasers(["Ben Kaye", ...people, "Ben Kaye"])}</body></html>`;
    expect(metadataOf(article).meta.author).toBe("Ben Kaye");
    // A forum's posters under an author class are handles: the thread's starter.
    const handles = ["Fitzg", "BMilton", "Napie", "SawdustSteve", "WillGeorge", "Cheatah", "jec"];
    const forum = `<html><body><h1>Bandsaw</h1>${handles.map((h) => `<div class="post"><div class="author">${h}</div><p>Post by ${h}.</p></div>`).join("")}</body></html>`;
    expect(metadataOf(forum).meta.author).toBe("Fitzg");
  });

  it("a template's unfilled placeholder in <meta name=author> names no one: the byline does", () => {
    const html = `<html><head><meta name="author" content="page.head.extra.author"></head><body><h1>Startup lessons</h1>
<span class="blog-meta-author">Tim Enwall</span><p>Text.</p></body></html>`;
    expect(metadataOf(html).meta.author).toBe("Tim Enwall");
    expect(metadataOf(`<html><head><meta name="author" content="J.R.R.Tolkien"></head><body><p>x</p></body></html>`).meta.author).toBe(
      "J.R.R.Tolkien",
    );
  });

  it("a name the markup gives in lowercase is a name; a page's line or a phrase in lowercase is not", () => {
    const meta = `<html><head><meta name="author" content="annette thurmon"></head><body><h1>Herbs</h1><p>x</p></body></html>`;
    expect(metadataOf(meta).meta.author).toBe("annette thurmon");
    const box = `<html><body><h1>E-bikes</h1><a href="/author/crazylennys/" class="elementor-author-box__name">crazy lennys</a><p>x</p></body></html>`;
    expect(metadataOf(box).meta.author).toBe("crazy lennys");
    const phrase = `<html><body><h1>Post</h1><div class="author-box">about the author</div><p>x</p></body></html>`;
    expect(metadataOf(phrase).meta.author).toBeUndefined();
    expect(metadataOf(`<html><body><h1>Post</h1><p>By crazy lennys</p></body></html>`).meta.author).toBeUndefined();
    // The host's own name typed in lowercase is the site's.
    const site = `<html><head><meta name="author" content="winnipeg sun"></head><body><h1>News</h1><p>x</p></body></html>`;
    expect(metadataOf(site, "https://www.winnipegsun.com/news/story").meta.author).toBeUndefined();
  });

  it("a site that credits itself (its one-word name or its host's as its author) is its author where no person is named, on a dated page", () => {
    const meta = `<html><head><meta name="author" content="Lumenwise"><meta property="og:site_name" content="Lumenwise">
<meta property="article:published_time" content="2025-04-21T10:00:00Z"></head>
<body><h1>Event planning skills</h1><p>x</p></body></html>`;
    expect(metadataOf(meta, "https://lumenwise.example/blog/skills/").meta.author).toBe("Lumenwise");
    // Undated (a product, a listing, a front page): the publisher's name, no author; nor does it date the page.
    const product = `<html><head><meta name="author" content="Lumenwise"><meta property="og:site_name" content="Lumenwise">
<script type="application/ld+json">{"@type":"WebPage","datePublished":"2025-04-21"}</script></head>
<body><h1>Desk lamp</h1><p>x</p></body></html>`;
    expect(metadataOf(product, "https://lumenwise.example/lamps/desk/").meta).not.toHaveProperty("author");
    expect(metadataOf(product, "https://lumenwise.example/lamps/desk/").meta).not.toHaveProperty("date");
    // A byline that credits the host ("by whova").
    const byline = '<html><body><h1>Event trends</h1><p>by <a href="/author/whova/">whova</a> | Apr 21, 2025</p><p>x</p></body></html>';
    expect(metadataOf(byline, "https://whova.com/blog/trends/").meta.author).toBe("whova");
    // A person named anywhere, in the page's lines too, goes first.
    const person = `<html><head><meta name="author" content="Lumenwise"><meta property="og:site_name" content="Lumenwise"></head>
<body><h1>Event planning skills</h1><p>By Ann Lee</p><p>x</p></body></html>`;
    expect(metadataOf(person, "https://lumenwise.example/blog/skills/").meta.author).toBe("Ann Lee");
    // A masthead is still no author.
    const masthead = `<html><head><meta name="author" content="Lumenwise News"><meta property="og:site_name" content="Lumenwise News"></head>
<body><h1>Event planning skills</h1><p>x</p></body></html>`;
    expect(metadataOf(masthead, "https://lumenwise.example/blog/skills/").meta.author).toBeUndefined();
    const oneWord = '<html><head><meta name="author" content="CBSNews"></head><body><h1>Vote count</h1><p>x</p></body></html>';
    expect(metadataOf(oneWord, "https://www.cbsnews.com/stories/2004/11/03/vote.shtml").meta.author).toBeUndefined();
  });

  it("an author box's name element and an 'authored-by' element are bylines; a comment's author's name is not", () => {
    const box = `<html><body><h1>Pros and cons of consulting</h1><p>x</p>
<div class="elementor-author-box"><div class="elementor-author-box__avatar"><img alt="Picture of Liz Kenny" src="a.jpg"></div>
<div class="elementor-author-box__text"><h4 class="elementor-author-box__name">Liz Kenny</h4>
<p class="elementor-author-box__bio">Liz has advised firms for twenty years and writes about the trade.</p></div></div></body></html>`;
    expect(metadataOf(box).meta.author).toBe("Liz Kenny");
    const reviewed = `<html><body><h1>Gym injury lawsuits</h1><div class="authored-by d-flex">
<a href="/attorneys/jcm/"><span class="author-photo"><img alt="Headshot" src="j.png"></span></a>
Reviewed by Justin C. Meserole, Trial Attorney at Morgan &amp; Morgan, on December 9, 2024.</div><p>x</p></body></html>`;
    expect(metadataOf(reviewed).meta.author).toBe("Justin C. Meserole");
    const comment = `<html><body><h1>Post</h1><p>x</p><div class="comment"><span class="comment-author-name">Bo Chen</span><p>Nice post.</p></div></body></html>`;
    expect(metadataOf(comment).meta.author).toBeUndefined();
  });

  it("the 'name' element inside a byline's box names the author, where the box goes on with a role", () => {
    // Indented as a template writes it: the box's white space alone fills the byline's 300 characters.
    const indent = "\n".padEnd(100, " ");
    const lines = [
      '<div class="author author-hub">',
      '<div class="media"><div class="image"><img alt="Rachel MacDonald"></div></div>',
      '<div class="content">',
      '<div class="author-info">',
      '<div class="name">Rachel MacDonald</div>',
      '<div class="post">Writer</div>',
      "</div>",
      "</div>",
      "</div>",
    ];
    const box = `<html><body><h1>Ten business trips</h1>${indent}${lines.join(indent)}<p>x</p></body></html>`;
    expect(metadataOf(box).meta.author).toBe("Rachel MacDonald");
    // Not without the box: a "name" class alone is a product's, a place's, anyone's.
    const bare = `<html><body><h1>Ten business trips</h1><div class="name">Rachel MacDonald</div><p>x</p></body></html>`;
    expect(metadataOf(bare).meta.author).toBeUndefined();
    // Nor a reader's comment box.
    const comment = `<html><body><h1>Post</h1><p>x</p><div class="comment-author"><span class="name">Bo Chen</span> said on a day long ago that he liked the post</div></body></html>`;
    expect(metadataOf(comment).meta.author).toBeUndefined();
  });

  it("hAtom's published <time> (WordPress's 'entry-date published') dates the page as a publication, as <time pubdate> does", () => {
    const links = Array.from({ length: 6 }, (_, i) => `<li><a href="/t/${i}">Topic ${i + 1}</a></li>`).join("");
    const page = (cls: string) => `<html><head><title>Ten tips for online courses</title></head><body>
<div class="entry-meta"><span class="posted-on">Posted on <a href="/2609-2/"><time class="${cls}" datetime="2020-06-29T15:00:23-05:00">June 29, 2020</time></a></span></div>
<ul>${links}</ul><h1>Ten tips for online courses</h1><p>Text of the post, long enough to be read as text.</p></body></html>`;
    expect(metadataOf(page("entry-date published"), "https://example.org/2609-2/").meta.date).toBe("2020-06-29T15:00:23-05:00");
    // A <time> that only says it is a date is no sign of a publication: a page of another kind.
    expect(metadataOf(page("entry-date"), "https://example.org/2609-2/").meta.date).toBeUndefined();
  });

  it("a PunBB/FluxBB thread's first poster (div.postleft > dl > dt) is its author, as phpBB's username is", () => {
    const post = (name: string, text: string) => `<div class="blockpost"><h2><span><a href="#p1">2025-11-01 15:14:37</a></span></h2>
<div class="box"><div class="inbox"><div class="postbody"><div class="postleft"><dl><dt><strong>${name}</strong></dt>
<dd class="usertitle"><strong>Member</strong></dd><dd class="postavatar"></dd></dl></div>
<div class="postright"><h3>Re: ISO size</h3><div class="postmsg"><p>${text}</p></div></div></div></div></div></div>`;
    const html = `<html><head><title>ISO size / Arch Linux Forums</title></head><body><h1>ISO size</h1>
${post("chunix64", "Why did the ISO grow so fast from 2024 to 2025?")}${post("Trilby", "Firmware, mostly.")}</body></html>`;
    expect(metadataOf(html, "https://bbs.example.org/viewtopic.php?id=309936").meta.author).toBe("chunix64");
  });

  it("a month's name before the day is the date's, after a one-word name too", () => {
    const html = `<html><body><h1>Boujee</h1><p>A definition.</p><div class="contributor">by Faded_Hazel November 25, 2016</div></body></html>`;
    expect(metadataOf(html).meta.author).toBe("Faded_Hazel");
    // Without a day after it, a month's name may be a surname.
    expect(metadataOf(`<html><body><h1>Film</h1><p>by Ann March</p></body></html>`).meta.author).toBe("Ann March");
  });
});

describe("normaliseDate", () => {
  it.each([
    ["2021-03-04", "2021-03-04"],
    ["2021-03-04T10:20:30.123+0100", "2021-03-04T10:20:30+01:00"],
    ["2021-03-04 10:20", "2021-03-04"],
    ["2021-03-04T10:20+05:30", "2021-03-04T10:20:00+05:30"],
    ["2005-5-7 21:23:57", "2005-05-07"],
    ["2024年3月5日", "2024-03-05"],
    ["03/24/2021", "2021-03-24"],
    ["20210304", "2021-03-04"],
    ["04.03.2021", "2021-03-04"],
    ["Thu, 04 Mar 2021 10:20:30 GMT", "2021-03-04T10:20:30Z"],
    ["4 March 2021", "2021-03-04"],
  ])("%s is %s", (input, expected) => {
    expect(normaliseDate(input, NOW)).toBe(expected);
  });

  // Two numbers that could each be the month: day first, as most of the world writes them, but
  // month first where the page says it is American (a US zone beside the date, or <html
  // lang="en-US">, WordPress's default) and the numbers are slashed. L3S-GN1's news pages of 2008
  // wrote "01/09/2008 08:15 PM PST" for January 9th.
  it.each([
    ["01/09/2008", "", "2008-09-01"],
    ["01/09/2008 08:15 PM PST", "", "2008-01-09"],
    ["Posted 3/4/2021 10:20 AM ET", "", "2021-03-04"],
    ["01/09/2008", "en-US", "2008-01-09"],
    ["01/09/2008", "en-GB", "2008-09-01"],
    ["24/03/2021", "en-US", "2021-03-24"],
    ["04.03.2021", "en-US", "2021-03-04"],
  ])("%s on a page of lang %j is %s", (input, lang, expected) => {
    expect(normaliseDate(input, NOW, lang)).toBe(expected);
  });

  it.each(["2021-02-30", "1994-12-31", "2027-01-01", "yesterday", "12345", "1 year ago", "2024-13-01"])("%s is no date", (input) => {
    expect(normaliseDate(input, NOW)).toBeUndefined();
  });

  // A year and a month are no day: a blog's archive links ("2006年12月 (5)") were read as the
  // year, the month's first digit and its second as the day (2006-01-02).
  it.each(["2006年12月", "·2005年12月 (100)", "2006年11月(6)", "2006/12", "2006.11 release"])("%s (a month) is no day", (input) => {
    expect(normaliseDate(input, NOW)).toBeUndefined();
  });
});

describe("only days a string writes", () => {
  // chrono-node builds "in 2000 minutes" from its reference day (2000-01-01): every part certain,
  // the year 2000 written in the text, and yet no day the string writes.
  it.each([
    ["in 2000 minutes, May 4", "en"],
    ["in 2000 minutes, May 4", ""],
    ["Mai 4: in 2000 Minuten", "de"],
    ["Mai 4: in 2000 Minuten", ""],
    ["2000 hours from now, 4 May", "en"],
    // A day counted from a written one is not written either.
    ["3 days after May 4, 2021", "en"],
  ])("%s (lang %j) is no date", (input, lang) => {
    expect(normaliseDate(input, NOW, lang)).toBeUndefined();
  });

  it("a written day beside a relative expression is still read", () => {
    expect(normaliseDate("Posted May 4, 2000 (in 2000 minutes)", NOW, "en")).toBe("2000-05-04");
    expect(normaliseDate("4. Mai 2000, in 20 Minuten", NOW, "de")).toBe("2000-05-04");
  });

  it("a story whose only date line is relative has no date", () => {
    const html = `<html><body><article><h1>Tides</h1><p>By Ann Lee</p><p>in 2000 minutes, May 4</p>
<p>The tide comes in twice a day.</p></article></body></html>`;
    const { meta } = metadataOf(html);
    expect(meta.author).toBe("Ann Lee");
    expect(meta.date).toBeUndefined();
    // The same page with a written day is dated.
    expect(metadataOf(html.replace("in 2000 minutes, May 4", "May 4, 2000")).meta.date).toBe("2000-05-04");
  });
});

describe("chrono-node's cost per page", () => {
  // The collector's dates.ts loads chrono-node through require: the same module instance as here.
  const english = (createRequire(import.meta.url)("chrono-node/en") as { strict: { parse: (...args: unknown[]) => unknown } }).strict;

  it("is not run where the only numbers are years, counts or ranges: no day can be read there", () => {
    const parse = vi.spyOn(english, "parse");
    try {
      for (const input of ["Little Brother Montgomery (1908-1985)", "© 1996-2006 Biz/ed", "Issue 279, November 2003"]) {
        expect(normaliseDate(input, NOW, "en")).toBeUndefined();
      }
      expect(parse).not.toHaveBeenCalled();
      // A day beside them still reads.
      expect(normaliseDate("March 4th, 2021 (issue 279, 1908-1985)", NOW, "en")).toBe("2021-03-04");
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it("runs a language's parsers only on strings holding one of its month names or a numeric date", () => {
    const load = createRequire(import.meta.url);
    const italian = (load("chrono-node/it") as { strict: { parse: (...args: unknown[]) => unknown } }).strict;
    const russian = (load("chrono-node/ru") as { strict: { parse: (...args: unknown[]) => unknown } }).strict;
    const italianParse = vi.spyOn(italian, "parse");
    const russianParse = vi.spyOn(russian, "parse");
    try {
      // No language declared: every language may be tried, but only where it could find a day.
      expect(normaliseDate("Page 12 of the 2003 annual report", NOW, "")).toBeUndefined();
      expect(italianParse).not.toHaveBeenCalled();
      expect(russianParse).not.toHaveBeenCalled();
      // An Italian month name, and a day, month and year in numbers, are parsed as before.
      expect(normaliseDate("Pubblicato il 4 settembre 2021", NOW, "")).toBe("2021-09-04");
      expect(italianParse).toHaveBeenCalled();
      expect(normaliseDate("Опубликовано 4 марта 2021 года", NOW, "")).toBe("2021-03-04");
      expect(russianParse).toHaveBeenCalled();
      expect(normaliseDate("Stand: 4-3-21, 2021", NOW, "")).toBe(normaliseDate("Stand: 4-3-21, 2021", NOW, "de"));
    } finally {
      italianParse.mockRestore();
      russianParse.mockRestore();
    }
  });

  it("runs the Chinese and Japanese parsers only on strings with Han, or a year and a separator after it", () => {
    const load = createRequire(import.meta.url);
    const chinese = (load("chrono-node/zh") as { strict: { parse: (...args: unknown[]) => unknown } }).strict;
    const japanese = (load("chrono-node/ja") as { strict: { parse: (...args: unknown[]) => unknown } }).strict;
    const chineseParse = vi.spyOn(chinese, "parse");
    const japaneseParse = vi.spyOn(japanese, "parse");
    try {
      // No language declared, no Han: a date English cannot read either is tried in neither.
      expect(normaliseDate("Wednesday, December 6. 2006", NOW, "")).toBeUndefined();
      // Katakana's middle dot is no Han: English reads the date, alone.
      expect(normaliseDate("December 18, 2025 ・ 3 min read", NOW, "")).toBe("2025-12-18");
      expect(chineseParse).not.toHaveBeenCalled();
      expect(japaneseParse).not.toHaveBeenCalled();
      // Japanese's slash dates need no Han ("|" is one of its separators) and are still read.
      expect(normaliseDate("Vol. 2021|3|4", NOW, "")).toBe("2021-03-04");
      expect(japaneseParse).toHaveBeenCalledTimes(1);
      // Han: parsed, as before.
      expect(normaliseDate("发布于 2021 年的 3月4日", NOW, "")).toBe(normaliseDate("发布于 2021 年的 3月4日", NOW, "zh"));
      expect(chineseParse).toHaveBeenCalled();
    } finally {
      chineseParse.mockRestore();
      japaneseParse.mockRestore();
    }
  });

  it("reads each distinct date string of a page once, whichever candidate offers it", () => {
    const parse = vi.spyOn(english, "parse");
    try {
      // Two date-class elements and a byline say the same thing, which is no date: the URL's date wins.
      const html = `<html lang="en"><body><p class="post-date">Posted 4 times in May 2019</p><p class="byline">Posted 4 times in May 2019</p>
<p>Body text.</p><span class="entry-date">Posted 4 times in May 2019</span></body></html>`;
      const { meta } = metadataOf(html, "https://example.org/2021/03/04/story");
      expect(meta.date).toBe("2021-03-04");
      expect(parse).toHaveBeenCalledTimes(1);
      // The next page reads it again: what a page reads depends on its bound and language.
      metadataOf(html, "https://example.org/2021/03/04/story");
      expect(parse).toHaveBeenCalledTimes(2);
    } finally {
      parse.mockRestore();
    }
  });

  it("gives each page its own lists: a collector reused page after page never shares one", () => {
    const collector = new MetadataCollector();
    const page = (tag: string) =>
      `<html><head><meta property="article:tag" content="${tag}"><meta property="article:section" content="S ${tag}"></head><body><p>x</p></body></html>`;
    const first = collector.finish("", NOW, segmentHtml(page("one"), { observer: collector }).blocks);
    const empty = collector.finish("", NOW, segmentHtml("<html><body><p>x</p></body></html>", { observer: collector }).blocks);
    const second = collector.finish("", NOW, segmentHtml(page("two"), { observer: collector }).blocks);
    expect(first).toMatchObject({ tags: ["one"], categories: ["S one"] });
    expect(empty.tags).toBeUndefined();
    expect(empty.categories).toBeUndefined();
    expect(second).toMatchObject({ tags: ["two"], categories: ["S two"] });
  });
});
