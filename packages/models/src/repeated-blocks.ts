/**
 * One copy of each repeated block in a page's output. Mobile and desktop variants of one text,
 * carousel clones and paired gallery captions are the same text twice or more (about 14% of the
 * wrongly kept words in issue 35); the segmenter links each later copy to the first
 * (Block.repeatOf) and every classifier that `--model` names passes its scores through here.
 *
 * Only a copy under another tag path than its first copy goes. Copies under one tag path are
 * most often entries of one list or template (each job's "View full description" line), which
 * the labelled sets' gold keeps every time: 414 of the 455 such copies whose text CleanEval's
 * gold holds are there twice or more, 188 of 233 in GoogleTrends. Copies elsewhere on the page it
 * mostly holds once (231 of 257 in GoogleTrends, 34 of 39 in L3S-GN1, 19 of 21 in newspaper3k;
 * CleanEval half and half). Dropping every copy cost CleanEval 0.002 F1.
 *
 * The copy kept is the first one the model keeps, so a copy in the article beats an earlier one
 * in a menu the model drops. The others are scored 0, as a vetoed comment is: everything
 * downstream compares scores with the threshold and sees them dropped. A text the main text
 * holds is no user comment either: its copies' comment scores go to 0.
 */
import type { SegmentedDocument } from "@winnow/segment";
import type { BlockClassifier, ScoreBatch } from "./classifier.js";

/** A page's repeated blocks: each copy's first copy, and whether it sits under the same tag path. */
export interface RepeatLinks {
  /** Per block, the index of its first copy (Block.repeatOf), -1 for a first copy or a short block. */
  first: Int32Array;
  /** Per block, 1 where the copy's tag path is its first copy's. */
  samePath: Uint8Array;
}

/** The page's repeat links, or null when it repeats nothing. */
export function repeatLinks(doc: SegmentedDocument): RepeatLinks | null {
  const blocks = doc.blocks;
  let links: RepeatLinks | null = null;
  for (let b = 0; b < blocks.length; b++) {
    const first = blocks[b].repeatOf;
    if (first < 0) continue;
    links ??= { first: new Int32Array(blocks.length).fill(-1), samePath: new Uint8Array(blocks.length) };
    links.first[b] = first;
    if (blocks[first].pathId === blocks[b].pathId) links.samePath[b] = 1;
  }
  return links;
}

/**
 * Scores 0 every kept block whose text an earlier kept block of the page already has under
 * another tag path. With comment scores: those of every copy of a text the main text keeps go to
 * 0 (--comments lists the blocks not kept that the comment head calls comments).
 */
export function dropRepeatedBlocks(scores: Float32Array, links: RepeatLinks | null, threshold: number, comments?: Float32Array): void {
  if (links === null) return;
  const { first, samePath } = links;
  const kept = new Uint8Array(scores.length);
  for (let b = 0; b < scores.length; b++) {
    if (scores[b] < threshold) continue;
    const text = first[b] >= 0 ? first[b] : b;
    if (kept[text] === 1 && samePath[b] === 0) scores[b] = 0;
    else kept[text] = 1;
  }
  if (comments === undefined) return;
  for (let b = 0; b < scores.length; b++) if (kept[first[b] >= 0 ? first[b] : b] === 1 && scores[b] < threshold) comments[b] = 0;
}

/** `classifier` with dropRepeatedBlocks applied to every page it scores, in score() and batches alike. */
export function keepingOneCopy(classifier: BlockClassifier): BlockClassifier {
  const threshold = classifier.threshold;
  const apply = (scores: Float32Array[], links: readonly (RepeatLinks | null)[], comments?: Float32Array[]): Float32Array[] => {
    for (let i = 0; i < scores.length; i++) dropRepeatedBlocks(scores[i], links[i], threshold, comments?.[i]);
    return scores;
  };
  const wrapped: BlockClassifier = {
    name: classifier.name,
    threshold,
    info: classifier.info,
    commentThreshold: classifier.commentThreshold,
    commentFieldThreshold: classifier.commentFieldThreshold,
    score: async (docs) => apply(await classifier.score(docs), docs.map(repeatLinks)),
    close: () => classifier.close(),
  };
  if (classifier.batch !== undefined) {
    const inner = classifier.batch.bind(classifier);
    wrapped.batch = (): ScoreBatch => {
      const batch = inner();
      const links: Array<RepeatLinks | null> = [];
      const self: ScoreBatch = {
        add(doc) {
          links.push(repeatLinks(doc));
          return batch.add(doc);
        },
        async score() {
          const scores = await batch.score();
          if (batch.commentScores !== undefined) self.commentScores = batch.commentScores;
          return apply(scores, links, batch.commentScores);
        },
      };
      return self;
    };
  }
  return wrapped;
}
