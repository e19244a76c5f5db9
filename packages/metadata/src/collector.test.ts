import { segmentHtml } from "@winnow/segment";
import { describe, expect, it } from "vitest";
import { MetadataCollector } from "./collector.js";
import { normaliseDate } from "./dates.js";

const NOW = Date.UTC(2026, 10, 25);

function metadataOf(html: string, url = "https://example.org/news/story.html") {
  const collector = new MetadataCollector();
  const doc = segmentHtml(html, { observer: collector });
  return { doc, meta: collector.finish(url, NOW) };
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

  it.each(["2021-02-30", "1994-12-31", "2027-01-01", "yesterday", "12345", "1 year ago", "2024-13-01"])("%s is no date", (input) => {
    expect(normaliseDate(input, NOW)).toBeUndefined();
  });
});
