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

/** Kept blocks joined by a blank line; headings are blocks like any other. */
export function documentText(doc: CleanDocument): string {
  return blocksText(doc.blocks);
}

function blocksText(blocks: CleanDocument["blocks"]): string {
  const n = blocks.length;
  if (n === 0) return "";
  // Concatenation builds a rope that is flattened once by the consumer; no intermediate array.
  let s = blocks[0].text;
  for (let i = 1; i < n; i++) s += `\n\n${blocks[i].text}`;
  return s;
}

/**
 * JSONL: one object per line. JSON.stringify on an object literal measured the same as
 * hand-assembled per-field stringify (about 20 µs per 5 KB document either way), so the
 * simpler, always-valid form is used. The literal fixes the key order.
 */
export const jsonl: StreamFormat = {
  header: "",
  footer: "",
  encode(d) {
    return `${JSON.stringify({
      url: d.url,
      warc_record_id: d.recordId,
      warc_date: d.date,
      content_type: d.contentType,
      charset: d.charset,
      title: d.title,
      ...(d.lang === undefined ? {} : { lang: d.lang, lang_score: d.langScore }),
      text: documentText(d),
      blocks_kept: d.blocks.length,
      blocks_total: d.blocksTotal,
      ...(d.comments === undefined ? {} : { comments: blocksText(d.comments) }),
      ...(d.filterFailed === undefined ? {} : { filter_failed: d.filterFailed }),
      ...(d.stats === undefined ? {} : { stats: d.stats }),
      source: d.source,
    })}\n`;
  },
};

/**
 * texrex-style XML. Every kept block is a <p>; a heading is a <p> with heading="1".."6"
 * rather than a separate <h> element, so "all text in order" stays a single //p query and the
 * heading level survives.
 */
export const xml: StreamFormat = {
  header: '<?xml version="1.0" encoding="UTF-8"?>\n<corpus>\n',
  footer: "</corpus>\n",
  encode(d) {
    let s =
      '<doc url="' +
      escapeAttr(d.url) +
      '" id="' +
      escapeAttr(d.recordId) +
      '" date="' +
      escapeAttr(d.date) +
      '" title="' +
      escapeAttr(d.title) +
      '" charset="' +
      escapeAttr(d.charset) +
      (d.lang === undefined ? "" : `" lang="${escapeAttr(d.lang)}" lang_score="${d.langScore}`) +
      (d.filterFailed === undefined || d.filterFailed.length === 0
        ? ""
        : `" filter_failed="${escapeAttr(d.filterFailed.map((f) => `${f.rule}=${f.value}`).join(" "))}`) +
      '">\n';
    const blocks = d.blocks;
    for (let i = 0; i < blocks.length; i++) {
      const b = blocks[i];
      s += b.heading > 0 ? `<p heading="${b.heading}">` : "<p>";
      s += `${escapeText(b.text)}</p>\n`;
    }
    if (d.comments !== undefined && d.comments.length > 0) {
      s += "<comments>\n";
      for (const c of d.comments) s += `<p>${escapeText(c.text)}</p>\n`;
      s += "</comments>\n";
    }
    return `${s}</doc>\n`;
  },
};

/**
 * Record terminator of the plain-text stream: each document is followed by a line holding a
 * single form feed (U+000C). That is the classic page-break convention (^L: pr, less, Emacs
 * page motion); `csplit -z FILE '/^\f$/' '{*}'` or splitting on "\n\f\n" recovers documents.
 * A terminator rather than a separator keeps files concatenable and an aborted file valid.
 */
const TEXT_RECORD_END = "\n\f\n";

const FORM_FEED = /\f/g;

/**
 * The first line of each document in the text stream, so that a document can be traced to its
 * page: `{"url":"…","id":"…"}` (JSON, so any URL fits on the line; id is the WARC-Record-ID).
 */
export function textHeader(d: CleanDocument): string {
  return JSON.stringify({ url: d.url, id: d.recordId });
}

export const text: StreamFormat = {
  header: "",
  footer: "",
  encode(d) {
    const s = documentText(d);
    // A form feed inside the text could forge a terminator line; it becomes a space.
    return `${textHeader(d)}\n${s.indexOf("\f") === -1 ? s : s.replace(FORM_FEED, " ")}${TEXT_RECORD_END}`;
  },
};

export function streamFormat(format: Exclude<OutputFormat, "parquet">): StreamFormat {
  switch (format) {
    case "jsonl":
      return jsonl;
    case "xml":
      return xml;
    case "text":
      return text;
    default:
      throw new TypeError(`@winnow/writers: unknown output format ${JSON.stringify(format)}`);
  }
}
