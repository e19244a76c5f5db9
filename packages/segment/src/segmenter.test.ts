import { readFileSync, readdirSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CLASS_WORD_GROUPS, Doctype, MAX_NESTING, Segmenter, segmentHtml } from "./index.js";
import { classWordMask } from "./class-words.js";

const sample = (id: string) =>
  gunzipSync(readFileSync(new URL(`../../../fixtures/wcxb-sample/html/${id}.html.gz`, import.meta.url))).toString("utf8");

const texts = (html: string) => segmentHtml(html).blocks.map((b) => b.text);
const group = (name: string) => 1 << CLASS_WORD_GROUPS.findIndex(([g]) => g === name);

describe("pages in pieces", () => {
  it("gives the same document as the whole string when cut before tags, as decodeHtmlPieces cuts", () => {
    const ids = readdirSync(new URL("../../../fixtures/wcxb-sample/html/", import.meta.url)).map((f) => f.slice(0, 4));
    expect(ids.length).toBeGreaterThan(10);
    for (const id of ids) {
      const html = sample(id);
      // Cut before a `<` roughly every 2,000 characters.
      const pieces: string[] = [];
      let from = 0;
      for (let at = html.indexOf("<", 2000); at > 0; at = html.indexOf("<", at + 2000)) {
        pieces.push(html.slice(from, at));
        from = at;
      }
      pieces.push(html.slice(from));
      expect(pieces.length).toBeGreaterThan(2);
      const whole = segmentHtml(html, { subtrees: true });
      expect(segmentHtml(pieces, { subtrees: true })).toEqual(whole);
    }
  });

  it("keeps text, attributes and entities whole when a cut falls inside them", () => {
    const html = '<div class="main story"><p>Fish &amp; chips, twice.</p><p title="x">Mushy peas</p></div>';
    const whole = segmentHtml(html);
    for (const at of [8, 15, 30, 36, 40, 50, 70]) {
      const cut = segmentHtml([html.slice(0, at), html.slice(at)]);
      expect(cut.blocks.map((b) => [b.text, b.classIds, b.markupChars])).toEqual(
        whole.blocks.map((b) => [b.text, b.classIds, b.markupChars]),
      );
    }
  });
});

describe("block boundaries", () => {
  it("splits at block-level tags and keeps inline tags inside the block", () => {
    expect(texts("<div>One <b>bold</b> <a href=x>link</a>.<p>Two</p>Three</div><ul><li>Four<li>Five</ul>")).toEqual([
      "One bold link.",
      "Two",
      "Three",
      "Four",
      "Five",
    ]);
  });

  it("joins adjacent inline text without inventing spaces and folds whitespace", () => {
    expect(texts("<p>un<span>believ</span>able \n\t  words&nbsp; here </p>")).toEqual(["unbelievable words here"]);
  });

  it("treats one <br> as a space and a run of two or more as a boundary", () => {
    expect(texts("<p>line one<br>line two<br><br>next block<br/><br/><br/>last</p>")).toEqual(["line one line two", "next block", "last"]);
  });

  it("drops scripts, styles, templates, svg, comments, hidden elements and the head", () => {
    const html = `<html><head><title>T</title><style>p{}</style></head><body>
      <script>var x = "<p>no</p>";</script><!-- a comment -->
      <p>visible</p><template><p>tpl</p></template><svg><text>svg text</text></svg>
      <div hidden>hidden attr</div><div style="display: none">hidden style</div><span aria-hidden="true">icon</span>
      <select><option>Country</option></select><p>end</p></body></html>`;
    expect(texts(html)).toEqual(["visible", "end"]);
  });

  it("keeps long <noscript> text, where some sites put their only copy of the content", () => {
    const post = "A forum post body that a site serves only to readers without scripts. ".repeat(5).trim();
    expect(texts(`<noscript><p>${post}</p></noscript>`)).toEqual([post]);
  });

  it("decodes entities", () => {
    expect(texts("<p>caf&eacute; &amp; cr&#232;me &lt;tag&gt; &#x1F600;</p>")).toEqual(["café & crème <tag> 😀"]);
  });
});

describe("what each block carries", () => {
  const doc = segmentHtml(`<!DOCTYPE html><html><head><title> The   Title </title></head><body>
    <nav class="main-nav" id="top"><ul><li><a href="/">Home</a></li><li><a href="/a">About us</a></li></ul></nav>
    <article class="post"><h2>Heading</h2><p>Text with <a href="/x">two</a> <a href="/y">links</a> inside.</p></article>
    </body></html>`);

  it("reads the title and the doctype", () => {
    expect(doc.title).toBe("The Title");
    expect(doc.doctype).toBe(Doctype.Html5);
  });

  it("records tag path, container, class/id words, heading level", () => {
    const [home, about, heading, para] = doc.blocks;
    expect(home.tagPath).toBe("html/body/nav/ul/li/a");
    expect(home.container).toBe("li");
    expect(home.classIds).toBe("main-nav top");
    expect(about.text).toBe("About us");
    expect(heading.heading).toBe(2);
    expect(heading.container).toBe("h2");
    expect(para.heading).toBe(0);
    expect(para.classIds).toBe("post");
    expect(para.tagPath).toBe("html/body/article/p");
  });

  it("masks the class/id words of the innermost six ancestors, and of the innermost two apart", () => {
    const [home, , , para] = doc.blocks;
    expect(home.classMask).toBe(classWordMask("main-nav top"));
    expect(home.classMask & group("navigation")).toBeTruthy();
    expect(para.classMask).toBe(group("content"));
    const nested = segmentHtml(
      '<div class="footer"><div class="a1"><div class="sidebar"><div class="a2"><div class="a3"><div class="a4">' +
        '<div class="comment"><div class="menu"><p>deep</p></div></div></div></div></div></div></div></div>',
    ).blocks[0];
    // Six innermost: a1 is the outermost kept, so "footer" has dropped out; near = comment, menu.
    expect(nested.classIds).toBe("a1 | sidebar | a2 | a3 | a4 | comment | menu".split(" | ").slice(1).join(" | "));
    expect(nested.classMask).toBe(group("sidebar") | group("comments") | group("navigation"));
    expect(nested.nearClassMask).toBe(group("comments") | group("navigation"));
  });

  it("gives blocks with equal tag paths one path id, and other paths other ids", () => {
    const blocks = segmentHtml("<div><p>a</p><p>b</p></div><div><p>c</p><span>d<br><br>e</span></div>").blocks;
    expect(blocks.map((b) => b.tagPath)).toEqual(["div/p", "div/p", "div/p", "div/span", "div/span"]);
    const [a, b, c, d, e] = blocks.map((x) => x.pathId);
    expect(a).toBe(b);
    expect(a).toBe(c);
    expect(d).toBe(e);
    expect(d).not.toBe(a);
    // The first path a document meets is 0 again in the next document.
    expect(segmentHtml("<p>x</p>").blocks[0].pathId).toBe(0);
  });

  it("counts anchors and anchor characters", () => {
    const para = doc.blocks[3];
    expect(para.text).toBe("Text with two links inside.");
    expect(para.anchorCount).toBe(2);
    expect(para.anchorChars).toBe("two".length + "links".length);
    expect(doc.blocks[0].anchorChars).toBe(4);
  });

  it("counts markup and text so that the document adds up", () => {
    let text = 0;
    for (const b of doc.blocks) {
      expect(b.textChars).toBe(b.text.length);
      expect(b.markupChars).toBeGreaterThan(0);
      text += b.textChars;
    }
    expect(doc.textChars).toBe(text);
    expect(doc.markupChars).toBeGreaterThan(doc.textChars);
  });

  it("gives blocks of one section the same parent id", () => {
    const [home, about, heading, para] = doc.blocks;
    expect(home.parentId).toBe(about.parentId); // both li in the same ul
    expect(heading.parentId).toBe(para.parentId); // both in the article
    expect(home.parentId).not.toBe(para.parentId);
  });

  it("counts empty blocks before a block", () => {
    const blocks = segmentHtml("<p>a</p><div></div><div> </div><p>b</p>").blocks;
    expect(blocks[1].emptyBefore).toBeGreaterThanOrEqual(2);
  });

  it("classifies doctypes", () => {
    expect(segmentHtml('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN"><p>x</p>').doctype).toBe(Doctype.Html4);
    expect(segmentHtml('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN"><p>x</p>').doctype).toBe(Doctype.Xhtml);
    expect(segmentHtml("<p>x</p>").doctype).toBe(Doctype.Undeclared);
  });
});

describe("hostile input", () => {
  it("caps the tag path of deeply nested text", () => {
    const depth = 3000;
    const doc = segmentHtml(`${"<div>".repeat(depth)}deep text${"</div>".repeat(depth)}`);
    expect(doc.blocks.map((b) => b.text)).toEqual(["deep text"]);
    expect(doc.truncated).toBe(false);
    expect(doc.blocks[0].tagPath.startsWith("…/div")).toBe(true);
    expect(doc.blocks[0].tagPath.split("/").length).toBeLessThanOrEqual(49);
  });

  it("gives capped tag paths that read the same one path id, though their full paths differ", () => {
    const deep = (outer: string) => `<${outer}>${"<div>".repeat(60)}<p>x</p>${"</div>".repeat(60)}</${outer}>`;
    const blocks = segmentHtml(deep("section") + deep("article")).blocks;
    expect(blocks).toHaveLength(2);
    expect(blocks[0].tagPath).toBe(blocks[1].tagPath);
    expect(blocks[0].pathId).toBe(blocks[1].pathId);
  });

  it("cuts 100,000-deep nesting at MAX_NESTING in bounded time and says so", () => {
    const depth = 100_000;
    const started = Date.now();
    const doc = segmentHtml(`<p>before</p>${"<div>".repeat(depth)}deep text${"</div>".repeat(depth)}`);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(doc.truncated).toBe(true);
    expect(doc.blocks.map((b) => b.text)).toEqual(["before"]);
  });

  it("leaves no pause behind: after a page cut at MAX_NESTING, the next page is read whole", () => {
    const segmenter = new Segmenter();
    const next = "<p>one</p><div>two <a href='/'>three</a></div>";
    const fresh = segmenter.segment(next);
    expect(segmenter.segment(`${"<div>".repeat(MAX_NESTING + 10)}deep`).truncated).toBe(true);
    const after = segmenter.segment(next);
    expect(after).toEqual(fresh);
    expect(after.blocks.map((b) => b.text)).toEqual(["one", "two three"]);
  });

  it("handles a 10 MB text node in bounded time", () => {
    const started = Date.now();
    const doc = segmentHtml(`<p>${"word ".repeat(2_000_000)}</p>`);
    expect(doc.blocks).toHaveLength(1);
    expect(doc.blocks[0].textChars).toBe(2_000_000 * 5 - 1);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("copes with unclosed and stray tags", () => {
    expect(texts("<div><p>open<p>again</span></div></div></td>tail")).toEqual(["open", "again", "tail"]);
  });

  it("is reusable: a Segmenter gives the same result twice and keeps no state between documents", () => {
    const segmenter = new Segmenter();
    const first = segmenter.segment("<p>one</p><div>two");
    segmenter.segment("<div><div><div>unclosed");
    expect(segmenter.segment("<p>one</p><div>two")).toEqual(first);
  });
});

describe("class words", () => {
  it("reads class and id words, as whole tokens for short keywords and substrings for long ones", () => {
    expect(classWordMask("site-footer") & group("footer")).toBeTruthy();
    expect(classWordMask("mainmenu") & group("navigation")).toBeTruthy();
    expect(classWordMask("header") & group("advert")).toBe(0); // "ad" is whole-token only
    expect(classWordMask("top-ad") & group("advert")).toBeTruthy();
    expect(classWordMask("")).toBe(0);
  });

  it("follows the rule as plainly written, on any class string", () => {
    // The rule: a token that is a keyword gives its first group; another token longer than three
    // characters gives the groups of every longer-than-three keyword it contains.
    const plain = (classIds: string) => {
      let mask = 0;
      for (const token of classIds.match(/[a-z0-9]+/g) ?? []) {
        const whole = CLASS_WORD_GROUPS.findIndex(([, words]) => (words as readonly string[]).includes(token));
        if (whole >= 0) mask |= 1 << whole;
        else if (token.length > 3) {
          CLASS_WORD_GROUPS.forEach(([, words], g) => {
            if (words.some((w) => w.length > 3 && token.includes(w))) mask |= 1 << g;
          });
        }
      }
      return mask;
    };
    const piece = fc.oneof(
      fc.constantFrom(...CLASS_WORD_GROUPS.flatMap(([, words]) => words)),
      fc.constantFrom(" ", "-", "_", "__", ":", " | ", "x", "2", "é", "sh"),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 8 }).map((p) => p.join("").toLowerCase()),
        (s) => classWordMask(s) === plain(s),
      ),
      { numRuns: 2000 },
    );
  });
});

describe("real pages", () => {
  it("finds the nginx documentation's navigation and its body text", () => {
    const doc = segmentHtml(sample("0684"));
    expect(doc.title).toBe("Module ngx_http_rewrite_module");
    const news = doc.blocks.find((b) => b.text === "news");
    expect(news?.tagPath).toContain("/nav/");
    expect(news?.anchorCount).toBe(1);
    const directive = doc.blocks.find((b) => b.text.startsWith("The ngx_http_rewrite_module module is used to change request URI"));
    expect(directive).toBeDefined();
    expect(directive!.anchorChars / directive!.textChars).toBeLessThan(0.3);
  });

  it("keeps every paragraph of a real article as its own block", () => {
    const html = sample("0437");
    const doc = segmentHtml(html);
    expect(doc.blocks.length).toBeGreaterThan(20);
    for (const b of doc.blocks) {
      expect(b.text).toBe(b.text.trim());
      expect(b.text).not.toMatch(/\s{2,}/);
    }
  });
});

describe("the segmenter as htmlparser2's handler", () => {
  it("answers only the five callbacks it reads (another, such as onopentag, would make the parser build objects it never needs)", () => {
    const callbacks = Object.getOwnPropertyNames(Segmenter.prototype).filter((name) => name.startsWith("on"));
    expect(callbacks.sort()).toEqual(["onattribute", "onclosetag", "onopentagname", "onprocessinginstruction", "ontext"]);
    // And one Segmenter still reads one page after another as a fresh one does.
    const reused = new Segmenter();
    const html = '<!DOCTYPE html><title>T</title><div class="nav"><p>One two three four five six.</p></div>';
    reused.segment("<p>An earlier page, with <b>its own</b> text.</p>");
    expect(reused.segment(html)).toEqual(new Segmenter().segment(html));
  });
});

describe("repeated blocks", () => {
  it("compares texts in lowercase, and a short <noscript>'s block dropped is no block's first copy", () => {
    const html =
      "<p>Intro text here.</p><noscript><p>Please Enable JavaScript to see this page.</p></noscript>" +
      "<p>please enable javascript to see this page.</p><p>Please enable JavaScript to see this page.</p><p>Please enable JavaScript to see it.</p>";
    expect(segmentHtml(html).blocks.map((b) => [b.text, b.repeatOf])).toEqual([
      ["Intro text here.", -1],
      ["please enable javascript to see this page.", -1],
      ["Please enable JavaScript to see this page.", 1],
      ["Please enable JavaScript to see it.", -1],
    ]);
  });
});
