/**
 * One interface over every block classifier, so the pipeline does not care which one runs.
 * Classifiers score the blocks of several documents in one call: ONNX Runtime's per-call cost is
 * paid once per batch, not once per document or block.
 */
import { featureSetByName, type FeatureSet } from "@winnow/features";
import type { SegmentedDocument } from "@winnow/segment";
import { heuristicScores } from "./heuristic.js";
import { loadBiLstmClassifier } from "./bilstm/classifier.js";
import { ModelMismatchError } from "./onnx/errors.js";
import { decodeModelInfo, readModelBytes } from "./onnx/metadata.js";
import { OnnxBlockScorer } from "./onnx/scorer.js";
import type { ModelInfo } from "./types.js";

export interface BlockClassifier {
  /** "heuristic", or the model file's name. */
  readonly name: string;
  /** Blocks scoring at or above this are kept. */
  readonly threshold: number;
  /** The model's own description; undefined for the heuristic. */
  readonly info?: ModelInfo;
  /** Scores in [0,1] for every block of every document, one array per document. */
  score(docs: readonly SegmentedDocument[]): Promise<Float32Array[]>;
  /** Frees native resources (ONNX sessions). */
  close(): Promise<void>;
}

export function heuristicClassifier(): BlockClassifier {
  return {
    name: "heuristic",
    threshold: 0.5,
    score: async (docs) => docs.map(heuristicScores),
    close: async () => {},
  };
}

/** Feature rows of several documents stacked in one buffer, reused between calls when big enough. */
export class FeatureBatch {
  private buffer = new Float32Array(0);
  constructor(readonly featureSet: FeatureSet) {}

  fill(docs: readonly SegmentedDocument[]): { rows: Float32Array; count: number } {
    const size = this.featureSet.size;
    let count = 0;
    for (const doc of docs) count += doc.blocks.length;
    if (this.buffer.length < count * size) this.buffer = new Float32Array(Math.ceil(count * 1.5) * size);
    let offset = 0;
    for (const doc of docs) {
      this.featureSet.extract(doc, this.buffer, offset);
      offset += doc.blocks.length * size;
    }
    return { rows: this.buffer.subarray(0, count * size), count };
  }
}

/** Splits one score array for stacked documents back into one array per document. */
export function splitScores(scores: Float32Array, docs: readonly SegmentedDocument[]): Float32Array[] {
  const out: Float32Array[] = [];
  let at = 0;
  for (const doc of docs) {
    out.push(scores.slice(at, at + doc.blocks.length));
    at += doc.blocks.length;
  }
  return out;
}

/** Loads an MLP model file and the feature set it was trained on; refuses a version mismatch. */
export async function loadMlpClassifier(path: string | Uint8Array, options: { name?: string } = {}): Promise<BlockClassifier> {
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
  const batch = new FeatureBatch(featureSet);
  return {
    name,
    threshold: info.threshold,
    info,
    async score(docs) {
      const { rows, count } = batch.fill(docs);
      if (count === 0) return docs.map(() => new Float32Array(0));
      return splitScores(await scorer.score(rows, count), docs);
    },
    close: () => scorer.close(),
  };
}

/**
 * Loads any winnow model file, MLP or BiLSTM, as the kind its metadata names. Unknown kinds are
 * refused with the kinds this build knows.
 */
export async function loadModelClassifier(path: string, options: { name?: string } = {}): Promise<BlockClassifier> {
  // The metadata is read twice (here, then by the loader) so that errors keep naming the path.
  const info = decodeModelInfo(await readModelBytes(path), path);
  const name = options.name ?? path;
  if (info.kind === "bilstm") return loadBiLstmClassifier(path, { name });
  if (info.kind === "mlp") return loadMlpClassifier(path, { name });
  throw new ModelMismatchError(`model "${name}" is of kind "${info.kind}", which this winnow cannot run (it runs mlp and bilstm)`);
}
