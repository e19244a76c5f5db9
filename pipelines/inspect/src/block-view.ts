/**
 * What the report and the labelling page show about a block: its text, its score and decision,
 * and the handful of features that best explain a decision to a person.
 */
import { wordCount } from "@winnow/labels";
import type { Block, SegmentedDocument } from "@winnow/segment";

/** The features shown on hover or expand; all come straight from the segmenter. */
export interface BlockFeatures {
  words: number;
  /** Share of the text inside links, 0..1. */
  linkDensity: number;
  links: number;
  container: string;
  tagPath: string;
  classIds: string;
  markupChars: number;
  textChars: number;
}

export interface BlockView {
  text: string;
  /** 1-6 for h1-h6, else 0. */
  heading: number;
  /** The classifier's score, rounded to 3 decimals. */
  score: number;
  /** 1 kept as content, 0 dropped as boilerplate. */
  kept: 0 | 1;
  features: BlockFeatures;
}

function blockFeatures(block: Block): BlockFeatures {
  return {
    // The count the heuristic seeds judge a block by.
    words: wordCount(block.text),
    linkDensity: round(block.textChars === 0 ? 0 : block.anchorChars / block.textChars),
    links: block.anchorCount,
    container: block.container,
    tagPath: block.tagPath,
    classIds: block.classIds,
    markupChars: block.markupChars,
    textChars: block.textChars,
  };
}

export function blockViews(doc: SegmentedDocument, scores: ArrayLike<number>, kept: ArrayLike<number>): BlockView[] {
  return doc.blocks.map((block, i) => ({
    text: block.text,
    heading: block.heading,
    score: round(scores[i]),
    kept: kept[i] === 1 ? 1 : 0,
    features: blockFeatures(block),
  }));
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
