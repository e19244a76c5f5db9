import { readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { TEXREX_EXTENDED } from "@winnow/features";
import { segmentHtml, type SegmentedDocument } from "@winnow/segment";
import { computeInputScaling } from "../mlp/scaling.js";
import type { ModelInfo } from "../types.js";
import { loadBiLstmClassifier } from "./classifier.js";
import { biLstmToOnnx } from "./export.js";
import { biLstmFromOnnx } from "./import.js";
import { biLstmLayout, predictMembers, predictSequence, type BiLstmShape } from "./network.js";
import { blockSequence } from "./sequence.js";
import { initialParameters } from "./train.js";
import { BlockEncoder, buildVocabulary } from "./vocabulary.js";

const HTML_DIR = new URL("../../../../fixtures/wcxb-sample/html/", import.meta.url);
const docs: SegmentedDocument[] = readdirSync(HTML_DIR)
  .sort()
  .map((name) => segmentHtml(gunzipSync(readFileSync(new URL(name, HTML_DIR))).toString("utf8")));

function info(featureSize: number): ModelInfo {
  return {
    kind: "bilstm",
    featureSet: featureSize > 0 ? TEXREX_EXTENDED.name : "none",
    featureSetVersion: featureSize > 0 ? TEXREX_EXTENDED.version : 0,
    inputSize: featureSize,
    threshold: 0.4,
    trainingFingerprint: "test",
    notes: "{}",
  };
}

describe("BiLSTM export to ONNX", () => {
  const vocabulary = buildVocabulary(docs, { tags: 20, words: 200 });
  const encoder = new BlockEncoder(vocabulary);
  const F = TEXREX_EXTENDED.size;
  let total = 0;
  for (const d of docs) total += d.blocks.length;
  const raw = new Float32Array(total * F);
  let at = 0;
  for (const d of docs) {
    TEXREX_EXTENDED.extract(d, raw, at * F);
    at += d.blocks.length;
  }
  const scaling = computeInputScaling(raw, total, F);

  const variants: Array<[string, BiLstmShape]> = [
    ["tags and words, one layer", { tokenSlots: encoder.slots, featureSize: 0, projectionSize: 16, hiddenSize: 8, layers: 1 }],
    ["tags, words and features, two layers", { tokenSlots: encoder.slots, featureSize: F, projectionSize: 16, hiddenSize: 8, layers: 2 }],
    [
      "tags, words and features, skip path",
      { tokenSlots: encoder.slots, featureSize: F, projectionSize: 16, hiddenSize: 8, layers: 1, skip: true },
    ],
  ];
  for (const [what, shape] of variants) {
    it(`scores real pages as the trainer's forward pass does, within 1e-4 (${what})`, async () => {
      const layout = biLstmLayout(shape);
      const params = initialParameters(layout, 9);
      for (let i = 0; i < params.length; i++) params[i] *= 1.5;
      const bytes = biLstmToOnnx(
        { layout, members: [params], vocabulary, scaling: shape.featureSize > 0 ? scaling : undefined },
        info(shape.featureSize),
      );
      const classifier = await loadBiLstmClassifier(bytes);
      const onnx = await classifier.score(docs);
      let worst = 0,
        spread = 0;
      docs.forEach((doc, i) => {
        const seq = blockSequence(doc, encoder, shape.featureSize > 0 ? { set: TEXREX_EXTENDED, scaling } : undefined);
        const ours = predictSequence(params, layout, seq);
        expect(onnx[i].length).toBe(doc.blocks.length);
        for (let t = 0; t < ours.length; t++) {
          worst = Math.max(worst, Math.abs(ours[t] - onnx[i][t]));
          spread = Math.max(spread, Math.abs(ours[t] - ours[0]));
        }
      });
      expect(worst).toBeLessThan(1e-4);
      expect(spread).toBeGreaterThan(0.05); // the scores vary, so agreement means something
      expect(classifier.threshold).toBe(0.4);
      await classifier.close();
    });
  }

  const ensembles: Array<[string, BiLstmShape]> = [
    [
      "three members, tags, words and features",
      { tokenSlots: encoder.slots, featureSize: F, projectionSize: 12, hiddenSize: 6, layers: 1 },
    ],
    [
      "two members, two layers, skip path",
      { tokenSlots: encoder.slots, featureSize: F, projectionSize: 8, hiddenSize: 5, layers: 2, skip: true },
    ],
    ["two members, tags and words only", { tokenSlots: encoder.slots, featureSize: 0, projectionSize: 8, hiddenSize: 4, layers: 1 }],
  ];
  for (const [what, shape] of ensembles) {
    it(`scores an ensemble as the mean of its members' forward passes, within 1e-4 (${what})`, async () => {
      const layout = biLstmLayout(shape);
      const members = Array.from({ length: what.startsWith("three") ? 3 : 2 }, (_, m) =>
        initialParameters(layout, 20 + m).map((p) => p * 1.5),
      );
      const features = shape.featureSize > 0 ? { set: TEXREX_EXTENDED, scaling } : undefined;
      const classifier = await loadBiLstmClassifier(
        biLstmToOnnx({ layout, members, vocabulary, scaling: features?.scaling }, info(shape.featureSize)),
      );
      const onnx = await classifier.score(docs);
      let worst = 0,
        apart = 0;
      docs.forEach((doc, i) => {
        const seq = blockSequence(doc, encoder, features);
        const each = members.map((p) => predictSequence(p, layout, seq));
        const mean = predictMembers(members, layout, seq);
        for (let t = 0; t < mean.length; t++) {
          expect(mean[t]).toBeCloseTo(each.reduce((a, s) => a + s[t], 0) / members.length, 6);
          worst = Math.max(worst, Math.abs(mean[t] - onnx[i][t]));
          apart = Math.max(apart, Math.abs(each[0][t] - each[1][t]));
        }
      });
      expect(worst).toBeLessThan(1e-4);
      expect(apart).toBeGreaterThan(0.05); // the members differ, so the mean is not one of them
      await classifier.close();
    });
  }

  it("reads an ensemble back member by member, so a re-export is the same file", () => {
    const shape: BiLstmShape = { tokenSlots: encoder.slots, featureSize: F, projectionSize: 6, hiddenSize: 3, layers: 2, skip: true };
    const layout = biLstmLayout(shape);
    const members = [5, 6, 7].map((seed) => initialParameters(layout, seed));
    const bytes = biLstmToOnnx({ layout, members, vocabulary, scaling }, info(F));
    const back = biLstmFromOnnx(bytes);
    expect(back.model.members.map((p) => Array.from(p))).toEqual(members.map((p) => Array.from(p, (v) => Math.fround(v))));
    expect(Buffer.from(biLstmToOnnx(back.model, back.info)).equals(Buffer.from(bytes))).toBe(true);
  });

  it("still reads a model exported with the dense [T, slots] token input, and scores as it did", async () => {
    // fixtures/models/legacy-dense-bilstm.onnx: written by the exporter before the sparse token
    // inputs, with the scores the trainer's forward pass gave it on the first sample page.
    const dir = new URL("../../../../fixtures/models/", import.meta.url);
    const want = JSON.parse(readFileSync(new URL("legacy-dense-bilstm.scores.json", dir), "utf8")) as { page: string; scores: number[] };
    expect(want.page).toBe(readdirSync(HTML_DIR).sort()[0]);
    const classifier = await loadBiLstmClassifier(new URL("legacy-dense-bilstm.onnx", dir).pathname);
    const [scores] = await classifier.score([docs[0]]);
    expect(scores.length).toBe(want.scores.length);
    want.scores.forEach((s, t) => expect(Math.abs(scores[t] - s)).toBeLessThan(1e-4));
    expect(Math.max(...want.scores) - Math.min(...want.scores)).toBeGreaterThan(0.05);
    await classifier.close();
  });

  it("reads back what it wrote: the same weights, so a re-export is the same file", () => {
    const shape: BiLstmShape = { tokenSlots: encoder.slots, featureSize: F, projectionSize: 6, hiddenSize: 3, layers: 2, skip: true };
    const layout = biLstmLayout(shape);
    const params = initialParameters(layout, 4);
    const bytes = biLstmToOnnx({ layout, members: [params], vocabulary, scaling }, info(F));
    const back = biLstmFromOnnx(bytes);
    expect(back.model.layout).toEqual(layout);
    expect(back.model.members).toHaveLength(1);
    expect(Array.from(back.model.members[0])).toEqual(Array.from(params, (p) => Math.fround(p)));
    expect(back.model.vocabulary).toEqual(vocabulary);
    expect(back.info).toEqual(info(F));
    expect(Buffer.from(biLstmToOnnx(back.model, back.info)).equals(Buffer.from(bytes))).toBe(true);
  });

  it("moves a dense-input model to the sparse input with its scores unchanged", async () => {
    const dir = new URL("../../../../fixtures/models/", import.meta.url);
    const want = JSON.parse(readFileSync(new URL("legacy-dense-bilstm.scores.json", dir), "utf8")) as { scores: number[] };
    const { model, info: kept } = biLstmFromOnnx(readFileSync(new URL("legacy-dense-bilstm.onnx", dir)));
    const classifier = await loadBiLstmClassifier(biLstmToOnnx(model, kept));
    const [scores] = await classifier.score([docs[0]]);
    want.scores.forEach((s, t) => expect(Math.abs(scores[t] - s)).toBeLessThan(1e-4));
    await classifier.close();
  });

  it("refuses a model whose feature set this build does not compute", async () => {
    const shape: BiLstmShape = { tokenSlots: encoder.slots, featureSize: F, projectionSize: 4, hiddenSize: 2, layers: 1 };
    const layout = biLstmLayout(shape);
    const bytes = biLstmToOnnx(
      { layout, members: [initialParameters(layout, 1)], vocabulary, scaling },
      { ...info(F), featureSetVersion: 999 },
    );
    await expect(loadBiLstmClassifier(bytes, { name: "old.onnx" })).rejects.toThrow(
      /model "old.onnx" expects feature set texrex37\+ext v999/,
    );
  });
});
