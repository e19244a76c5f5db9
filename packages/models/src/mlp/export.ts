import type { MlpWeights, ModelInfo } from "../types.js";
import { attrInt, attrInts, encodeModel, floatTensor, makeGraph, makeNode, TensorDataType, tensorValueInfo } from "../onnx/graph.js";
import { BATCH_DIM, COMMENT_SCORES_OUTPUT, FEATURES_INPUT, SCORES_OUTPUT } from "../onnx/contract.js";
import { modelInfoToMetadata } from "../onnx/metadata.js";

/**
 * Exports an MLP as ONNX: Sub(shift) -> Mul(factor) -> Gemm -> Tanh|Relu -> Gemm -> Sigmoid.
 * Input scaling lives in the graph so callers feed raw features.
 *
 * An ensemble of K members trained on the same rows (so with the same input scaling) is one
 * wider net: their hidden layers stacked (K*H units), a block-diagonal output layer giving K
 * logits, K sigmoids, and ReduceMean over them: still one small graph and one run per batch.
 */
export function mlpToOnnx(
  weights: MlpWeights | readonly MlpWeights[],
  info: ModelInfo,
  commentHead: readonly MlpWeights[] = [],
): Uint8Array {
  const members = Array.isArray(weights) ? (weights as readonly MlpWeights[]) : [weights as MlpWeights];
  const first = members[0];
  if (!first) throw new RangeError("mlpToOnnx: no weights given");
  const { inputSize: D, hiddenSize: H, activation } = first;
  const K = members.length;
  if (info.inputSize !== D) {
    throw new RangeError(`mlpToOnnx: info.inputSize ${info.inputSize} differs from the weights' ${D}`);
  }
  for (const m of [...members, ...commentHead]) {
    if (
      m.inputSize !== D ||
      m.hiddenSize !== H ||
      m.activation !== activation ||
      !sameValues(m.inputShift, first.inputShift) ||
      !sameValues(m.inputFactor, first.inputFactor)
    ) {
      throw new RangeError(
        "mlpToOnnx: ensemble members (and the comment head) must share input size, hidden size, activation and input scaling",
      );
    }
  }
  const transB = attrInt("transB", 1);
  const content = ensembleBranch(members, "", SCORES_OUTPUT, activation, transB);
  const comments = commentHead.length === 0 ? null : ensembleBranch(commentHead, "comment_", COMMENT_SCORES_OUTPUT, activation, transB);
  const initializers = [
    floatTensor("input_shift", [D], first.inputShift),
    floatTensor("input_factor", [D], first.inputFactor),
    ...content.initializers,
    ...(comments?.initializers ?? []),
  ];
  const nodes = [
    makeNode("Sub", [FEATURES_INPUT, "input_shift"], ["centered"], [], { name: "shift" }),
    makeNode("Mul", ["centered", "input_factor"], ["scaled"], [], { name: "scale" }),
    ...content.nodes,
    ...(comments?.nodes ?? []),
  ];
  const graph = makeGraph({
    name: "winnow_mlp",
    nodes,
    inputs: [tensorValueInfo(FEATURES_INPUT, TensorDataType.FLOAT, [BATCH_DIM, D])],
    outputs: [
      tensorValueInfo(SCORES_OUTPUT, TensorDataType.FLOAT, [BATCH_DIM, 1]),
      ...(comments === null ? [] : [tensorValueInfo(COMMENT_SCORES_OUTPUT, TensorDataType.FLOAT, [BATCH_DIM, 1])]),
    ],
    initializers,
  });
  const shape = `${K === 1 ? `${D}-${H}-1` : `${K} x ${D}-${H}-1, averaged`}${comments === null ? "" : `, with a comment head of ${commentHead.length}`}`;
  return encodeModel(graph, { metadata: modelInfoToMetadata(info), docString: `winnow MLP ${shape}` });
}

/**
 * The hidden and output layers of an ensemble over the scaled input, its members stacked into one
 * wider net, ending in `output`; `prefix` keeps a second head's names apart.
 */
function ensembleBranch(
  members: readonly MlpWeights[],
  prefix: string,
  output: string,
  activation: MlpWeights["activation"],
  transB: ReturnType<typeof attrInt>,
): { initializers: ReturnType<typeof floatTensor>[]; nodes: ReturnType<typeof makeNode>[] } {
  const { inputSize: D, hiddenSize: H } = members[0];
  const K = members.length;
  const w1 = new Float32Array(K * H * D);
  const b1 = new Float32Array(K * H);
  const w2 = new Float32Array(K * K * H); // K x (K*H), member k's weights in its own column block
  const b2 = new Float32Array(K);
  members.forEach((m, k) => {
    w1.set(m.w1, k * H * D);
    b1.set(m.b1, k * H);
    w2.set(m.w2, k * K * H + k * H);
    b2[k] = m.b2;
  });
  const p = (name: string): string => `${prefix}${name}`;
  return {
    initializers: [
      floatTensor(p("w1"), [K * H, D], w1),
      floatTensor(p("b1"), [K * H], b1),
      floatTensor(p("w2"), [K, K * H], w2),
      floatTensor(p("b2"), [K], b2),
    ],
    nodes: [
      makeNode("Gemm", ["scaled", p("w1"), p("b1")], [p("hidden_pre")], [transB], { name: p("hidden") }),
      makeNode(activation === "relu" ? "Relu" : "Tanh", [p("hidden_pre")], [p("hidden_act")], [], { name: p("act") }),
      makeNode("Gemm", [p("hidden_act"), p("w2"), p("b2")], [p("logit")], [transB], { name: p("output") }),
      ...(K === 1
        ? [makeNode("Sigmoid", [p("logit")], [output], [], { name: p("sigmoid") })]
        : [
            makeNode("Sigmoid", [p("logit")], [p("member_scores")], [], { name: p("sigmoid") }),
            makeNode("ReduceMean", [p("member_scores")], [output], [attrInts("axes", [1]), attrInt("keepdims", 1)], { name: p("mean") }),
          ]),
    ],
  };
}

function sameValues(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
