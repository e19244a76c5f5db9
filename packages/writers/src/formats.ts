import { markdownText, plainText } from "./render.js";
import type { CleanDocument, OutputFormat } from "./types.js";
import { escapeAttr, escapeText } from "./xml.js";

/**
 * A stream format: fixed text before the first and after the last document, and one encoder
 * that turns a document into a self-contained piece of output. Whole documents are the unit of
 * output, which is what lets abort() leave a valid file.
 */
export interface StreamFormat {
  readonly header: string;
  readonly footer: string;
  encode(doc: CleanDocument): string;
}

/** What a stream format writes beside the defaults. */
export interface FormatOptions {
  /** JSONL and XML: a `markdown` field (element) with the document as Markdown. */
  markdown?: boolean;
  /** Markdown (the format or the field): links and emphasis where the segmenter recorded them. */
  links?: boolean;
}

/**
 * Kept blocks joined by a blank line; headings are blocks like any other; a table row on one line,
 * cells separated by tabs; <pre> text with its line breaks (render.ts).
 */
export function documentText(doc: CleanDocument): string {
  return plainText(doc.blocks);
}

/** The kept blocks as Markdown (render.ts). */
export function documentMarkdown(doc: CleanDocument, links = false): string {
  return markdownText(doc.blocks, links ? { links, baseUrl: doc.url } : undefined);
}

/**
 * The page's metadata as output fields, in a fixed order, only those the page gave. (The declared
 * language is `declared_lang`: `lang` is the language winnow identifies in the text.)
 */
export function metadataFields(d: CleanDocument): Record<string, string | readonly string[]> {
  const m = d.metadata;
  const out: Record<string, string | readonly string[]> = {};
  if (m === undefined) return out;
  if (m.declaredLang !== undefined) out.declared_lang = m.declaredLang;
  if (m.author !== undefined) out.author = m.author;
  if (m.date !== undefined) out.date = m.date;
  if (m.dateModified !== undefined) out.date_modified = m.dateModified;
  if (m.sitename !== undefined) out.sitename = m.sitename;
  if (m.description !== undefined) out.description = m.description;
  if (m.canonicalUrl !== undefined) out.canonical_url = m.canonicalUrl;
  if (m.categories !== undefined) out.categories = m.categories;
  if (m.tags !== undefined) out.tags = m.tags;
  return out;
}

/**
 * JSONL: one object per line. JSON.stringify on an object literal measured the same as
 * hand-assembled per-field stringify (about 20 µs per 5 KB document either way), so the
 * simpler, always-valid form is used. The literal fixes the key order.
 */
function jsonlFormat(options: FormatOptions): StreamFormat {
  const markdown = options.markdown === true;
  const links = options.links === true;
  return {
    header: "",
    footer: "",
    encode(d) {
      return `${JSON.stringify({
        url: d.url,
        warc_record_id: d.recordId,
        // A plain file has no capture date or HTTP media type: absent rather than made up.
        ...(d.date === "" ? {} : { warc_date: d.date }),
        ...(d.contentType === "" ? {} : { content_type: d.contentType }),
        charset: d.charset,
        title: d.title,
        ...metadataFields(d),
        ...(d.lang === undefined ? {} : { lang: d.lang, lang_score: d.langScore }),
        text: documentText(d),
        ...(markdown ? { markdown: documentMarkdown(d, links) } : {}),
        blocks_kept: d.blocks.length,
        blocks_total: d.blocksTotal,
        ...(d.comments === undefined ? {} : { comments: plainText(d.comments) }),
        ...(d.filterFailed === undefined ? {} : { filter_failed: d.filterFailed }),
        ...(d.stats === undefined ? {} : { stats: d.stats }),
        source: d.source,
      })}\n`;
    },
  };
}

/**
 * texrex-style XML. Every kept block is a <p>; a heading is a <p> with heading="1".."6"
 * rather than a separate <h> element, so "all text in order" stays a single //p query and the
 * heading level survives.
 */
function xmlFormat(options: FormatOptions): StreamFormat {
  const markdown = options.markdown === true;
  const links = options.links === true;
  return {
    header: '<?xml version="1.0" encoding="UTF-8"?>\n<corpus>\n',
    footer: "</corpus>\n",
    encode: (d) => xmlDocument(d, markdown, links),
  };
}

export const jsonl = jsonlFormat({});
export const xml = xmlFormat({});

/**
 * The metadata's scalar fields as attributes; categories and tags are elements (see xmlDocument).
 * `date` is the capture date's attribute in texrex's XML, so the page's own is `date_published`.
 */
function metadataAttributes(fields: Record<string, string | readonly string[]>): string {
  let s = "";
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") s += `" ${name === "date" ? "date_published" : name}="${escapeAttr(value)}`;
  }
  return s;
}

function xmlDocument(d: CleanDocument, markdown: boolean, links = false): string {
  const fields = metadataFields(d);
  let s =
    '<doc url="' +
    escapeAttr(d.url) +
    '" id="' +
    escapeAttr(d.recordId) +
    (d.date === "" ? "" : `" date="${escapeAttr(d.date)}`) +
    '" title="' +
    escapeAttr(d.title) +
    '" charset="' +
    escapeAttr(d.charset) +
    metadataAttributes(fields) +
    (d.lang === undefined ? "" : `" lang="${escapeAttr(d.lang)}" lang_score="${d.langScore}`) +
    (d.filterFailed === undefined || d.filterFailed.length === 0
      ? ""
      : `" filter_failed="${escapeAttr(d.filterFailed.map((f) => `${f.rule}=${f.value}`).join(" "))}`) +
    '">\n';
  for (const category of fields.categories ?? []) s += `<category>${escapeText(category)}</category>\n`;
  for (const tag of fields.tags ?? []) s += `<tag>${escapeText(tag)}</tag>\n`;
  const blocks = d.blocks;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    s += b.heading > 0 ? `<p heading="${b.heading}"` : "<p";
    const layout = b.layout;
    if (layout === undefined) s += `>${escapeText(b.text)}</p>\n`;
    else s += `${xmlLayout(layout)}>${escapeText(layout.pre ?? b.text)}</p>\n`;
  }
  if (d.comments !== undefined && d.comments.length > 0) {
    s += "<comments>\n";
    for (const c of d.comments) s += `<p>${escapeText(c.text)}</p>\n`;
    s += "</comments>\n";
  }
  if (markdown) s += `<markdown>${escapeText(documentMarkdown(d, links))}</markdown>\n`;
  return `${s}</doc>\n`;
}

/**
 * A block's structure as attributes of its <p>: list="2" item="3." (nesting, marker, on the item's
 * first block), row="7" cell="0" (span="2", header="1"), pre="1" (the text keeps its line breaks).
 */
function xmlLayout(layout: NonNullable<CleanDocument["blocks"][number]["layout"]>): string {
  let s = "";
  const { list, cell } = layout;
  if (list !== undefined) s += ` list="${list.depth}"${list.first ? ` item="${list.marker}"` : ""}`;
  if (cell !== undefined) {
    s += ` table="${cell.table}" row="${cell.row}" cell="${cell.column}"`;
    if (cell.span > 1) s += ` span="${cell.span}"`;
    if (cell.header) s += ' header="1"';
  }
  if (layout.pre !== undefined) s += ' pre="1"';
  return s;
}

/**
 * Record terminator of the plain-text stream: each document is followed by a line holding a
 * single form feed (U+000C). That is the classic page-break convention (^L: pr, less, Emacs
 * page motion); `csplit -z FILE '/^\f$/' '{*}'` or splitting on "\n\f\n" recovers documents.
 * A terminator rather than a separator keeps files concatenable and an aborted file valid.
 */
const TEXT_RECORD_END = "\n\f\n";

const FORM_FEED = /\f/g;

/** A form feed inside the text could forge a terminator line; it becomes a space. */
function withoutFormFeeds(s: string): string {
  return s.indexOf("\f") === -1 ? s : s.replace(FORM_FEED, " ");
}

/**
 * The first line of each document in the text stream, so that a document can be traced to its
 * page: `{"url":"…","id":"…"}` (JSON, so any URL fits on the line; id is the WARC-Record-ID),
 * then the page's metadata fields where it has them (author, date, …), as in JSONL.
 */
export function textHeader(d: CleanDocument): string {
  return JSON.stringify({ url: d.url, id: d.recordId, ...metadataFields(d) });
}

export const text: StreamFormat = {
  header: "",
  footer: "",
  encode(d) {
    return `${textHeader(d)}\n${withoutFormFeeds(documentText(d))}${TEXT_RECORD_END}`;
  },
};

/**
 * Markdown: per document, a YAML front matter (JSON-quoted values, which YAML reads as they are)
 * with url, title and the page's metadata, then the Markdown, then the text stream's terminator.
 */
function markdownFormat(links: boolean): StreamFormat {
  return {
    header: "",
    footer: "",
    encode(d) {
      let s = `---\nurl: ${JSON.stringify(d.url)}\ntitle: ${JSON.stringify(d.title)}\n`;
      if (d.date !== "") s += `warc_date: ${JSON.stringify(d.date)}\n`;
      for (const [name, value] of Object.entries(metadataFields(d))) s += `${name}: ${JSON.stringify(value)}\n`;
      if (d.lang !== undefined) s += `lang: ${JSON.stringify(d.lang)}\n`;
      return `${withoutFormFeeds(`${s}---\n\n${documentMarkdown(d, links)}`)}${TEXT_RECORD_END}`;
    },
  };
}

export function streamFormat(format: Exclude<OutputFormat, "parquet">, options: FormatOptions = {}): StreamFormat {
  switch (format) {
    case "jsonl":
      return options.markdown === true ? jsonlFormat(options) : jsonl;
    case "xml":
      return options.markdown === true ? xmlFormat(options) : xml;
    case "text":
      return text;
    case "markdown":
      return markdownFormat(options.links === true);
    default:
      throw new TypeError(`@winnow/writers: unknown output format ${JSON.stringify(format)}`);
  }
}
