/**
 * The worker's side of site-template detection: fingerprint pages in pass one, and in pass two
 * (performance mode) clean pages that pass one already parsed. Pass two in memory mode is the
 * ordinary cleanPages with a SiteTemplateBatch (page.ts).
 */
import { decodeHtmlPieces } from "@winnow/archive/pages";
import type { BlockClassifier } from "@winnow/models/classifiers";
import type { SegmentedDocument } from "@winnow/segment";
import { pageFingerprints } from "@winnow/templates";
import { errorMessage } from "@winnow/errors";
import { scorePages } from "@winnow/models/classifiers";
import { chosenMetadata, type PageInput, type PageOptions, type PageOutput, segmentWithMetadata, unusableParse } from "./page.js";
import type { DocumentBlock } from "@winnow/writers";
import { applySiteTemplates, type ParsedPage, type SiteTemplateBatch } from "./site-templates-batch.js";

export type { ParsedPage, SiteTemplateBatch };

/** Pass one's answer for one page: its fingerprints (null when it has no text), and, when asked, the parsed page. */
export interface FingerprintedPage {
  fingerprints: Float64Array | null;
  /** Set when the worker fingerprinting the page's batch failed: why (the page then has no fingerprints). */
  failed?: string;
  parsed?: ParsedPage;
}

/**
 * Pass one in a worker: decode and segment (fingerprints on), keep only the hashes unless
 * `keepParsed`; a kept parse has the links and metadata `options` ask for, as cleanPages would.
 */
export function fingerprintPages(inputs: readonly PageInput[], keepParsed: boolean, options: PageOptions = {}): FingerprintedPage[] {
  // Only a kept parse is cleaned from: the hashes alone need neither.
  const segmentOptions = {
    subtrees: true,
    links: keepParsed && options.links === true,
    metadata: keepParsed && options.metadata !== false,
  };
  const out = new Array<FingerprintedPage>(inputs.length);
  for (let i = 0; i < inputs.length; i++) {
    let parsed: ParsedPage;
    try {
      const { pieces, charset } = decodeHtmlPieces(inputs[i].body, inputs[i].headerCharset);
      const { doc, metadata, shown } = segmentWithMetadata(pieces, inputs[i].url ?? "", {
        ...segmentOptions,
        capturedAt: inputs[i].capturedAt,
      });
      const unusable = unusableParse(doc);
      parsed = unusable !== null ? { ok: false, output: unusable } : { ok: true, doc, charset, metadata, shown };
    } catch (error) {
      parsed = { ok: false, output: { ok: false, reason: "decode-error", detail: errorMessage(error) } };
    }
    const fingerprints = parsed.ok && parsed.doc.subtrees !== undefined ? pageFingerprints(parsed.doc.subtrees) : null;
    out[i] = keepParsed ? { fingerprints, parsed } : { fingerprints };
  }
  return out;
}

/** Pass two in performance mode: score the pages pass one parsed, drop template blocks, keep the rest. */
export async function cleanParsedPages(
  batch: SiteTemplateBatch & { parsed: ParsedPage[] },
  classifier: BlockClassifier,
): Promise<PageOutput[]> {
  const { parsed } = batch;
  const outputs = new Array<PageOutput>(parsed.length);
  const docs: SegmentedDocument[] = [];
  const slots: number[] = [];
  for (let i = 0; i < parsed.length; i++) {
    const page = parsed[i];
    if (page.ok) {
      docs.push(page.doc);
      slots.push(i);
    } else {
      outputs[i] = page.output;
    }
  }
  const scored = await scorePages(docs, classifier);
  for (let k = 0; k < scored.length; k++) {
    const { doc, scores, kept } = scored[k];
    const i = slots[k];
    applySiteTemplates(doc, scores, kept, batch, i);
    const blocks: DocumentBlock[] = [];
    const keptIndexes: number[] = [];
    for (let b = 0; b < doc.blocks.length; b++) {
      if (kept[b] !== 1) continue;
      const { text, heading, layout } = doc.blocks[b];
      blocks.push(layout === undefined ? { text, heading } : { text, heading, layout });
      keptIndexes.push(b);
    }
    const page = parsed[i] as Extract<ParsedPage, { ok: true }>;
    const metadata = chosenMetadata(page.metadata, page.shown, keptIndexes, () => doc.blocks.map((block) => block.text));
    outputs[i] = { ok: true, title: doc.title, charset: page.charset, blocks, blocksTotal: doc.blocks.length, metadata };
  }
  return outputs;
}
