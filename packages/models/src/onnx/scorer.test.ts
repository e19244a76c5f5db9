import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mlpToOnnx } from "../mlp/export.js";
import { predictMlp, predictMlpEnsemble } from "../mlp/predict.js";
import { createPrng } from "../mlp/prng.js";
import type { MlpWeights, ModelInfo } from "../types.js";
import { decodeModel, encodeModel, floatTensor, makeGraph, makeNode, TensorDataType, tensorValueInfo } from "./graph.js";
import { appendModelMetadata, COMMENT_FIELD_THRESHOLD_KEY, decodeModelInfo, modelInfoToMetadata, readModelInfo } from "./metadata.js";
import { ModelLoadError, ModelMismatchError, OnnxBlockScorer } from "./scorer.js";

const rng = createPrng(11);
const gaussian = (n: number, scale: number): Float32Array => Float32Array.from({ length: n }, () => rng.nextGaussian() * scale);

function randomWeights(inputSize: number, hiddenSize: number, activation: "tanh" | "relu"): MlpWeights {
  return {
    inputSize,
    hiddenSize,
    inputShift: gaussian(inputSize, 3),
    inputFactor: Float32Array.from(gaussian(inputSize, 1), (v) => 0.2 + Math.abs(v)),
    w1: gaussian(hiddenSize * inputSize, 0.4),
    b1: gaussian(hiddenSize, 0.5),
    w2: gaussian(hiddenSize, 1),
    b2: 0.3,
    activation,
  };
}

const info: ModelInfo = {
  kind: "mlp",
  featureSet: "texrex37",
  featureSetVersion: 1,
  inputSize: 37,
  threshold: 0.41999998688697815,
  trainingFingerprint: "sha256:3f2a…",
  notes: "adam, 30 epochs; CV F1 0.91 ± 0.01\nsecond line",
};

let dir: string;
let modelPath: string;
const weights = randomWeights(37, 18, "tanh");

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "winnow-models-"));
  modelPath = join(dir, "x.onnx");
  await writeFile(modelPath, mlpToOnnx(weights, info));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("mlpToOnnx + OnnxBlockScorer", () => {
  for (const activation of ["tanh", "relu"] as const) {
    it(`scores like predictMlp (${activation}) at batch sizes 1, 7 and 1000`, async () => {
      const w = activation === "tanh" ? weights : randomWeights(37, 18, "relu");
      const scorer = await OnnxBlockScorer.load(mlpToOnnx(w, info));
      for (const n of [1, 7, 1000]) {
        const X = gaussian(n * 37, 4);
        const got = await scorer.score(X, n);
        const want = predictMlp(w, X, n);
        expect(got).toHaveLength(n);
        let worst = 0;
        for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]));
        expect(worst).toBeLessThan(1e-5);
      }
      await scorer.close();
    });
  }

  it("exports an ensemble as one graph that scores like the mean of its members", async () => {
    const members = [
      weights,
      { ...randomWeights(37, 18, "tanh"), inputShift: weights.inputShift, inputFactor: weights.inputFactor },
      { ...randomWeights(37, 18, "tanh"), inputShift: weights.inputShift, inputFactor: weights.inputFactor },
    ];
    const scorer = await OnnxBlockScorer.load(mlpToOnnx(members, info));
    const n = 500;
    const X = gaussian(n * 37, 4);
    const got = await scorer.score(X, n);
    const want = predictMlpEnsemble(members, X, n);
    const one = predictMlp(members[1], X, n);
    let worst = 0,
      differs = 0;
    for (let i = 0; i < n; i++) {
      worst = Math.max(worst, Math.abs(got[i] - want[i]));
      differs = Math.max(differs, Math.abs(want[i] - one[i]));
    }
    expect(worst).toBeLessThan(1e-5);
    expect(differs).toBeGreaterThan(0.01); // the mean is not just one member
    await scorer.close();
    expect(() => mlpToOnnx([weights, randomWeights(37, 18, "tanh")], info)).toThrow(
      /share input size, hidden size, activation and input scaling/,
    );
  });

  it("reads only n rows of a longer buffer and handles n = 0", async () => {
    const scorer = await OnnxBlockScorer.load(modelPath);
    const X = gaussian(10 * 37, 1);
    const five = await scorer.score(X, 5);
    expect(five).toHaveLength(5);
    expect([...five]).toEqual([...(await scorer.score(X.slice(0, 5 * 37), 5))]);
    expect(await scorer.score(X, 0)).toHaveLength(0);
    await expect(scorer.score(X, 11)).rejects.toThrow(RangeError);
    await scorer.close();
  });

  it("reads the metadata back exactly, from a file and from bytes", async () => {
    const scorer = await OnnxBlockScorer.load(modelPath, { intraOpThreads: 2 });
    expect(scorer.info).toEqual(info);
    expect(scorer.source).toBe(modelPath);
    await scorer.close();
    expect(await readModelInfo(modelPath)).toEqual(info);
    expect(await readModelInfo(mlpToOnnx(weights, { ...info, threshold: Infinity }))).toEqual({ ...info, threshold: Infinity });
  });

  it("accepts a model matching the expected feature set", async () => {
    const scorer = await OnnxBlockScorer.load(modelPath, {
      expect: { featureSet: "texrex37", featureSetVersion: 1, inputSize: 37 },
    });
    expect(scorer.info.featureSet).toBe("texrex37");
    await scorer.close();
  });

  it("refuses a model trained on another feature set, version or width", async () => {
    const load = (expect: { featureSet: string; featureSetVersion: number; inputSize?: number }) =>
      OnnxBlockScorer.load(modelPath, { expect });
    const other = await load({ featureSet: "texrex37+ext", featureSetVersion: 2 }).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(ModelMismatchError);
    expect((other as Error).message).toBe(
      `model "${modelPath}" expects feature set texrex37 v1 but this winnow computes texrex37+ext v2; ` +
        `retrain it with "winnow train" or pick another --model`,
    );
    await expect(load({ featureSet: "texrex37", featureSetVersion: 2 })).rejects.toThrow(
      /expects feature set texrex37 v1 but this winnow computes texrex37 v2/,
    );
    const err = await load({ featureSet: "texrex37", featureSetVersion: 1, inputSize: 38 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelMismatchError);
    expect((err as Error).message).toBe(
      `model "${modelPath}" reads 37 inputs per block but this winnow computes 38 for texrex37 v1; ` +
        `retrain it with "winnow train" or pick another --model`,
    );
    expect((err as ModelMismatchError).details?.model.inputSize).toBe(37);
  });

  it("throws ModelLoadError naming the path for missing, garbage and foreign files", async () => {
    const missing = join(dir, "nope.onnx");
    await expect(OnnxBlockScorer.load(missing)).rejects.toThrow(`cannot load model: file not found (${missing})`);

    const garbage = join(dir, "garbage.onnx");
    await writeFile(garbage, Buffer.from("this is not a model, just some text \x00\xff\xfe"));
    const err = await OnnxBlockScorer.load(garbage).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelLoadError);
    expect((err as ModelLoadError).source).toBe(garbage);
    expect((err as Error).message).toContain(`(${garbage})`);

    // Valid ONNX, but not exported by winnow: no metadata.
    const foreign = encodeModel(
      makeGraph({
        name: "id",
        nodes: [makeNode("Identity", ["features"], ["scores"])],
        inputs: [tensorValueInfo("features", TensorDataType.FLOAT, ["N", 1])],
        outputs: [tensorValueInfo("scores", TensorDataType.FLOAT, ["N", 1])],
        initializers: [floatTensor("unused", [1], [0])],
      }),
    );
    await expect(OnnxBlockScorer.load(foreign)).rejects.toThrow(/no winnow\.\* metadata/);
    const partial = encodeModel(decodeModel(foreign).graph, { metadata: { "winnow.kind": "mlp" } });
    await expect(OnnxBlockScorer.load(partial)).rejects.toThrow(/"winnow\.feature_set", .* missing/);
    // Winnow metadata around a graph onnxruntime cannot run.
    const broken = encodeModel(
      makeGraph({
        name: "bad",
        nodes: [makeNode("NoSuchOp", ["features"], ["scores"])],
        inputs: [tensorValueInfo("features", TensorDataType.FLOAT, ["N", 37])],
        outputs: [tensorValueInfo("scores", TensorDataType.FLOAT, ["N", 1])],
      }),
      { metadata: modelInfoToMetadata(info) },
    );
    await expect(OnnxBlockScorer.load(broken)).rejects.toThrow(/^cannot load model: onnxruntime rejected it: .*\(<in-memory model>\)$/s);
    // Right metadata, wrong graph width.
    const narrow = decodeModel(mlpToOnnx(randomWeights(36, 4, "tanh"), { ...info, inputSize: 36 }));
    const lying = encodeModel(narrow.graph, { metadata: modelInfoToMetadata(info) });
    await expect(OnnxBlockScorer.load(lying)).rejects.toThrow(/input "features" is float32 \[N,36\] but metadata says float32 \[N, 37\]/);
  });
});

describe("operating points and the comment head", () => {
  const withHead = (members: MlpWeights[], head: MlpWeights[]) =>
    mlpToOnnx(members, { ...info, operatingPoints: { precision: 0.7, balanced: 0.5, recall: 0.3 }, commentThreshold: 0.6 }, head);
  // A comment head shares the content members' input scaling: it is trained on the same rows.
  const member = (seed: number): MlpWeights => ({
    ...randomWeights(37, 18, "tanh"),
    inputShift: weights.inputShift,
    inputFactor: weights.inputFactor,
    b2: seed,
  });

  it("scores both heads like the TypeScript forward pass, in one run", async () => {
    const content = [member(0.1), member(0.2)];
    const head = [member(-0.3), member(0.4), member(0.5)];
    const scorer = await OnnxBlockScorer.load(withHead(content, head));
    expect(scorer.hasCommentHead).toBe(true);
    const n = 50;
    const X = gaussian(n * 37, 4);
    const got = await scorer.scoreHeads(X, n);
    const wantContent = predictMlpEnsemble(content, X, n);
    const wantComments = predictMlpEnsemble(head, X, n);
    for (let i = 0; i < n; i++) {
      expect(got.scores[i]).toBeCloseTo(wantContent[i], 5);
      expect(got.comments?.[i]).toBeCloseTo(wantComments[i], 5);
    }
    await scorer.close();
    const plain = await OnnxBlockScorer.load(mlpToOnnx(content, info));
    expect(plain.hasCommentHead).toBe(false);
    expect((await plain.scoreHeads(X, n)).comments).toBeUndefined();
    await plain.close();
  });

  it("refuses a comment head trained on other rows (another input scaling)", () => {
    expect(() => mlpToOnnx([weights], info, [randomWeights(37, 18, "tanh")])).toThrow(/input scaling/);
  });

  it("keep the operating points and the comment threshold in the file's metadata", async () => {
    const path = join(dir, "points.onnx");
    await writeFile(path, withHead([weights], [member(0.1)]));
    const read = await readModelInfo(path);
    expect(read.operatingPoints).toEqual({ precision: 0.7, balanced: 0.5, recall: 0.3 });
    expect(read.commentThreshold).toBe(0.6);
    expect(read.commentFieldThreshold).toBeUndefined();
    expect((await readModelInfo(modelPath)).operatingPoints).toBeUndefined();
    const withField = mlpToOnnx([weights], { ...info, commentThreshold: 0.6, commentFieldThreshold: 0.3775 }, [member(0.1)]);
    expect(decodeModelInfo(withField).commentFieldThreshold).toBe(0.3775);
  });

  it("adds a comments field threshold to a written model, every earlier byte and every score unchanged", async () => {
    const before = withHead([member(0.1)], [member(0.2)]);
    const after = appendModelMetadata(before, { [COMMENT_FIELD_THRESHOLD_KEY]: "0.5622" });
    expect(Buffer.from(after.subarray(0, before.length)).equals(Buffer.from(before))).toBe(true);
    expect(after.length).toBeGreaterThan(before.length);
    const read = decodeModelInfo(after);
    expect(read.commentFieldThreshold).toBe(0.5622);
    expect(read.commentThreshold).toBe(0.6);
    expect(read.operatingPoints).toEqual({ precision: 0.7, balanced: 0.5, recall: 0.3 });
    const n = 20;
    const X = gaussian(n * 37, 9);
    const [a, b] = [await OnnxBlockScorer.load(before), await OnnxBlockScorer.load(after)];
    const [sa, sb] = [await a.scoreHeads(X, n), await b.scoreHeads(X, n)];
    expect(Array.from(sb.scores)).toEqual(Array.from(sa.scores));
    expect(Array.from(sb.comments ?? [])).toEqual(Array.from(sa.comments ?? []));
    await a.close();
    await b.close();
    // Twice the same key would leave the first one read: refused.
    expect(() => appendModelMetadata(after, { [COMMENT_FIELD_THRESHOLD_KEY]: "0.3" })).toThrow(/already has metadata/);
  });
});
