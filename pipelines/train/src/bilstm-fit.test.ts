import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TEXREX_EXTENDED } from "@winnow/features";
import { readModelInfo, loadClassifier } from "@winnow/models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fitBiLstm, scoreBiLstmPages } from "./bilstm-fit.js";
import { buildDataset, type Dataset } from "./dataset.js";
import { crossValidateBiLstm, trainBiLstmModel } from "./train-bilstm-model.js";
import { loadLabelledPages } from "@winnow/evaluation";

const SAMPLE = fileURLToPath(new URL("../../../fixtures/wcxb-sample", import.meta.url));
// Small and quick: these tests check the machinery, not the quality figures (see docs/quality.md).
const QUICK = { hiddenSize: 8, projectionSize: 8, epochs: 6, learningRate: 0.03, vocabulary: { tags: 20, words: 200 }, ensemble: 1 };

let data: Dataset;
let dir: string;

beforeAll(async () => {
  data = buildDataset(await loadLabelledPages(SAMPLE), TEXREX_EXTENDED);
  dir = mkdtempSync(join(tmpdir(), "winnow-bilstm-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Mean score of content blocks minus mean score of boilerplate blocks, over the listed pages. */
function separation(pages: readonly number[], scores: Float32Array[]): number {
  let on = 0,
    onN = 0,
    off = 0,
    offN = 0;
  pages.forEach((p, i) => {
    const labels = data.labels.subarray(data.firstRow[p], data.firstRow[p + 1]);
    labels.forEach((y, b) => (y === 1 ? ((on += scores[i][b]), onN++) : ((off += scores[i][b]), offN++)));
  });
  return on / onN - off / offN;
}

describe("fitting the BiLSTM", () => {
  const all = (): number[] => data.pages.map((_, i) => i);

  for (const input of ["tags-words", "tags-words-features"] as const) {
    it(`learns to score content above boilerplate from ${input}`, () => {
      const fitted = fitBiLstm(data, all(), { ...QUICK, input });
      expect(fitted.trainPages + fitted.validationPages).toBe(14);
      expect(fitted.bestEpochs).toHaveLength(1);
      expect(fitted.bestEpochs[0]).toBeGreaterThanOrEqual(1);
      expect(fitted.model.layout.shape.featureSize).toBe(input === "tags-words" ? 0 : TEXREX_EXTENDED.size);
      const scores = scoreBiLstmPages(data, all(), fitted.model);
      expect(separation(all(), scores)).toBeGreaterThan(0.15);
    });
  }

  it("is reproducible: the same seed gives the same weights", () => {
    const a = fitBiLstm(data, all(), { ...QUICK, epochs: 1 });
    const b = fitBiLstm(data, all(), { ...QUICK, epochs: 1 });
    expect(a.model.members).toEqual(b.model.members);
  });

  it("trains an ensemble: members from seeds seed, seed+1, ..., scored by their mean", () => {
    const one = fitBiLstm(data, all(), { ...QUICK, epochs: 2 });
    const next = fitBiLstm(data, all(), { ...QUICK, epochs: 2, seed: 2 });
    const pair = fitBiLstm(data, all(), { ...QUICK, epochs: 2, ensemble: 2 });
    expect(pair.model.members).toEqual([one.model.members[0], next.model.members[0]]);
    expect(pair.bestEpochs).toEqual([one.bestEpochs[0], next.bestEpochs[0]]);
    const [a, b, mean] = [one, next, pair].map((f) => scoreBiLstmPages(data, all(), f.model));
    mean.forEach((page, i) => page.forEach((v, t) => expect(v).toBeCloseTo((a[i][t] + b[i][t]) / 2, 6)));
  });

  it("cross-validates by domain: every page is scored once, by a model that did not train on it", () => {
    const report = crossValidateBiLstm(data, { ...QUICK, epochs: 1, folds: 2 });
    expect(report.pages).toHaveLength(14);
    expect(new Set(report.pages.map((p) => p.fold))).toEqual(new Set([0, 1]));
    for (const domain of new Set(report.pages.map((p) => p.domain))) {
      expect(new Set(report.pages.filter((p) => p.domain === domain).map((p) => p.fold)).size).toBe(1);
    }
    expect(report.method).toBe("bilstm tags-words-features");
  });
});

describe("a BiLSTM model file", () => {
  it("records what it is, and the pipeline runs it as the trainer scored it", async () => {
    const output = join(dir, "bilstm.onnx");
    const result = await trainBiLstmModel({ ...QUICK, pages: data.pages, featureSet: TEXREX_EXTENDED, output });
    const info = await readModelInfo(output);
    expect(info.kind).toBe("bilstm");
    expect(info.featureSet).toBe(TEXREX_EXTENDED.name);
    expect(JSON.parse(info.notes)).toMatchObject({ input: "tags-words-features", hidden: 8, layers: 1, members: 1, pages: 14 });
    expect(info.threshold).toBe(result.info.threshold);
    // Operating points from the validation pages, as the MLP's: --favor works with the file.
    const points = info.operatingPoints;
    expect(points?.balanced).toBe(info.threshold);
    expect(points?.precision).toBeGreaterThanOrEqual(points?.balanced ?? 1);
    expect(points?.recall).toBeLessThanOrEqual(points?.balanced ?? 0);

    // Same weights through ONNX Runtime in the pipeline's classifier: the scores agree.
    const classifier = await loadClassifier(output);
    const onnx = await classifier.score(data.pages.map((p) => p.doc));
    await classifier.close();
    const refit = fitBiLstm(
      data,
      data.pages.map((_, i) => i),
      QUICK,
    );
    const ours = scoreBiLstmPages(
      data,
      data.pages.map((_, i) => i),
      refit.model,
    );
    let worst = 0;
    ours.forEach((s, i) => s.forEach((v, b) => (worst = Math.max(worst, Math.abs(v - onnx[i][b])))));
    expect(worst).toBeLessThan(1e-4);
  });
});
