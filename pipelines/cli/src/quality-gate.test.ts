// The quality gate: the shipped default model on real pages of every shared set whose licence
// lets its pages live in this repository (WCXB dev, CC-BY-4.0; magic-html, Apache-2.0). The
// floors are the figures measured when the model was trained, less a small margin, so a change
// that loses quality fails here. These pages are among the model's training pages: the gate
// catches regressions, it does not measure quality (docs/quality.md does, held out).
import { fileURLToPath } from "node:url";
import { loadLabelledSources } from "@winnow/evaluation";
import { featureSetByName } from "@winnow/features";
import { loadClassifier } from "@winnow/models";
import { buildDataset, evaluateClassifier } from "@winnow/train";
import { describe, expect, it } from "vitest";

const WCXB = fileURLToPath(new URL("../../../fixtures/wcxb-sample", import.meta.url));
const MAGIC = fileURLToPath(new URL("../../../fixtures/magic-html-sample", import.meta.url));

/**
 * Mean word F1 and precision per source, as measured on 2026-11-28 with the shipped model made
 * again by its recipe (`winnow eval --data fixtures/wcxb-sample fixtures/magic-html-sample`:
 * wcxb-sample P 0.936, F1 0.930; magic-html-sample P 0.899, F1 0.910), less 0.02. The file before
 * it (trained on older code) gave 0.931/0.945 and 0.926/0.927 on these 30 training pages; the new
 * weights keep an editor's bio on one Turkish page (magic-html 0007: F1 0.935 -> 0.732) and drop
 * part of two WCXB pages. Left out of eight, the figure that measures quality, the recipe gained
 * (mean 0.891 -> 0.893; magic-html 0.804 -> 0.811): experiments/results/2026-11-28-*.
 */
const FLOORS: Record<string, { f1: number; precision: number }> = {
  "wcxb-sample": { f1: 0.91, precision: 0.916 },
  "magic-html-sample": { f1: 0.89, precision: 0.879 },
};

describe("the shipped default model", () => {
  it("keeps its quality on real pages of every set that may be shipped", async () => {
    const classifier = await loadClassifier("mlp");
    try {
      const pages = await loadLabelledSources([WCXB, MAGIC]);
      const data = buildDataset(pages, featureSetByName(classifier.info!.featureSet));
      const report = await evaluateClassifier(data, classifier);
      for (const [source, floor] of Object.entries(FLOORS)) {
        const got = report.summary.bySource[source];
        expect(got.f1, `${source} F1`).toBeGreaterThanOrEqual(floor.f1);
        expect(got.precision, `${source} precision`).toBeGreaterThanOrEqual(floor.precision);
      }
      // Chinese pages (0.884 on 2026-11-28, 0.881 with the file before; 0.966 with the model of 2026-11-24, trained on five
      // sets, whose fit to magic-html's pages was closer and whose held-out Chinese F1 was lower:
      // docs/quality.md) are scored one character per token.
      expect(report.summary.byLanguage.zh.f1).toBeGreaterThanOrEqual(0.861);
    } finally {
      await classifier.close();
    }
  }, 60_000);
});
