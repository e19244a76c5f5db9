/**
 * One copy of each repeated block in a page's output. Mobile and desktop variants of one text,
 * carousel clones and paired gallery captions are the same text twice or more (about 14% of the
 * wrongly kept words in issue 35); the segmenter links each later copy to the first
 * (Block.repeatOf) and every classifier that `--model` names passes its scores through here.
 *
 * The copy kept is the first one the model keeps, so a copy in the article beats an earlier one
 * in a menu the model drops. The others are scored 0, as a vetoed comment is: everything
 * downstream compares scores with the threshold and sees them dropped.
 */
import type { SegmentedDocument } from "@winnow/segment";
import type { BlockClassifier, ScoreBatch } from "./classifier.js";

/** Each block's first copy on the page (Block.repeatOf), or null when the page repeats nothing. */
export function repeatLinks(doc: SegmentedDocument): Int32Array | null {
  const blocks = doc.blocks;
  let links: Int32Array | null = null;
  for (let b = 0; b < blocks.length; b++) {
    const first = blocks[b].repeatOf;
    if (first < 0) continue;
    links ??= new Int32Array(blocks.length).fill(-1);
    links[b] = first;
  }
  return links;
}

/** Scores 0 every kept block whose text an earlier kept block of the page already has. */
export function dropRepeatedBlocks(scores: Float32Array, links: Int32Array | null, threshold: number): void {
  if (links === null) return;
  const taken = new Uint8Array(scores.length);
  for (let b = 0; b < scores.length; b++) {
    if (scores[b] < threshold) continue;
    const text = links[b] >= 0 ? links[b] : b;
    if (taken[text] === 1) scores[b] = 0;
    else taken[text] = 1;
  }
}

/** `classifier` with dropRepeatedBlocks applied to every page it scores, in score() and batches alike. */
export function keepingOneCopy(classifier: BlockClassifier): BlockClassifier {
  const threshold = classifier.threshold;
  const apply = (scores: Float32Array[], links: readonly (Int32Array | null)[]): Float32Array[] => {
    for (let i = 0; i < scores.length; i++) dropRepeatedBlocks(scores[i], links[i], threshold);
    return scores;
  };
  const wrapped: BlockClassifier = {
    name: classifier.name,
    threshold,
    info: classifier.info,
    commentThreshold: classifier.commentThreshold,
    score: async (docs) => apply(await classifier.score(docs), docs.map(repeatLinks)),
    close: () => classifier.close(),
  };
  if (classifier.batch !== undefined) {
    const inner = classifier.batch.bind(classifier);
    wrapped.batch = (): ScoreBatch => {
      const batch = inner();
      const links: Array<Int32Array | null> = [];
      const self: ScoreBatch = {
        add(doc) {
          links.push(repeatLinks(doc));
          return batch.add(doc);
        },
        async score() {
          const scores = apply(await batch.score(), links);
          if (batch.commentScores !== undefined) self.commentScores = batch.commentScores;
          return scores;
        },
      };
      return self;
    };
  }
  return wrapped;
}
