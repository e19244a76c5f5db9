import { readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { type Handler, Parser } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { TagNameParser, internedAttributeName, internedTagName } from "./tag-name-parser.js";

/** The tag names (opened and closed) and attributes a parser class reports, in order. */
function tagEvents(html: string, parserClass: typeof Parser, chunks = 1): string[] {
  const out: string[] = [];
  const handler: Partial<Handler> = {
    onopentagname: (name) => out.push(`open ${name}`),
    onattribute: (name, value) => out.push(`attr ${name}=${value}`),
    onclosetag: (name, implied) => out.push(`close ${name} ${implied}`),
    ontext: (text) => out.push(`text ${text}`),
  };
  const parser = new parserClass(handler, { decodeEntities: true, lowerCaseAttributeNames: false });
  const size = Math.ceil(html.length / chunks);
  for (let at = 0; at < html.length; at += size) parser.write(html.slice(at, at + size));
  parser.end();
  return out;
}

const TRICKY = [
  `<DIV Class=x><P>one<BR>two</p></DiV><H1>t</h1><TABLE><TR><TD>c</td></tr></table>`,
  `<svg viewBox="0 0 1 1"><foreignObject><p>in</p></foreignObject><clipPath/><image href=x /></svg><image src=y>`,
  `<math><mi>x</mi><annotation-xml encoding="text/html"><div>h</div></annotation-xml></math><p>after`,
  `<custom-element>c</custom-element><x1>y</x1><\u212Aey>kelvin</\u212Aey><lınk>dotless</lınk>`,
  `<form><form><input></form><p>after a second form</p>`,
  `<ul><li>a<li>b</ul><select><option>1<option>2</select><p>a<p>b`,
  `<a CLASS=x Href="/y" class=z data-src=1 data-foo aria-hidden="true" aria-expanded=false hidden>a</a><td colspan=2 ID=q>`,
];

describe("TagNameParser", () => {
  it("is installed: htmlparser2 still has the internals it relies on", () => {
    // If this fails, htmlparser2 changed; the segmenter then runs the stock parser, allocating more.
    expect(TagNameParser).not.toBe(Parser);
  });

  it("gives the table's own string for an element name in any ASCII case, and nothing else", () => {
    expect(internedTagName("<DiV>", 1, 4)).toBe("div");
    expect(internedTagName("h1", 0, 2)).toBe("h1");
    expect(internedTagName("blockquote", 0, 10)).toBe("blockquote");
    expect(internedTagName("image", 0, 5)).toBeUndefined(); // the stock parser makes it img
    expect(internedTagName("custom-el", 0, 9)).toBeUndefined();
    expect(internedTagName("\u212Aey", 0, 3)).toBeUndefined(); // the Kelvin sign lowercases to k
    expect(internedTagName("divx", 0, 3)).toBe("div");
    expect(internedTagName("", 0, 0)).toBeUndefined();
  });

  it("gives the table's string for a common attribute name exactly as written, and nothing else", () => {
    for (const name of ["class", "id", "href", "style", "aria-expanded", "aria-controls", "http-equiv", "data-src"]) {
      expect(internedAttributeName(` ${name}=`, 1, 1 + name.length)).toBe(name);
    }
    expect(internedAttributeName("Class", 0, 5)).toBeUndefined(); // attribute names keep their case
    expect(internedAttributeName("data-foo", 0, 8)).toBeUndefined();
    expect(internedAttributeName("", 0, 0)).toBeUndefined();
    for (const name of ["figcaption", "blockquote", "noscript", "textarea", "h6"]) expect(internedTagName(name, 0, name.length)).toBe(name);
  });

  it("reads only ASCII letters, digits and '-' as name characters (the fold table's edges)", () => {
    expect(internedTagName("H1", 0, 2)).toBe("h1");
    expect(internedTagName("TEXTAREA", 0, 8)).toBe("textarea");
    // The neighbours of each range, and a code unit whose low byte is a letter's.
    for (const odd of ["@", "[", "`", "{", "/", ":", "\x7f", "\u0164", "\u0169"]) {
      expect(internedTagName(`d${odd}v`, 0, 3)).toBeUndefined();
      expect(internedTagName(`di${odd}`, 0, 3)).toBeUndefined();
      expect(internedAttributeName(`i${odd}`, 0, 2)).toBeUndefined();
    }
    expect(internedAttributeName("aria-Hidden", 0, 11)).toBeUndefined();
    expect(internedAttributeName("ID", 0, 2)).toBeUndefined();
  });

  for (const [i, html] of TRICKY.entries()) {
    it(`reports the same names and events as the stock parser (case ${i + 1})`, () => {
      const stock = tagEvents(html, Parser);
      expect(stock.length).toBeGreaterThan(3);
      expect(tagEvents(html, TagNameParser)).toEqual(stock);
      for (const chunks of [2, 5, 17]) expect(tagEvents(html, TagNameParser, chunks)).toEqual(tagEvents(html, Parser, chunks));
    });
  }

  it("agrees with the stock parser on real pages, whole and in pieces that split tag names", () => {
    const dir = new URL("../../../fixtures/wcxb-sample/html/", import.meta.url);
    const names = readdirSync(dir).filter((n) => n.endsWith(".gz"));
    expect(names.length).toBeGreaterThan(3);
    for (const name of names) {
      const html = gunzipSync(readFileSync(new URL(name, dir))).toString("utf8");
      const stock = tagEvents(html, Parser);
      expect(stock.length).toBeGreaterThan(500);
      expect(tagEvents(html, TagNameParser)).toEqual(stock);
      expect(tagEvents(html, TagNameParser, 13)).toEqual(tagEvents(html, Parser, 13));
    }
  });
});
