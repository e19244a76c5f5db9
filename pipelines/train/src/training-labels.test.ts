import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { TEXREX_EXTENDED } from "@winnow/features";
import { type BlockLabel, makeLabelFile } from "@winnow/labels";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSample } from "../test/sample.js";
import type { Dataset } from "./dataset.js";
import { trainModel, trainingDataset } from "./train-mlp-model.js";
import { commentLabelsFromFiles, labelledText, labelsFromFiles, withTrainingLabels, type PageLabels } from "./training-labels.js";
import { fitMlp } from "./mlp-fit.js";
import type { LabelledPage } from "@winnow/evaluation";

const QUICK = { epochs: 3, hiddenSize: 6, learningRate: 0.01, ensemble: 1 };

let pages: LabelledPage[];
let data: Dataset;
let dir: string;
beforeAll(async () => {
  ({ pages, data, dir } = await loadSample("winnow-trainlabels-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const alignment = (d: Dataset, p: number): BlockLabel[] => [...d.labels.subarray(d.firstRow[p], d.firstRow[p + 1])] as BlockLabel[];
const all = (d: Dataset): number[] => d.pages.map((_, p) => p);

describe("withTrainingLabels", () => {
  it("marks null labels and unlabelled pages as unknown and keeps the alignment labels for reporting", () => {
    const labels: PageLabels[] = data.pages.map((_, p) =>
      p === 1 ? undefined : alignment(data, p).map((l, b) => (b === 0 ? null : 1 - (l as number)) as BlockLabel),
    );
    const trained = withTrainingLabels(data, labels, "labels");
    expect(trained.labels).toBe(data.labels);
    const t = trained.training!;
    expect(t.known[data.firstRow[0]]).toBe(0);
    expect(t.known[data.firstRow[0] + 1]).toBe(1);
    expect(t.labels[data.firstRow[0] + 1]).toBe(1 - data.labels[data.firstRow[0] + 1]);
    expect([...t.known.subarray(data.firstRow[1], data.firstRow[2])].every((k) => k === 0)).toBe(true);
    expect(t.validationGold[1]).toBe("");
    expect(t.validationGold[0]).toBe(labelledText(pages[0], labels[0]));
  });

  it("chooses the threshold against gold text where a page has it, with gold-or-labels", () => {
    const labels = data.pages.map((_, p) => alignment(data, p));
    expect(withTrainingLabels(data, labels, "gold-or-labels").training!.validationGold).toEqual(pages.map((p) => p.gold));
  });
});

describe("labelsFromFiles", () => {
  const fileOf = (p: number, labels: ArrayLike<number | string | null>) =>
    makeLabelFile({ id: pages[p].id, url: pages[p].url, blockTexts: pages[p].doc.blocks.map((b) => b.text) }, labels, "hand");

  it("gives a version-1 file's labels as they are, and a comment of version 2 as boilerplate", () => {
    const v1 = fileOf(0, alignment(data, 0));
    const withComments = alignment(data, 1).map((l, b) => (b % 2 === 0 ? "comment" : l));
    const v2 = fileOf(1, withComments);
    expect([v1.version, v2.version]).toEqual([1, 2]);
    const read = labelsFromFiles(pages, new Map([v1, v2].map((f) => [f.id, f])));
    expect(read[0]).toEqual(v1.labels);
    expect(read[1]).toEqual(withComments.map((l) => (l === "comment" ? 0 : l)));
    expect(read.slice(2).every((l) => l === undefined)).toBe(true);
  });
});

describe("commentLabelsFromFiles", () => {
  const fileOf = (p: number, labels: ArrayLike<number | string | null>) =>
    makeLabelFile({ id: pages[p].id, url: pages[p].url, blockTexts: pages[p].doc.blocks.map((b) => b.text) }, labels, "hand");

  it("reads comments from version-2 files of the page's own source only, and nothing from version 1", () => {
    const v2 = fileOf(
      0,
      alignment(data, 0).map((l, b) => (b === 1 ? "comment" : l)),
    );
    const v1 = fileOf(1, alignment(data, 1));
    const source = pages[0].source;
    const read = commentLabelsFromFiles(pages, new Map([[source, new Map([v2, v1].map((f) => [f.id, f]))]]));
    expect(read[0]).toEqual(alignment(data, 0).map((_, b) => (b === 1 ? 1 : 0)));
    expect(read[1]).toBeUndefined();
    expect(commentLabelsFromFiles(pages, new Map([["another-set", new Map([[v2.id, v2]])]]))[0]).toBeUndefined();
  });

  it("refuses a file made for other blocks, naming the page", () => {
    const stale = { ...fileOf(0, alignment(data, 0)), fingerprint: "0000000000000000", version: 2 as const };
    expect(() => commentLabelsFromFiles(pages, new Map([[pages[0].source, new Map([[stale.id, stale]])]]))).toThrow(
      new RegExp(`${pages[0].source}: labels of page ${pages[0].id} were made for different block texts`),
    );
  });
});

describe("fitMlp on label files' labels", () => {
  it("with every alignment label given as a file label, trains the very model the alignment path trains", () => {
    const labels = data.pages.map((_, p) => alignment(data, p));
    const fromFiles = fitMlp(withTrainingLabels(data, labels, "gold-or-labels"), all(data), QUICK);
    const fromAlignment = fitMlp(data, all(data), QUICK);
    expect(fromFiles.members[0].w1).toEqual(fromAlignment.members[0].w1);
    expect(fromFiles.threshold).toBe(fromAlignment.threshold);
  });

  it("gives null-labelled blocks no weight: what is stored under them does not change the model", () => {
    const labels = data.pages.map((_, p) => alignment(data, p).map((l, b) => (b % 3 === 0 ? null : l)));
    const a = withTrainingLabels(data, labels, "labels");
    const flipped = a.training!.labels.map((l, i) => (a.training!.known[i] === 0 ? 1 - l : l));
    const b = { ...a, training: { ...a.training!, labels: flipped } };
    expect(fitMlp(a, all(data), QUICK).members[0].w1).toEqual(fitMlp(b, all(data), QUICK).members[0].w1);
    // ...while flipping labelled blocks does.
    const c = {
      ...a,
      training: { ...a.training!, labels: a.training!.labels.map((l, i) => (a.training!.known[i] === 1 && i % 2 ? 1 - l : l)) },
    };
    expect(fitMlp(c, all(data), QUICK).members[0].w1).not.toEqual(fitMlp(a, all(data), QUICK).members[0].w1);
  });

  it("validates a single-domain training set on a page split instead of leaving one side empty", () => {
    const oneSite = { ...data, pages: data.pages.map((p) => ({ ...p, domain: "one.example" })) };
    const fitted = fitMlp(oneSite, all(oneSite), QUICK);
    expect(fitted.validationPages).toBeGreaterThan(0);
    expect(fitted.trainPages + fitted.validationPages).toBe(14);
  });
});

describe("trainModel with labels", () => {
  it("uses the text of label-1 blocks as gold for pages without gold text, and records the labels in the fingerprint", async () => {
    const noGold = pages.map((p) => ({ ...p, gold: "" }));
    const labels = data.pages.map((_, p) => alignment(data, p));
    const d = trainingDataset(noGold, TEXREX_EXTENDED, labels);
    expect(d.pages[3].gold).toBe(labelledText(pages[3], labels[3]));
    const output = join(dir, "m.onnx");
    const a = await trainModel({ pages: noGold, featureSet: TEXREX_EXTENDED, output, labels, ...QUICK });
    const b = await trainModel({
      pages: noGold,
      featureSet: TEXREX_EXTENDED,
      output: join(dir, "n.onnx"),
      labels: labels.map((l) => l.map(() => 1 as const)),
      ...QUICK,
    });
    expect(a.info.trainingFingerprint).not.toBe(b.info.trainingFingerprint);
    expect(a.validationF1).toBeGreaterThan(0);
    expect(readFileSync(output).byteLength).toBeGreaterThan(1000);
  });
});
