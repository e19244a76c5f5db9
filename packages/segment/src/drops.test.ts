/**
 * Text the segmenter used to lose before any model saw it (issue 35, what winnow wrongly drops):
 * each case a small page, checked by the blocks it makes.
 */
import { describe, expect, it } from "vitest";
import { segmentHtml } from "./index.js";

const texts = (html: string) => segmentHtml(html).blocks.map((b) => b.text);
const page = (body: string) => `<!doctype html><html><head><title>T</title></head><body>${body}</body></html>`;

describe("a self-closed <iframe/>", () => {
  it("does not hide the rest of a streamed page behind a tag manager's <noscript><iframe/></noscript>", () => {
    // As WCXB dev 2838 (render.com) serves it: the snippet between the shell and the streamed segment.
    const html = page(
      `<main><!--$?--><template id="B:0"></template><!--/$--><footer><p>© Footer</p></footer></main>
       <noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X" height="0" width="0" style="display: none; visibility: hidden;" /></noscript>
       <div hidden id="S:0"><h1>Your fastest path to production</h1><p>Intuitive infrastructure to scale any app.</p></div>
       <script>$RC("B:0","S:0")</script>`,
    );
    expect(texts(html)).toEqual(["© Footer", "Your fastest path to production", "Intuitive infrastructure to scale any app."]);
  });

  it("is an empty frame anywhere, with the text after it in the same block", () => {
    expect(texts(page(`<p>before <iframe src="x" /> after</p><p>next</p>`))).toEqual(["before after", "next"]);
    expect(texts(page(`<p>before <iframe/> after</p>`))).toEqual(["before after"]);
  });

  it("leaves an iframe with an end tag as it was: its fallback content is never text", () => {
    expect(texts(page(`<p>before <iframe src="x">Your browser cannot show frames</iframe> after</p>`))).toEqual(["before after"]);
    // An unquoted value takes the slash (browsers read src as "x/"): not self-closed, raw text to the end.
    expect(texts(page(`<p>before <iframe src=x/> hidden</p>`))).toEqual(["before"]);
  });

  it("reads the same whether the page comes whole or in pieces cut inside the tag", () => {
    const html = page(`<noscript><iframe src="x" /></noscript><p>after the snippet</p>`);
    const cut = html.indexOf("/>");
    expect(segmentHtml([html.slice(0, cut), html.slice(cut, cut + 1), html.slice(cut + 1)]).blocks.map((b) => b.text)).toEqual(texts(html));
    expect(texts(html)).toEqual(["after the snippet"]);
  });
});

describe("a stray <![CDATA[ in HTML", () => {
  it("is a bogus comment that ends at the next >, as browsers read it, not a section waiting for ]]>", () => {
    // As a XenForo theme serves it (WCXB dev 4492): nothing of the thread showed.
    const html = page(`<![CDATA[\n\n<div id="jumpToTop"></div><main><p>First post of the thread.</p><p>A reply.</p></main>`);
    expect(texts(html)).toEqual(["First post of the thread.", "A reply."]);
    expect(texts(page(`<p>a <![CDATA[ x ]]> b</p><p>c</p>`))).toEqual(["a b", "c"]);
  });

  it("changes nothing in SVG, whose content is never text", () => {
    expect(texts(page(`<svg><![CDATA[ <p>not text</p> ]]></svg><p>text</p>`))).toEqual(["text"]);
  });
});

describe("a wrapper that hides the whole page until its scripts run", () => {
  const article = `<main><h1>Stop nesting database systems</h1>${"<p>A paragraph of the article that goes on for a while, as articles do.</p>".repeat(6)}</main>`;

  it("is shown when it holds ten times the visible text or more: by class, by inline style", () => {
    const byClass = page(`<div class="main-preloader hide"></div><div class="root hide">${article}</div>`);
    expect(texts(byClass)[0]).toBe("Stop nesting database systems");
    expect(texts(byClass)).toHaveLength(7);
    const byStyle = page(`<div id="__next"><div style="visibility:hidden;min-height:100vh">${article}</div></div><footer>© 2026</footer>`);
    expect(texts(byStyle)).toEqual(texts(page(article)).concat("© 2026"));
  });

  it("shows that element only: what it hides inside, and other hidden elements, stay hidden", () => {
    const html = page(
      `<div class="root hide">${article}<div class="modal"><p>Subscribe to our newsletter</p></div><span style="display:none">x</span></div><div hidden><p>Other hidden</p></div>`,
    );
    const out = texts(html);
    expect(out).toHaveLength(7);
    expect(out.join(" ")).not.toMatch(/Subscribe|Other hidden|x$/);
  });

  it("leaves a hidden panel hidden when the page shows a tenth of its text or more (a cookie centre, a form's hidden steps)", () => {
    const panel = `<div id="onetrust-pc" style="display:none">${"<p>Performance cookies let us count visits and traffic sources.</p>".repeat(8)}</div>`;
    const shown = `<main>${"<p>The visible page text here.</p>".repeat(3)}</main>`;
    expect(texts(page(shown + panel))).toEqual(texts(page(shown)));
  });

  it("never unhides the text of scripts, styles or templates, however long", () => {
    const html = page(
      `<p>short</p><div hidden><script>${"var x = 1;".repeat(500)}</script><template>${"<p>t</p>".repeat(300)}</template></div>`,
    );
    expect(texts(html)).toEqual(["short"]);
  });

  it("keeps links and emphasis, and site-template fingerprints, when the page is read twice", () => {
    const html = page(`<div class="root hide">${article}<p>See <a href="/docs">the docs</a>.</p></div>`);
    const blocks = segmentHtml(html, { inline: true }).blocks;
    const last = blocks[blocks.length - 1];
    expect(last.text).toBe("See the docs.");
    expect(last.layout?.inline?.map((r) => [r.kind, last.text.slice(r.start, r.end), r.href])).toEqual([["link", "the docs", "/docs"]]);
    const withSubtrees = segmentHtml(html, { subtrees: true });
    expect(withSubtrees.blocks.map((b) => b.text)).toEqual(blocks.map((b) => b.text));
    // One innermost candidate subtree per block, as for a page read once.
    expect(withSubtrees.subtrees?.blockSubtrees.length).toBe(blocks.length);
  });

  it("gives the markup observer each element once, though the page is read twice", () => {
    const opened: string[] = [];
    const observer = {
      capturing: false,
      open: (name: string) => {
        opened.push(name);
        return false;
      },
      attribute: () => {},
      text: () => {},
      close: () => {},
    };
    const html = page(`<div class="root hide">${article}</div>`);
    const doc = segmentHtml(html, { observer });
    expect(doc.blocks).toHaveLength(7);
    expect(opened.filter((n) => n === "h1")).toHaveLength(1);
  });
});
