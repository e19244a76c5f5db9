// Where the head ends and the body begins (issue #20): the segmenter follows the HTML standard's
// tree builder ("in head", "after head", "after body") where htmlparser2 only keeps a stack, so
// that a page whose <head> is never closed keeps its text, as it does in a browser.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { segmentHtml } from "./index.js";

const fixture = (id: string) =>
  gunzipSync(readFileSync(new URL(`../../../fixtures/wcxb-structure/html/${id}.html.gz`, import.meta.url))).toString("utf8");

/** Each block's text and tag path. */
const blocks = (html: string) => segmentHtml(html).blocks.map((b) => [b.text, b.tagPath]);

const PARAGRAPH =
  "The council voted seven to two on Tuesday night to approve the budget for next year, after a debate that ran past midnight.";
const SECOND = "Spending on roads rises by a tenth, and the library keeps its Sunday hours.";

/** A well-formed page; the cases below take parts of it away. */
const WELL_FORMED = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>City council approves the new budget</title>
  <link rel="stylesheet" href="/site.css">
  <style>body { margin: 0 }</style>
  <script>window.dataLayer = [];</script>
  <noscript><img src="/pixel.gif"></noscript>
</head>
<body class="article-page">
  <div id="nav"><a href="/">Home</a> | <a href="/news">News</a></div>
  <div class="story">
    <h1>City council approves the new budget</h1>
    <p>The council voted seven to two on Tuesday night to approve the budget for next year.</p>
    <p>Spending on roads rises by a tenth, and the library keeps its Sunday hours.</p>
  </div>
  <div id="footer">Copyright 2008 The Daily Example</div>
  <script>track();</script>
</body>
</html>
`;

/**
 * The structure of many 2008 news pages (l3s-gn1): a damaged <meta> swallows the <table> start
 * tag, so the first body element the head meets is a <tr>; neither </head> nor <body> follows.
 */
const DAMAGED_HEAD = `<html>
<head>
<title>Storm closes coast roads - The Example Gazette</title>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<script language="JavaScript"><!--
function openChat() { window.open("chat.html", "Chat"); }
//--></script>
<meta HTTP-EQUIV="Expires" CONTEN<table width="100%" border="0">
<tr><td class="nav"><a href="/">Home</a> | <a href="/news/">News</a></td></tr>
<tr><td class="story"><h1>Storm closes coast roads</h1>
<p>${PARAGRAPH}</p>
<p>${SECOND}</p></td></tr>
</table>
</html>
`;

describe("a head that is never closed", () => {
  it("ends at the first body element: the smallest case of issue #20 keeps its paragraph", () => {
    const doc = segmentHtml(`<html><head><title>t</title><p>${PARAGRAPH}</p></html>`);
    expect(doc.title).toBe("t");
    expect(doc.blocks.map((b) => [b.text, b.tagPath, b.container])).toEqual([[PARAGRAPH, "html/body/p", "p"]]);
  });

  it("ends at a <div> or a <table>, with no </head> and no <body> anywhere", () => {
    expect(
      blocks(`<html><head><title>t</title><meta name="x" content="y"><div class="story"><h1>Headline</h1><p>${PARAGRAPH}</p></div></html>`),
    ).toEqual([
      ["Headline", "html/body/div/h1"],
      [PARAGRAPH, "html/body/div/p"],
    ]);
    expect(blocks(`<HTML><HEAD><TITLE>t</TITLE><TABLE><TR><TD>Menu</TD><TD><P>${PARAGRAPH}</P></TD></TR></TABLE></HTML>`)).toEqual([
      ["Menu", "html/body/table/tr/td"],
      [PARAGRAPH, "html/body/table/tr/td/p"],
    ]);
  });

  it("ends where a damaged tag lets body markup in, as on 2008 news pages", () => {
    const doc = segmentHtml(DAMAGED_HEAD);
    expect(doc.title).toBe("Storm closes coast roads - The Example Gazette");
    expect(doc.blocks.map((b) => [b.text, b.tagPath, b.classIds])).toEqual([
      ["Home | News", "html/body/tr/td/a", "nav"],
      ["Storm closes coast roads", "html/body/tr/td/h1", "story"],
      [PARAGRAPH, "html/body/tr/td/p", "story"],
      [SECOND, "html/body/tr/td/p", "story"],
    ]);
  });

  it("ends at text that is not whitespace, which browsers show at the top of the body", () => {
    expect(blocks(`<html><head><title>t</title>\n \t\n<meta charset="utf-8">Stray words<link rel="x" href="y"><p>Para</p></html>`)).toEqual(
      [
        ["Stray words", "html/body"],
        ["Para", "html/body/p"],
      ],
    );
    // A script that a </SCRIPT> inside one of its strings ends early, as it ends in browsers too.
    const early = `<html><head><title>t</title><SCRIPT LANGUAGE=JavaScript><!--
document.write('<SC'+'RIPT SRC="ads.js"></SCRIPT>');
//-->
</SCRIPT>
<link rel="stylesheet" href="s.css"></head><body><p>Para</p></body></html>`;
    expect(blocks(early)).toEqual([
      ["'); //-->", "html/body"],
      ["Para", "html/body/p"],
    ]);
  });
});

describe("what stays in the head", () => {
  it("keeps the <title> as the title and out of the blocks, wherever the head ends", () => {
    const doc = segmentHtml(`<html><head><meta charset="utf-8"><title>The Title</title><p>Body text</p></html>`);
    expect(doc.title).toBe("The Title");
    expect(doc.blocks.map((b) => b.text)).toEqual(["Body text"]);
    // A title after the first body element is still the document's first title.
    const late = segmentHtml(`<html><head><meta charset="utf-8"><div>Banner</div><title>Late Title</title><p>Body</p></html>`);
    expect(late.title).toBe("Late Title");
    expect(late.blocks.map((b) => b.text)).toEqual(["Banner", "Body"]);
  });

  it("still skips <style>, <script>, <noscript> and <template> in a head that is never closed", () => {
    const head = `<title>t</title><style>p { color: red }</style><script>var s = "<p>not text</p>";</script>
      <noscript><p>Please enable JavaScript</p><img src="x.gif"></noscript><template><p>tpl</p></template><base href="/">`;
    expect(blocks(`<html><head>${head}<p>Article</p></html>`)).toEqual([["Article", "html/body/p"]]);
    expect(blocks(`<html><head>${head}</head><body><p>Article</p></body></html>`)).toEqual([["Article", "html/body/p"]]);
  });
});

describe("a body that is missing, late or left", () => {
  it("puts content after </head>, or after <html> alone, in a body", () => {
    expect(blocks("<html><head><title>t</title></head><div>No body tag</div></html>")).toEqual([["No body tag", "html/body/div"]]);
    expect(blocks("<html><p>No head either</p></html>")).toEqual([["No head either", "html/body/p"]]);
    expect(blocks("<head><title>t</title></head><p>No html tag</p>")).toEqual([["No html tag", "body/p"]]);
  });

  it("lets the page's <body> take the place of the body implied by content before it", () => {
    const doc = segmentHtml(`<html><head><title>t</title></head><noscript><iframe src="/gtm"></iframe></noscript>
      <body class="page"><p>Text</p></body></html>`);
    expect(doc.blocks.map((b) => [b.text, b.tagPath, b.classIds])).toEqual([["Text", "html/body/p", "page"]]);
  });

  it("ignores a stray </head> and a late <body> once the head has ended", () => {
    const doc = segmentHtml(`<html><head><title>t</title><div>Top</div></head><body class="page"><p>Rest</p></body></html>`);
    expect(doc.blocks.map((b) => [b.text, b.tagPath, b.classIds])).toEqual([
      ["Top", "html/body/div", ""],
      ["Rest", "html/body/p", "page"],
    ]);
    // A <body> inside an element of the body is merged away, attributes and all.
    const inner = segmentHtml(`<html><head><title>t</title><div>Top<body class="x"><p>Rest</p></div></html>`);
    expect(inner.blocks.map((b) => [b.text, b.tagPath, b.classIds])).toEqual([
      ["Top", "html/body/div", ""],
      ["Rest", "html/body/div/p", ""],
    ]);
  });

  it("keeps text after </body> and after </html> in the body, as browsers do", () => {
    expect(
      blocks("<html><head><title>t</title></head><body><p>In the body</p></body>After the body<div>Footer</div></html>After the page"),
    ).toEqual([
      ["In the body", "html/body/p"],
      ["After the body", "html/body"],
      ["Footer", "html/body/div"],
      ["After the page", "html/body"],
    ]);
  });

  it("puts no body above a frameset", () => {
    expect(blocks("<html><head><title>t</title><frameset><frame src='a.html'><noframes>Use frames</noframes></frameset></html>")).toEqual([
      ["Use frames", "html/frameset/noframes"],
    ]);
  });
});

describe("second html, head and body tags", () => {
  it("merges a page included inside the page: no paths through its html and body, its title and styles hidden", () => {
    const doc = segmentHtml(`<html><head><title>Outer</title></head><body><div class="side"><html><head><title>Inner</title>
      <style>.x { }</style></head><body class="inner"><p>Included</p></body></html></div><p>Main</p></body></html>`);
    expect(doc.title).toBe("Outer");
    expect(doc.blocks.map((b) => [b.text, b.tagPath, b.classIds])).toEqual([
      ["Included", "html/body/div/p", "side"],
      ["Main", "html/body/p", ""],
    ]);
  });

  it("shows what a head inside the body holds besides its title, styles and scripts", () => {
    expect(
      blocks("<html><head><title>t</title></head><body><head><title>Widget</title><div>Widget text</div></head><p>Main</p></body></html>"),
    ).toEqual([
      ["Widget text", "html/body/div"],
      ["Main", "html/body/p"],
    ]);
  });

  it("merges an <html> inside an unclosed head, and the <body> under it", () => {
    expect(blocks("<html><head><title>t</title><html><head><title>u</title></head><body class='x'><p>Text</p></body></html>")).toEqual([
      ["Text", "html/body/p"],
    ]);
  });
});

describe("pages that were fine before", () => {
  it("gives a well-formed page the blocks it gave before heads were ended early", () => {
    // Recorded from the segmenter of commit 5fb01fc, which had none of this.
    const doc = segmentHtml(WELL_FORMED);
    expect(doc.title).toBe("City council approves the new budget");
    expect(
      doc.blocks.map((b) => [b.text, b.tagPath, b.container, b.classIds, b.emptyBefore, b.markupChars, b.parentId, b.grandparentId]),
    ).toEqual([
      ["Home | News", "html/body/div/a", "div", "article-page | nav", 3, 56, 2, 1],
      ["City council approves the new budget", "html/body/div/h1", "h1", "article-page | story", 2, 9, 4, 2],
      [
        "The council voted seven to two on Tuesday night to approve the budget for next year.",
        "html/body/div/p",
        "p",
        "article-page | story",
        1,
        7,
        4,
        2,
      ],
      [SECOND, "html/body/div/p", "p", "article-page | story", 1, 7, 4, 2],
      ["Copyright 2008 The Daily Example", "html/body/div", "div", "article-page | footer", 2, 23, 2, 1],
    ]);
  });

  it("gives the same page without </head>, <body> and </body> the same texts and paths", () => {
    const damaged = WELL_FORMED.replace("</head>", "").replace('<body class="article-page">', "").replace("</body>", "");
    expect(damaged).not.toMatch(/<\/head>|<\/?body/);
    expect(blocks(damaged)).toEqual(blocks(WELL_FORMED));
  });

  it("leaves fragments without html, head or body as they were", () => {
    expect(blocks("<div><p>a</p></div>tail<p>b</p>")).toEqual([
      ["a", "div/p"],
      ["tail", ""],
      ["b", "p"],
    ]);
  });
});

describe("pieces", () => {
  it("gives the same document when the page is cut in two anywhere", () => {
    for (const html of [DAMAGED_HEAD, `<html><head><title>t</title>\n Stray <b>words</b><p>${PARAGRAPH}</p></html>after`]) {
      const whole = segmentHtml(html, { subtrees: true });
      for (let at = 1; at < html.length; at++) {
        expect(segmentHtml([html.slice(0, at), html.slice(at)], { subtrees: true }), `cut at ${at}`).toEqual(whole);
      }
    }
  });
});

describe("real pages (WCXB, CC-BY-4.0)", () => {
  it("reads the newsletter form that a photography blog put inside its <head>, and the article after it", () => {
    const doc = segmentHtml(fixture("4166"));
    expect(doc.title).toBe("Guide to Landscape Photography Composition: A Four-Step Process — Mark Denney | Landscape Photography");
    expect(doc.blocks.slice(0, 2).map((b) => [b.text, b.tagPath])).toEqual([
      ["🔥Better Photos Fast", "html/body/form/div/div/div/h2"],
      ["Get your FREE Lightroom Color Editing Course & Learn How to:", "html/body/form/div/div/div/p"],
    ]);
    const survey = doc.blocks.find((b) => b.text.startsWith("Over the past couple of years, I’ve been running a survey"));
    expect(survey?.tagPath.startsWith("html/body/div/")).toBe(true);
    expect(doc.blocks.every((b) => b.tagPath.startsWith("html/body/"))).toBe(true);
  });

  it("merges the second head and body of an AWS documentation page: one html/body at the top of every path", () => {
    const doc = segmentHtml(fixture("4412"));
    expect(doc.title).toBe("Optimizing PostgreSQL query performance - AWS Prescriptive Guidance");
    expect(doc.blocks).toHaveLength(17);
    for (const b of doc.blocks) {
      expect(b.tagPath.startsWith("html/body/")).toBe(true);
      expect(b.tagPath.slice("html/body/".length)).not.toMatch(/(^|\/)(html|head|body)(\/|$)/);
    }
    const h1 = doc.blocks.find((b) => b.heading === 1);
    expect(h1?.text).toBe("Optimizing PostgreSQL query performance");
    // The second <title> (inside the body's <head>) is neither the title nor a block.
    expect(doc.blocks.some((b) => b.text === doc.title)).toBe(false);
  });
});
