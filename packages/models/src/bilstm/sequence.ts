/**
 * A segmented page as the BiLSTM's trainer and TypeScript forward pass read it: token slot counts
 * (sparse) and standardised feature rows, the same numbers the ONNX graph computes from its raw
 * inputs.
 */
import type { FeatureSet } from "@winnow/features";
import type { SegmentedDocument } from "@winnow/segment";
import type { InputScaling } from "../mlp/scaling.js";
import type { BlockSequence } from "./network.js";
import type { BlockEncoder } from "./vocabulary.js";

/**
 * `rawFeatures`, when given, are the page's feature rows already extracted (T x featureSet.size),
 * so a dataset that holds them does not extract twice.
 */
export function blockSequence(
  doc: SegmentedDocument,
  encoder: BlockEncoder | undefined,
  features?: { set: FeatureSet; scaling: InputScaling; rawFeatures?: Float32Array },
): BlockSequence {
  const T = doc.blocks.length;
  const seq: BlockSequence = { length: T };
  if (encoder) seq.tokens = encoder.sparse(doc);
  if (features) {
    const F = features.set.size;
    let raw = features.rawFeatures;
    if (!raw) {
      raw = new Float32Array(T * F);
      features.set.extract(doc, raw, 0);
    }
    const { shift, factor } = features.scaling;
    const scaled = new Float64Array(T * F);
    // Float32 arithmetic as ONNX does it (Sub then Mul on float tensors), so both agree closely.
    for (let i = 0; i < T * F; i++) scaled[i] = Math.fround(Math.fround(raw[i] - shift[i % F]) * factor[i % F]);
    seq.features = scaled;
  }
  return seq;
}
