/**
 * The cleaning of one batch of pages, top to bottom: decode the bytes, cut the HTML into blocks,
 * score the blocks, keep those at or above the threshold. Everything after the archive reader and
 * before the writer happens here, in a worker thread or inline.
 */
import { decodeHtml } from "@winnow/archive";
import type { BlockClassifier } from "@winnow/models";
import { MAX_NESTING, segmentHtml, type SegmentedDocument } from "@winnow/segment";
import { applySiteTemplates, type SiteTemplateBatch } from "./site-templates-batch.js";

/** What a worker gets for one record: the payload and what the archive said about it. */
export interface PageInput {
  body: Uint8Array;
  /** charset from the HTTP header, "" when none. */
  headerCharset: string;
  /** The record's URL, when it has one: per-host models are chosen by its host. */
  url?: string;
}

/** What comes back: the document's kept blocks, or the reason there is none. */
export type PageOutput =
  | {
      ok: true;
      title: string;
      charset: string;
      blocks: Array<{ text: string; heading: number }>;
      blocksTotal: number;
    }
  | { ok: false; reason: "decode-error" | "no-text" | "failed"; detail: string };

/** Segmented pages with their scores, for callers that want more than the kept text (eval, inspect). */
export interface ScoredPage {
  doc: SegmentedDocument;
  scores: Float32Array;
  kept: Uint8Array;
}

export async function scorePages(docs: SegmentedDocument[], classifier: BlockClassifier): Promise<ScoredPage[]> {
  const scores = await classifier.score(docs);
  return docs.map((doc, i) => {
    const s = scores[i];
    const kept = new Uint8Array(s.length);
    for (let b = 0; b < s.length; b++) kept[b] = s[b] >= classifier.threshold ? 1 : 0;
    return { doc, scores: s, kept };
  });
}

/** With `siteTemplates` (pass two of --site-templates), blocks in the hosts' template subtrees are dropped too. */
export async function cleanPages(inputs: readonly PageInput[], classifier: BlockClassifier, siteTemplates?: SiteTemplateBatch): Promise<PageOutput[]> {
  const outputs = new Array<PageOutput>(inputs.length);
  const docs: SegmentedDocument[] = [];
  const docSlots: number[] = [];
  const charsets: string[] = [];
  for (let i = 0; i < inputs.length; i++) {
    try {
      const { html, charset } = decodeHtml(inputs[i].body, inputs[i].headerCharset);
      const doc = segmentHtml(html, { subtrees: siteTemplates !== undefined });
      if (doc.blocks.length === 0) {
        const detail = doc.truncated
          ? `nesting deeper than ${MAX_NESTING} levels before any text; the parse was cut off there`
          : "the page has no visible text";
        outputs[i] = { ok: false, reason: "no-text", detail };
        continue;
      }
      docs.push(doc);
      docSlots.push(i);
      charsets.push(charset);
    } catch (error) {
      outputs[i] = { ok: false, reason: "decode-error", detail: message(error) };
    }
  }
  const scored = await scorePages(docs, classifier);
  for (let k = 0; k < scored.length; k++) {
    const { doc, kept } = scored[k];
    if (siteTemplates !== undefined) applySiteTemplates(doc, scored[k].scores, kept, siteTemplates, docSlots[k]);
    const blocks: Array<{ text: string; heading: number }> = [];
    for (let b = 0; b < doc.blocks.length; b++) {
      if (kept[b] === 1) blocks.push({ text: doc.blocks[b].text, heading: doc.blocks[b].heading });
    }
    outputs[docSlots[k]] = { ok: true, title: doc.title, charset: charsets[k], blocks, blocksTotal: doc.blocks.length };
  }
  return outputs;
}

export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
