/**
 * A BiLSTM model file back into parameters: the inverse of biLstmToOnnx, for files winnow wrote
 * (dense or sparse token input alike). Why: the graph's layout can change while trained weights
 * stay good, so a model is re-exported in the current layout without training it again.
 */
import { decodeModel, TensorDataType, type TensorProto } from "../onnx/graph.js";
import { ModelLoadError } from "../onnx/errors.js";
import { IN_MEMORY_SOURCE, modelInfoFromMetadata } from "../onnx/metadata.js";
import type { ModelInfo } from "../types.js";
import { biLstmMetadata } from "./classifier.js";
import type { BiLstmModel } from "./export.js";
import { biLstmLayout } from "./network.js";

/** A float tensor's values; winnow writes every initializer as raw little-endian bytes (read as the host's order: little-endian wherever ONNX Runtime runs). */
function floats(tensor: TensorProto): Float32Array | undefined {
  if (tensor.dataType !== TensorDataType.FLOAT || !tensor.rawData) return undefined;
  const copy = new Uint8Array(tensor.rawData); // a copy: aligned, and ours (Buffer#slice would be a view)
  return new Float32Array(copy.buffer, copy.byteOffset, copy.byteLength / 4);
}

export function biLstmFromOnnx(bytes: Uint8Array, source: string = IN_MEMORY_SOURCE): { model: BiLstmModel; info: ModelInfo } {
  const proto = decodeModel(bytes);
  const meta = new Map((proto.metadataProps ?? []).map(({ key, value }) => [key, value]));
  const info = modelInfoFromMetadata(meta, source);
  const { shape, vocabulary } = biLstmMetadata(meta, source);
  const layout = biLstmLayout(shape);
  const { tokenSlots: V, featureSize: F, projectionSize: D, hiddenSize: H } = shape;
  const tensors = new Map(proto.graph.initializer.map((t) => [t.name, t]));
  const take = (name: string, length: number): Float32Array => {
    const tensor = tensors.get(name);
    const values = tensor ? floats(tensor) : undefined;
    if (!values || values.length !== length) throw new ModelLoadError(source, `initializer "${name}" is missing or not ${length} values`);
    return values;
  };
  const params = new Float64Array(layout.size);
  const put = (at: number, values: Float32Array, from = 0, count = values.length - from): void => {
    params.set(values.subarray(from, from + count), at);
  };
  if (V > 0) put(layout.tokenWeights, take("token_weights", V * D));
  if (F > 0) put(layout.featureWeights, take("feature_weights", F * D));
  put(layout.projectionBias, take("projection_bias", D));
  layout.lstm.forEach((directions, l) => {
    const In = directions[0].input;
    const W = take(`lstm${l}_w`, 2 * 4 * H * In), R = take(`lstm${l}_r`, 2 * 4 * H * H), B = take(`lstm${l}_b`, 2 * 8 * H);
    directions.forEach((o, dir) => {
      put(o.w, W, dir * 4 * H * In, 4 * H * In);
      put(o.r, R, dir * 4 * H * H, 4 * H * H);
      put(o.b, B, dir * 8 * H, 4 * H); // the trainer's bias is the W half; the R half is zero
    });
  });
  put(layout.outputWeights, take("output_weights", 2 * H));
  if (layout.skipWeights >= 0) put(layout.skipWeights, take("skip_weights", D));
  put(layout.outputBias, take("output_bias", 1));
  const scaling = F > 0 ? { shift: take("input_shift", F), factor: take("input_factor", F) } : undefined;
  return { model: { layout, params, vocabulary, scaling }, info };
}
