/**
 * BiLSTM to ONNX, one page per run:
 *
 *   token_slot [N] ─Gather(token_weights)─Mul(token_value)─ScatterND(add, token_block)─┐   (N: non-zero slots)
 *   features [T, F] ─Sub─Mul─MatMul─────────────────────────────────────────────────┴─Add(bias)─Relu
 *   ─Unsqueeze─▶ [T, 1, D] ─▶ LSTM(bidirectional) ─Transpose─Reshape─▶ [T, 1, 2H]   (once per layer)
 *   ─▶ Reshape [T, 2H] ─MatMul─Add─Sigmoid─▶ scores [T, 1]
 *
 * With the skip path (shape.skip), projection [T, D] ─MatMul─▶ [T, 1] is added to the logit.
 *
 * Tokens go in as the page's non-zero slots (a block has a dozen or two of its ~1,000 slots set):
 * the embedding rows are gathered and summed into their blocks, instead of a dense T x slots
 * matrix multiplied by the whole table, which was the largest single cost of a run. Models
 * exported before took the dense matrix as "tokens"; the classifier still reads them.
 *
 * An ensemble of M members (same shape and inputs, trained from different seeds) is one graph:
 * the members' projections side by side ([T, M·D], one Gather/MatMul for all), split into one
 * LSTM stack per member, the tops joined into [T, M·2H], one MatMul with block-diagonal output
 * weights to [T, M] logits, and the mean of their sigmoids. A one-member graph is the graph
 * above, tensor names and all, so files written before ensembles existed read back the same.
 *
 * The trainer already uses ONNX's gate order (i, o, f, c) and weight layouts, so W and R are
 * copied as they are; the trainer's single bias goes in the W half of ONNX's B, the R half is zero.
 * The vocabulary and shape travel in metadata_props ("winnow.bilstm"), beside the usual ModelInfo.
 */
import {
  attrInt,
  attrInts,
  attrString,
  attrTensor,
  encodeModel,
  floatTensor,
  int64Tensor,
  makeGraph,
  makeNode,
  TensorDataType,
  tensorValueInfo,
  type NodeProto,
  type TensorProto,
} from "../onnx/graph.js";
import { FEATURES_INPUT, SCORES_OUTPUT } from "../onnx/contract.js";
import { modelInfoToMetadata } from "../onnx/metadata.js";
import type { InputScaling } from "../mlp/scaling.js";
import type { ModelInfo } from "../types.js";
import type { BiLstmLayout } from "./network.js";
import type { BlockVocabulary } from "./vocabulary.js";
import { BILSTM_METADATA_KEY, type BiLstmMetadata, TOKEN_INPUTS } from "./contract.js";

/** Symbolic sequence dimension: the page's blocks. */
const BLOCKS_DIM = "T";

/** Everything a trained BiLSTM is, apart from ModelInfo. */
export interface BiLstmModel {
  layout: BiLstmLayout;
  /** Each member's parameters (layout.size each); the model's score is the mean of theirs. */
  members: Float64Array[];
  vocabulary: BlockVocabulary;
  /** Standardisation of the dense features, when the model reads any. */
  scaling?: InputScaling;
}

/** Initializer and node names: a one-member graph keeps the names it always had. */
export function memberName(members: number, member: number, name: string): string {
  return members === 1 ? name : `m${member}_${name}`;
}

/** A rows x (members·cols) matrix of the members' rows x cols blocks side by side. */
function sideBySide(model: BiLstmModel, offset: number, rows: number, cols: number): Float32Array {
  const M = model.members.length;
  const out = new Float32Array(rows * M * cols);
  model.members.forEach((params, m) => {
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[r * M * cols + m * cols + c] = params[offset + r * cols + c];
  });
  return out;
}

/** A (members·rows) x members matrix with member m's column vector in block m, zeros elsewhere. */
function blockDiagonal(model: BiLstmModel, offset: number, rows: number): Float32Array {
  const M = model.members.length;
  const out = new Float32Array(M * rows * M);
  model.members.forEach((params, m) => {
    for (let r = 0; r < rows; r++) out[(m * rows + r) * M + m] = params[offset + r];
  });
  return out;
}

export function biLstmToOnnx(model: BiLstmModel, info: ModelInfo): Uint8Array {
  const { layout, members } = model;
  const M = members.length;
  const { tokenSlots: V, featureSize: F, projectionSize: D, hiddenSize: H } = layout.shape;
  if (M === 0) throw new RangeError("biLstmToOnnx: the model has no members");
  if (members.some((p) => p.length !== layout.size)) throw new RangeError("biLstmToOnnx: a member's parameters do not fit the layout");
  if (F > 0 && (!model.scaling || model.scaling.shift.length !== F)) throw new RangeError("biLstmToOnnx: features need their scaling");
  if (V + F === 0) throw new RangeError("biLstmToOnnx: the model reads neither tokens nor features");
  const MD = M * D;
  const init: TensorProto[] = [];
  const nodes: NodeProto[] = [];
  const inputs: ReturnType<typeof tensorValueInfo>[] = [];
  const terms: string[] = [];
  if (V > 0) {
    const { slot, value, block, blocks } = TOKEN_INPUTS;
    inputs.push(
      tensorValueInfo(slot, TensorDataType.INT64, ["N"]),
      tensorValueInfo(value, TensorDataType.FLOAT, ["N", 1]),
      tensorValueInfo(block, TensorDataType.INT64, ["N", 1]),
      tensorValueInfo(blocks, TensorDataType.INT64, [1]),
    );
    init.push(
      floatTensor("token_weights", [V, MD], sideBySide(model, layout.tokenWeights, V, D)),
      int64Tensor("projection_width", [1], [MD]),
    );
    nodes.push(
      makeNode("Gather", ["token_weights", slot], ["token_rows"], [attrInt("axis", 0)], { name: "embed_tokens" }),
      makeNode("Mul", ["token_rows", value], ["token_terms"], [], { name: "weigh_tokens" }),
      makeNode("Concat", [blocks, "projection_width"], ["token_part_shape"], [attrInt("axis", 0)], { name: "token_part_shape" }),
      makeNode("ConstantOfShape", ["token_part_shape"], ["token_zeros"], [attrTensor("value", floatTensor("zero", [1], [0]))], {
        name: "token_zeros",
      }),
      makeNode("ScatterND", ["token_zeros", block, "token_terms"], ["token_part"], [attrString("reduction", "add")], {
        name: "sum_tokens",
      }),
    );
    terms.push("token_part");
  }
  if (F > 0) {
    inputs.push(tensorValueInfo(FEATURES_INPUT, TensorDataType.FLOAT, [BLOCKS_DIM, F]));
    init.push(
      floatTensor("input_shift", [F], model.scaling!.shift),
      floatTensor("input_factor", [F], model.scaling!.factor),
      floatTensor("feature_weights", [F, MD], sideBySide(model, layout.featureWeights, F, D)),
    );
    nodes.push(
      makeNode("Sub", [FEATURES_INPUT, "input_shift"], ["centered"], [], { name: "shift" }),
      makeNode("Mul", ["centered", "input_factor"], ["scaled"], [], { name: "scale" }),
      makeNode("MatMul", ["scaled", "feature_weights"], ["feature_part"], [], { name: "project_features" }),
    );
    terms.push("feature_part");
  }
  init.push(floatTensor("projection_bias", [MD], sideBySide(model, layout.projectionBias, 1, D)));
  if (terms.length === 2) nodes.push(makeNode("Add", terms, ["projection_sum"], [], { name: "join" }));
  nodes.push(
    makeNode("Add", [terms.length === 2 ? "projection_sum" : terms[0], "projection_bias"], ["projection_pre"], [], {
      name: "projection_bias",
    }),
    makeNode("Relu", ["projection_pre"], ["projection"], [], { name: "projection_relu" }),
  );
  init.push(
    int64Tensor("axis_1", [1], [1]),
    int64Tensor("sequence_shape", [3], [0, 1, 2 * H]),
    int64Tensor("rows_shape", [2], [-1, 2 * H]),
  );
  const name = (m: number, base: string): string => memberName(M, m, base);
  if (M > 1) {
    nodes.push(
      makeNode(
        "Split",
        ["projection"],
        members.map((_, m) => name(m, "projection")),
        [attrInt("axis", 1)],
        { name: "split_members" },
      ),
    );
  }
  const tops: string[] = [];
  members.forEach((params, m) => {
    const slice = (from: number, count: number): Float64Array => params.subarray(from, from + count);
    nodes.push(makeNode("Unsqueeze", [name(m, "projection"), "axis_1"], [name(m, "layer0_in")], [], { name: name(m, "to_sequence") }));
    layout.lstm.forEach((directions, l) => {
      const In = directions[0].input;
      const W = new Float32Array(2 * 4 * H * In);
      const R = new Float32Array(2 * 4 * H * H);
      const B = new Float32Array(2 * 8 * H);
      directions.forEach((o, dir) => {
        W.set(slice(o.w, 4 * H * In), dir * 4 * H * In);
        R.set(slice(o.r, 4 * H * H), dir * 4 * H * H);
        B.set(slice(o.b, 4 * H), dir * 8 * H);
      });
      const [w, r, b] = [`lstm${l}_w`, `lstm${l}_r`, `lstm${l}_b`].map((n) => name(m, n));
      init.push(floatTensor(w, [2, 4 * H, In], W), floatTensor(r, [2, 4 * H, H], R), floatTensor(b, [2, 8 * H], B));
      nodes.push(
        makeNode(
          "LSTM",
          [name(m, `layer${l}_in`), w, r, b],
          [name(m, `lstm${l}_y`)],
          [attrInt("hidden_size", H), attrString("direction", "bidirectional")],
          { name: name(m, `lstm${l}`) },
        ),
        // Y is [T, directions, batch, H]; the next layer wants [T, batch, 2H], forward then backward.
        makeNode("Transpose", [name(m, `lstm${l}_y`)], [name(m, `lstm${l}_t`)], [attrInts("perm", [0, 2, 1, 3])], {
          name: name(m, `lstm${l}_transpose`),
        }),
        makeNode("Reshape", [name(m, `lstm${l}_t`), "sequence_shape"], [name(m, `layer${l + 1}_in`)], [], {
          name: name(m, `lstm${l}_join`),
        }),
      );
    });
    const top = name(m, `layer${layout.lstm.length}_in`);
    nodes.push(makeNode("Reshape", [top, "rows_shape"], [name(m, "top_rows")], [], { name: name(m, "to_rows") }));
    tops.push(name(m, "top_rows"));
  });
  if (M > 1) nodes.push(makeNode("Concat", tops, ["top_rows"], [attrInt("axis", 1)], { name: "join_members" }));
  init.push(
    floatTensor("output_weights", [M * 2 * H, M], blockDiagonal(model, layout.outputWeights, 2 * H)),
    floatTensor("output_bias", [M], sideBySide(model, layout.outputBias, 1, 1)),
  );
  nodes.push(makeNode("MatMul", ["top_rows", "output_weights"], ["logit_pre"], [], { name: "output" }));
  let logitPre = "logit_pre";
  if (layout.skipWeights >= 0) {
    init.push(floatTensor("skip_weights", [MD, M], blockDiagonal(model, layout.skipWeights, D)));
    nodes.push(
      makeNode("MatMul", ["projection", "skip_weights"], ["skip_logit"], [], { name: "skip" }),
      makeNode("Add", ["logit_pre", "skip_logit"], ["logit_joined"], [], { name: "skip_join" }),
    );
    logitPre = "logit_joined";
  }
  nodes.push(makeNode("Add", [logitPre, "output_bias"], ["logit"], [], { name: "output_bias" }));
  if (M === 1) {
    nodes.push(makeNode("Sigmoid", ["logit"], [SCORES_OUTPUT], [], { name: "sigmoid" }));
  } else {
    // The mean of the members' sigmoids, as a MatMul with a column of 1/M.
    init.push(floatTensor("member_mean", [M, 1], new Float32Array(M).fill(1 / M)));
    nodes.push(
      makeNode("Sigmoid", ["logit"], ["member_scores"], [], { name: "sigmoid" }),
      makeNode("MatMul", ["member_scores", "member_mean"], [SCORES_OUTPUT], [], { name: "mean_of_members" }),
    );
  }
  const graph = makeGraph({
    name: "winnow_bilstm",
    nodes,
    inputs,
    outputs: [tensorValueInfo(SCORES_OUTPUT, TensorDataType.FLOAT, [BLOCKS_DIM, 1])],
    initializers: init,
  });
  const metadata: BiLstmMetadata = { shape: layout.shape, vocabulary: model.vocabulary, ...(M > 1 ? { members: M } : {}) };
  const net = `projection ${D}, ${layout.lstm.length} x bidirectional ${H}${layout.skipWeights >= 0 ? " + skip path" : ""}, ${V} token slots, ${F} features`;
  return encodeModel(graph, {
    metadata: { ...modelInfoToMetadata(info), [BILSTM_METADATA_KEY]: JSON.stringify(metadata) },
    docString: `winnow BiLSTM${M > 1 ? ` ×${M} (mean of their scores)` : ""}: ${net}`,
  });
}
