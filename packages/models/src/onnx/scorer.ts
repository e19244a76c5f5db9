import type * as Ort from "onnxruntime-node";

/**
 * onnxruntime-node is loaded on first use, not on import: it costs about 250 ms per thread, and
 * runs with the heuristic (or that only read model metadata) never need it.
 */
let runtime: Promise<typeof Ort> | undefined;
export const loadRuntime = (): Promise<typeof Ort> => (runtime ??= import("onnxruntime-node"));

/**
 * An inference session as winnow runs every model: one intra-op thread by default (winnow
 * parallelises across documents), sequential execution, all graph optimisations.
 */
export async function createSession(ort: typeof Ort, bytes: Uint8Array, source: string, intraOpThreads = 1): Promise<Ort.InferenceSession> {
  try {
    return await ort.InferenceSession.create(bytes, {
      intraOpNumThreads: intraOpThreads,
      interOpNumThreads: 1,
      graphOptimizationLevel: "all",
      executionMode: "sequential",
    });
  } catch (cause) {
    throw new ModelLoadError(source, `onnxruntime rejected it: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}
import type { ModelInfo } from "../types.js";
import { COMMENT_SCORES_OUTPUT, FEATURES_INPUT, SCORES_OUTPUT } from "./contract.js";
import { ModelLoadError, ModelMismatchError } from "./errors.js";
import { decodeModelInfo, IN_MEMORY_SOURCE, readModelBytes } from "./metadata.js";

// Re-exported so scorer users get the load/mismatch errors from one import.
export { ModelLoadError, ModelMismatchError };

export interface ScorerLoadOptions {
  /** Threads ORT may use inside one operator; default 1 (winnow parallelises across workers). */
  intraOpThreads?: number;
  /** Refuse models trained on another feature set (or input width) than this build computes. */
  expect?: { featureSet: string; featureSetVersion: number; inputSize?: number };
}

/**
 * Block scorer over an ONNX model that maps "features" [N, inputSize] to "scores" [N, 1].
 * Callers batch a whole document (or several) per score() call: ORT's per-run overhead
 * dominates at small N, so one run per block would be far slower.
 */
export class OnnxBlockScorer {
  readonly info: ModelInfo;
  /** Path of the model, or "<in-memory model>". */
  readonly source: string;
  readonly #session: Ort.InferenceSession;
  readonly #ort: typeof Ort;

  private constructor(ort: typeof Ort, session: Ort.InferenceSession, info: ModelInfo, source: string) {
    this.#ort = ort;
    this.#session = session;
    this.info = info;
    this.source = source;
  }

  static async load(source: string | Uint8Array, options: ScorerLoadOptions = {}): Promise<OnnxBlockScorer> {
    const name = typeof source === "string" ? source : IN_MEMORY_SOURCE;
    const bytes = typeof source === "string" ? await readModelBytes(source) : source;
    // Metadata first: cheap, and a foreign or stale model is refused before ORT sees it.
    const info = decodeModelInfo(bytes, name);
    if (options.expect) checkExpected(name, info, options.expect);

    const ort = await loadRuntime();
    const session = await createSession(ort, bytes, name, options.intraOpThreads);
    try {
      checkSignature(name, session, info.inputSize);
    } catch (err) {
      await session.release();
      throw err;
    }
    return new OnnxBlockScorer(ort, session, info, name);
  }

  /**
   * Scores n blocks whose features are row-major in `features` (n x inputSize; extra
   * trailing values are ignored). One session.run per call. Returns n probabilities.
   */
  async score(features: Float32Array, n: number): Promise<Float32Array> {
    return (await this.scoreHeads(features, n)).scores;
  }

  /** Whether the model has a comment head (a second output, "comment_scores"). */
  get hasCommentHead(): boolean {
    return this.#session.outputNames.includes(COMMENT_SCORES_OUTPUT);
  }

  /** As score(), with the comment head's scores too when the model has one. */
  async scoreHeads(features: Float32Array, n: number): Promise<{ scores: Float32Array; comments?: Float32Array }> {
    const width = this.info.inputSize;
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`score: n must be a non-negative integer, got ${n}`);
    const needed = n * width;
    if (features.length < needed) throw new RangeError(`score: features hold ${features.length} values, need ${n} x ${width}`);
    if (n === 0) return { scores: new Float32Array(0), comments: this.hasCommentHead ? new Float32Array(0) : undefined };
    const data = features.length === needed ? features : features.subarray(0, needed);
    const results = await this.#session.run({ [FEATURES_INPUT]: new this.#ort.Tensor("float32", data, [n, width]) });
    const comments = results[COMMENT_SCORES_OUTPUT]?.data as Float32Array | undefined;
    return { scores: results[SCORES_OUTPUT].data as Float32Array, comments };
  }

  /** Frees the native session; the scorer is unusable afterwards. */
  async close(): Promise<void> {
    await this.#session.release();
  }
}

function checkExpected(source: string, info: ModelInfo, expect: NonNullable<ScorerLoadOptions["expect"]>): void {
  const sizeDiffers = expect.inputSize !== undefined && expect.inputSize !== info.inputSize;
  if (info.featureSet !== expect.featureSet || info.featureSetVersion !== expect.featureSetVersion || sizeDiffers) {
    throw ModelMismatchError.forFeatureSets(
      source,
      { featureSet: info.featureSet, featureSetVersion: info.featureSetVersion, inputSize: info.inputSize },
      expect,
    );
  }
}

/** The graph must take "features" [?, inputSize] float and give "scores". */
function checkSignature(source: string, session: Ort.InferenceSession, inputSize: number): void {
  if (!session.inputNames.includes(FEATURES_INPUT) || !session.outputNames.includes(SCORES_OUTPUT)) {
    throw new ModelLoadError(
      source,
      `graph must have input "${FEATURES_INPUT}" and output "${SCORES_OUTPUT}", ` +
        `has inputs [${session.inputNames}] and outputs [${session.outputNames}]`,
    );
  }
  const meta = session.inputMetadata.find((m) => m.name === FEATURES_INPUT);
  if (meta?.isTensor) {
    const width = meta.shape[1];
    if (meta.type !== "float32" || meta.shape.length !== 2 || (typeof width === "number" && width !== inputSize)) {
      throw new ModelLoadError(
        source,
        `input "${FEATURES_INPUT}" is ${meta.type} [${meta.shape}] but metadata says float32 [N, ${inputSize}]`,
      );
    }
  }
}
