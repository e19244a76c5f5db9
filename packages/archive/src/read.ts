// readRecords: open an input, undo gzip if present, sniff the format (WARC, ARC or HTML) and
// stream out the HTML records, reporting everything passed over through onSkip.

import { arcHeaderStart, readArc } from "./arc.js";
import { GZIP_MAGIC, GunzipSource, isGzip } from "./gunzip.js";
import { readHtmlFile } from "./html.js";
import { formatHint, openInput } from "./input.js";
import { blankMeta, type ReadContext, type RecordMeta } from "./payload.js";
import { ByteReader, GapError } from "./reader.js";
import { PlainSource } from "./source.js";
import type { ArchiveRecord, ReadOptions, SkipReason } from "./types.js";
import { sniffIsHtml } from "./sniff.js";
import { readWarc, versionLineAt, WARC_FRAMING } from "./warc.js";
import { isZstd, ZstdSource } from "./zstd.js";
import { InputWindow } from "./window.js";

export const DEFAULT_MAX_PAGE_BYTES = 16 << 20;

/** Enough to see past a damaged first gzip member, or to prescan a format. */
const SNIFF_BYTES = 64 << 10;
/** How far into an input with no name to go by a WARC record is looked for. */
const GLUED_BYTES = 4096;

export type InputFormat = "warc" | "arc" | "html";

/**
 * Streams the HTML records of one input: a WARC (plain, per-record gzip or whole-file gzip,
 * per-record zstd with or without a dictionary: the IIPC .warc.zst profile),
 * an ARC (plain or gzip), an HTML file, or "-" for stdin. Memory stays bounded by the largest
 * page kept (maxPageBytes) whatever the input size.
 *
 * Rejects with ArchiveOpenError only if the input cannot be opened. Damaged data never throws:
 * each record passed over is reported to onSkip with its reason, and reading goes on.
 */
export async function* readRecords(input: string, options: ReadOptions = {}): AsyncGenerator<ArchiveRecord> {
  const onSkip = options.onSkip;
  const skip = (meta: RecordMeta, reason: SkipReason, detail: string) =>
    onSkip?.({ source: input, offset: meta.offset, recordId: meta.recordId, url: meta.url, reason, detail });
  const opened = await (options.open ?? openInput)(input, options.onProgress, (err) =>
    skip(blankMeta(-1), "unreadable", `read failed: ${(err as Error).message ?? String(err)}`),
  );
  // Local files are read in moments; a remote body may stall or be retried for minutes.
  const stop = options.open === undefined ? undefined : options.signal;
  const closeOnStop = (): void => void opened.close().catch(() => {});
  if (stop?.aborted === true) closeOnStop();
  stop?.addEventListener("abort", closeOnStop, { once: true });
  try {
    const win = new InputWindow(opened.chunks);
    await win.fill(SNIFF_BYTES);
    const first = win.view();
    // A .gz whose first member is damaged is still gzip if a member follows (but a plain
    // WARC named .gz, whose payloads may hold gzip data, is not).
    const gzipped = isGzip(first) || (/\.gz$/i.test(input) && !looksPlain(first) && first.indexOf(GZIP_MAGIC) > 0);
    const source = gzipped
      ? new GunzipSource(win, { inflateAhead: options.inflateAhead === true })
      : isZstd(first)
        ? new ZstdSource(win)
        : new PlainSource(win);
    const ctx: ReadContext = {
      source: input,
      reader: new ByteReader(source.pieces()),
      offsetAt: (pos) => source.offsetAt(pos),
      memberAfter: (pos) => source.memberAfter(pos),
      maxPageBytes: options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES,
      skip,
      guard: null,
    };
    const hint = formatHint(input);
    const format = await sniffFormat(ctx, hint);
    if (format === "warc") yield* readWarc(ctx);
    else if (format === "arc") yield* readArc(ctx);
    else {
      // A local file's mtime is its own; stdin's and an opener's may be the time of opening.
      const local = options.open === undefined && input !== "-";
      yield* readHtmlFile(ctx, hint === "html", local ? opened.mtime : undefined);
    }
  } catch (err) {
    // Not reached by damaged data (that is reported record by record); kept so that no input
    // can make the caller's loop throw.
    skip(blankMeta(-1), "corrupt", `reading stopped: ${(err as Error).message ?? String(err)}`);
  } finally {
    stop?.removeEventListener("abort", closeOnStop);
    await opened.close();
  }
}

/** Content decides; the file name only breaks the tie for a damaged start. */
async function sniffFormat(ctx: ReadContext, hint: ReturnType<typeof formatHint>): Promise<InputFormat> {
  let head: Buffer;
  for (;;) {
    try {
      head = await ctx.reader.peek(SNIFF_BYTES);
      break;
    } catch (err) {
      if (!(err instanceof GapError)) throw err;
      ctx.skip(blankMeta(err.gap.offset), err.gap.reason, err.gap.detail);
    }
  }
  return detectFormat(head, hint);
}

function looksPlain(head: Buffer): boolean {
  // Not just "<" or "WARC/": garbage before the first member may start with those.
  const text = head.toString("latin1", 0, 64).trimStart();
  return versionLineAt(Buffer.from(text, "latin1"), 0) === true || text.startsWith("filedesc://") || sniffIsHtml(head);
}

/** Format of an (uncompressed) input from its first bytes, with the name as a fallback. */
export function detectFormat(head: Buffer, hint?: InputFormat): InputFormat {
  const text = head.toString("latin1").trimStart();
  if (text.startsWith("WARC/")) return "warc";
  if (text.startsWith("filedesc://")) return "arc";
  if (hint) return hint;
  const nl = text.indexOf("\n");
  if (nl > 0 && arcHeaderStart(text.slice(0, nl).replace(/\r$/, "")) >= 0) return "arc"; // an ARC without its version block
  // A WARC with a few bytes of garbage glued before its first record.
  if (!sniffIsHtml(head) && WARC_FRAMING.find(head, Math.min(head.length, GLUED_BYTES)) >= 0) return "warc";
  return "html";
}
