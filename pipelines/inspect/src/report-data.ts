/**
 * The data behind an inspection report: the inputs' HTML records read in order, each decoded,
 * segmented and scored, up to a limit of documents so that a report of a large crawl stays a
 * file a browser can open.
 */
import { decodeHtmlPieces, expandInputs, readRecords, type ArchiveRecord } from "@winnow/archive";
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

export interface ReportData {
  generated: string;
  model: string;
  threshold: number;
  inputs: string[];
  /** Files read after directories were expanded. */
  inputFiles: number;
  limit: number;
  /** True when there were more documents than the limit and the report stops at it. */
  limited: boolean;
  /** HTML records read (up to the limit). */
  recordsRead: number;
  /** Records that did not become a report document, by reason: the reader's and "no-text", "decode-error". */
  skipped: Record<string, number>;
  documents: ReportDocument[];
}

export interface ReportOptions {
  classifier: BlockClassifier;
  /** Most documents in the report (default 200). */
  limit?: number;
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
 * Reads `inputs` (files or directories, as `winnow clean` takes them) and builds the report data.
 * Throws ArchiveOpenError (from expandInputs) when a given path does not exist.
 */
export async function buildReportData(inputs: readonly string[], options: ReportOptions): Promise<ReportData> {
  const limit = options.limit ?? DEFAULT_REPORT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a whole number >= 1, got ${limit}`);
  const files = await expandInputs([...inputs]);
  const skipped: Record<string, number> = {};
  const count = (reason: string): void => {
    skipped[reason] = (skipped[reason] ?? 0) + 1;
  };
  const documents: ReportDocument[] = [];
  let pending: Pending[] = [];
  let recordsRead = 0;
  let limited = false;

  const flush = async (): Promise<void> => {
    const scored = await scorePages(
      pending.map((p) => p.doc),
      options.classifier,
    );
    for (let i = 0; i < scored.length; i++) documents.push(reportDocument(pending[i], scored[i].scores, scored[i].kept));
    pending = [];
  };

  reading: for (const file of files) {
    for await (const record of readRecords(file, { maxPageBytes: options.maxPageBytes, onSkip: (e) => count(e.reason) })) {
      if (documents.length + pending.length >= limit) {
        limited = true;
        break reading;
      }
      recordsRead++;
      let doc: SegmentedDocument;
      let charset: string;
      try {
        const decoded = decodeHtmlPieces(record.body, record.charset);
        charset = decoded.charset;
        doc = segmentHtml(decoded.pieces);
      } catch {
        count("decode-error");
        continue;
      }
      if (doc.blocks.length === 0) {
        count("no-text");
        continue;
      }
      pending.push({ record, doc, charset });
      if (pending.length >= SCORE_BATCH) await flush();
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
    documents,
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
