// A plain (or gzipped) HTML file, or HTML on stdin, as a single record.

import path from "node:path";
import { pathToFileURL } from "node:url";
import { DECODER_LIMIT, decodedLengthBound, decoderLimitDetail } from "./charset.js";
import { type ReadContext, UNDECIDABLE_TEXT } from "./payload.js";
import { GapError } from "./reader.js";
import { sniffIsHtml, sniffUtf16 } from "./sniff.js";
import type { ArchiveRecord } from "./types.js";

export async function* readHtmlFile(ctx: ReadContext, trustName: boolean, fileDate?: Date): AsyncGenerator<ArchiveRecord> {
  const isStdin = ctx.source === "-";
  const meta = {
    offset: 0,
    recordId: `<file:${ctx.source}>`,
    // A page fetched whole from a URL (https://, s3://) is known by that URL.
    url: isStdin ? "" : /^[a-z][a-z0-9+.-]*:\/\//i.test(ctx.source) ? ctx.source : pathToFileURL(path.resolve(ctx.source)).href,
    // No capture date: a file's mtime says when it was copied, not when the page was fetched.
    date: "",
  };
  let body: Buffer | "limit";
  try {
    // A .html name is taken at its word; anything else must look like HTML.
    if (!trustName) {
      const head = await ctx.reader.peek(1024);
      if (head.length > 0 && !sniffIsHtml(head)) {
        ctx.skip(meta, "not-html", "input is not a WARC, ARC or HTML file");
        return;
      }
    }
    body = await ctx.reader.readAll(ctx.maxPageBytes);
  } catch (err) {
    if (!(err instanceof GapError)) throw err;
    ctx.skip(meta, err.gap.reason, err.gap.detail);
    return;
  }
  if (body === "limit") {
    ctx.skip(meta, "too-large", `file exceeds ${ctx.maxPageBytes} bytes`);
    return;
  }
  if (body.length === 0) {
    ctx.skip(meta, "empty", "empty file");
    return;
  }
  if (sniffUtf16(body) === "mixed") {
    ctx.skip(meta, "bad-encoding", UNDECIDABLE_TEXT);
    return;
  }
  if (decodedLengthBound(body) > DECODER_LIMIT.chars) {
    ctx.skip(meta, "too-large", decoderLimitDetail(body.length));
    return;
  }
  const record: ArchiveRecord = { source: ctx.source, ...meta, contentType: "", charset: "", httpStatus: 0, body };
  if (fileDate !== undefined && Number.isFinite(fileDate.getTime())) record.fileDate = fileDate.toISOString();
  yield record;
}
