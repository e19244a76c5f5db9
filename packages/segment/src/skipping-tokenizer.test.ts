import { readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { Parser, Tokenizer, type Handler } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { SkippingTokenizer } from "./skipping-tokenizer.js";

/** Every event htmlparser2 reports, with its positions, as one list. */
function events(html: string, tokenizer: typeof Tokenizer, chunks = 1): string[] {
  const out: string[] = [];
  const log =
    (kind: string) =>
    (...args: unknown[]) =>
      out.push(`${kind} ${JSON.stringify(args)} @${parser.startIndex}-${parser.endIndex}`);
  const handler: Partial<Handler> = {
    onopentagname: log("open"),
    onattribute: log("attr"),
    onopentag: log("opentag"),
    onclosetag: log("close"),
    ontext: log("text"),
    oncomment: log("comment"),
    oncdatastart: log("cdata"),
    onprocessinginstruction: log("pi"),
  };
  const parser = new Parser(handler, { decodeEntities: true, lowerCaseAttributeNames: false, Tokenizer: tokenizer });
  const size = Math.ceil(html.length / chunks);
  for (let at = 0; at < html.length; at += size) parser.write(html.slice(at, at + size));
  parser.end();
  return out;
}

const TRICKY = [
  `<p class="a &amp; b" title='x&lt;y' data-x=un&amp;quoted>Fish &amp; chips &copy 2024 &#x41;&#66; a&b</p>`,
  `<script>if (a < b && c) { s = "</scr" + "ipt>"; } x = '<p>' </script ><p>after</p>`,
  `<style>a > b { content: "<" } </style><title>A &amp; B < C</title><textarea>&lt;x&gt; <b></textarea>`,
  `<!-- a <p> comment & more --><![CDATA[ x < y ]]><?xml version="1.0"?><!DOCTYPE html>`,
  `<div id="unterminated value & more text <p>never closed`,
  `text with no tags & an ampersand at the very end &`,
  `<a href="?a=1&b=2&amp;c=3">q&a</a><img alt='it&apos;s' src="x.png"><br/>&`,
  `<script>never closed < < <`,
  `<p>${"x".repeat(5000)}&amp;${"y".repeat(5000)}</p><p title="${"z".repeat(3000)}&quot;">z</p>`,
];

describe("SkippingTokenizer", () => {
  it("is installed: htmlparser2 still has the internals it relies on", () => {
    // If this fails, htmlparser2 changed; the segmenter then runs the stock tokenizer, slower.
    expect(SkippingTokenizer).not.toBe(Tokenizer);
  });

  for (const [i, html] of TRICKY.entries()) {
    it(`reports the same events at the same positions as the stock tokenizer (case ${i + 1})`, () => {
      const stock = events(html, Tokenizer);
      expect(stock.length).toBeGreaterThan(0);
      expect(events(html, SkippingTokenizer)).toEqual(stock);
    });
  }

  it("agrees when the page arrives in chunks that split entities, quotes and end tags", () => {
    for (const html of TRICKY) {
      for (const chunks of [2, 3, 7, 40]) expect(events(html, SkippingTokenizer, chunks)).toEqual(events(html, Tokenizer, chunks));
    }
  });

  it("agrees on real pages", () => {
    const dir = new URL("../../../fixtures/wcxb-sample/html/", import.meta.url);
    const names = readdirSync(dir).filter((n) => n.endsWith(".gz"));
    expect(names.length).toBeGreaterThan(3);
    for (const name of names) {
      const html = gunzipSync(readFileSync(new URL(name, dir))).toString("utf8");
      const stock = events(html, Tokenizer);
      expect(stock.length).toBeGreaterThan(500);
      expect(events(html, SkippingTokenizer)).toEqual(stock);
    }
  });
});
