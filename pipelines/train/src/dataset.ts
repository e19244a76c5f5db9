/**
 * Labelled pages to training rows: segment each page, label its blocks by aligning them with the
 * page's gold text, and stack every block's feature row into one matrix.
 */
import { alignBlockLabels, type LabelledPage } from "@winnow/evaluation";
import { type FeatureSet, titleHeading } from "@winnow/features";
import { COMMENT_CHROME, COMMENT_THREAD, type CommentContext, commentContext } from "@winnow/models";
import { CLASS_WORD_GROUPS } from "@winnow/segment";

const COMMENT_CLASS = 1 << CLASS_WORD_GROUPS.findIndex(([group]) => group === "comments");

export interface Dataset {
  pages: LabelledPage[];
  featureSet: FeatureSet;
  /** Row-major blocks x featureSet.size. */
  rows: Float32Array;
  labels: Uint8Array;
  /**
   * 1 for user comments: blocks whose words align with the page's comment gold (and not with its
   * main text), and, where a set has no comment gold, weak labels from markup: the blocks of a
   * comment thread by the comment markup rule (commentMarkup's COMMENT_THREAD: `li.comment`,
   * `comment-body`, Disqus, ...), not every block under comment class words, on pages that are
   * not forum threads and that the main-text gold leaves out. Never the chrome around comments
   * (reply form, policy, counters, buttons: COMMENT_CHROME), which some comment gold includes
   * (L3S-GN1's has forms and "No comments submitted yet") and which is neither main text nor a
   * comment. On a page with hand comment labels (DatasetOptions.commentLabels) those labels
   * alone, in place of both.
   */
  comments: Uint8Array;
  /**
   * With hand comment labels: 1 for the pages that have them, per block whether the comment head
   * trains on it (1) or not (0, a block the labels leave open), and per block the hand label
   * itself (1 a user comment). With `trains`, the comment head trains on a hand-labelled page's
   * blocks by these (and `comments` holds them), and on every other page as the main text does;
   * without, they only score the comment decision held out (DatasetOptions.commentLabelsTrain).
   */
  commentHand?: { pages: Uint8Array; known: Uint8Array; comments: Uint8Array; trains: boolean };
  /** Per page, what the comment decision reads of its markup (commentContext; null for most pages). */
  commentContexts: Array<CommentContext | null>;
  /**
   * 1 for blocks whose label a set's convention makes unreliable, which then weigh nothing in
   * training: the user comments of a set whose gold keeps them as main text (CleanEval keeps 96%
   * of the words under comment markup on its non-forum pages; the other sets 1-7%). winnow keeps
   * comments out of the main text, as those sets do and as the held-out news and blog pages need.
   */
  dontCare: Uint8Array;
  /** Word tokens per block: word F1 counts words, so training can weight blocks by them. */
  words: Float32Array;
  /** Block rows of page p are firstRow[p] .. firstRow[p+1]-1. */
  firstRow: Int32Array;
  /** The distinct sources in order of first appearance, and each page's index into them. */
  sources: string[];
  sourceOf: Int32Array;
  /** When set, training uses these labels instead of the alignment's `labels` (see withTrainingLabels). */
  training?: TrainingLabels;
}

/**
 * Labels to train on that did not come from the alignment (label files: hand-made or
 * propagated). `labels` and `known` are per block like Dataset.labels; a block with known 0 has
 * no label and weighs nothing in training. `validationGold` is, per page, the text the keep
 * threshold is chosen against. Scoring (eval) always uses the pages' own gold text.
 */
export interface TrainingLabels {
  labels: Uint8Array;
  known: Uint8Array;
  validationGold: readonly string[];
}

/** Alignment threshold: a block is content when at least half its words align with the gold text. */
export const LABEL_THRESHOLD = 0.5;

/**
 * What the page's headline (the heading that matches <title>) is labelled in training. The
 * labelled sets disagree: CleanEval, L3S-GN1, GoogleTrends-2017 and magic-html count it as main
 * content, WCXB mostly leaves it out. "gold" trains on each set's own convention, which teaches a
 * model to guess the source; "keep" labels it content everywhere.
 */
export type HeadlineRule = "keep" | "gold";

/** A page's hand comment labels, per block: 1 a user comment, 0 not one, null open. */
export type PageCommentLabels = readonly (0 | 1 | null)[];

export interface DatasetOptions {
  headline?: HeadlineRule;
  /**
   * Per page, in the order of `pages`: hand comment labels (label files of version 2, made with
   * label-ui's comment key), or undefined for a page without. Where given, they decide the page's
   * comment positives and negatives instead of its comment gold or the markup rule.
   */
  commentLabels?: readonly (PageCommentLabels | undefined)[];
  /**
   * Whether the hand comment labels decide the comment head's labels (default true), or only
   * score the comment decision on their pages, as held-out gold (a recipe without them compared
   * with one with them, on the same pages).
   */
  commentLabelsTrain?: boolean;
}

export const DEFAULT_HEADLINE_RULE: HeadlineRule = "keep";

export function buildDataset(pages: LabelledPage[], featureSet: FeatureSet, options: DatasetOptions = {}): Dataset {
  const firstRow = new Int32Array(pages.length + 1);
  for (let p = 0; p < pages.length; p++) firstRow[p + 1] = firstRow[p] + pages[p].doc.blocks.length;
  const total = firstRow[pages.length];
  const rows = new Float32Array(total * featureSet.size);
  const labels = new Uint8Array(total);
  const comments = new Uint8Array(total);
  const words = new Float32Array(total);
  const sources: string[] = [];
  const sourceOf = new Int32Array(pages.length);
  const keepHeadline = (options.headline ?? DEFAULT_HEADLINE_RULE) === "keep";
  // Sets that label comments (any page has comment gold) are trusted where a page has none.
  const labelsComments = new Set(pages.filter((p) => p.comments !== "").map((p) => p.source));
  const hand = options.commentLabels;
  if (hand !== undefined && hand.length !== pages.length)
    throw new RangeError(`comment labels for ${hand.length} pages, ${pages.length} pages given`);
  const commentHand = hand?.some((l) => l !== undefined)
    ? {
        pages: new Uint8Array(pages.length),
        known: new Uint8Array(total),
        comments: new Uint8Array(total),
        trains: options.commentLabelsTrain ?? true,
      }
    : undefined;
  const commentContexts: Array<CommentContext | null> = [];
  for (let p = 0; p < pages.length; p++) {
    const { doc, gold } = pages[p];
    let s = sources.indexOf(pages[p].source);
    if (s < 0) s = sources.push(pages[p].source) - 1;
    sourceOf[p] = s;
    featureSet.extract(doc, rows, firstRow[p] * featureSet.size);
    const texts = doc.blocks.map((b) => b.text);
    const aligned = alignBlockLabels(texts, gold, { threshold: LABEL_THRESHOLD });
    labels.set(aligned.labels, firstRow[p]);
    words.set(aligned.tokens, firstRow[p]);
    if (keepHeadline && gold !== "") {
      const headline = titleHeading(doc);
      if (headline >= 0) labels[firstRow[p] + headline] = 1;
    }
    const context = commentContext(doc);
    commentContexts.push(context);
    const markup = context?.roles;
    const handLabels = hand?.[p];
    if (handLabels !== undefined && commentHand !== undefined) {
      if (handLabels.length !== texts.length)
        throw new RangeError(`page ${pages[p].id}: ${handLabels.length} comment labels for ${texts.length} blocks`);
      commentHand.pages[p] = 1;
      for (let b = 0; b < texts.length; b++) {
        commentHand.comments[firstRow[p] + b] = handLabels[b] === 1 ? 1 : 0;
        commentHand.known[firstRow[p] + b] = handLabels[b] === null ? 0 : 1;
      }
    }
    if (handLabels !== undefined && commentHand?.trains === true) {
      comments.set(commentHand.comments.subarray(firstRow[p], firstRow[p + 1]), firstRow[p]);
    } else if (pages[p].comments !== "") {
      const inComments = alignBlockLabels(texts, pages[p].comments, { threshold: LABEL_THRESHOLD }).labels;
      for (let b = 0; b < texts.length; b++) {
        if (inComments[b] === 1 && labels[firstRow[p] + b] === 0 && markup?.[b] !== COMMENT_CHROME) comments[firstRow[p] + b] = 1;
      }
    } else if (markup !== undefined && !labelsComments.has(pages[p].source) && pages[p].pageType !== "forum" && gold !== "") {
      for (let b = 0; b < texts.length; b++) {
        if (markup[b] === COMMENT_THREAD && labels[firstRow[p] + b] === 0) comments[firstRow[p] + b] = 1;
      }
    }
  }
  const dontCare = commentsKeptAsContent(pages, firstRow, labels, words, sources, sourceOf);
  return { pages, featureSet, rows, labels, comments, commentHand, commentContexts, dontCare, words, firstRow, sources, sourceOf };
}

/** See Dataset.dontCare: a set counts as keeping comments when most of its comment-markup words are content. */
function commentsKeptAsContent(
  pages: readonly LabelledPage[],
  firstRow: Int32Array,
  labels: Uint8Array,
  words: Float32Array,
  sources: readonly string[],
  sourceOf: Int32Array,
): Uint8Array {
  const dontCare = new Uint8Array(labels.length);
  const underComments = (p: number, b: number): boolean =>
    pages[p].pageType !== "forum" && (pages[p].doc.blocks[b].classMask & COMMENT_CLASS) !== 0;
  const total = new Float64Array(sources.length);
  const content = new Float64Array(sources.length);
  pages.forEach((page, p) => {
    for (let b = 0; b < page.doc.blocks.length; b++) {
      if (!underComments(p, b)) continue;
      total[sourceOf[p]] += words[firstRow[p] + b];
      if (labels[firstRow[p] + b] === 1) content[sourceOf[p]] += words[firstRow[p] + b];
    }
  });
  pages.forEach((page, p) => {
    const s = sourceOf[p];
    if (!(total[s] > 0 && content[s] > total[s] / 2)) return;
    for (let b = 0; b < page.doc.blocks.length; b++) if (underComments(p, b)) dontCare[firstRow[p] + b] = 1;
  });
  return dontCare;
}

/** The rows and labels of a subset of pages, copied into fresh arrays. */
export function selectPages(
  data: Dataset,
  pageIndexes: readonly number[],
): { rows: Float32Array; labels: Uint8Array; words: Float32Array; count: number; known?: Uint8Array } {
  const size = data.featureSet.size;
  let count = 0;
  for (const p of pageIndexes) count += data.firstRow[p + 1] - data.firstRow[p];
  const rows = new Float32Array(count * size);
  const labels = new Uint8Array(count);
  const words = new Float32Array(count);
  const unsure = data.dontCare.includes(1);
  const known = data.training || unsure ? new Uint8Array(count) : undefined;
  const source = data.training?.labels ?? data.labels;
  let at = 0;
  for (const p of pageIndexes) {
    const from = data.firstRow[p],
      to = data.firstRow[p + 1];
    rows.set(data.rows.subarray(from * size, to * size), at * size);
    labels.set(source.subarray(from, to), at);
    words.set(data.words.subarray(from, to), at);
    if (known !== undefined) {
      if (data.training) known.set(data.training.known.subarray(from, to), at);
      else known.fill(1, at, at + to - from);
      if (unsure) for (let b = from; b < to; b++) if (data.dontCare[b] === 1) known[at + b - from] = 0;
    }
    at += to - from;
  }
  return { rows, labels, words, count, known };
}

/** The sources with comment gold on any page: there a page without it has no comments. */
const commentGoldSources = new WeakMap<Dataset, ReadonlySet<string>>();

/** Whether a page is of a set with comment gold (ground_truth.comments; a page without it has no comments). */
export function inCommentGoldSet(data: Dataset, p: number): boolean {
  let withGold = commentGoldSources.get(data);
  if (withGold === undefined)
    commentGoldSources.set(data, (withGold = new Set(data.pages.filter((q) => q.comments !== "").map((q) => q.source))));
  return withGold.has(data.pages[p].source);
}

/**
 * Whether a page's user comments are known, so that the comment figures can score it: a page of a
 * set with comment gold, or a page with hand comment labels (training on them or not).
 */
export function commentsKnown(data: Dataset, p: number): boolean {
  return data.commentHand?.pages[p] === 1 || inCommentGoldSet(data, p);
}
