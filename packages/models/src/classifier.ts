/**
 * One interface over every block classifier, so the pipeline does not care which one runs.
 * Classifiers score the blocks of several documents in one call: ONNX Runtime's per-call cost is
 * paid once per batch, not once per document or block.
 */
import { featureSetByName, type FeatureSet } from "@winnow/features";
import type { SegmentedDocument } from "@winnow/segment";
import { heuristicScores } from "./heuristic.js";
import { loadBiLstmClassifier } from "./bilstm/classifier.js";
import { ModelError } from "@winnow/errors";
import { ModelMismatchError } from "./onnx/errors.js";
import { decodeModelInfo, readModelBytes } from "./onnx/metadata.js";
import { OnnxBlockScorer } from "./onnx/scorer.js";
import type { ModelInfo } from "./types.js";
import type { ClassifierOptions } from "./classifier-options.js";
import { applyEmptyPageFallback } from "./fallback.js";
import { applyWeakPageRule } from "./weak-page.js";
import { type CommentContext, commentContext, decideComments, NO_COMMENTS } from "./comment-markup.js";
import { thresholdFor } from "./types.js";

export interface BlockClassifier {
  /** "heuristic", or the model file's name. */
  readonly name: string;
  /** Blocks scoring at or above this are kept. */
  readonly threshold: number;
  /** The model's own description; undefined for the heuristic. */
  readonly info?: ModelInfo;
  /**
   * Models with a comment head: the comment score at or above which a block is a user comment.
   * Their batches then also give commentScores.
   */
  readonly commentThreshold?: number;
  /**
   * Models with a comment head: the comment score at or above which a block not kept as main text
   * goes to the `comments` field (ModelInfo.commentFieldThreshold, or commentThreshold in a file
   * without one).
   */
  readonly commentFieldThreshold?: number;
  /** Scores in [0,1] for every block of every document, one array per document. */
  score(docs: readonly SegmentedDocument[]): Promise<Float32Array[]>;
  /**
   * A batch that takes documents one at a time and scores them together, as score() would. Each
   * document is reduced to what scoring needs (the MLP's feature rows) when it is added, so the
   * caller can let go of it at once instead of holding a whole batch of parsed pages. Optional:
   * scoreBatch() gives one for any classifier.
   */
  batch?(): ScoreBatch;
  /** Frees native resources (ONNX sessions). */
  close(): Promise<void>;
}

/** Documents added one by one, scored together (see BlockClassifier.batch). Used once. */
export interface ScoreBatch {
  /** Takes what scoring needs from `doc`; once it (or the promise it returns) is done, `doc` may be dropped. */
  add(doc: SegmentedDocument): void | Promise<void>;
  /** One score array per document added, in order. */
  score(): Promise<Float32Array[]>;
  /** After score() has resolved, for classifiers with a comment head: each document's comment scores. */
  commentScores?: Float32Array[];
}

/**
 * A batch that scores each document as soon as it is added, for classifiers that gain nothing
 * from scoring pages together (the heuristic; the BiLSTM, one run per page in any case).
 */
export function scoreOnArrival(scoreOne: (doc: SegmentedDocument) => Float32Array | Promise<Float32Array>): ScoreBatch {
  const scores: Float32Array[] = [];
  return {
    add: async (doc) => void scores.push(await scoreOne(doc)),
    score: async () => scores,
  };
}

/** The classifier's own batch, or one that keeps the documents and calls score() on them. */
export function scoreBatch(classifier: BlockClassifier): ScoreBatch {
  if (classifier.batch !== undefined) return classifier.batch();
  const docs: SegmentedDocument[] = [];
  return {
    add: (doc) => void docs.push(doc),
    score: () => classifier.score(docs),
  };
}

export function heuristicClassifier(): BlockClassifier {
  return {
    name: "heuristic",
    threshold: 0.5,
    score: async (docs) => docs.map(heuristicScores),
    batch: () => scoreOnArrival(heuristicScores),
    close: async () => {},
  };
}

/**
 * Feature rows of several documents stacked in one buffer, reused between batches when big
 * enough. Documents are added one at a time (append), so each can be dropped once its rows are in.
 */
export class FeatureBatch {
  private buffer = new Float32Array(0);
  /** Rows (blocks) written since the last reset. */
  private rows = 0;
  constructor(readonly featureSet: FeatureSet) {}

  /** Number of rows (blocks) appended since the last reset. */
  get count(): number {
    return this.rows;
  }

  /** Forgets the rows; the buffer is kept for the next batch. */
  reset(): void {
    this.rows = 0;
  }

  /** Appends one row per block of `doc`. */
  append(doc: SegmentedDocument): void {
    const size = this.featureSet.size;
    const need = (this.rows + doc.blocks.length) * size;
    if (this.buffer.length < need) {
      const grown = new Float32Array(Math.ceil((need / size) * 1.5) * size);
      grown.set(this.buffer.subarray(0, this.rows * size));
      this.buffer = grown;
    }
    this.featureSet.extract(doc, this.buffer, this.rows * size);
    this.rows += doc.blocks.length;
  }

  /** The rows appended so far, row-major (a view that the next append may replace). */
  view(): Float32Array {
    return this.buffer.subarray(0, this.rows * this.featureSet.size);
  }
}

/** Splits one score array for stacked documents back into one array per document (block counts). */
function splitScores(scores: Float32Array, counts: readonly number[]): Float32Array[] {
  const out: Float32Array[] = [];
  let at = 0;
  for (const n of counts) {
    out.push(scores.slice(at, at + n));
    at += n;
  }
  return out;
}

/** Loads an MLP model file and the feature set it was trained on; refuses a version mismatch. */
export async function loadMlpClassifier(path: string | Uint8Array, options: ClassifierOptions = {}): Promise<BlockClassifier> {
  const scorer = await OnnxBlockScorer.load(path);
  const info = scorer.info;
  const name = options.name ?? (typeof path === "string" ? path : "model");
  let featureSet: FeatureSet;
  try {
    featureSet = featureSetByName(info.featureSet);
  } catch {
    throw new ModelMismatchError(
      `model "${name}" expects feature set ${info.featureSet} v${info.featureSetVersion}, which this winnow does not have; ` +
        `retrain it with "winnow train" or pick another --model`,
    );
  }
  if (featureSet.version !== info.featureSetVersion || featureSet.size !== info.inputSize) {
    throw new ModelMismatchError(
      `model "${name}" expects feature set ${info.featureSet} v${info.featureSetVersion} (${info.inputSize} inputs) ` +
        `but this winnow computes ${featureSet.name} v${featureSet.version} (${featureSet.size} inputs); ` +
        `retrain it with "winnow train" or pick another --model`,
    );
  }
  // One feature buffer, reused batch after batch; a batch opened while another holds it gets its own.
  let spare: FeatureBatch | null = new FeatureBatch(featureSet);
  const commentHead = scorer.hasCommentHead;
  const commentThreshold = info.commentThreshold ?? NO_COMMENTS;
  const threshold = thresholdFor(info, options.favor);
  const fallback = info.emptyPageFallback;
  const batch = (): ScoreBatch => {
    const rows = spare ?? new FeatureBatch(featureSet);
    spare = null;
    rows.reset();
    const counts: number[] = [];
    // Each block's text length, for the weak-page rule: not the pages themselves, which a batch
    // must not keep alive (clean keeps only their block texts while the batch fills).
    let blockChars = new Int32Array(4096);
    let blocksAdded = 0;
    // With a comment head: per document, what its comment markup says (null for most pages).
    const markup: Array<CommentContext | null> = [];
    let done = false;
    const self: ScoreBatch = {
      add(doc) {
        if (done) throw new Error("score batch already scored");
        rows.append(doc);
        counts.push(doc.blocks.length);
        if (blocksAdded + doc.blocks.length > blockChars.length) {
          const grown = new Int32Array(Math.max(blockChars.length * 2, blocksAdded + doc.blocks.length));
          grown.set(blockChars.subarray(0, blocksAdded));
          blockChars = grown;
        }
        for (const block of doc.blocks) blockChars[blocksAdded++] = block.textChars;
        if (commentHead) markup.push(commentContext(doc));
      },
      async score() {
        if (done) throw new Error("score batch already scored");
        done = true;
        try {
          // One run for all the batch's blocks: ONNX Runtime's per-run cost is paid once.
          if (rows.count === 0) {
            if (commentHead) self.commentScores = counts.map(() => new Float32Array(0));
            return counts.map(() => new Float32Array(0));
          }
          const heads = await scorer.scoreHeads(rows.view(), rows.count);
          if (heads.comments !== undefined) self.commentScores = splitScores(heads.comments, counts);
          const pages = splitScores(heads.scores, counts);
          // A user comment is never main text: the head's veto, then the markup's settling.
          if (self.commentScores !== undefined) decideComments(pages, self.commentScores, markup, commentThreshold, threshold);
          if (fallback !== undefined) for (const page of pages) applyEmptyPageFallback(page, threshold, fallback);
          for (let d = 0, from = 0; d < pages.length; from += counts[d++])
            applyWeakPageRule(pages[d], blockChars.subarray(from, from + counts[d]), threshold, markup[d]?.roles ?? null);
          return pages;
        } finally {
          spare = rows;
        }
      },
    };
    return self;
  };
  return {
    name,
    threshold,
    info,
    commentThreshold: commentHead ? commentThreshold : undefined,
    commentFieldThreshold: commentHead ? (info.commentFieldThreshold ?? commentThreshold) : undefined,
    async score(docs) {
      const b = batch();
      for (const doc of docs) b.add(doc);
      return b.score();
    },
    batch,
    close: () => scorer.close(),
  };
}

/**
 * Loads any winnow model file, MLP or BiLSTM, as the kind its metadata names. Unknown kinds are
 * refused with the kinds this build knows.
 */
export async function loadModelClassifier(path: string, options: ClassifierOptions = {}): Promise<BlockClassifier> {
  // The metadata is read twice (here, then by the loader) so that errors keep naming the path.
  const info = decodeModelInfo(await readModelBytes(path), path);
  const name = options.name ?? path;
  if (options.favor !== undefined && options.favor !== "balanced" && info.operatingPoints === undefined)
    throw new ModelError(
      `--favor ${options.favor} needs a model with operating points, and "${name}" has none (only its one threshold): ` +
        "leave --favor out, or use the mlp or a model made by winnow train",
      "--favor",
    );
  if (info.kind === "bilstm") return loadBiLstmClassifier(path, { ...options, name });
  if (info.kind === "mlp") return loadMlpClassifier(path, { ...options, name });
  throw new ModelMismatchError(`model "${name}" is of kind "${info.kind}", which this winnow cannot run (it runs mlp and bilstm)`);
}
