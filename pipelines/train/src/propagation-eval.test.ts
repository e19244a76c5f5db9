import { beforeAll, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { TEXREX_EXTENDED } from "@winnow/features";
import { buildDataset, type Dataset } from "./dataset.js";
import { evaluatePropagation } from "./propagation-eval.js";
import { loadLabelledPages } from "@winnow/evaluation";

const SAMPLE = fileURLToPath(new URL("../../../fixtures/wcxb-sample", import.meta.url));

let data: Dataset;
beforeAll(async () => {
  data = buildDataset(await loadLabelledPages(SAMPLE), TEXREX_EXTENDED);
});

describe("evaluatePropagation", () => {
  it("with 20% of gold labels revealed beats the majority class on the other blocks", () => {
    const report = evaluatePropagation(data, { reveal: 0.2, seed: 7 });
    expect(report.pages).toBe(data.pages.length);
    expect(report.seedAccuracy).toBe(1);
    expect(report.blocks + report.seedsPerPage * report.pages).toBeCloseTo(data.labels.length, 6);
    expect(report.accuracy).toBeGreaterThan(report.majorityAccuracy);
    expect(report.f1).toBeGreaterThan(0);
  });

  it("is reproducible for a given seed", () => {
    expect(evaluatePropagation(data, { reveal: 0.2, seed: 3 })).toEqual(evaluatePropagation(data, { reveal: 0.2, seed: 3 }));
  });

  it("runs from heuristic seeds alone", () => {
    const report = evaluatePropagation(data, { heuristicSeeds: true });
    expect(report.seedsPerPage).toBeGreaterThan(0);
    expect(report.accuracy).toBeGreaterThanOrEqual(0);
    expect(report.accuracy).toBeLessThanOrEqual(1);
  });

  it("rejects a reveal share outside [0, 1]", () => {
    expect(() => evaluatePropagation(data, { reveal: 1.5 })).toThrow(RangeError);
  });
});
