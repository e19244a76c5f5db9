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
