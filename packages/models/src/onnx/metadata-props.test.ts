// The hand-written metadata reader against protobufjs's decode of the same header (schema.ts's
// ModelHeader, what metadata reads used before): on every model file in the repo, on models
// written here, and on corrupted variants of each, both must accept or refuse the same bytes and
// give the same map. protobufjs reads a Uint8Array and a Buffer with different readers (see
// metadata-props.ts): refusal is compared with the first, the map with the second (a file read
// from disk is a Buffer).
import { readFileSync } from "node:fs";
import { mulberry32 } from "@winnow/random";
import { describe, expect, it } from "vitest";
import { encodeModel, floatTensor, makeGraph, makeNode, TensorDataType, tensorValueInfo } from "./graph.js";
import { appendModelMetadata } from "./metadata.js";
import { decodeModelMetadata } from "./metadata-props.js";
import { ModelHeaderType } from "./schema.js";

type Outcome = { ok: true; map: [string, string][] } | { ok: false };

function outcome(read: () => Map<string, string>): Outcome {
  try {
    return { ok: true, map: [...read()] };
  } catch {
    return { ok: false };
  }
}

/** metadata_props as protobufjs decodes them (graph.ts's decodeModelMetadata before this reader). */
function protobufMetadata(bytes: Uint8Array): Map<string, string> {
  const options = { longs: Number, bytes: Uint8Array, arrays: true, defaults: false };
  const header = ModelHeaderType.toObject(ModelHeaderType.decode(bytes), options) as {
    metadataProps?: { key?: string; value?: string }[];
  };
  const map = new Map<string, string>();
  for (const { key, value } of header.metadataProps ?? []) if (key !== undefined) map.set(key, value ?? "");
  return map;
}

/** Compares the readers on one input; returns a line saying how they differ, or undefined. */
function disagreement(bytes: Uint8Array, what: string): string | undefined {
  const plain = new Uint8Array(bytes);
  const ours = outcome(() => decodeModelMetadata(plain));
  const generic = outcome(() => protobufMetadata(new Uint8Array(bytes)));
  if (ours.ok !== generic.ok) return `${what}: ours ${ours.ok ? "accepts" : "refuses"}, protobufjs ${generic.ok ? "accepts" : "refuses"}`;
  if (!ours.ok) return undefined;
  const fromBuffer = outcome(() => protobufMetadata(Buffer.from(bytes)));
  if (!fromBuffer.ok) return `${what}: protobufjs refuses it as a Buffer`;
  return JSON.stringify(ours.map) === JSON.stringify(fromBuffer.map) ? undefined : `${what}: the maps differ`;
}

function varint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

interface Field {
  number: number;
  wireType: number;
  /** Offset of the tag, of the length (length-delimited fields), of the value, and the end. */
  tagAt: number;
  lengthAt: number;
  valueAt: number;
  end: number;
}

/** The fields of a well-formed message between `from` and `to`. */
function fieldsOf(bytes: Uint8Array, from: number, to: number): Field[] {
  const fields: Field[] = [];
  let pos = from;
  const readVarint = (): number => {
    let value = 0;
    let scale = 1;
    while (bytes[pos] & 0x80) {
      value += (bytes[pos++] & 0x7f) * scale;
      scale *= 128;
    }
    return value + bytes[pos++] * scale;
  };
  while (pos < to) {
    const tagAt = pos;
    const tag = readVarint();
    const wireType = tag & 7;
    const lengthAt = pos;
    if (wireType === 0) {
      readVarint();
      fields.push({ number: tag >>> 3, wireType, tagAt, lengthAt, valueAt: lengthAt, end: pos });
    } else if (wireType === 2) {
      const length = readVarint();
      fields.push({ number: tag >>> 3, wireType, tagAt, lengthAt, valueAt: pos, end: pos + length });
      pos += length;
    } else {
      // Fixed-width values; a group's start and end tags are taken as fields without a value.
      pos += wireType === 1 ? 8 : wireType === 5 ? 4 : 0;
      fields.push({ number: tag >>> 3, wireType, tagAt, lengthAt, valueAt: lengthAt, end: pos });
    }
  }
  return fields;
}

function splice(bytes: Uint8Array, at: number, removed: number, inserted: readonly number[]): Uint8Array {
  const out = new Uint8Array(bytes.length - removed + inserted.length);
  out.set(bytes.subarray(0, at));
  out.set(inserted, at);
  out.set(bytes.subarray(at + removed), at + inserted.length);
  return out;
}

/** Truncated, flipped, mislabelled and over-long variants of a well-formed model, with what each is. */
function* corruptions(bytes: Uint8Array, seed: number): Generator<[string, Uint8Array]> {
  const top = fieldsOf(bytes, 0, bytes.length);
  const entries = top.filter((f) => f.number === 14).flatMap((f) => fieldsOf(bytes, f.valueAt, f.end));
  const fields = [...top, ...entries];
  const random = mulberry32(seed);
  const positions = new Set<number>();
  for (let i = 0; i < Math.min(bytes.length, 64); i++) positions.add(i);
  for (let i = Math.max(0, bytes.length - 256); i < bytes.length; i++) positions.add(i);
  for (const f of fields) for (const at of [f.tagAt, f.lengthAt, f.valueAt, f.end]) for (let d = -2; d <= 2; d++) positions.add(at + d);
  for (let i = 0; i < 300; i++) positions.add(Math.floor(random() * bytes.length));
  const offsets = [...positions].filter((p) => p >= 0 && p < bytes.length).sort((a, b) => a - b);

  for (const at of offsets) yield [`truncated to ${at} bytes`, bytes.subarray(0, at)];
  for (const at of offsets) {
    for (const mask of [0x01, 0x07, 0x40, 0x80, 0xff]) {
      const flipped = Uint8Array.from(bytes);
      flipped[at] ^= mask;
      yield [`byte ${at} xor ${mask}`, flipped];
    }
  }
  for (const f of fields) {
    for (let wireType = 0; wireType < 8; wireType++) {
      if (wireType === f.wireType) continue;
      const tag = varint(f.number * 8 + wireType);
      yield [`field ${f.number} at ${f.tagAt} as wire type ${wireType}`, splice(bytes, f.tagAt, f.lengthAt - f.tagAt, tag)];
    }
    if (f.wireType !== 2) continue;
    const length = f.end - f.valueAt;
    for (const wrong of [length + 1, length + 100, length - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 35]) {
      if (wrong < 0) continue;
      yield [`field ${f.number} at ${f.tagAt} with length ${wrong}`, splice(bytes, f.lengthAt, f.valueAt - f.lengthAt, varint(wrong))];
    }
    // The same length written in more bytes than it needs (ten at most is valid).
    const padded = [...varint(length)];
    padded[padded.length - 1] |= 0x80;
    yield [`field ${f.number} at ${f.tagAt} with a padded length`, splice(bytes, f.lengthAt, f.valueAt - f.lengthAt, [...padded, 0])];
  }
}

const repoFile = (path: string): Uint8Array => readFileSync(new URL(`../../../../${path}`, import.meta.url));

/** A small model as winnow writes them, with metadata in several scripts and an empty value. */
function writtenModel(): Uint8Array {
  const graph = makeGraph({
    name: "tiny",
    nodes: [makeNode("MatMul", ["features", "w"], ["scores"])],
    inputs: [tensorValueInfo("features", TensorDataType.FLOAT, ["N", 2])],
    outputs: [tensorValueInfo("scores", TensorDataType.FLOAT, ["N", 1])],
    initializers: [floatTensor("w", [2, 1], [0.5, -0.5])],
  });
  const bytes = encodeModel(graph, { metadata: { "winnow.kind": "mlp", "winnow.notes": "héllo, 世界 🙂", "winnow.empty": "" } });
  return appendModelMetadata(bytes, { "winnow.appended": "1" });
}

/**
 * Fields models rarely have, by hand: an entry without a key, one without a value, a key given
 * twice, unknown fields of every wire type (a group among them) at the top and inside an entry,
 * and int64 varints of ten bytes.
 */
function unusualModel(): Uint8Array {
  const text = (s: string): number[] => [...new TextEncoder().encode(s)];
  const lengthDelimited = (field: number, payload: number[]): number[] => [...varint(field * 8 + 2), ...varint(payload.length), ...payload];
  const unknowns = [...varint(99 * 8), 5, ...varint(98 * 8 + 1), 1, 2, 3, 4, 5, 6, 7, 8, ...varint(97 * 8 + 5), 1, 2, 3, 4];
  const group = [...varint(96 * 8 + 3), ...varint(95 * 8), 7, ...varint(96 * 8 + 4)];
  return Uint8Array.from([
    ...varint(8), // ir_version, ten bytes
    0xff,
    0xff,
    0xff,
    0xff,
    0xff,
    0xff,
    0xff,
    0xff,
    0xff,
    0x01,
    ...lengthDelimited(2, text("producer")),
    ...lengthDelimited(8, [...lengthDelimited(1, text("")), ...varint(16), 17]),
    ...unknowns,
    ...group,
    ...lengthDelimited(14, [...lengthDelimited(1, text("a")), ...lengthDelimited(2, text("first"))]),
    ...lengthDelimited(14, lengthDelimited(2, text("no key"))),
    ...lengthDelimited(14, lengthDelimited(1, text("no value"))),
    ...lengthDelimited(14, [...unknowns, ...lengthDelimited(1, text("a")), ...group, ...lengthDelimited(2, text("second"))]),
    ...lengthDelimited(7, text("a graph is skipped whatever it holds")),
  ]);
}

describe("decodeModelMetadata (the reader without protobufjs)", () => {
  const models: [string, Uint8Array][] = [
    ["the shipped MLP", repoFile("packages/models/assets/default-mlp.onnx")],
    ["the shipped BiLSTM", repoFile("packages/models/assets/default-bilstm.onnx")],
    ["the legacy dense BiLSTM fixture", repoFile("fixtures/models/legacy-dense-bilstm.onnx")],
    ["a model written here", writtenModel()],
  ];

  it("reads each model file's metadata as protobufjs does", () => {
    for (const [name, bytes] of models) {
      const map = decodeModelMetadata(bytes);
      expect(map.get("winnow.kind"), name).toMatch(/^(mlp|bilstm)$/);
      expect([...map], name).toEqual([...protobufMetadata(Buffer.from(bytes))]);
    }
    expect(decodeModelMetadata(models[3][1]).get("winnow.notes")).toBe("héllo, 世界 🙂");
    expect(decodeModelMetadata(models[3][1]).get("winnow.appended")).toBe("1");
  });

  it("reads unusual but well-formed fields as protobufjs does", () => {
    const bytes = unusualModel();
    expect([...decodeModelMetadata(bytes)]).toEqual([
      ["a", "second"],
      ["no value", ""],
    ]);
    expect(disagreement(bytes, "the unusual model")).toBeUndefined();
  });

  it("accepts and refuses what protobufjs does on truncated, flipped, mislabelled and over-long variants", () => {
    const differences: string[] = [];
    let accepted = 0;
    let refused = 0;
    let seed = 1;
    for (const [name, bytes] of [...models, ["the unusual model", unusualModel()] as [string, Uint8Array]]) {
      for (const [what, variant] of corruptions(bytes, seed++)) {
        const difference = disagreement(variant, `${name}, ${what}`);
        if (difference !== undefined) differences.push(difference);
        else if (outcome(() => decodeModelMetadata(variant)).ok) accepted++;
        else refused++;
      }
    }
    expect(differences).toEqual([]);
    // Both outcomes occur often, so the comparison tests something either way.
    expect(accepted).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(500);
  });

  it("agrees with protobufjs at its edges: int64 varints cut at an end, groups nested to the recursion limit", () => {
    const entry = (payload: number[]): number[] => [...varint(14 * 8 + 2), ...varint(payload.length), ...payload];
    const opset = (payload: number[]): number[] => [...varint(8 * 8 + 2), ...varint(payload.length), ...payload];
    const groups = (depth: number): number[] => [
      ...Array.from({ length: depth }, () => varint(96 * 8 + 3)).flat(),
      ...Array.from({ length: depth }, () => varint(96 * 8 + 4)).flat(),
    ];
    const keyed = [10, 1, 0x6b];
    const cases: [string, number[], boolean][] = [
      // protobufjs ends an int64 at its fourth byte when four or fewer are left, top bit or not:
      // at the end of the file that is accepted, at the end of a message it overruns and is refused.
      ["ir_version cut after three bytes at the end of the file", [...entry(keyed), 8, 0x80, 0x80, 0x80], true],
      ["ir_version cut after two bytes at the end of the file", [...entry(keyed), 8, 0x80, 0x80], false],
      // (the byte after the message would read as a field, were the overrun not refused)
      ["an opset version cut at the end of its message", [...opset([16, 0x80, 0x80, 0x80]), 8, 8, 0, ...entry(keyed)], false],
      ["an opset version ended by its fourth byte", [...opset([16, 0x80, 0x80, 0x00]), ...entry(keyed)], true],
      ["groups nested 101 deep at the top", [...groups(101), ...entry(keyed)], true],
      ["groups nested 102 deep at the top", [...groups(102), ...entry(keyed)], false],
      ["groups nested 100 deep in an entry", entry([...groups(100), ...keyed]), true],
      ["groups nested 101 deep in an entry", entry([...groups(101), ...keyed]), false],
    ];
    for (const [what, bytes, accepted] of cases) {
      const model = Uint8Array.from(bytes);
      expect(disagreement(model, what), what).toBeUndefined();
      expect(outcome(() => decodeModelMetadata(model)).ok, what).toBe(accepted);
    }
  });

  it("refuses a string running past its entry, which protobufjs's Buffer reader cuts short instead", () => {
    const bytes = Uint8Array.from([...varint(14 * 8 + 2), 6, 10, 1, 0x6b, 18, 9, 0x76]);
    expect(() => decodeModelMetadata(bytes)).toThrow(RangeError);
    expect(() => protobufMetadata(new Uint8Array(bytes))).toThrow(RangeError);
    expect([...protobufMetadata(Buffer.from(bytes))]).toEqual([["k", "v"]]);
  });
});
