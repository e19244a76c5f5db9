/**
 * The data behind an inspection report: the inputs' HTML records read in order (or a seeded
 * random sample of them), each decoded, segmented and scored, up to a limit of documents so
 * that a report of a large crawl stays a file a browser can open.
 */
import { decodeHtmlPieces, expandInputs, readRecords, type ArchiveRecord } from "@winnow/archive";
import { mulberry32 } from "@winnow/random";
import type { BlockClassifier } from "@winnow/models";
import { scorePages } from "@winnow/models";
import { segmentHtml, type SegmentedDocument } from "@winnow/segment";
import { blockViews, type BlockView } from "./block-view.js";

export const DEFAULT_REPORT_LIMIT = 200;
/** Documents scored per classifier call: the MLP's batch, and a bound on what is held unscored. */
const SCORE_BATCH = 16;

export interface ReportDocument {
  /** WARC-Record-ID, or the reader's synthetic id for ARC and HTML files. */
  id: string;
  url: string;
  title: string;
  /** The input file it came from. */
  source: string;
  charset: string;
  blocksKept: number;
  blocksTotal: number;
  blocks: BlockView[];
}

/** What the report says about the run; the documents are streamed beside it (see scanReport). */
export interface ReportMeta {
  generated: string;
  model: string;
  threshold: number;
  inputs: string[];
  /** Files read after directories were expanded. */
  inputFiles: number;
  limit: number;
  /** True when there were more documents than the limit and the report stops at it. */
  limited: boolean;
  /** HTML records read (up to the limit; with a sample, all of them). */
  recordsRead: number;
  /** Records that did not become a report document, by reason: the reader's and "no-text", "decode-error". */
  skipped: Record<string, number>;
  /** With --sample: how many records were drawn, out of how many HTML records, with which seed. */
  sample?: { size: number; of: number; seed: number };
}

export interface ReportData extends ReportMeta {
  documents: ReportDocument[];
}

export interface ReportOptions {
  classifier: BlockClassifier;
  /** Most documents in the report (default 200). */
  limit?: number;
  /**
   * Instead of the first `limit` documents: this many HTML records drawn at random from all of
   * the inputs (reservoir sampling, so every record has the same chance and only the sample is
   * held), with `seed` fixing the draw.
   */
  sample?: number;
  /** Seed of the sample's draw (default 1). */
  seed?: number;
  maxPageBytes?: number;
  /** Clock for the report's date, for reproducible output in tests. */
  now?: () => Date;
}

interface Pending {
  record: ArchiveRecord;
  doc: SegmentedDocument;
  charset: string;
}

/**
 * Reads `inputs` (files or directories, as `winnow clean` takes them) and builds the report data
 * in memory: for tests and small reports; winnow inspect streams with scanReport.
 * Throws ArchiveOpenError (from expandInputs) when a given path does not exist.
 */
export async function buildReportData(inputs: readonly string[], options: ReportOptions): Promise<ReportData> {
  const documents: ReportDocument[] = [];
  const meta = await scanReport(inputs, options, (doc) => {
    documents.push(doc);
  });
  return { ...meta, documents };
}

/**
 * Reads `inputs` and hands each report document to `emit` as soon as it is scored, holding at
 * most one scoring batch (or, with a sample, the sampled records), so that memory does not grow
 * with the number of documents. Resolves with what the report says about the run.
 */
export async function scanReport(
  inputs: readonly string[],
  options: ReportOptions,
  emit: (doc: ReportDocument) => void | Promise<void>,
): Promise<ReportMeta> {
  const limit = options.limit ?? DEFAULT_REPORT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a whole number >= 1, got ${limit}`);
  const files = await expandInputs([...inputs]);
  const skipped: Record<string, number> = {};
  const count = (reason: string): void => {
    skipped[reason] = (skipped[reason] ?? 0) + 1;
  };
  let pending: Pending[] = [];
  let emitted = 0;
  let recordsRead = 0;
  let limited = false;

  const flush = async (): Promise<void> => {
    const scored = await scorePages(
      pending.map((p) => p.doc),
      options.classifier,
    );
    const batch = pending;
    pending = [];
    for (let i = 0; i < scored.length; i++) {
      await emit(reportDocument(batch[i], scored[i].scores, scored[i].kept));
      emitted++;
    }
  };
  /** Decodes and segments a record; queues it for scoring unless it has no text. */
  const admit = async (record: ArchiveRecord): Promise<void> => {
    let doc: SegmentedDocument;
    let charset: string;
    try {
      const decoded = decodeHtmlPieces(record.body, record.charset);
      charset = decoded.charset;
      doc = segmentHtml(decoded.pieces);
    } catch {
      count("decode-error");
      return;
    }
    if (doc.blocks.length === 0) {
      count("no-text");
      return;
    }
    pending.push({ record, doc, charset });
    if (pending.length >= SCORE_BATCH) await flush();
  };
  const readOptions = { maxPageBytes: options.maxPageBytes, onSkip: (e: { reason: string }) => count(e.reason) };

  let sample: ReportMeta["sample"];
  if (options.sample !== undefined) {
    const size = options.sample;
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`sample must be a whole number >= 1, got ${size}`);
    const seed = options.seed ?? 1;
    // The same seed, the same sample on every run.
    const random = mulberry32(seed);
    // Algorithm R over every HTML record of every input: each ends in the sample with chance size/total.
    const reservoir: Array<{ order: number; record: ArchiveRecord }> = [];
    for (const file of files) {
      for await (const record of readRecords(file, readOptions)) {
        const order = recordsRead++;
        if (order < size) reservoir.push({ order, record });
        else {
          const j = Math.floor(random() * (order + 1));
          if (j < size) reservoir[j] = { order, record };
        }
      }
    }
    // Shown in reading order, so the report reads like the inputs.
    reservoir.sort((a, b) => a.order - b.order);
    for (const { record } of reservoir) await admit(record);
    sample = { size: reservoir.length, of: recordsRead, seed };
  } else {
    reading: for (const file of files) {
      for await (const record of readRecords(file, readOptions)) {
        if (emitted + pending.length >= limit) {
          limited = true;
          break reading;
        }
        recordsRead++;
        await admit(record);
      }
    }
  }
  if (pending.length > 0) await flush();

  return {
    generated: (options.now?.() ?? new Date()).toISOString(),
    model: options.classifier.name,
    threshold: Math.round(options.classifier.threshold * 1000) / 1000,
    inputs: [...inputs],
    inputFiles: files.length,
    limit,
    limited,
    recordsRead,
    skipped,
    ...(sample === undefined ? {} : { sample }),
  };
}

function reportDocument(p: Pending, scores: Float32Array, kept: Uint8Array): ReportDocument {
  const blocks = blockViews(p.doc, scores, kept);
  let blocksKept = 0;
  for (const b of blocks) blocksKept += b.kept;
  return {
    id: p.record.recordId,
    url: p.record.url,
    title: p.doc.title,
    source: p.record.source,
    charset: p.charset,
    blocksKept,
    blocksTotal: blocks.length,
    blocks,
  };
}
