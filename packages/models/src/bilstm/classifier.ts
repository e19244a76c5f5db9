/**
 * The BiLSTM as a BlockClassifier: one ONNX Runtime run per page, since a page is one sequence
 * (padding pages to a common length would waste more than the per-run cost it saves).
 */
import type * as Ort from "onnxruntime-node";
import { featureSetByName, type FeatureSet } from "@winnow/features";
import type { SegmentedDocument } from "@winnow/segment";
import type { BlockClassifier } from "../classifier.js";
import { FEATURES_INPUT, SCORES_OUTPUT } from "../onnx/contract.js";
import { ModelLoadError, ModelMismatchError } from "../onnx/errors.js";
import { decodeModelMetadata } from "../onnx/graph.js";
import { IN_MEMORY_SOURCE, modelInfoFromMetadata, readModelBytes } from "../onnx/metadata.js";
import { createSession, loadRuntime } from "../onnx/scorer.js";
import { BILSTM_METADATA_KEY, TOKENS_INPUT, type BiLstmMetadata } from "./export.js";
import { BlockEncoder } from "./vocabulary.js";

/** The shape and vocabulary stored in a BiLSTM model's metadata; throws ModelLoadError when absent. */
export function biLstmMetadata(meta: ReadonlyMap<string, string>, source: string): BiLstmMetadata {
  const raw = meta.get(BILSTM_METADATA_KEY);
  if (raw === undefined) throw new ModelLoadError(source, `it is not a BiLSTM model (no "${BILSTM_METADATA_KEY}" metadata)`);
  try {
    const parsed = JSON.parse(raw) as BiLstmMetadata;
    if (!Array.isArray(parsed.vocabulary?.tags) || !Array.isArray(parsed.vocabulary?.words) || !(parsed.shape?.hiddenSize > 0)) throw new Error();
    return parsed;
  } catch {
    throw new ModelLoadError(source, `metadata "${BILSTM_METADATA_KEY}" is malformed`);
  }
}

export async function loadBiLstmClassifier(path: string | Uint8Array, options: { name?: string; intraOpThreads?: number } = {}): Promise<BlockClassifier> {
  const source = typeof path === "string" ? path : IN_MEMORY_SOURCE;
  const name = options.name ?? source;
  const bytes = typeof path === "string" ? await readModelBytes(path) : path;
  let meta: Map<string, string>;
  try {
    meta = decodeModelMetadata(bytes);
  } catch (cause) {
    throw new ModelLoadError(source, "not a valid ONNX model (protobuf decoding failed)", { cause });
  }
  const info = modelInfoFromMetadata(meta, source);
  const { shape, vocabulary } = biLstmMetadata(meta, source);
  let featureSet: FeatureSet | undefined;
  if (shape.featureSize > 0) {
    try {
      featureSet = featureSetByName(info.featureSet);
    } catch {
      featureSet = undefined;
    }
    if (!featureSet || featureSet.version !== info.featureSetVersion || featureSet.size !== shape.featureSize) {
      throw new ModelMismatchError(
        `model "${name}" expects feature set ${info.featureSet} v${info.featureSetVersion} (${shape.featureSize} inputs), ` +
          `which this winnow does not compute; retrain it with "winnow train --model bilstm" or pick another --model`,
      );
    }
  }
  const encoder = shape.tokenSlots > 0 ? new BlockEncoder(vocabulary) : undefined;
  if (encoder && encoder.slots !== shape.tokenSlots) throw new ModelLoadError(source, "its vocabulary does not match its token input");

  const ort = await loadRuntime();
  const session = await createSession(ort, bytes, source, options.intraOpThreads);
  let tokens = new Float32Array(0);
  let features = new Float32Array(0);
  const scoreOne = async (doc: SegmentedDocument): Promise<Float32Array> => {
    const T = doc.blocks.length;
    if (T === 0) return new Float32Array(0);
    const feeds: Record<string, Ort.Tensor> = {};
    if (encoder) {
      if (tokens.length < T * encoder.slots) tokens = new Float32Array(Math.ceil(T * 1.5) * encoder.slots);
      encoder.dense(doc, tokens);
      feeds[TOKENS_INPUT] = new ort.Tensor("float32", tokens.subarray(0, T * encoder.slots), [T, encoder.slots]);
    }
    if (featureSet) {
      if (features.length < T * featureSet.size) features = new Float32Array(Math.ceil(T * 1.5) * featureSet.size);
      featureSet.extract(doc, features, 0);
      feeds[FEATURES_INPUT] = new ort.Tensor("float32", features.subarray(0, T * featureSet.size), [T, featureSet.size]);
    }
    const out = await session.run(feeds);
    return (out[SCORES_OUTPUT].data as Float32Array).slice(0, T);
  };
  return {
    name,
    threshold: info.threshold,
    info,
    async score(docs) {
      const out: Float32Array[] = [];
      for (const doc of docs) out.push(await scoreOne(doc));
      return out;
    },
    batch() {
      // One run per page in any case, so each page is scored as it is added and not kept.
      const out: Float32Array[] = [];
      return {
        add: async (doc) => void out.push(await scoreOne(doc)),
        score: async () => out,
      };
    },
    close: () => session.release(),
  };
}
