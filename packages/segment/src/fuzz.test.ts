// Property-based fuzzing of segmentHtml: HTML-ish token soup (tags, attributes, entities,
// unclosed and stray tags, comments, hidden content), deep nesting, huge text and binary
// garbage. Whatever comes in, segmentation must not throw, must finish quickly, and must give
// blocks with text and consecutive indices.
//
// Seeds are fixed so CI is deterministic; fast-check prints the seed and path of a failure.
// Fuzz longer or elsewhere with WINNOW_FUZZ_SEED=<n> and WINNOW_FUZZ_SCALE=<runs multiplier>.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { segmentHtml } from "./segmenter.js";
import type { SegmentedDocument } from "./types.js";

const SEED = Number(process.env.WINNOW_FUZZ_SEED ?? 0x5eed);
const SCALE = Number(process.env.WINNOW_FUZZ_SCALE ?? 1);
const runs = (n: number): { seed: number; numRuns: number } => ({ seed: SEED, numRuns: Math.max(1, Math.round(n * SCALE)) });

/**
 * Generous bound for one document of up to a few MB. The worst known case, ~20,000 levels of
 * nesting in the first 64K characters (before the nesting guard can act), takes about 0.4 s.
 */
const MAX_MS = 3_000;

/** CPU milliseconds of this process: unlike wall time, not stretched when other jobs share the cores. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function segmentTimed(html: string): SegmentedDocument {
  const started = cpuMs();
  const doc = segmentHtml(html);
  const ms = cpuMs() - started;
  expect(ms, `segmentHtml took ${ms.toFixed(0)} ms of CPU on ${html.length} chars`).toBeLessThan(MAX_MS);
  return doc;
}

function expectWellFormed(doc: SegmentedDocument): void {
  let textChars = 0;
  doc.blocks.forEach((block, i) => {
    expect(block.index).toBe(i);
    expect(block.text.trim(), `block ${i} has no text`).not.toBe("");
    expect(block.text).toBe(block.text.trim());
    expect(block.textChars).toBe(block.text.length);
    expect(block.anchorChars).toBeLessThanOrEqual(block.textChars);
    expect(block.markupChars).toBeGreaterThanOrEqual(0);
    textChars += block.textChars;
  });
  expect(doc.textChars).toBe(textChars);
  expect(doc.markupChars).toBeGreaterThanOrEqual(0);
}

const TAGS = [
  "html",
  "head",
  "body",
  "title",
  "p",
  "div",
  "span",
  "a",
  "b",
  "i",
  "br",
  "hr",
  "h1",
  "h3",
  "ul",
  "li",
  "table",
  "tr",
  "td",
  "pre",
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "math",
  "textarea",
  "select",
  "option",
  "iframe",
  "img",
  "form",
  "section",
  "article",
  "nav",
  "footer",
  "xmp",
  "plaintext",
  "frameset",
  "x-custom",
  "DIV",
  "P",
];
const tag = fc.constantFrom(...TAGS);

const attribute = fc
  .tuple(
    fc.constantFrom("class", "id", "style", "hidden", "aria-hidden", "href", "data-x", "onclick", "x", "CLASS", "'", "="),
    fc.constantFrom("", "nav main", "display:none", "visibility: hidden", "true", "x".repeat(300), 'a"b', "<p>", "&amp;", "\u0000"),
    fc.constantFrom('"', "'", "", '"'),
  )
  .map(([name, value, quote]) => ` ${name}=${quote}${value}${quote}`);

const text = fc.oneof(
  fc.constantFrom("Hello world.", " ", "\n\t ", "\u00a0", "\ufeff", "\u200b", "word ", "  lots   of   space  ", "日本語のテキスト", "x"),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
);

const entity = fc.constantFrom(
  "&amp;",
  "&lt;",
  "&gt;",
  "&nbsp;",
  "&#65;",
  "&#x41;",
  "&#0;",
  "&#xD800;",
  "&#x10FFFF;",
  "&#x110000;",
  "&#99999999999;",
  "&bogus;",
  "&",
  "&#",
  "&#x",
  "&amp",
  "&nbsp",
  "&NotANamedEntityAtAll;",
);

/** One piece of an HTML-ish document; pieces are joined without any balancing. */
const piece: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(tag, fc.array(attribute, { maxLength: 3 }), fc.boolean())
      .map(([t, a, self]) => `<${t}${a.join("")}${self ? "/" : ""}>`),
  },
  { weight: 3, arbitrary: tag.map((t) => `</${t}>`) },
  { weight: 5, arbitrary: text },
  { weight: 2, arbitrary: entity },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "<!-- c -->",
      "<!--",
      "-->",
      "<!doctype html>",
      '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN">',
      "<![CDATA[x]]>",
      '<?xml version="1.0"?>',
      "<",
      ">",
      "</",
      "<p",
      '<a href="x',
      "</>",
      "<>",
    ),
  },
);

const soup = fc.array(piece, { maxLength: 80 }).map((pieces) => pieces.join(""));

describe("segmentHtml fuzzed: never throws, ends fast, blocks are well-formed", () => {
  it("on HTML-ish token soup", () => {
    fc.assert(
      fc.property(soup, (html) => expectWellFormed(segmentTimed(html))),
      runs(1000),
    );
  });

  it("on binary garbage, raw or with markup mixed in", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 2000 }), soup, fc.boolean(), (garbage, html, mix) => {
        expectWellFormed(segmentTimed(mix ? garbage + html + garbage : garbage));
      }),
      runs(300),
    );
  });

  it("on deep nesting, opened with or without closing, around text", () => {
    fc.assert(
      fc.property(tag, fc.integer({ min: 1, max: 100_000 }), fc.boolean(), soup, (t, depth, close, inner) => {
        const html = `<${t}>`.repeat(depth) + inner + (close ? `</${t}>`.repeat(depth) : "");
        const doc = segmentTimed(html);
        expectWellFormed(doc);
      }),
      runs(30),
    );
  });

  it("on huge text nodes and long runs of one character", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("a", " ", "&amp;", "<", "\u00e9", "\ufffd", "word "),
        fc.integer({ min: 1, max: 2_000_000 }),
        soup,
        (unit, count, around) => {
          const doc = segmentTimed(`<p>${around}${unit.repeat(Math.ceil(count / unit.length))}${around}</p>`);
          expectWellFormed(doc);
        },
      ),
      runs(25),
    );
  });
});
