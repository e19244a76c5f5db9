/**
 * A page with its gold main text, as training and evaluation read it: WCXB pages, users' JSONL
 * lines and plain HTML files all become this.
 */
import { type SegmentedDocument, segmentHtml } from "@winnow/segment";
import type { WcxbPage } from "./wcxb.js";

export interface LabelledPage {
  id: string;
  url: string;
  domain: string;
  pageType: string;
  doc: SegmentedDocument;
  gold: string;
  withSnippets: string[];
  withoutSnippets: string[];
}

export function labelPage(page: WcxbPage): LabelledPage {
  return {
    id: page.id,
    url: page.url,
    domain: page.domain,
    pageType: page.pageType,
    doc: segmentHtml(page.html),
    gold: page.gold,
    withSnippets: page.withSnippets,
    withoutSnippets: page.withoutSnippets,
  };
}

/** Text of the kept blocks, joined as the writers join them. */
export function keptText(doc: SegmentedDocument, scores: ArrayLike<number>, threshold: number): string {
  const parts: string[] = [];
  for (let b = 0; b < doc.blocks.length; b++) if (scores[b] >= threshold) parts.push(doc.blocks[b].text);
  return parts.join("\n\n");
}
