import { ModelProtoType } from "./schema.js";

/**
 * Minimal ONNX graph builder: plain objects shaped like the protobuf messages in
 * schema.ts, small constructors for them, and model encode/decode. Model-specific
 * exporters (MLP, BiLSTM) compose these; nothing here knows about a particular net.
 */

/** TensorProto.DataType values used by winnow models. */
export const TensorDataType = {
  FLOAT: 1,
  UINT8: 2,
  INT8: 3,
  INT32: 6,
  INT64: 7,
  STRING: 8,
  BOOL: 9,
  DOUBLE: 11,
} as const;

/** AttributeProto.AttributeType values. */
export const AttributeType = {
  FLOAT: 1,
  INT: 2,
  STRING: 3,
  TENSOR: 4,
  GRAPH: 5,
  FLOATS: 6,
  INTS: 7,
  STRINGS: 8,
  TENSORS: 9,
} as const;

export interface TensorProto {
  name: string;
  dims: number[];
  dataType: number;
  rawData?: Uint8Array;
  docString?: string;
}

export interface AttributeProto {
  name: string;
  type: number;
  f?: number;
  i?: number;
  s?: Uint8Array;
  t?: TensorProto;
  floats?: number[];
  ints?: number[];
  strings?: Uint8Array[];
  tensors?: TensorProto[];
}

export interface NodeProto {
  opType: string;
  input: string[];
  output: string[];
  attribute: AttributeProto[];
  name?: string;
  domain?: string;
  docString?: string;
}

/** A dimension is either fixed (dimValue) or symbolic (dimParam, e.g. the batch "N"). */
export type DimensionProto = { dimValue: number } | { dimParam: string };

export interface ValueInfoProto {
  name: string;
  type: { tensorType: { elemType: number; shape: { dim: DimensionProto[] } } };
  docString?: string;
}

export interface GraphProto {
  name: string;
  node: NodeProto[];
  initializer: TensorProto[];
  input: ValueInfoProto[];
  output: ValueInfoProto[];
  valueInfo?: ValueInfoProto[];
  docString?: string;
}

export interface OperatorSetId {
  domain: string;
  version: number;
}

export interface ModelProto {
  irVersion: number;
  producerName?: string;
  producerVersion?: string;
  domain?: string;
  modelVersion?: number;
  docString?: string;
  graph: GraphProto;
  opsetImport: OperatorSetId[];
  metadataProps?: { key: string; value: string }[];
}

// ---- tensors ----------------------------------------------------------------

const utf8 = new TextEncoder();

function checkedCount(name: string, dims: readonly number[], length: number): void {
  let count = 1;
  for (const d of dims) {
    if (!Number.isInteger(d) || d < 0) throw new RangeError(`tensor ${name}: bad dimension ${d}`);
    count *= d;
  }
  if (count !== length) throw new RangeError(`tensor ${name}: dims [${dims}] need ${count} values, got ${length}`);
}

/** A tensor whose little-endian bytes are already laid out (raw_data). */
function makeTensor(name: string, dataType: number, dims: readonly number[], rawData: Uint8Array): TensorProto {
  return { name, dataType, dims: [...dims], rawData };
}

// raw_data is little-endian by spec; DataView makes that explicit whatever the host order.
export function floatTensor(name: string, dims: readonly number[], values: ArrayLike<number>): TensorProto {
  checkedCount(name, dims, values.length);
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i], true);
  return makeTensor(name, TensorDataType.FLOAT, dims, bytes);
}

export function int32Tensor(name: string, dims: readonly number[], values: ArrayLike<number>): TensorProto {
  checkedCount(name, dims, values.length);
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setInt32(i * 4, values[i], true);
  return makeTensor(name, TensorDataType.INT32, dims, bytes);
}

export function int64Tensor(name: string, dims: readonly number[], values: ArrayLike<number | bigint>): TensorProto {
  checkedCount(name, dims, values.length);
  const bytes = new Uint8Array(values.length * 8);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setBigInt64(i * 8, BigInt(values[i]), true);
  return makeTensor(name, TensorDataType.INT64, dims, bytes);
}

// ---- attributes -------------------------------------------------------------

export function attrFloat(name: string, value: number): AttributeProto {
  return { name, type: AttributeType.FLOAT, f: value };
}

export function attrInt(name: string, value: number): AttributeProto {
  if (!Number.isSafeInteger(value)) throw new RangeError(`attribute ${name}: ${value} is not an integer`);
  return { name, type: AttributeType.INT, i: value };
}

export function attrString(name: string, value: string): AttributeProto {
  return { name, type: AttributeType.STRING, s: utf8.encode(value) };
}

export function attrTensor(name: string, value: TensorProto): AttributeProto {
  return { name, type: AttributeType.TENSOR, t: value };
}

export function attrFloats(name: string, values: readonly number[]): AttributeProto {
  return { name, type: AttributeType.FLOATS, floats: [...values] };
}

export function attrInts(name: string, values: readonly number[]): AttributeProto {
  for (const v of values) {
    if (!Number.isSafeInteger(v)) throw new RangeError(`attribute ${name}: ${v} is not an integer`);
  }
  return { name, type: AttributeType.INTS, ints: [...values] };
}

export function attrStrings(name: string, values: readonly string[]): AttributeProto {
  return { name, type: AttributeType.STRINGS, strings: values.map((v) => utf8.encode(v)) };
}

// ---- nodes, value infos, graph ---------------------------------------------

export function makeNode(
  opType: string,
  inputs: readonly string[],
  outputs: readonly string[],
  attributes: readonly AttributeProto[] = [],
  options: { name?: string; domain?: string } = {},
): NodeProto {
  const node: NodeProto = { opType, input: [...inputs], output: [...outputs], attribute: [...attributes] };
  if (options.name !== undefined) node.name = options.name;
  if (options.domain !== undefined) node.domain = options.domain;
  return node;
}

/** Tensor value info; a string dimension is symbolic (dynamic), a number is fixed. */
export function tensorValueInfo(name: string, elemType: number, shape: readonly (number | string)[]): ValueInfoProto {
  const dim = shape.map((d): DimensionProto => (typeof d === "string" ? { dimParam: d } : { dimValue: d }));
  return { name, type: { tensorType: { elemType, shape: { dim } } } };
}

export function makeGraph(parts: {
  name: string;
  nodes: readonly NodeProto[];
  inputs: readonly ValueInfoProto[];
  outputs: readonly ValueInfoProto[];
  initializers?: readonly TensorProto[];
  valueInfo?: readonly ValueInfoProto[];
  docString?: string;
}): GraphProto {
  const graph: GraphProto = {
    name: parts.name,
    node: [...parts.nodes],
    input: [...parts.inputs],
    output: [...parts.outputs],
    initializer: [...(parts.initializers ?? [])],
  };
  if (parts.valueInfo) graph.valueInfo = [...parts.valueInfo];
  if (parts.docString !== undefined) graph.docString = parts.docString;
  return graph;
}

// ---- model ------------------------------------------------------------------

const DEFAULT_IR_VERSION = 8;
const DEFAULT_OPSET = 17;

export interface EncodeModelOptions {
  irVersion?: number;
  /** Opsets to import; defaults to the default domain at DEFAULT_OPSET. */
  opsetImport?: readonly OperatorSetId[];
  producerName?: string;
  producerVersion?: string;
  docString?: string;
  /** Written to metadata_props in key order. */
  metadata?: Readonly<Record<string, string>>;
}

/** Serialises a graph as an ONNX ModelProto. */
export function encodeModel(graph: GraphProto, options: EncodeModelOptions = {}): Uint8Array {
  const model: ModelProto = {
    irVersion: options.irVersion ?? DEFAULT_IR_VERSION,
    producerName: options.producerName ?? "winnow",
    graph,
    opsetImport: [...(options.opsetImport ?? [{ domain: "", version: DEFAULT_OPSET }])],
    metadataProps: Object.entries(options.metadata ?? {}).map(([key, value]) => ({ key, value })),
  };
  if (options.producerVersion !== undefined) model.producerVersion = options.producerVersion;
  if (options.docString !== undefined) model.docString = options.docString;
  const err = ModelProtoType.verify(model);
  if (err) throw new TypeError(`encodeModel: invalid model: ${err}`);
  return ModelProtoType.encode(model).finish();
}

const longsAsNumbers = { longs: Number, bytes: Uint8Array, arrays: true, defaults: false } as const;

/** Decodes a whole ModelProto (weights included). Throws on malformed protobuf. */
export function decodeModel(bytes: Uint8Array): ModelProto {
  return ModelProtoType.toObject(ModelProtoType.decode(bytes), longsAsNumbers) as ModelProto;
}
