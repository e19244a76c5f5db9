import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { gunzipSync } from "node:zlib";
import { Parser } from "htmlparser2";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { xml as xmlFormat, jsonl as jsonlFormat } from "./formats.js";
import { OutputError } from "@winnow/errors";
import { openWriter } from "./index.js";
import { StreamCorpusWriter } from "./stream-writer.js";
import type { CleanDocument } from "./types.js";

// ---------------------------------------------------------------------------------------------
// Fixtures

const DOCS: CleanDocument[] = [
  {
    url: "https://www.example.com/news/2024/fish?x=1&y=<2>",
    recordId: "<urn:uuid:6a0f7e1c-0000-4000-8000-000000000001>",
    date: "2024-05-01T12:00:00Z",
    contentType: "text/html",
    charset: "utf-8",
    title: `Fish & "Chips" <best> 'ever'`,
    blocks: [
      { text: "Größte Übersicht: Fish & Chips", heading: 2 },
      { text: `He said "hi" & left <quickly> — ça va?`, heading: 0 },
      { text: "bad\u0001control\u0000chars\u000b end", heading: 0 },
      { text: "emoji 😀 東京 and a lone \ud800 surrogate", heading: 0 },
    ],
    blocksTotal: 11,
    source: "/data/crawl-0001.warc.gz",
  },
  {
    url: "http://exemple.fr/été",
    recordId: "<urn:uuid:6a0f7e1c-0000-4000-8000-000000000002>",
    date: "2024-05-02T08:30:00Z",
    contentType: "application/xhtml+xml",
    charset: "iso-8859-1",
    title: "Line\nbreak\tand tab in title",
    blocks: [
      { text: "Résumé", heading: 1 },
      { text: "Windows line\r\nending and a form\ffeed", heading: 0 },
    ],
    blocksTotal: 4,
    source: "-",
  },
  {
    url: "https://empty.example/",
    recordId: "<urn:uuid:6a0f7e1c-0000-4000-8000-000000000003>",
    date: "2024-05-03T00:00:00Z",
    contentType: "text/html",
    charset: "utf-8",
    title: "",
    blocks: [{ text: "Only one block.", heading: 0 }],
    blocksTotal: 1,
    source: "/data/crawl-0002.warc.gz",
  },
];

const joined = (d: CleanDocument): string => d.blocks.map((b) => b.text).join("\n\n");
/** Plain text goes out as UTF-8, where a lone surrogate can only become U+FFFD. */
/**
 * Runs `act` as nobody (uid and gid 65534) when this process is root, who may write anywhere,
 * and is root again after; as anyone else, as they are. Needs vitest's process pool (the default):
 * a worker thread cannot change its ids, and then this fails rather than skip.
 */
async function asUnprivileged<T>(act: () => Promise<T>): Promise<T> {
  if (process.getuid?.() !== 0) return act();
  if (process.seteuid === undefined || process.setegid === undefined) {
    throw new Error("running as root where process.seteuid is missing (a worker thread?): cannot drop to nobody");
  }
  process.setegid(65534);
  process.seteuid(65534);
  try {
    return await act();
  } finally {
    process.seteuid(0);
    process.setegid(0);
  }
}

const asUtf8 = (s: string): string => Buffer.from(s, "utf8").toString("utf8");

/** What XML 1.0 can carry: the writer drops C0 controls (but tab/LF/CR), U+FFFE/F, lone surrogates. */
const xmlClean = (s: string): string =>
  s.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "");

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-writers-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function writeAll(format: "jsonl" | "xml" | "text", path: string, docs = DOCS, gzip?: boolean): Promise<void> {
  const w = await openWriter({ format, path, gzip });
  for (const d of docs) await w.write(d);
  expect(w.documentsWritten).toBe(docs.length);
  await w.close();
}

// ---------------------------------------------------------------------------------------------
// A strict checker for the XML subset the writer emits: any well-formedness error throws.

interface XElement {
  name: string;
  attrs: Record<string, string>;
  children: Array<XElement | string>;
}

const ILLEGAL_XML_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const LEGAL_CODE_POINT = (cp: number): boolean =>
  cp === 0x9 ||
  cp === 0xa ||
  cp === 0xd ||
  (cp >= 0x20 && cp <= 0xd7ff) ||
  (cp >= 0xe000 && cp <= 0xfffd) ||
  (cp >= 0x10000 && cp <= 0x10ffff);

function decodeRefs(raw: string): string {
  return raw.replace(/&([^;&<]*);|&/g, (m, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`bare & in ${JSON.stringify(raw.slice(0, 40))}`);
    const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
    if (ref in named) return named[ref];
    const num = /^#x([0-9a-fA-F]+)$/.exec(ref) ?? /^#([0-9]+)$/.exec(ref);
    if (num === null) throw new Error(`unknown entity ${m}`);
    const cp = parseInt(num[1], ref.startsWith("#x") ? 16 : 10);
    if (!LEGAL_CODE_POINT(cp)) throw new Error(`reference to illegal character ${m}`);
    return String.fromCodePoint(cp);
  });
}

function parseStrictXml(src: string): XElement {
  const bad = ILLEGAL_XML_CHAR.exec(src);
  if (bad) throw new Error(`illegal character U+${bad[0].codePointAt(0)!.toString(16)} at ${bad.index}`);
  const prolog = '<?xml version="1.0" encoding="UTF-8"?>';
  if (!src.startsWith(prolog)) throw new Error("missing XML declaration");
  let i = prolog.length;
  const ws = (): void => {
    while (i < src.length && " \t\r\n".includes(src[i])) i++;
  };
  const name = (): string => {
    const m = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;
    m.lastIndex = i;
    const r = m.exec(src);
    if (r === null) throw new Error(`name expected at ${i}`);
    i = m.lastIndex;
    return r[0];
  };
  const expect1 = (s: string): void => {
    if (!src.startsWith(s, i)) throw new Error(`${JSON.stringify(s)} expected at ${i}: ${JSON.stringify(src.slice(i, i + 30))}`);
    i += s.length;
  };
  const element = (): XElement => {
    expect1("<");
    const el: XElement = { name: name(), attrs: {}, children: [] };
    for (;;) {
      const before = i;
      ws();
      if (src.startsWith("/>", i)) {
        i += 2;
        return el;
      }
      if (src[i] === ">") {
        i++;
        break;
      }
      if (i === before) throw new Error(`whitespace expected before attribute at ${i}`);
      const an = name();
      ws();
      expect1("=");
      ws();
      const q = src[i];
      if (q !== '"' && q !== "'") throw new Error(`quoted value expected at ${i}`);
      const end = src.indexOf(q, i + 1);
      if (end < 0) throw new Error("unterminated attribute");
      const raw = src.slice(i + 1, end);
      // Raw tab/LF/CR would be normalised to spaces by a parser, i.e. not round-trip.
      if (/[<\t\n\r]/.test(raw)) throw new Error(`raw < or whitespace control in attribute ${an}`);
      if (an in el.attrs) throw new Error(`duplicate attribute ${an}`);
      el.attrs[an] = decodeRefs(raw);
      i = end + 1;
    }
    for (;;) {
      const lt = src.indexOf("<", i);
      if (lt < 0) throw new Error(`unclosed <${el.name}>`);
      if (lt > i) {
        const raw = src.slice(i, lt);
        if (raw.includes("]]>")) throw new Error("]]> in character data");
        el.children.push(decodeRefs(raw));
      }
      i = lt;
      if (src.startsWith("</", i)) {
        i += 2;
        const n = name();
        if (n !== el.name) throw new Error(`</${n}> closes <${el.name}>`);
        ws();
        expect1(">");
        return el;
      }
      el.children.push(element());
    }
  };
  ws();
  const root = element();
  ws();
  if (i !== src.length) throw new Error(`content after the root element at ${i}`);
  return root;
}

const elements = (el: XElement): XElement[] => el.children.filter((c): c is XElement => typeof c !== "string");
const textOf = (el: XElement): string => el.children.map((c) => (typeof c === "string" ? c : textOf(c))).join("");

function checkXmlCorpus(src: string, docs: CleanDocument[]): void {
  const root = parseStrictXml(src);
  expect(root.name).toBe("corpus");
  const docEls = elements(root);
  expect(docEls.length).toBe(docs.length);
  docEls.forEach((el, k) => {
    const d = docs[k];
    expect(el.name).toBe("doc");
    expect(el.attrs).toEqual({
      url: xmlClean(d.url),
      id: xmlClean(d.recordId),
      date: d.date,
      title: xmlClean(d.title),
      charset: d.charset,
    });
    const ps = elements(el);
    expect(ps.map((p) => p.name)).toEqual(d.blocks.map(() => "p"));
    ps.forEach((p, j) => {
      const b = d.blocks[j];
      expect(p.attrs).toEqual(b.heading > 0 ? { heading: String(b.heading) } : {});
      expect(textOf(p)).toBe(xmlClean(b.text));
    });
  });
}

// ---------------------------------------------------------------------------------------------

describe("JSONL", () => {
  it("writes one object per line with the documented keys, in order", async () => {
    const path = join(dir, "out.jsonl");
    await writeAll("jsonl", path);
    const src = readFileSync(path, "utf8");
    expect(src.endsWith("\n")).toBe(true);
    const lines = src.slice(0, -1).split("\n");
    expect(lines.length).toBe(DOCS.length);
    lines.forEach((line, k) => {
      const o = JSON.parse(line);
      const d = DOCS[k];
      expect(Object.keys(o)).toEqual([
        "url",
        "warc_record_id",
        "warc_date",
        "content_type",
        "charset",
        "title",
        "text",
        "blocks_kept",
        "blocks_total",
        "source",
      ]);
      expect(o).toEqual({
        url: d.url,
        warc_record_id: d.recordId,
        warc_date: d.date,
        content_type: d.contentType,
        charset: d.charset,
        title: d.title,
        text: joined(d),
        blocks_kept: d.blocks.length,
        blocks_total: d.blocksTotal,
        source: d.source,
      });
    });
    // The heading stands on its own line, without markup.
    expect(JSON.parse(lines[0]).text.split("\n\n")[0]).toBe("Größte Übersicht: Fish & Chips");
  });

  it("keeps output valid UTF-8 even with a lone surrogate (escaped as \\ud800)", async () => {
    const path = join(dir, "out.jsonl");
    await writeAll("jsonl", path);
    const bytes = readFileSync(path);
    expect(new TextDecoder("utf-8", { fatal: true }).decode(bytes)).toContain("\\ud800");
  });
});

describe("XML", () => {
  it("is well-formed and round-trips content, attributes and headings", async () => {
    const path = join(dir, "out.xml");
    await writeAll("xml", path);
    const src = readFileSync(path, "utf8");
    expect(src.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<corpus>\n<doc ')).toBe(true);
    expect(src.endsWith("</doc>\n</corpus>\n")).toBe(true);
    checkXmlCorpus(src, DOCS);
    expect(src).toContain('<p heading="2">Größte Übersicht: Fish &amp; Chips</p>');
    expect(src).toContain('title="Fish &amp; &quot;Chips&quot; &lt;best&gt; &apos;ever&apos;"');
  });

  it("agrees with an independent parser (htmlparser2, xmlMode)", async () => {
    const path = join(dir, "out.xml");
    await writeAll("xml", path);
    const paragraphs: string[] = [];
    const titles: string[] = [];
    let inP = false;
    const parser = new Parser(
      {
        onopentag(name, attrs) {
          if (name === "p") {
            inP = true;
            paragraphs.push("");
          }
          if (name === "doc") titles.push(attrs.title);
        },
        ontext(t) {
          if (inP) paragraphs[paragraphs.length - 1] += t;
        },
        onclosetag(name) {
          if (name === "p") inP = false;
        },
      },
      { xmlMode: true, decodeEntities: true },
    );
    parser.end(readFileSync(path, "utf8"));
    expect(titles).toEqual(DOCS.map((d) => xmlClean(d.title)));
    expect(paragraphs).toEqual(DOCS.flatMap((d) => d.blocks.map((b) => xmlClean(b.text))));
  });

  it("writes a valid empty corpus", async () => {
    const path = join(dir, "empty.xml");
    await writeAll("xml", path, []);
    expect(parseStrictXml(readFileSync(path, "utf8")).children.filter((c) => typeof c !== "string")).toEqual([]);
  });
});

describe("text", () => {
  it("writes one stream with each document ended by a form-feed line", async () => {
    const path = join(dir, "out.txt");
    await writeAll("text", path);
    const src = readFileSync(path, "utf8");
    expect(src.endsWith("\n\f\n")).toBe(true);
    const texts = src.split("\n\f\n").slice(0, -1);
    // Each begins with a header line naming its page (#25); a form feed inside a document
    // becomes a space so it cannot forge a separator.
    expect(texts).toEqual(DOCS.map((d) => asUtf8(`${JSON.stringify({ url: d.url, id: d.recordId })}\n${joined(d).replace(/\f/g, " ")}`)));
  });

  it("writes one file per document into an existing directory", async () => {
    const out = join(dir, "docs");
    mkdirSync(out);
    await writeAll("text", out);
    const names = readdirSync(out).sort();
    const files = ["000001-www-example-com-news-2024-fish-x-1-y-2.txt", "000002-exemple-fr-t.txt", "000003-empty-example.txt"];
    expect(names).toEqual([...files, "index.jsonl"]);
    files.forEach((n, k) => expect(readFileSync(join(out, n), "utf8")).toBe(asUtf8(`${joined(DOCS[k])}\n`)));
    // The index names each file's page (#25).
    const index = readFileSync(join(out, "index.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(index).toEqual(files.map((file, k) => ({ file, url: DOCS[k].url, id: DOCS[k].recordId })));
  });

  it("refuses a folder that is not empty, unless overwrite: then an earlier run's documents and index go, other files stay (#25)", async () => {
    const out = `${join(dir, "again")}/`;
    await writeAll("text", out);
    writeFileSync(join(out, "notes.md"), "mine");
    const before = readdirSync(out).sort();
    await expect(openWriter({ format: "text", path: out })).rejects.toThrow(/output folder is not empty \(000001-.*--overwrite/);
    expect(readdirSync(out).sort()).toEqual(before);
    const w = await openWriter({ format: "text", path: out, overwrite: true });
    await w.write(DOCS[1]);
    await w.close();
    expect(readdirSync(out).sort()).toEqual(["000001-exemple-fr-t.txt", "index.jsonl", "notes.md"]);
  });

  it("creates a directory named with a trailing slash, gzipping files when asked", async () => {
    const out = `${join(dir, "new", "docs")}/`;
    await writeAll("text", out, DOCS, true);
    const names = readdirSync(out)
      .sort()
      .filter((n) => n !== "index.jsonl");
    expect(names.length).toBe(DOCS.length);
    expect(names.every((n) => /^\d{6}-[a-z0-9-]+\.txt\.gz$/.test(n))).toBe(true);
    names.forEach((n, k) => expect(gunzipSync(readFileSync(join(out, n))).toString("utf8")).toBe(asUtf8(`${joined(DOCS[k])}\n`)));
  });

  it("writes many documents through the bounded in-flight window, leaving no temporary files", async () => {
    const out = `${join(dir, "many")}/`;
    const docs = Array.from({ length: 200 }, (_, k) => ({ ...DOCS[k % 3], url: `https://h.example/${k}` }));
    await writeAll("text", out, docs);
    const names = readdirSync(out);
    expect(names.length).toBe(201);
    expect(names.some((n) => n.includes(".tmp-"))).toBe(false);
  });

  it("refuses a directory for the stream formats", async () => {
    await expect(openWriter({ format: "jsonl", path: dir })).rejects.toThrow(/is a directory/);
  });
});

describe("gzip", () => {
  it("compresses when the name ends in .gz, to exactly the plain output", async () => {
    for (const format of ["jsonl", "xml", "text"] as const) {
      const plain = join(dir, `out.${format}`);
      await writeAll(format, plain);
      await writeAll(format, `${plain}.gz`);
      const gz = readFileSync(`${plain}.gz`);
      expect(gz[0]).toBe(0x1f);
      expect(gz[1]).toBe(0x8b);
      expect(gunzipSync(gz).equals(readFileSync(plain))).toBe(true);
    }
  });

  it("follows an explicit gzip option over the name", async () => {
    const path = join(dir, "out.jsonl");
    await writeAll("jsonl", path, DOCS, true);
    expect(gunzipSync(readFileSync(path)).toString("utf8").split("\n").length).toBe(DOCS.length + 1);
    const path2 = join(dir, "raw.jsonl.gz");
    await writeAll("jsonl", path2, DOCS, false);
    expect(JSON.parse(readFileSync(path2, "utf8").split("\n")[0]).url).toBe(DOCS[0].url);
  });

  it("writes large outputs intact across many chunks", async () => {
    const big = Array.from({ length: 400 }, (_, k) => ({
      ...DOCS[k % 3],
      blocks: [...DOCS[k % 3].blocks, { text: `paragraph ${k} `.repeat(200), heading: 0 }],
    }));
    const path = join(dir, "big.jsonl.gz");
    await writeAll("jsonl", path, big);
    const lines = gunzipSync(readFileSync(path)).toString("utf8").split("\n");
    expect(lines.length).toBe(big.length + 1);
    expect(JSON.parse(lines[399]).text).toBe(joined(big[399]));
  });
});

describe("atomic output", () => {
  it("writes under a temporary name and renames on close", async () => {
    const path = join(dir, "out.jsonl");
    const w = await openWriter({ format: "jsonl", path });
    await w.write(DOCS[0]);
    expect(existsSync(path)).toBe(false);
    // `.<name>.tmp-<pid>-<n>`: the pid for cleaning up after a dead run, n for each writer its own.
    const temporary = readdirSync(dir).filter((name) => new RegExp(`^\\.out\\.jsonl\\.tmp-${process.pid}-\\d+$`).test(name));
    expect(temporary).toHaveLength(1);
    const tmp = join(dir, temporary[0]);
    await w.close();
    expect(existsSync(path)).toBe(true);
    expect(existsSync(tmp)).toBe(false);
    expect(readdirSync(dir)).toEqual(["out.jsonl"]);
  });

  it("gives two writers of one process on one path names of their own: each file written is whole", async () => {
    const path = join(dir, "shared.jsonl");
    const first = await openWriter({ format: "jsonl", path });
    const second = await openWriter({ format: "jsonl", path });
    await first.write(DOCS[0]);
    await second.write(DOCS[1]);
    expect(readdirSync(dir).filter((n) => n.startsWith(".shared.jsonl.tmp-"))).toHaveLength(2);
    await first.close();
    expect(
      readFileSync(path, "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l).url),
    ).toEqual([DOCS[0].url]);
    await second.close();
    // Before #31.2 both wrote one temporary file, and the second's rename found it gone or mixed.
    expect(
      readFileSync(path, "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l).url),
    ).toEqual([DOCS[1].url]);
    expect(readdirSync(dir)).toEqual(["shared.jsonl"]);
  });

  it("close() is idempotent and write() after it rejects", async () => {
    const path = join(dir, "out.jsonl");
    const w = await openWriter({ format: "jsonl", path });
    await w.write(DOCS[0]);
    const p = w.close();
    expect(w.close()).toBe(p);
    await p;
    await expect(w.write(DOCS[1])).rejects.toThrow(/after close/);
    expect(readFileSync(path, "utf8").split("\n").length).toBe(2);
  });
});

describe("abort", () => {
  it("leaves a well-formed XML file with the documents written so far", async () => {
    const path = join(dir, "partial.xml");
    const w = await openWriter({ format: "xml", path });
    await w.write(DOCS[0]);
    await w.write(DOCS[1]);
    await w.abort();
    expect(readdirSync(dir).filter((name) => name.startsWith(".partial.xml.tmp-"))).toEqual([]);
    checkXmlCorpus(readFileSync(path, "utf8"), DOCS.slice(0, 2));
  });

  it("leaves a complete gzip stream of whole JSONL lines", async () => {
    const path = join(dir, "partial.jsonl.gz");
    const w = await openWriter({ format: "jsonl", path });
    for (let k = 0; k < 50; k++) await w.write(DOCS[k % 3]);
    await w.abort();
    const lines = gunzipSync(readFileSync(path)).toString("utf8").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.length).toBe(50);
    for (const l of lines) JSON.parse(l);
  });

  it("in directory mode keeps only whole files", async () => {
    const out = `${join(dir, "d")}/`;
    const w = await openWriter({ format: "text", path: out });
    for (const d of DOCS) void w.write(d);
    await w.abort();
    expect(readdirSync(out).length).toBe(DOCS.length + 1);
  });
});

describe("errors", () => {
  it("rejects with a message naming the path when the output cannot be created", async () => {
    const file = join(dir, "plain-file");
    writeFileSync(file, "x");
    const path = join(file, "out.jsonl");
    await expect(openWriter({ format: "jsonl", path })).rejects.toThrow(
      new OutputError("cannot create output: a path component is not a directory", path),
    );
    await expect(openWriter({ format: "text", path: `${join(file, "docs")}/` })).rejects.toThrow(
      /cannot write into directory .*plain-file/,
    );
  });

  it("rejects with EACCES for a read-only directory", async () => {
    const ro = join(dir, "ro");
    mkdirSync(ro);
    // Readable and searchable by all, writable by none but its owner's write bit, which root
    // ignores: as root (CI's user) the attempt is made as nobody, so the mode is what refuses it.
    chmodSync(dir, 0o755);
    chmodSync(ro, 0o555);
    try {
      await expect(asUnprivileged(() => openWriter({ format: "xml", path: join(ro, "out.xml") }))).rejects.toThrow(
        /cannot create output: permission denied \(.*out\.xml\)/,
      );
    } finally {
      chmodSync(ro, 0o700);
    }
  });

  it("rejects write() and close() after a stream error, naming the output", async () => {
    const failing = new Writable({
      highWaterMark: 1024,
      write(_chunk, _enc, cb) {
        cb(Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" }));
      },
    });
    const w = new StreamCorpusWriter(jsonlFormat, {
      sink: failing,
      owned: true,
      compression: null,
      label: "/data/out.jsonl",
      tmpPath: null,
      finalPath: null,
    });
    const big = { ...DOCS[0], blocks: [{ text: "x".repeat(70_000), heading: 0 }] };
    await expect(w.write(big)).rejects.toThrow("@winnow/writers: cannot write /data/out.jsonl: ENOSPC");
    await expect(w.write(DOCS[1])).rejects.toMatchObject({ code: "ENOSPC" });
    await expect(w.close()).rejects.toThrow(/\/data\/out\.jsonl: ENOSPC/);
  });

  it("removes the temporary file when the output fails", async () => {
    const path = join(dir, "gone.xml");
    const w = await openWriter({ format: "xml", path });
    await w.write(DOCS[0]);
    rmSync(dir, { recursive: true }); // the rename has nowhere to go
    await expect(w.close()).rejects.toThrow(/cannot move .* to .*gone\.xml: ENOENT/);
  });
});

describe("back-pressure and stdout", () => {
  function slowSink(chunks: Buffer[]): Writable {
    return new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _enc, cb) {
        chunks.push(chunk);
        setTimeout(cb, 5);
      },
    });
  }

  it("write() waits for drain when the stream buffer is full", async () => {
    const chunks: Buffer[] = [];
    const w = new StreamCorpusWriter(xmlFormat, {
      sink: slowSink(chunks),
      owned: false,
      compression: null,
      label: "<test>",
      tmpPath: null,
      finalPath: null,
    });
    const doc = { ...DOCS[2], blocks: [{ text: "y".repeat(20_000), heading: 0 }] };
    const settled: boolean[] = [];
    let pending = 0;
    for (let k = 0; k < 8; k++) {
      const p = w.write(doc);
      let done = false;
      void p.then(() => (done = true));
      await Promise.resolve();
      await Promise.resolve();
      settled.push(done);
      if (!done) pending++;
      await p;
    }
    expect(pending).toBeGreaterThan(0); // some writes were held back ...
    expect(settled[0]).toBe(true); // ... but not while the buffer had room
    await w.close();
    checkXmlCorpus(Buffer.concat(chunks).toString("utf8"), Array(8).fill(doc));
  });

  it("releases a write still waiting for drain when close() ends the stream", async () => {
    const chunks: Buffer[] = [];
    const sink = slowSink(chunks);
    const w = new StreamCorpusWriter(jsonlFormat, {
      sink,
      owned: true,
      compression: null,
      label: "<test>",
      tmpPath: null,
      finalPath: null,
    });
    const held = w.write({ ...DOCS[2], blocks: [{ text: "z".repeat(100_000), heading: 0 }] });
    const closed = w.close();
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("write() never settled")), 2000));
    await Promise.race([Promise.all([held, closed]), timeout]);
    expect(JSON.parse(Buffer.concat(chunks).toString("utf8")).text.length).toBe(100_000);
  });

  it('writes to stdout for "-" without closing it', async () => {
    const chunks: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation(((chunk: string | Uint8Array, a?: unknown, b?: unknown) => {
      chunks.push(Buffer.from(chunk).toString("utf8"));
      const cb = typeof a === "function" ? a : b;
      if (typeof cb === "function") process.nextTick(cb as () => void);
      return true;
    }) as typeof process.stdout.write);
    try {
      const w = await openWriter({ format: "jsonl", path: "-" });
      for (const d of DOCS) await w.write(d);
      await w.close();
    } finally {
      spy.mockRestore();
    }
    expect(process.stdout.writable).toBe(true);
    const lines = chunks.join("").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((l) => JSON.parse(l).url)).toEqual(DOCS.map((d) => d.url));
  });

  it("gzips stdout only when asked", async () => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        chunks.push(chunk);
        cb();
      },
    });
    const w = new StreamCorpusWriter(jsonlFormat, {
      sink,
      owned: false,
      compression: "gzip",
      label: "<stdout>",
      tmpPath: null,
      finalPath: null,
    });
    for (const d of DOCS) await w.write(d);
    await w.close();
    expect(sink.writableEnded).toBe(false);
    expect(gunzipSync(Buffer.concat(chunks)).toString("utf8").split("\n").length).toBe(DOCS.length + 1);
  });
});
