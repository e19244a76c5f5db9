/**
 * What crosses from the main thread to a pool thread and back: one batch of pages packed for
 * transfer, and the outputs of a batch that failed as a whole. Kept apart from worker.ts, which
 * the main thread need not load: it pulls in the segmenter, the features, the metadata reader,
 * the models and the corpus steps, a pool thread's work (pool.ts).
 */
import { transferableBuffer } from "@winnow/archive/pages";
import type { BlockLayout } from "@winnow/segment";
import type { DocumentBlock } from "@winnow/writers";
import type { SiteTemplateBatch } from "./site-templates-batch.js";
import type { PageInput, PageOutput } from "./page.js";

/** A record's capture date: its WARC-Date, else a plain file's modification time, else "". */
export function capturedAt(record: { date?: string; fileDate?: string }): string {
  return record.date !== undefined && record.date.length > 0 ? record.date : (record.fileDate ?? "");
}

/**
 * One batch of pages as it crosses to a worker. The payloads' buffers are transferred, never
 * copied on the way (see packPages).
 */
export interface CleanTask {
  /** Each page's payload. */
  bodies: Uint8Array[];
  /** charset from each page's HTTP header, "" when none. */
  charsets: string[];
  /** Each page's URL ("" when none), for per-host models. */
  urls?: string[];
  /** Each page's capture date (WARC-Date, else a plain file's mtime; "" when none): its dates' upper bound. */
  dates?: string[];
  /** Pass two of --site-templates: the templates of the batch's hosts. */
  siteTemplates?: SiteTemplateBatch;
  /** The buffers under `bodies`, to pass as the transfer list. */
  transfer: ArrayBuffer[];
}

/** One "failed" output per page of a batch that failed as a whole, each with the reason. */
export function failedPages(count: number, detail: string): PageOutput[] {
  const failed: PageOutput = { ok: false, reason: "failed", detail };
  return new Array<PageOutput>(count).fill(failed);
}

/**
 * Readies a batch (records, or anything with a body and header charset) to be transferred to a
 * worker. A payload whose buffer the archive reader has handed over whole (transferableBuffer:
 * one gzip member per record, as crawlers write) travels in that buffer, with no copy. The
 * others are views into the reader's input chunks, which hold neighbouring records too:
 * transferring those would detach live data, and cloning one would copy its whole chunk, so
 * they are copied once into one buffer the batch owns. Callers must not read the payloads
 * after the transfer: the buffers handed over are detached here.
 */
export function packPages(
  pages: ReadonlyArray<{ body: Uint8Array; charset: string; url?: string; date?: string; fileDate?: string }>,
): CleanTask {
  const n = pages.length;
  const bodies = new Array<Uint8Array>(n);
  const charsets = new Array<string>(n);
  const urls = new Array<string>(n);
  const dates = new Array<string>(n);
  const transfer: ArrayBuffer[] = [];
  let copied = 0;
  for (let i = 0; i < n; i++) {
    const body = pages[i].body;
    const own = transferableBuffer(body);
    // A buffer met twice would be one record's body twice over: copy rather than trust it.
    if (own !== null && !transfer.includes(own)) {
      transfer.push(own);
      bodies[i] = body;
    } else {
      copied += body.byteLength;
    }
    charsets[i] = pages[i].charset;
    urls[i] = pages[i].url ?? "";
    dates[i] = capturedAt(pages[i]);
  }
  if (copied > 0 || transfer.length === 0) {
    // Never pooled (allocUnsafe pools small sizes, and the pool cannot be transferred); every byte is written below.
    const packed = Buffer.allocUnsafeSlow(copied);
    let at = 0;
    for (let i = 0; i < n; i++) {
      if (bodies[i] !== undefined) continue;
      const body = pages[i].body;
      packed.set(body, at);
      bodies[i] = packed.subarray(at, at + body.byteLength);
      at += body.byteLength;
    }
    transfer.push(packed.buffer as ArrayBuffer);
  }
  return { bodies, charsets, urls, dates, transfer };
}

export function unpackPages(task: CleanTask): PageInput[] {
  const pages = new Array<PageInput>(task.bodies.length);
  for (let i = 0; i < pages.length; i++) {
    pages[i] = { body: task.bodies[i], headerCharset: task.charsets[i], url: task.urls?.[i], capturedAt: task.dates?.[i] };
  }
  return pages;
}

/**
 * A batch's outputs as they cross back from a pool thread, the kept blocks' fields in columns.
 * Structured cloning writes each object's keys with it and rebuilds the object key by key on the
 * other side, and a batch's blocks are thousands of small objects: as columns (the texts one
 * array of strings, the headings a byte each, the few layouts beside their block numbers) the
 * same batch crosses in about two thirds of the CPU, the block objects made again on the main
 * thread included (benchmarks/results/2026-11-27-pagecost.md).
 */
export interface PackedOutputs {
  /** The outputs, each written page's `blocks` left empty: its blocks are the next `blockCounts[i]` of the columns. */
  outputs: PageOutput[];
  blockCounts: Uint32Array;
  texts: string[];
  headings: Uint8Array;
  /** The blocks that have a layout: their places in the columns, ascending, and their layouts. */
  layoutBlocks: number[];
  layouts: BlockLayout[];
}

const NO_BLOCKS: DocumentBlock[] = [];

/**
 * The block fields packOutputs carries. A field added to DocumentBlock and not here would be
 * dropped on the way back from every pool thread without an error: this line stops the build.
 */
type PackedBlockField = "text" | "heading" | "layout";
const EVERY_BLOCK_FIELD_PACKED: [keyof DocumentBlock] extends [PackedBlockField]
  ? [PackedBlockField] extends [keyof DocumentBlock]
    ? true
    : never
  : never = true;
void EVERY_BLOCK_FIELD_PACKED;

/**
 * Packs a batch's outputs for the way back (PackedOutputs). Takes the outputs over: each written
 * page's `blocks` is replaced by an empty array, so the caller must not read them afterwards.
 */
export function packOutputs(outputs: PageOutput[]): PackedOutputs {
  let n = 0;
  for (const out of outputs) if (out.ok) n += out.blocks.length;
  const blockCounts = new Uint32Array(outputs.length);
  const texts = new Array<string>(n);
  const headings = new Uint8Array(n);
  const layoutBlocks: number[] = [];
  const layouts: BlockLayout[] = [];
  let at = 0;
  for (let i = 0; i < outputs.length; i++) {
    const out = outputs[i];
    if (!out.ok) continue;
    const blocks = out.blocks;
    blockCounts[i] = blocks.length;
    for (let b = 0; b < blocks.length; b++, at++) {
      const block = blocks[b];
      texts[at] = block.text;
      headings[at] = block.heading;
      if (block.layout !== undefined) {
        layoutBlocks.push(at);
        layouts.push(block.layout);
      }
    }
    out.blocks = NO_BLOCKS;
  }
  return { outputs, blockCounts, texts, headings, layoutBlocks, layouts };
}

/** The outputs packOutputs packed, each written page's blocks made again as the cleaner made them. */
export function unpackOutputs(packed: PackedOutputs): PageOutput[] {
  const { outputs, blockCounts, texts, headings, layoutBlocks, layouts } = packed;
  let at = 0;
  let nextLayout = 0;
  for (let i = 0; i < outputs.length; i++) {
    const out = outputs[i];
    if (!out.ok) continue;
    const blocks = new Array<DocumentBlock>(blockCounts[i]);
    for (let b = 0; b < blocks.length; b++, at++) {
      // One shape for every block, as outputBlock makes them on the pool thread.
      const layout = layoutBlocks[nextLayout] === at ? layouts[nextLayout++] : undefined;
      blocks[b] = { text: texts[at], heading: headings[at], layout };
    }
    out.blocks = blocks;
  }
  return outputs;
}
