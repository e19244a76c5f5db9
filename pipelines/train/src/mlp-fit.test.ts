import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { TEXREX37, TEXREX_EXTENDED } from "@winnow/features";
import { loadMlpClassifier, mlpToOnnx, predictMlpEnsemble } from "@winnow/models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSample } from "../test/sample.js";
import { buildDataset, type Dataset } from "./dataset.js";
import { crossValidateMlp, evaluateAllText, evaluateClassifier } from "./evaluate.js";
import { trainModel } from "./train-mlp-model.js";
import { fitMlp } from "./mlp-fit.js";
import { keptText, type LabelledPage, loadLabelledPages } from "@winnow/evaluation";

// Small and quick: these tests check the machinery, not the quality figures (see docs/quality.md).
const QUICK = { epochs: 4, hiddenSize: 8, learningRate: 0.01 };

let pages: LabelledPage[];
let data: Dataset;
let dir: string;

beforeAll(async () => {
  ({ pages, data, dir } = await loadSample("winnow-train-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("labelled data", () => {
  it("reads the WCXB sample with page types and domains", () => {
    expect(pages).toHaveLength(14);
    expect(new Set(pages.map((p) => p.pageType))).toEqual(
      new Set(["article", "forum", "product", "documentation", "listing", "collection", "service"]),
    );
    expect(pages.find((p) => p.id === "0684")?.domain).toBe("nginx.org");
  });

  it("labels the nginx documentation's prose as content and its menu as boilerplate", () => {
    const p = pages.findIndex((page) => page.id === "0684");
    const { doc } = pages[p];
    const label = (text: string) => data.labels[data.firstRow[p] + doc.blocks.findIndex((b) => b.text === text)];
    expect(label("news")).toBe(0);
    const prose = doc.blocks.findIndex((b) => b.text.startsWith("The ngx_http_rewrite_module module is used"));
    expect(data.labels[data.firstRow[p] + prose]).toBe(1);
  });

  it("reads JSONL pages and says which line is wrong", async () => {
    const file = join(dir, "pages.jsonl");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(
      file,
      `${JSON.stringify({ url: "https://www.a.org/x", html: "<p>Hello there</p>", text: "Hello there" })}\n\n{"url": 1}\n`,
    );
    await expect(loadLabelledPages(file)).rejects.toThrow(/pages\.jsonl:3: needs string fields "html" and "text"/);
    writeFileSync(file, `${JSON.stringify({ url: "https://www.a.org/x", html: "<p>Hello there</p>", text: "Hello there" })}\n`);
    const [page] = await loadLabelledPages(file);
    expect(page.domain).toBe("a.org");
    expect(page.doc.blocks[0].text).toBe("Hello there");
  });
});

describe("evaluation", () => {
  it("keeping all text recalls nearly every gold word", () => {
    const report = evaluateAllText(data);
    expect(report.summary.overall.recall).toBeGreaterThan(0.95);
    expect(report.summary.overall.precision).toBeLessThan(0.8);
    expect(report.blocks.recall).toBe(1);
  });

  it("cross-validates by domain: every page scored once, by a model that never saw its domain", () => {
    const report = crossValidateMlp(data, { folds: 2, ...QUICK });
    expect(report.pages).toHaveLength(14);
    expect(new Set(report.pages.map((p) => p.fold))).toEqual(new Set([0, 1]));
    const domainFold = new Map<string, number>();
    for (const p of report.pages) {
      expect(domainFold.get(p.domain) ?? p.fold).toBe(p.fold);
      domainFold.set(p.domain, p.fold);
    }
    expect(report.summary.overall.f1).toBeGreaterThan(0);
    expect(report.thresholds).toHaveLength(2);
  });
});

describe("a trained model file", () => {
  it("scores real blocks through ONNX Runtime as the TypeScript forward pass does (within 1e-5)", async () => {
    const fitted = fitMlp(
      data,
      pages.map((_, i) => i),
      { ...QUICK, ensemble: 2 },
    );
    const info = {
      kind: "mlp",
      featureSet: TEXREX_EXTENDED.name,
      featureSetVersion: TEXREX_EXTENDED.version,
      inputSize: TEXREX_EXTENDED.size,
      threshold: fitted.threshold,
      trainingFingerprint: "test",
      notes: "",
    };
    const classifier = await loadMlpClassifier(mlpToOnnx(fitted.members, info));
    try {
      const docs = pages.slice(0, 5).map((p) => p.doc);
      const viaOnnx = await classifier.score(docs);
      let checked = 0;
      docs.forEach((doc, d) => {
        const viaTs = predictMlpEnsemble(fitted.members, TEXREX_EXTENDED.extract(doc), doc.blocks.length);
        for (let b = 0; b < doc.blocks.length; b++, checked++) expect(Math.abs(viaOnnx[d][b] - viaTs[b])).toBeLessThan(1e-5);
      });
      expect(checked).toBeGreaterThan(200);
    } finally {
      await classifier.close();
    }
  });

  it("is written by trainModel with its feature set, threshold and fingerprint, and cleans pages", async () => {
    const output = join(dir, "model.onnx");
    const result = await trainModel({ pages, featureSet: TEXREX37, output, ...QUICK });
    expect(result.info.featureSet).toBe("texrex37");
    expect(result.info.trainingFingerprint).toMatch(/^[0-9a-f]{16}$/);
    const classifier = await loadMlpClassifier(output);
    try {
      expect(classifier.threshold).toBeCloseTo(result.info.threshold, 6);
      const report = await evaluateClassifier(buildDataset(pages, TEXREX37), classifier);
      expect(report.pages).toHaveLength(14);
      const article = pages.find((p) => p.id === "0437")!;
      const [scores] = await classifier.score([article.doc]);
      expect(keptText(article.doc, scores, classifier.threshold).length).toBeGreaterThan(0);
    } finally {
      await classifier.close();
    }
  });

  it("with leaveOneSourceOut, takes its threshold and operating points from each source scored by a model trained on the others", async () => {
    // Two sources made of the sample's pages: the first seven and the other seven.
    const twoSources = pages.map((page, i) => ({ ...page, source: i < 7 ? "first" : "second" }));
    const output = join(dir, "loso.onnx");
    const result = await trainModel({ pages: twoSources, featureSet: TEXREX37, output, leaveOneSourceOut: true, folds: 5, ...QUICK });
    const cv = result.crossValidation!;
    expect(cv.leaveOneSourceOut).toBe(true);
    // One fold per source, whatever --folds says, and each page scored in its own source's fold.
    expect(cv.folds).toBe(2);
    for (const page of cv.pages) expect(page.fold).toBe(page.source === "first" ? 0 : 1);
    expect(cv.operatingPoints).toBeDefined();
    expect(result.info.threshold).toBe(cv.operatingPoints!.balanced);
    expect(result.info.operatingPoints).toEqual(cv.operatingPoints);
    const notes = JSON.parse(result.info.notes) as Record<string, unknown>;
    expect(notes.operatingPointsFrom).toBe("leave one source out, held-out scores pooled");
    expect(notes.cvLeaveOneSourceOut).toBe(true);
    expect(notes.cvFolds).toBeUndefined();
    // One source has nothing to leave out.
    await expect(trainModel({ pages, featureSet: TEXREX37, output, leaveOneSourceOut: true, ...QUICK })).rejects.toThrow(
      /at least two data sets/,
    );
  });

  it("is refused, with a clear message, by a winnow whose feature set differs", async () => {
    const fitted = fitMlp(buildDataset(pages.slice(0, 6), TEXREX37), [0, 1, 2, 3, 4, 5], QUICK);
    const stale = mlpToOnnx(fitted.members, {
      kind: "mlp",
      featureSet: "texrex37",
      featureSetVersion: 0,
      inputSize: 37,
      threshold: 0.5,
      trainingFingerprint: "x",
      notes: "",
    });
    await expect(loadMlpClassifier(stale, { name: "old.onnx" })).rejects.toThrow(
      /model "old\.onnx" expects feature set texrex37 v0 .* but this winnow computes texrex37 v1 .*retrain it with "winnow train"/,
    );
  });

  it("is refused when the file is not a model", async () => {
    const bogus = join(dir, "bogus.onnx");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(bogus, "not a model");
    await expect(loadMlpClassifier(bogus)).rejects.toThrow(/bogus\.onnx/);
    expect(readFileSync(bogus, "utf8")).toBe("not a model");
  });
});
