// What a corpus builder gets from a real run: the page's metadata and its structure, in every
// output format, over HTML files the test writes (plain files: no capture date, no media type).
//
// The compiled module is imported (run `npx tsc -b` first), as in run.test.ts.
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "@winnow/errors";
import { DuckDBInstance } from "@duckdb/node-api";
import { readCorpus } from "@winnow/writers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { segmentWithMetadata } from "../dist/page.js";
import { runClean } from "../dist/run.js";

const PARAGRAPH =
  "Die Bundesregierung hat am Dienstag einen Entwurf vorgelegt, der die Förderung von Wärmepumpen neu regelt. " +
  "Nach Angaben des Ministeriums sollen Haushalte mit geringem Einkommen stärker entlastet werden als bisher.";

const PAGE = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Förderung neu geregelt</title>
<meta name="author" content="Erika Mustermann">
<meta property="article:published_time" content="2024-03-05T08:30:00+01:00">
<meta property="og:site_name" content="Tagesblatt">
<meta name="description" content="Was sich bei der Förderung ändert.">
<meta name="keywords" content="Energie, Förderung">
<link rel="canonical" href="https://tagesblatt.example/wirtschaft/foerderung">
</head><body><nav><a href="/">Start</a> <a href="/wirtschaft">Wirtschaft</a></nav>
<article><h1>Förderung neu geregelt</h1><p>${PARAGRAPH}</p><p>${PARAGRAPH} Mehr im <a href="/wirtschaft/gesetz">Gesetzentwurf</a>, <em>vorläufig</em>.</p>
<table><tr><th>Jahr</th><th>Förderung in Milliarden Euro</th></tr><tr><td>2023</td><td>12,5 Milliarden Euro nach Angaben des Ministeriums</td></tr></table>
<pre>def foerderung(einkommen):
    return 0.7 if einkommen &lt; 40000 else 0.3</pre>
<p>${PARAGRAPH}</p></article><footer>© Tagesblatt</footer></body></html>`;

let dir: string;
let page: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-page-metadata-"));
  page = join(dir, "foerderung.html");
  writeFileSync(page, PAGE);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const clean = (output: string, options: { markdown?: boolean; format?: "markdown"; links?: boolean } = {}) =>
  runClean({ inputs: [page], output, model: "mlp", workers: 0, ...options });

describe("page metadata and structure in the output", () => {
  it("JSONL: the page's metadata, no invented warc_date or content_type, a markdown field with --markdown", async () => {
    const out = join(dir, "out.jsonl");
    await clean(out, { markdown: true });
    const [doc] = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(doc).toMatchObject({
      declared_lang: "de",
      author: "Erika Mustermann",
      date: "2024-03-05T08:30:00+01:00",
      sitename: "Tagesblatt",
      description: "Was sich bei der Förderung ändert.",
      canonical_url: "https://tagesblatt.example/wirtschaft/foerderung",
      tags: ["Energie", "Förderung"],
    });
    expect(doc).not.toHaveProperty("warc_date");
    expect(doc).not.toHaveProperty("content_type");
    expect(doc.text).toContain("Jahr\tFörderung in Milliarden Euro\n2023\t12,5 Milliarden Euro");
    expect(doc.text).toContain("def foerderung(einkommen):\n    return 0.7 if einkommen < 40000 else 0.3");
    expect(doc.markdown).toContain("# Förderung neu geregelt");
    expect(doc.markdown).toContain("| Jahr | Förderung in Milliarden Euro |\n| --- | --- |\n| 2023 |");
    expect(doc.markdown).toContain("```\ndef foerderung(einkommen):\n    return 0.7 if einkommen < 40000 else 0.3\n```");
  });

  it("Markdown by the .md name: a front matter with the metadata, then the document", async () => {
    const out = join(dir, "out.md");
    const summary = await clean(out);
    expect(summary.format).toBe("markdown");
    const md = readFileSync(out, "utf8");
    expect(md.startsWith('---\nurl: "file://')).toBe(true);
    expect(md).toContain('\nauthor: "Erika Mustermann"\ndate: "2024-03-05T08:30:00+01:00"\n');
    expect(md).toContain("---\n\n# Förderung neu geregelt\n\n");
    expect(md.endsWith("\n\f\n")).toBe(true);
  });

  it("Parquet and XML carry the same metadata, and the Markdown with --markdown", async () => {
    const parquet = join(dir, "out.parquet");
    await clean(parquet, { markdown: true });
    const rows = [];
    for await (const row of readCorpus(parquet)) rows.push(row);
    expect(rows[0]).toMatchObject({ author: "Erika Mustermann", sitename: "Tagesblatt", date: "2024-03-05T08:30:00+01:00" });
    expect(rows[0]).not.toHaveProperty("warc_date");
    expect(rows[0].markdown).toContain("| Jahr | Förderung in Milliarden Euro |");
    // DuckDB reads the typed columns: the page's day, its instant in UTC, the tags as a list.
    const connection = await (await DuckDBInstance.create(":memory:")).connect();
    const [typed] = (
      await connection.runAndReadAll(
        `SELECT CAST(date AS VARCHAR) AS day, epoch_ms(date_time) AS ms, date_iso, tags, warc_date, typeof(tags) AS tags_type
         FROM read_parquet('${parquet}')`,
      )
    ).getRowObjectsJson();
    connection.closeSync();
    expect(typed).toEqual({
      day: "2024-03-05",
      ms: String(Date.parse("2024-03-05T07:30:00Z")),
      date_iso: "2024-03-05T08:30:00+01:00",
      tags: ["Energie", "Förderung"],
      warc_date: null,
      tags_type: "VARCHAR[]",
    });
    const xml = join(dir, "out.xml");
    await clean(xml, { markdown: true });
    const written = readFileSync(xml, "utf8");
    expect(written).toMatch(/<doc [^>]*sitename="Tagesblatt"[^>]*>\n<tag>Energie<\/tag>/);
    expect(written).toContain("<markdown># Förderung neu geregelt");
  });

  it("text: the header line before each document carries the metadata too, the table and code laid out", async () => {
    const out = join(dir, "out.txt");
    await clean(out);
    const [header, ...body] = readFileSync(out, "utf8").split("\n");
    expect(JSON.parse(header)).toMatchObject({ author: "Erika Mustermann", sitename: "Tagesblatt", declared_lang: "de" });
    expect(JSON.parse(header).url).toMatch(/^file:/);
    expect(body.join("\n")).toContain("Jahr\tFörderung in Milliarden Euro\n2023\t12,5 Milliarden Euro");
  });

  it("--links: links resolved against the page and emphasis in the Markdown, on worker threads too", async () => {
    for (const workers of [0, 1]) {
      const out = join(dir, `links-${workers}.md`);
      await runClean({ inputs: [page], output: out, model: "mlp", workers, links: true });
      const md = readFileSync(out, "utf8");
      // A plain file's URL is file://, so the relative link resolves to a file: URL, which is not written as a link.
      expect(md).toContain("Mehr im Gesetzentwurf, *vorläufig*.");
    }
    const withBase = join(dir, "links.jsonl");
    await clean(withBase, { markdown: true, links: true });
    const [doc] = readFileSync(withBase, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(doc.markdown).toContain("*vorläufig*");
    expect(doc.text).toContain("Mehr im Gesetzentwurf, vorläufig.");
    await expect(clean(join(dir, "links.jsonl"), { links: true })).rejects.toThrow(/--links puts links and emphasis in Markdown/);
  });

  it("metadata: false (--no-metadata) writes none of the metadata fields and the same text, inline and on threads", async () => {
    const withMetadata = join(dir, "with-metadata.jsonl");
    await clean(withMetadata);
    const [full] = readFileSync(withMetadata, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    for (const workers of [0, 1]) {
      const out = join(dir, `no-metadata-${workers}.jsonl`);
      await runClean({ inputs: [page], output: out, model: "mlp", workers, metadata: false });
      const [doc] = readFileSync(out, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      for (const field of ["declared_lang", "author", "date", "sitename", "description", "canonical_url", "tags"]) {
        expect(full).toHaveProperty(field);
        expect(doc).not.toHaveProperty(field);
      }
      expect(doc.text).toBe(full.text);
      expect(doc.title).toBe(full.title);
    }
  });

  it("--links on the sample archive's real pages: absolute links in the kept text, none without it", async () => {
    const sample = fileURLToPath(new URL("../../../fixtures/sample.warc.gz", import.meta.url));
    const withLinks = join(dir, "sample-links.md");
    const without = join(dir, "sample.md");
    await runClean({ inputs: [sample], output: withLinks, model: "mlp", workers: 0, links: true });
    await runClean({ inputs: [sample], output: without, model: "mlp", workers: 0 });
    const links = readFileSync(withLinks, "utf8").match(/\]\(https?:\/\/[^)\s]+\)/g) ?? [];
    expect(links.length).toBeGreaterThan(20);
    expect(readFileSync(without, "utf8")).not.toMatch(/\]\(https?:/);
  });

  it("refuses an output name that names no format, and writes nothing", async () => {
    await expect(clean(join(dir, "out.json"))).rejects.toThrow(UsageError);
    await expect(clean(join(dir, "out.json"))).rejects.toThrow(/does not say its format.*--format/);
    await expect(clean(join(dir, "out.txt"), { markdown: true })).rejects.toThrow(/--markdown adds a field/);
  });
});

describe("a page's dates are bounded by its capture, never by the run's clock", () => {
  const DATED = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Datiert</title>
<meta property="article:published_time" content="2021-06-01T09:00:00+02:00"></head><body><article><h1>Datiert</h1>
<p>${PARAGRAPH}</p><p>${PARAGRAPH}</p><time datetime="2019-05-05">5. Mai 2019</time></article></body></html>`;
  // The <time> closes the text: shown under the headline, its day would go before the markup's
  // whatever the bound (chooseByMainText), and this is about the bound.

  /** One WARC response record of DATED captured at `warcDate`. */
  function writeWarc(path: string, warcDate: string): void {
    const http = Buffer.from(
      `HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(DATED)}\r\n\r\n${DATED}`,
    );
    const head =
      "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n" +
      `WARC-Date: ${warcDate}\r\nWARC-Target-URI: https://zeitung.example/artikel\r\n` +
      `Content-Type: application/http; msgtype=response\r\nContent-Length: ${http.length}\r\n\r\n`;
    writeFileSync(path, Buffer.concat([Buffer.from(head), http, Buffer.from("\r\n\r\n")]));
  }
  const dateOf = (output: string): unknown => JSON.parse(readFileSync(output, "utf8").trim()).date;

  it.each([0, 1])("a record captured in 2020 gets the page's 2019 date, not its 2021 one (workers: %i)", async (workers) => {
    const input = join(dir, `captured-${workers}.warc`);
    writeWarc(input, "2020-01-15T12:00:00Z");
    const out = join(dir, `captured-${workers}.jsonl`);
    await runClean({ inputs: [input], output: out, model: "mlp", workers });
    expect(dateOf(out)).toBe("2019-05-05");
    // Captured later, the page's own publication date stands.
    writeWarc(input, "2022-01-15T12:00:00Z");
    await runClean({ inputs: [input], output: out, model: "mlp", workers });
    expect(dateOf(out)).toBe("2021-06-01T09:00:00+02:00");
  });

  it("the sample archive's discussion page (issue 34): its <time> in the byline is the date, the poster the author", async () => {
    const sample = fileURLToPath(new URL("../../../fixtures/sample.warc.gz", import.meta.url));
    const out = join(dir, "sample-dates.jsonl");
    await runClean({ inputs: [sample], output: out, model: "mlp", workers: 0 });
    const docs = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const lobsters = docs.find((d) => String(d.url).startsWith("https://lobste.rs/"));
    expect(lobsters).toMatchObject({ date: "2024-08-12", author: "scvalex" });
    // Every date is a day or a time with its offset, none after the capture (2026-01-01).
    for (const d of docs.filter((d) => d.date !== undefined)) {
      expect(d.date).toMatch(/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2}))?$/);
      expect(Date.parse(d.date.slice(0, 10))).toBeLessThanOrEqual(Date.parse(d.warc_date));
    }
  });

  it("a plain file's modification time bounds its dates the same way", async () => {
    const input = join(dir, "datiert.html");
    writeFileSync(input, DATED);
    const out = join(dir, "datiert.jsonl");
    utimesSync(input, new Date("2020-01-15T12:00:00Z"), new Date("2020-01-15T12:00:00Z"));
    await runClean({ inputs: [input], output: out, model: "mlp", workers: 0 });
    expect(dateOf(out)).toBe("2019-05-05");
    utimesSync(input, new Date("2023-01-15T12:00:00Z"), new Date("2023-01-15T12:00:00Z"));
    await runClean({ inputs: [input], output: out, model: "mlp", workers: 0 });
    expect(dateOf(out)).toBe("2021-06-01T09:00:00+02:00");
  });
});

describe("the date and author chosen by where the page shows them against its main text", () => {
  const ARTICLE = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Haushalt beschlossen</title>
<meta property="article:published_time" content="2019-02-01T10:00:00Z"></head><body>
<nav><a href="/">Start</a> <a href="/politik">Politik</a> <a href="/wirtschaft">Wirtschaft</a></nav>
<article><h1>Haushalt beschlossen</h1><p class="meta">4. März 2021</p>
<p>${PARAGRAPH}</p><p>${PARAGRAPH}</p><p>${PARAGRAPH}</p></article>
<aside><h3>Meistgelesen</h3><ul>${Array.from({ length: 10 }, (_, i) => `<li><a href="/a/${i}">Meldung ${i + 1}</a></li>`).join("")}</ul>
<p class="byline">Von Max Beispiel</p></aside><footer>© Tagesblatt</footer></body></html>`;

  it.each([0, 1])(
    "winnow clean (workers: %i): the dateline under the headline, not the markup's stamp; no author from the sidebar",
    async (workers) => {
      const input = join(dir, `haushalt-${workers}.html`);
      writeFileSync(input, ARTICLE);
      const out = join(dir, `haushalt-${workers}.jsonl`);
      await runClean({ inputs: [input], output: out, model: "mlp", workers });
      const doc = JSON.parse(readFileSync(out, "utf8").trim());
      expect(doc.date).toBe("2021-03-04");
      expect(doc.author).toBeUndefined();
      expect(doc.text).toContain("Bundesregierung");
      // Without the main text, the collector alone gives the stamp and the sidebar's name.
      const { metadata } = segmentWithMetadata([ARTICLE], "", {});
      expect(metadata).toMatchObject({ date: "2019-02-01T10:00:00Z", author: "Max Beispiel" });
    },
  );
});
