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
import { memberName, type BiLstmModel } from "./export.js";
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
  const { shape, vocabulary, members: M = 1 } = biLstmMetadata(meta, source);
  const layout = biLstmLayout(shape);
  const { tokenSlots: V, featureSize: F, projectionSize: D, hiddenSize: H } = shape;
  const tensors = new Map(proto.graph.initializer.map((t) => [t.name, t]));
  const take = (name: string, length: number): Float32Array => {
    const tensor = tensors.get(name);
    const values = tensor ? floats(tensor) : undefined;
    if (!values || values.length !== length) throw new ModelLoadError(source, `initializer "${name}" is missing or not ${length} values`);
    return values;
  };
  const members = Array.from({ length: M }, () => new Float64Array(layout.size));
  // The inverses of the exporter's side-by-side and block-diagonal layouts (identities for M = 1).
  const putSideBySide = (at: number, values: Float32Array, rows: number, cols: number): void => {
    members.forEach((params, m) => {
      for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) params[at + r * cols + c] = values[r * M * cols + m * cols + c];
    });
  };
  const putBlockDiagonal = (at: number, values: Float32Array, rows: number): void => {
    members.forEach((params, m) => {
      for (let r = 0; r < rows; r++) params[at + r] = values[(m * rows + r) * M + m];
    });
  };
  if (V > 0) putSideBySide(layout.tokenWeights, take("token_weights", V * M * D), V, D);
  if (F > 0) putSideBySide(layout.featureWeights, take("feature_weights", F * M * D), F, D);
  putSideBySide(layout.projectionBias, take("projection_bias", M * D), 1, D);
  members.forEach((params, m) => {
    const put = (at: number, values: Float32Array, from: number, count: number): void =>
      params.set(values.subarray(from, from + count), at);
    layout.lstm.forEach((directions, l) => {
      const In = directions[0].input;
      const name = (base: string): string => memberName(M, m, base);
      const W = take(name(`lstm${l}_w`), 2 * 4 * H * In),
        R = take(name(`lstm${l}_r`), 2 * 4 * H * H),
        B = take(name(`lstm${l}_b`), 2 * 8 * H);
      directions.forEach((o, dir) => {
        put(o.w, W, dir * 4 * H * In, 4 * H * In);
        put(o.r, R, dir * 4 * H * H, 4 * H * H);
        put(o.b, B, dir * 8 * H, 4 * H); // the trainer's bias is the W half; the R half is zero
      });
    });
  });
  putBlockDiagonal(layout.outputWeights, take("output_weights", M * 2 * H * M), 2 * H);
  if (layout.skipWeights >= 0) putBlockDiagonal(layout.skipWeights, take("skip_weights", M * D * M), D);
  putSideBySide(layout.outputBias, take("output_bias", M), 1, 1);
  const scaling = F > 0 ? { shift: take("input_shift", F), factor: take("input_factor", F) } : undefined;
  return { model: { layout, members, vocabulary, scaling }, info };
}
