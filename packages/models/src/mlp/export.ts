import type { MlpWeights, ModelInfo } from "../types.js";
import { attrInt, attrInts, encodeModel, floatTensor, makeGraph, makeNode, TensorDataType, tensorValueInfo } from "../onnx/graph.js";
import { BATCH_DIM, FEATURES_INPUT, SCORES_OUTPUT } from "../onnx/contract.js";
import { modelInfoToMetadata } from "../onnx/metadata.js";

/**
 * Exports an MLP as ONNX: Sub(shift) -> Mul(factor) -> Gemm -> Tanh|Relu -> Gemm -> Sigmoid.
 * Input scaling lives in the graph so callers feed raw features.
 *
 * An ensemble of K members trained on the same rows (so with the same input scaling) is one
 * wider net: their hidden layers stacked (K*H units), a block-diagonal output layer giving K
 * logits, K sigmoids, and ReduceMean over them: still one small graph and one run per batch.
 */
export function mlpToOnnx(weights: MlpWeights | readonly MlpWeights[], info: ModelInfo): Uint8Array {
  const members = Array.isArray(weights) ? (weights as readonly MlpWeights[]) : [weights as MlpWeights];
  const first = members[0];
  if (!first) throw new RangeError("mlpToOnnx: no weights given");
  const { inputSize: D, hiddenSize: H, activation } = first;
  const K = members.length;
  if (info.inputSize !== D) {
    throw new RangeError(`mlpToOnnx: info.inputSize ${info.inputSize} differs from the weights' ${D}`);
  }
  for (const m of members) {
    if (
      m.inputSize !== D ||
      m.hiddenSize !== H ||
      m.activation !== activation ||
      !sameValues(m.inputShift, first.inputShift) ||
      !sameValues(m.inputFactor, first.inputFactor)
    ) {
      throw new RangeError("mlpToOnnx: ensemble members must share input size, hidden size, activation and input scaling");
    }
  }
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
  const initializers = [
    floatTensor("input_shift", [D], first.inputShift),
    floatTensor("input_factor", [D], first.inputFactor),
    floatTensor("w1", [K * H, D], w1),
    floatTensor("b1", [K * H], b1),
    floatTensor("w2", [K, K * H], w2),
    floatTensor("b2", [K], b2),
  ];
  const transB = attrInt("transB", 1);
  const nodes = [
    makeNode("Sub", [FEATURES_INPUT, "input_shift"], ["centered"], [], { name: "shift" }),
    makeNode("Mul", ["centered", "input_factor"], ["scaled"], [], { name: "scale" }),
    makeNode("Gemm", ["scaled", "w1", "b1"], ["hidden_pre"], [transB], { name: "hidden" }),
    makeNode(activation === "relu" ? "Relu" : "Tanh", ["hidden_pre"], ["hidden_act"], [], { name: "act" }),
    makeNode("Gemm", ["hidden_act", "w2", "b2"], ["logit"], [transB], { name: "output" }),
    ...(K === 1
      ? [makeNode("Sigmoid", ["logit"], [SCORES_OUTPUT], [], { name: "sigmoid" })]
      : [
          makeNode("Sigmoid", ["logit"], ["member_scores"], [], { name: "sigmoid" }),
          makeNode("ReduceMean", ["member_scores"], [SCORES_OUTPUT], [attrInts("axes", [1]), attrInt("keepdims", 1)], { name: "mean" }),
        ]),
  ];
  const graph = makeGraph({
    name: "winnow_mlp",
    nodes,
    inputs: [tensorValueInfo(FEATURES_INPUT, TensorDataType.FLOAT, [BATCH_DIM, D])],
    outputs: [tensorValueInfo(SCORES_OUTPUT, TensorDataType.FLOAT, [BATCH_DIM, 1])],
    initializers,
  });
  const shape = K === 1 ? `${D}-${H}-1` : `${K} x ${D}-${H}-1, averaged`;
  return encodeModel(graph, { metadata: modelInfoToMetadata(info), docString: `winnow MLP ${shape}` });
}

function sameValues(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
