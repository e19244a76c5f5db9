import type { SegmentedDocument } from "@winnow/segment";
import type { BlockClassifier } from "./classifier.js";

/** A segmented page with its block scores and keep decisions, for callers that want more than the kept text. */
export interface ScoredPage {
  doc: SegmentedDocument;
  scores: Float32Array;
  /** 1 where the block's score reaches the classifier's threshold. */
  kept: Uint8Array;
}

/** Scores pages in one call and marks each block kept or dropped at the classifier's threshold. */
export async function scorePages(docs: SegmentedDocument[], classifier: BlockClassifier): Promise<ScoredPage[]> {
  const scores = await classifier.score(docs);
  return docs.map((doc, i) => {
    const s = scores[i];
    const kept = new Uint8Array(s.length);
    for (let b = 0; b < s.length; b++) kept[b] = s[b] >= classifier.threshold ? 1 : 0;
    return { doc, scores: s, kept };
  });
}
