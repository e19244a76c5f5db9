import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import {
  AttributeType,
  attrFloat,
  attrFloats,
  attrInt,
  attrInts,
  attrString,
  attrStrings,
  attrTensor,
  decodeModel,
  encodeModel,
  floatTensor,
  int32Tensor,
  int64Tensor,
  makeGraph,
  makeNode,
  TensorDataType,
  tensorValueInfo,
} from "./graph.js";
import { decodeModelMetadata } from "./metadata-props.js";

const text = new TextDecoder();

describe("ONNX graph builder", () => {
  it("round-trips every attribute kind, tensors and metadata through protobuf", () => {
    const node = makeNode(
      "Custom",
      ["a"],
      ["b"],
      [
        attrInt("i", -3),
        attrFloat("f", 0.25),
        attrString("s", "héllo"),
        attrInts("is", [1, -2, 3]),
        attrFloats("fs", [0.5, -1.5]),
        attrStrings("ss", ["Sigmoid", "Tanh"]),
        attrTensor("t", int32Tensor("c", [2], [7, -8])),
      ],
      { name: "n0", domain: "x.test" },
    );
    const bytes = encodeModel(
      makeGraph({
        name: "g",
        nodes: [node],
        inputs: [tensorValueInfo("a", TensorDataType.FLOAT, ["N", 3])],
        outputs: [tensorValueInfo("b", TensorDataType.FLOAT, ["N", 3])],
        initializers: [int64Tensor("k", [2, 1], [5, -(2 ** 40)])],
      }),
      { metadata: { "x.a": "1", "x.b": "two" }, producerVersion: "0.1" },
    );
    const model = decodeModel(bytes);
    expect(model.irVersion).toBe(8);
    expect(model.opsetImport).toEqual([{ domain: "", version: 17 }]);
    const [a] = model.graph.node;
    expect(a.opType).toBe("Custom");
    expect(a.domain).toBe("x.test");
    const byName = new Map(a.attribute.map((x) => [x.name, x]));
    expect(byName.get("i")).toMatchObject({ type: AttributeType.INT, i: -3 });
    expect(byName.get("f")).toMatchObject({ type: AttributeType.FLOAT, f: 0.25 });
    expect(text.decode(byName.get("s")!.s)).toBe("héllo");
    expect(byName.get("is")).toMatchObject({ type: AttributeType.INTS, ints: [1, -2, 3] });
    expect(byName.get("fs")).toMatchObject({ type: AttributeType.FLOATS, floats: [0.5, -1.5] });
    expect(byName.get("ss")!.strings!.map((s) => text.decode(s))).toEqual(["Sigmoid", "Tanh"]);
    expect(byName.get("t")!.t).toMatchObject({ name: "c", dims: [2], dataType: TensorDataType.INT32 });
    const k = model.graph.initializer[0];
    expect(k.dims).toEqual([2, 1]);
    const raw = k.rawData!;
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    expect([view.getBigInt64(0, true), view.getBigInt64(8, true)]).toEqual([5n, -(2n ** 40n)]);
    expect(model.graph.input[0].type.tensorType.shape.dim).toEqual([{ dimParam: "N" }, { dimValue: 3 }]);
    expect([...decodeModelMetadata(bytes)]).toEqual([
      ["x.a", "1"],
      ["x.b", "two"],
    ]);
  });

  it("rejects tensors whose dims do not match the data", () => {
    expect(() => floatTensor("w", [2, 2], [1, 2, 3])).toThrow(/need 4 values/);
  });

  it("builds an LSTM node that onnxruntime accepts (int, string and strings attributes)", async () => {
    // Zero weights with a forget-gate bias: h stays 0, so only the plumbing is under test.
    const T = 3,
      B = 2,
      I = 4,
      H = 5;
    const graph = makeGraph({
      name: "lstm",
      nodes: [
        makeNode(
          "LSTM",
          ["X", "W", "R", "B"],
          ["", "Y_h"],
          [
            attrInt("hidden_size", H),
            attrString("direction", "bidirectional"),
            attrStrings("activations", ["Sigmoid", "Tanh", "Tanh", "Sigmoid", "Tanh", "Tanh"]),
            attrFloat("clip", 10),
          ],
        ),
      ],
      inputs: [tensorValueInfo("X", TensorDataType.FLOAT, ["T", "B", I])],
      outputs: [tensorValueInfo("Y_h", TensorDataType.FLOAT, [2, "B", H])],
      initializers: [
        floatTensor("W", [2, 4 * H, I], new Float32Array(2 * 4 * H * I)),
        floatTensor("R", [2, 4 * H, H], new Float32Array(2 * 4 * H * H)),
        floatTensor("B", [2, 8 * H], new Float32Array(2 * 8 * H).fill(1)),
      ],
    });
    const session = await ort.InferenceSession.create(encodeModel(graph));
    const out = await session.run({ X: new ort.Tensor("float32", new Float32Array(T * B * I).fill(1), [T, B, I]) });
    // o = sigmoid(2), c_t = sigmoid(2) * c_{t-1} + sigmoid(2) * tanh(2), h = o * tanh(c).
    const s = 1 / (1 + Math.exp(-2));
    let c = 0;
    for (let t = 0; t < T; t++) c = s * c + s * Math.tanh(2);
    expect(out.Y_h.dims).toEqual([2, B, H]);
    for (const v of out.Y_h.data as Float32Array) expect(v).toBeCloseTo(s * Math.tanh(c), 5);
    await session.release();
  });
});
