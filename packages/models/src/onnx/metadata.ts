import { readFile } from "node:fs/promises";
import type { ModelInfo } from "../types.js";
import { ModelLoadError } from "./errors.js";
import { decodeModelMetadata } from "./metadata-props.js";

/** metadata_props keys for each ModelInfo field. */
export const MODEL_INFO_KEYS = {
  kind: "winnow.kind",
  featureSet: "winnow.feature_set",
  featureSetVersion: "winnow.feature_set_version",
  inputSize: "winnow.input_size",
  threshold: "winnow.threshold",
  trainingFingerprint: "winnow.training_fingerprint",
  notes: "winnow.notes",
} as const satisfies Record<
  Exclude<keyof ModelInfo, "operatingPoints" | "commentThreshold" | "commentFieldThreshold" | "emptyPageFallback">,
  string
>;

/** Optional keys: files written before them lack them. */
const OPERATING_POINTS_KEY = "winnow.operating_points";
const COMMENT_THRESHOLD_KEY = "winnow.comment_threshold";
export const COMMENT_FIELD_THRESHOLD_KEY = "winnow.comment_field_threshold";
const FALLBACK_KEY = "winnow.empty_page_fallback";

/** Label used in errors for models handed over as bytes. */
export const IN_MEMORY_SOURCE = "<in-memory model>";

/** ModelInfo as metadata_props entries. Numbers use String(), which round-trips doubles exactly. */
export function modelInfoToMetadata(info: ModelInfo): Record<string, string> {
  return {
    [MODEL_INFO_KEYS.kind]: info.kind,
    [MODEL_INFO_KEYS.featureSet]: info.featureSet,
    [MODEL_INFO_KEYS.featureSetVersion]: String(info.featureSetVersion),
    [MODEL_INFO_KEYS.inputSize]: String(info.inputSize),
    [MODEL_INFO_KEYS.threshold]: String(info.threshold),
    [MODEL_INFO_KEYS.trainingFingerprint]: info.trainingFingerprint,
    [MODEL_INFO_KEYS.notes]: info.notes,
    ...(info.operatingPoints === undefined ? {} : { [OPERATING_POINTS_KEY]: JSON.stringify(info.operatingPoints) }),
    ...(info.commentThreshold === undefined ? {} : { [COMMENT_THRESHOLD_KEY]: String(info.commentThreshold) }),
    ...(info.commentFieldThreshold === undefined ? {} : { [COMMENT_FIELD_THRESHOLD_KEY]: String(info.commentFieldThreshold) }),
    ...(info.emptyPageFallback === undefined ? {} : { [FALLBACK_KEY]: String(info.emptyPageFallback) }),
  };
}

function optionalNumber(meta: ReadonlyMap<string, string>, key: string, source: string): number | undefined {
  const raw = meta.get(key);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === "" || Number.isNaN(value)) throw new ModelLoadError(source, `metadata "${key}" = "${raw}" is not a number`);
  return value;
}

function operatingPointsFrom(meta: ReadonlyMap<string, string>, source: string): ModelInfo["operatingPoints"] {
  const raw = meta.get(OPERATING_POINTS_KEY);
  if (raw === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = null;
  }
  const v = value as Record<string, unknown> | null;
  const ok = v !== null && typeof v === "object" && ["precision", "balanced", "recall"].every((k) => typeof v[k] === "number");
  if (!ok) throw new ModelLoadError(source, `metadata "${OPERATING_POINTS_KEY}" is not {precision, balanced, recall} numbers`);
  return { precision: v.precision as number, balanced: v.balanced as number, recall: v.recall as number };
}

/** Rebuilds ModelInfo from metadata_props; throws ModelLoadError when keys are missing or malformed. */
export function modelInfoFromMetadata(meta: ReadonlyMap<string, string>, source: string): ModelInfo {
  const missing = Object.values(MODEL_INFO_KEYS).filter((key) => !meta.has(key));
  if (missing.length === Object.keys(MODEL_INFO_KEYS).length) {
    throw new ModelLoadError(source, "it carries no winnow.* metadata; was it exported by winnow?");
  }
  if (missing.length > 0) throw new ModelLoadError(source, `metadata ${missing.map((k) => `"${k}"`).join(", ")} missing`);
  const get = (key: string): string => meta.get(key) as string;
  const integer = (key: string, min: number): number => {
    const raw = get(key);
    const v = Number(raw);
    if (raw.trim() === "" || !Number.isSafeInteger(v) || v < min) {
      throw new ModelLoadError(source, `metadata "${key}" = "${raw}" is not a valid integer`);
    }
    return v;
  };
  const rawThreshold = get(MODEL_INFO_KEYS.threshold);
  const threshold = Number(rawThreshold);
  if (rawThreshold.trim() === "" || Number.isNaN(threshold)) {
    throw new ModelLoadError(source, `metadata "${MODEL_INFO_KEYS.threshold}" = "${rawThreshold}" is not a number`);
  }
  return {
    kind: get(MODEL_INFO_KEYS.kind),
    featureSet: get(MODEL_INFO_KEYS.featureSet),
    featureSetVersion: integer(MODEL_INFO_KEYS.featureSetVersion, 0),
    inputSize: integer(MODEL_INFO_KEYS.inputSize, 0),
    threshold,
    trainingFingerprint: get(MODEL_INFO_KEYS.trainingFingerprint),
    notes: get(MODEL_INFO_KEYS.notes),
    operatingPoints: operatingPointsFrom(meta, source),
    commentThreshold: optionalNumber(meta, COMMENT_THRESHOLD_KEY, source),
    commentFieldThreshold: optionalNumber(meta, COMMENT_FIELD_THRESHOLD_KEY, source),
    emptyPageFallback: optionalNumber(meta, FALLBACK_KEY, source),
  };
}

/** Parses the ModelInfo of model bytes; `source` names the model in errors. */
export function decodeModelInfo(bytes: Uint8Array, source: string = IN_MEMORY_SOURCE): ModelInfo {
  if (bytes.length === 0) throw new ModelLoadError(source, "file is empty");
  let meta: Map<string, string>;
  try {
    meta = decodeModelMetadata(bytes);
  } catch (cause) {
    throw new ModelLoadError(source, "not a valid ONNX model (protobuf decoding failed)", { cause });
  }
  return modelInfoFromMetadata(meta, source);
}

/** Reads a model file's bytes, mapping I/O failures to ModelLoadError. */
export async function readModelBytes(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT" ? "file not found" : `cannot read file (${code ?? String(cause)})`;
    throw new ModelLoadError(path, reason, { cause });
  }
}

/** ModelInfo of a model file (path) or model bytes, without starting an inference session. */
export async function readModelInfo(source: string | Uint8Array): Promise<ModelInfo> {
  if (typeof source === "string") return decodeModelInfo(await readModelBytes(source), source);
  return decodeModelInfo(source);
}

/**
 * Model bytes with metadata_props entries added at the end, every byte before them unchanged: a
 * protobuf message may repeat a field anywhere, so appending ModelProto's field 14 entries (a
 * StringStringEntryProto each) changes nothing else, where decoding and encoding the model again
 * could reorder or re-encode the graph. For writing an operating point into a trained model
 * without touching its weights. A key the model already has is refused (the first would win).
 */
export function appendModelMetadata(bytes: Uint8Array, entries: Readonly<Record<string, string>>): Uint8Array {
  const existing = decodeModelMetadata(bytes);
  const parts: number[] = [];
  for (const [key, value] of Object.entries(entries)) {
    if (existing.has(key)) throw new Error(`the model already has metadata "${key}"`);
    const entry = [...lengthDelimited(1, utf8.encode(key)), ...lengthDelimited(2, utf8.encode(value))];
    parts.push(...lengthDelimited(METADATA_PROPS_FIELD, Uint8Array.from(entry)));
  }
  const out = new Uint8Array(bytes.length + parts.length);
  out.set(bytes);
  out.set(parts, bytes.length);
  return out;
}

/** ModelProto's metadata_props field number (onnx.proto). */
const METADATA_PROPS_FIELD = 14;

const utf8 = new TextEncoder();

/** A length-delimited protobuf field (wire type 2): its tag, its length, its bytes. */
function lengthDelimited(field: number, payload: Uint8Array): number[] {
  return [...varint((field << 3) | 2), ...varint(payload.length), ...payload];
}

function varint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}
