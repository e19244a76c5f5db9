import type { MlpWeights, ModelInfo } from "../types.js";
import {
  attrInt,
  encodeModel,
  floatTensor,
  makeGraph,
  makeNode,
  TensorDataType,
  tensorValueInfo,
} from "../onnx/graph.js";
import { BATCH_DIM, FEATURES_INPUT, SCORES_OUTPUT } from "../onnx/contract.js";
import { modelInfoToMetadata } from "../onnx/metadata.js";

/**
 * Exports an MLP as ONNX: Sub(shift) -> Mul(factor) -> Gemm -> Tanh|Relu -> Gemm -> Sigmoid.
 * Input scaling lives in the graph so callers feed raw features.
 */
export function mlpToOnnx(weights: MlpWeights, info: ModelInfo): Uint8Array {
  const { inputSize: D, hiddenSize: H } = weights;
  if (info.inputSize !== D) {
    throw new RangeError(`mlpToOnnx: info.inputSize ${info.inputSize} differs from the weights' ${D}`);
  }
  const initializers = [
    floatTensor("input_shift", [D], weights.inputShift),
    floatTensor("input_factor", [D], weights.inputFactor),
    floatTensor("w1", [H, D], weights.w1),
    floatTensor("b1", [H], weights.b1),
    floatTensor("w2", [1, H], weights.w2),
    floatTensor("b2", [1], [weights.b2]),
  ];
  const transB = attrInt("transB", 1);
  const nodes = [
    makeNode("Sub", [FEATURES_INPUT, "input_shift"], ["centered"], [], { name: "shift" }),
    makeNode("Mul", ["centered", "input_factor"], ["scaled"], [], { name: "scale" }),
    makeNode("Gemm", ["scaled", "w1", "b1"], ["hidden_pre"], [transB], { name: "hidden" }),
    makeNode(weights.activation === "relu" ? "Relu" : "Tanh", ["hidden_pre"], ["hidden_act"], [], { name: "act" }),
    makeNode("Gemm", ["hidden_act", "w2", "b2"], ["logit"], [transB], { name: "output" }),
    makeNode("Sigmoid", ["logit"], [SCORES_OUTPUT], [], { name: "sigmoid" }),
  ];
  const graph = makeGraph({
    name: "winnow_mlp",
    nodes,
    inputs: [tensorValueInfo(FEATURES_INPUT, TensorDataType.FLOAT, [BATCH_DIM, D])],
    outputs: [tensorValueInfo(SCORES_OUTPUT, TensorDataType.FLOAT, [BATCH_DIM, 1])],
    initializers,
  });
  return encodeModel(graph, { metadata: modelInfoToMetadata(info), docString: `winnow MLP ${D}-${H}-1` });
}
