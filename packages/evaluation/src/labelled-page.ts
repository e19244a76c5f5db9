/**
 * A page with its gold main text, as training and evaluation read it: WCXB pages, users' JSONL
 * lines and plain HTML files all become this.
 */
import { type SegmentedDocument, segmentHtml } from "@winnow/segment";
import type { WcxbPage } from "./wcxb.js";

export interface LabelledPage {
  /** The data set it came from (its folder or file name): what leave-one-source-out leaves out. */
  source: string;
  id: string;
  url: string;
  domain: string;
  pageType: string;
  doc: SegmentedDocument;
  gold: string;
  withSnippets: string[];
  withoutSnippets: string[];
  /** Gold text of the page's user comments, "" when none or not labelled. */
  comments: string;
  /** The gold's language (ISO 639-1, as the set guessed it), "" when unknown. */
  language: string;
}

export function labelPage(page: WcxbPage, source: string): LabelledPage {
  return {
    source,
    id: page.id,
    url: page.url,
    domain: page.domain,
    pageType: page.pageType,
    doc: segmentHtml(page.html),
    gold: page.gold,
    withSnippets: page.withSnippets,
    withoutSnippets: page.withoutSnippets,
    comments: page.comments,
    language: page.language,
  };
}

/** Text of the kept blocks, joined as the writers join them. */
export function keptText(doc: SegmentedDocument, scores: ArrayLike<number>, threshold: number): string {
  const parts: string[] = [];
  for (let b = 0; b < doc.blocks.length; b++) if (scores[b] >= threshold) parts.push(doc.blocks[b].text);
  return parts.join("\n\n");
}
