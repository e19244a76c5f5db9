/**
 * The BiLSTM as a BlockClassifier: one ONNX Runtime run per page, since a page is one sequence
 * (padding pages to a common length would waste more than the per-run cost it saves).
 */
import type * as Ort from "onnxruntime-node";
import { featureSetByName, type FeatureSet } from "@winnow/features";
import type { SegmentedDocument } from "@winnow/segment";
import { scoreOnArrival, type BlockClassifier } from "../classifier.js";
import { FEATURES_INPUT, SCORES_OUTPUT } from "../onnx/contract.js";
import { ModelLoadError, ModelMismatchError } from "../onnx/errors.js";
import { decodeModelMetadata } from "../onnx/metadata-props.js";
import { IN_MEMORY_SOURCE, modelInfoFromMetadata, readModelBytes } from "../onnx/metadata.js";
import { createSession, loadRuntime } from "../onnx/scorer.js";
import { BILSTM_METADATA_KEY, type BiLstmMetadata, DENSE_TOKENS_INPUT, TOKEN_INPUTS } from "./contract.js";
import { BlockEncoder } from "./vocabulary.js";
import type { ClassifierOptions } from "../classifier-options.js";
import { thresholdFor } from "../types.js";

/** The shape and vocabulary stored in a BiLSTM model's metadata; throws ModelLoadError when absent. */
export function biLstmMetadata(meta: ReadonlyMap<string, string>, source: string): BiLstmMetadata {
  const raw = meta.get(BILSTM_METADATA_KEY);
  if (raw === undefined) throw new ModelLoadError(source, `it is not a BiLSTM model (no "${BILSTM_METADATA_KEY}" metadata)`);
  try {
    const parsed = JSON.parse(raw) as BiLstmMetadata;
    if (!Array.isArray(parsed.vocabulary?.tags) || !Array.isArray(parsed.vocabulary?.words) || !(parsed.shape?.hiddenSize > 0))
      throw new Error();
    if (parsed.members !== undefined && !(Number.isInteger(parsed.members) && parsed.members >= 1)) throw new Error();
    return parsed;
  } catch {
    throw new ModelLoadError(source, `metadata "${BILSTM_METADATA_KEY}" is malformed`);
  }
}

export async function loadBiLstmClassifier(
  path: string | Uint8Array,
  options: ClassifierOptions & { intraOpThreads?: number } = {},
): Promise<BlockClassifier> {
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
  const sparseTokens = encoder ? sparseTokenFeeds(ort, encoder) : undefined;
  const denseTokens = encoder !== undefined && session.inputNames.includes(DENSE_TOKENS_INPUT);
  let tokens = new Float32Array(0);
  let features = new Float32Array(0);
  const scoreOne = async (doc: SegmentedDocument): Promise<Float32Array> => {
    const T = doc.blocks.length;
    if (T === 0) return new Float32Array(0);
    let feeds: Record<string, Ort.Tensor> = {};
    if (encoder && denseTokens) {
      if (tokens.length < T * encoder.slots) tokens = new Float32Array(Math.ceil(T * 1.5) * encoder.slots);
      encoder.dense(doc, tokens);
      feeds[DENSE_TOKENS_INPUT] = new ort.Tensor("float32", tokens.subarray(0, T * encoder.slots), [T, encoder.slots]);
    } else if (sparseTokens) {
      feeds = sparseTokens(doc);
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
    threshold: thresholdFor(info, options.favor),
    info,
    async score(docs) {
      const out: Float32Array[] = [];
      for (const doc of docs) out.push(await scoreOne(doc));
      return out;
    },
    batch: () => scoreOnArrival(scoreOne),
    close: () => session.release(),
  };
}

/**
 * Feeds for the sparse token inputs, from buffers kept between pages. int64 values are written
 * as their low 32 bits through an Int32Array view (the high word stays 0), since slots and
 * block numbers are small and non-negative: no BigInt per entry. That assumes a little-endian
 * host, as every platform onnxruntime-node ships binaries for is.
 */
function sparseTokenFeeds(ort: typeof Ort, encoder: BlockEncoder): (doc: SegmentedDocument) => Record<string, Ort.Tensor> {
  let capacity = 0;
  let slot64 = new BigInt64Array(0),
    block64 = new BigInt64Array(0);
  let slot32 = new Int32Array(0),
    block32 = new Int32Array(0);
  let value = new Float32Array(0);
  const count = new BigInt64Array(1);
  const grow = (to: number): void => {
    const keep = { slot: slot32, block: block32, value };
    capacity = to;
    slot64 = new BigInt64Array(to);
    block64 = new BigInt64Array(to);
    slot32 = new Int32Array(slot64.buffer);
    block32 = new Int32Array(block64.buffer);
    value = new Float32Array(to);
    slot32.set(keep.slot);
    block32.set(keep.block);
    value.set(keep.value);
  };
  let n = 0;
  const sink = (b: number, slot: number, v: number): void => {
    if (n === capacity) grow(Math.max(4096, capacity * 2));
    slot32[2 * n] = slot;
    block32[2 * n] = b;
    value[n++] = v;
  };
  return (doc) => {
    n = 0;
    encoder.encode(doc, sink);
    count[0] = BigInt(doc.blocks.length);
    return {
      [TOKEN_INPUTS.slot]: new ort.Tensor("int64", slot64.subarray(0, n), [n]),
      [TOKEN_INPUTS.value]: new ort.Tensor("float32", value.subarray(0, n), [n, 1]),
      [TOKEN_INPUTS.block]: new ort.Tensor("int64", block64.subarray(0, n), [n, 1]),
      [TOKEN_INPUTS.blocks]: new ort.Tensor("int64", count, [1]),
    };
  };
}
