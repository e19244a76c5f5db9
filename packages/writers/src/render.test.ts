// Plain text and Markdown from blocks the segmenter makes of real markup.
import { segmentHtml } from "@winnow/segment";
import { describe, expect, it } from "vitest";
import { jsonl, streamFormat, xml } from "./formats.js";
import { markdownText, plainText } from "./render.js";
import type { CleanDocument } from "./types.js";

const PAGE = `<html><body><article>
<h1>Messwerte</h1>
<p>Die Tabelle zeigt die Werte.</p>
<table><thead><tr><th>Jahr</th><th>Wert | Anteil</th></tr></thead>
<tbody><tr><td>2020</td><td>12,5</td></tr><tr><td colspan="2">keine Daten</td></tr></tbody></table>
<ul><li>Erstens</li><li>Zweitens<ol><li>a</li><li>b</li></ol></li></ul>
<pre><code>def f(x):
    return x + 1
</code></pre>
<p># not a heading</p>
</article></body></html>`;

const blocks = segmentHtml(PAGE).blocks;

describe("plain text", () => {
  it("puts a table row on one line, cells separated by tabs, and keeps code's line breaks", () => {
    expect(plainText(blocks)).toBe(
      [
        "Messwerte",
        "Die Tabelle zeigt die Werte.",
        "Jahr\tWert | Anteil\n2020\t12,5\nkeine Daten\t",
        "Erstens",
        "Zweitens",
        "a",
        "b",
        "def f(x):\n    return x + 1",
        "# not a heading",
      ].join("\n\n"),
    );
  });
});

describe("Markdown", () => {
  it("renders headings, a pipe table with header and escaped cells, nested lists and fenced code", () => {
    expect(markdownText(blocks)).toBe(
      [
        "# Messwerte",
        "Die Tabelle zeigt die Werte.",
        "| Jahr | Wert \\| Anteil |\n| --- | --- |\n| 2020 | 12,5 |\n| keine Daten |  |",
        "- Erstens\n- Zweitens\n    1. a\n    2. b",
        "```\ndef f(x):\n    return x + 1\n```",
        "\\# not a heading",
      ].join("\n\n"),
    );
  });

  it("fences code that holds a fence with a longer one", () => {
    const [code] = segmentHtml("<pre>```js\nx\n```</pre>").blocks;
    expect(markdownText([code])).toBe("````\n```js\nx\n```\n````");
  });
});

function doc(overrides: Partial<CleanDocument> = {}): CleanDocument {
  return {
    url: "https://example.org/a",
    recordId: "<urn:uuid:1>",
    date: "",
    contentType: "",
    charset: "utf-8",
    title: "Messwerte",
    blocks,
    blocksTotal: blocks.length,
    source: "page.html",
    metadata: { declaredLang: "de", author: "Erika Mustermann", date: "2024-03-05", tags: ["Wahl", "Bund"] },
    ...overrides,
  };
}

describe("formats", () => {
  it("JSONL: metadata fields after the title, no warc_date or content_type for a plain file, markdown on request", () => {
    const plain = JSON.parse(jsonl.encode(doc()));
    expect(Object.keys(plain)).toEqual([
      "url",
      "warc_record_id",
      "charset",
      "title",
      "declared_lang",
      "author",
      "date",
      "tags",
      "text",
      "blocks_kept",
      "blocks_total",
      "source",
    ]);
    const withMarkdown = JSON.parse(streamFormat("jsonl", { markdown: true }).encode(doc({ date: "2024-05-01T12:00:00Z" })));
    expect(withMarkdown.warc_date).toBe("2024-05-01T12:00:00Z");
    expect(withMarkdown.markdown).toBe(markdownText(blocks));
  });

  it("XML: metadata as attributes, tags as elements, structure as attributes of each <p>", () => {
    const out = xml.encode(doc());
    expect(out).toMatch(/<doc [^>]* declared_lang="de" author="Erika Mustermann" date_published="2024-03-05"/);
    expect(out).not.toMatch(/ date="/);
    // An archive record: the capture date keeps texrex's attribute, the page's is another.
    const archived = xml.encode(doc({ date: "2024-05-01T12:00:00Z" }));
    expect(archived.match(/ date="[^"]*"/g)).toEqual([' date="2024-05-01T12:00:00Z"']);
    expect(archived).toContain(' date_published="2024-03-05"');
    expect(out).toContain("<tag>Wahl</tag>\n<tag>Bund</tag>");
    expect(out).toMatch(/<p table="\d+" row="\d+" cell="0" header="1">Jahr<\/p>/);
    expect(out).toMatch(/<p list="2" item="2\.">b<\/p>/);
    expect(out).toContain('<p pre="1">def f(x):\n    return x + 1</p>');
    expect(streamFormat("xml", { markdown: true }).encode(doc())).toContain("<markdown># Messwerte\n\n");
  });

  it("Markdown: a front matter with the page's metadata, then the document", () => {
    const out = streamFormat("markdown").encode(doc());
    expect(out).toBe(
      '---\nurl: "https://example.org/a"\ntitle: "Messwerte"\ndeclared_lang: "de"\nauthor: "Erika Mustermann"\ndate: "2024-03-05"\ntags: ["Wahl","Bund"]\n---\n\n' +
        `${markdownText(blocks)}\n\f\n`,
    );
  });
});

describe("Markdown with links and emphasis (--links)", () => {
  const html = `<body><p>See <a href="/report (final).pdf">the <em>final</em> report</a>, <strong>not</strong> the draft
    [v2] or <a href="javascript:void(0)">this</a>; run <code>make_all</code> with *care*.</p>
    <ul><li><a href="https://example.org/a">first item</a></li></ul><h2>A <a href="#top">heading</a></h2></body>`;
  const linked = segmentHtml(html, { inline: true }).blocks;

  it("writes links resolved against the page, nested emphasis, code, and escapes the rest", () => {
    expect(markdownText(linked, { links: true, baseUrl: "https://news.example/2024/story.html" })).toBe(
      [
        "See [the *final* report](https://news.example/report%20%28final%29.pdf), **not** the draft \\[v2\\] or this; run `make_all` with \\*care\\*.",
        "- [first item](https://example.org/a)",
        "## A heading",
      ].join("\n\n"),
    );
  });

  it("writes the text as before without --links, and without the segmenter's ranges", () => {
    const plain = segmentHtml(html).blocks;
    expect(markdownText(linked)).toBe(markdownText(plain));
    expect(markdownText(plain, { links: true })).toContain("the draft \\[v2\\]");
    expect(markdownText(plain, { links: true })).not.toContain("](");
  });
});
