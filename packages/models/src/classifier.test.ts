import { readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { TEXREX_EXTENDED } from "@winnow/features";
import { segmentHtml, type SegmentedDocument } from "@winnow/segment";
import { FeatureBatch, heuristicClassifier, loadMlpClassifier, scoreBatch, type BlockClassifier } from "./classifier.js";
import { mlpToOnnx } from "./mlp/export.js";
import { createPrng } from "./mlp/prng.js";
import type { MlpWeights } from "./types.js";

const HTML_DIR = new URL("../../../fixtures/wcxb-sample/html/", import.meta.url);
const docs: SegmentedDocument[] = readdirSync(HTML_DIR)
  .sort()
  .map((name) => segmentHtml(gunzipSync(readFileSync(new URL(name, HTML_DIR))).toString("utf8")));

/** An MLP over the extended features with seeded random weights: the scores need only be deterministic. */
function randomMlp(): Promise<BlockClassifier> {
  const size = TEXREX_EXTENDED.size;
  const hidden = 6;
  const rand = createPrng(7);
  const values = (n: number, scale: number) => Float32Array.from({ length: n }, () => (rand.next() * 2 - 1) * scale);
  const weights: MlpWeights = {
    inputSize: size,
    hiddenSize: hidden,
    inputShift: new Float32Array(size),
    inputFactor: new Float32Array(size).fill(0.01),
    w1: values(hidden * size, 1),
    b1: values(hidden, 0.5),
    w2: values(hidden, 1),
    b2: 0,
    activation: "tanh",
  };
  const bytes = mlpToOnnx(weights, {
    kind: "mlp",
    featureSet: TEXREX_EXTENDED.name,
    featureSetVersion: TEXREX_EXTENDED.version,
    inputSize: size,
    threshold: 0.5,
    trainingFingerprint: "test",
    notes: "",
  });
  return loadMlpClassifier(bytes, { name: "random" });
}

async function batched(classifier: BlockClassifier, pages: readonly SegmentedDocument[]): Promise<Float32Array[]> {
  const batch = scoreBatch(classifier);
  for (const doc of pages) await batch.add(doc);
  return batch.score();
}

describe("scoreBatch", () => {
  it("gives the MLP the same scores one page at a time as score() on the whole batch", async () => {
    const mlp = await randomMlp();
    try {
      const whole = await mlp.score(docs);
      expect(whole.map((s) => s.length)).toEqual(docs.map((d) => d.blocks.length));
      expect(new Set(whole.flatMap((s) => [...s])).size).toBeGreaterThan(100);
      expect(await batched(mlp, docs)).toEqual(whole);
      // Batches after the first reuse the feature buffer, smaller ones included.
      expect(await batched(mlp, docs.slice(3, 5))).toEqual(whole.slice(3, 5));
      expect(await batched(mlp, [])).toEqual([]);
    } finally {
      await mlp.close();
    }
  });

  it("keeps two MLP batches open at once apart", async () => {
    const mlp = await randomMlp();
    try {
      const whole = await mlp.score(docs);
      const a = scoreBatch(mlp);
      const b = scoreBatch(mlp);
      for (let i = 0; i < docs.length; i++) (i % 2 === 0 ? a : b).add(docs[i]);
      const [sa, sb] = await Promise.all([a.score(), b.score()]);
      expect(sa).toEqual(whole.filter((_, i) => i % 2 === 0));
      expect(sb).toEqual(whole.filter((_, i) => i % 2 === 1));
      await expect(a.score()).rejects.toThrow("already scored");
    } finally {
      await mlp.close();
    }
  });

  it("scores with the heuristic and with classifiers that have no batch of their own", async () => {
    const heuristic = heuristicClassifier();
    const expected = await heuristic.score(docs);
    expect(await batched(heuristic, docs)).toEqual(expected);
    const plain: BlockClassifier = { name: "plain", threshold: 0.5, score: (d) => heuristic.score(d), close: async () => {} };
    expect(await batched(plain, docs)).toEqual(expected);
  });
});

/** Bit-for-bit equality of two float arrays (toEqual is slow on arrays this size). */
const same = (a: Float32Array, b: Float32Array): boolean =>
  a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

describe("FeatureBatch", () => {
  it("stacks appended pages' feature rows in order, growing its buffer without losing rows", () => {
    // The reference: each page's rows from the feature set itself, placed one after another.
    const perPage = docs.map((doc) => TEXREX_EXTENDED.extract(doc));
    const count = docs.reduce((n, doc) => n + doc.blocks.length, 0);
    const rows = new Float32Array(count * TEXREX_EXTENDED.size);
    let at = 0;
    for (const page of perPage) {
      rows.set(page, at);
      at += page.length;
    }
    const inc = new FeatureBatch(TEXREX_EXTENDED);
    for (const doc of docs) inc.append(doc);
    expect(inc.count).toBe(count);
    expect(same(inc.view(), rows)).toBe(true);
    inc.reset();
    expect(inc.count).toBe(0);
    inc.append(docs[1]);
    expect(same(inc.view(), perPage[1])).toBe(true);
    expect(same(inc.view(), rows)).toBe(false);
  });
});

describe("--favor and the comment head through a classifier", () => {
  it("keeps blocks at the favored operating point and gives comment scores beside the content scores", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { TEXREX37 } = await import("@winnow/features");
    const { trainMlp } = await import("./mlp/train.js");
    const { mlpToOnnx } = await import("./mlp/export.js");
    const { loadClassifier } = await import("./spec.js");
    const { segmentHtml } = await import("@winnow/segment");
    const doc = segmentHtml(
      "<html><body><p>Some words of a paragraph here, with a comma.</p><ul><li><a href='/'>Home</a></li></ul></body></html>",
    );
    const rows = TEXREX37.extract(doc);
    const n = doc.blocks.length;
    const member = trainMlp(
      rows,
      Uint8Array.from({ length: n }, (_, i) => (i === 0 ? 1 : 0)),
      n,
      TEXREX37.size,
      { epochs: 2, seed: 1 },
    );
    const head = trainMlp(
      rows,
      Uint8Array.from({ length: n }, (_, i) => (i === 1 ? 1 : 0)),
      n,
      TEXREX37.size,
      { epochs: 2, seed: 2 },
    );
    const path = join(mkdtempSync(join(tmpdir(), "winnow-favor-")), "m.onnx");
    const info = {
      kind: "mlp",
      featureSet: TEXREX37.name,
      featureSetVersion: TEXREX37.version,
      inputSize: TEXREX37.size,
      threshold: 0.5,
      trainingFingerprint: "",
      notes: "",
      operatingPoints: { precision: 0.8, balanced: 0.5, recall: 0.2 },
      commentThreshold: 0.4,
    };
    writeFileSync(path, mlpToOnnx([member], info, [head]));
    for (const [favor, threshold] of [
      ["precision", 0.8],
      ["balanced", 0.5],
      ["recall", 0.2],
    ] as const) {
      const classifier = await loadClassifier(path, { favor });
      expect(classifier.threshold).toBe(threshold);
      expect(classifier.commentThreshold).toBe(0.4);
      // A file without a field threshold: the field at the veto's, as before it existed.
      expect(classifier.commentFieldThreshold).toBe(0.4);
      const batch = classifier.batch!();
      batch.add(doc);
      const [scores] = await batch.score();
      expect(scores).toHaveLength(n);
      expect(batch.commentScores?.[0]).toHaveLength(n);
      await classifier.close();
    }
    const withField = join(mkdtempSync(join(tmpdir(), "winnow-field-")), "m.onnx");
    writeFileSync(withField, mlpToOnnx([member], { ...info, commentFieldThreshold: 0.25 }, [head]));
    const classifier = await loadClassifier(withField);
    expect(classifier.commentThreshold).toBe(0.4);
    expect(classifier.commentFieldThreshold).toBe(0.25);
    await classifier.close();
  });
});
