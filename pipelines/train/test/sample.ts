// The WCXB sample (fixtures/wcxb-sample, 14 real pages with gold text) as the pipeline's tests use it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TEXREX_EXTENDED, type FeatureSet } from "@winnow/features";
import { buildDataset, type Dataset } from "../src/dataset.js";
import { type LabelledPage, loadLabelledPages } from "@winnow/evaluation";

export const SAMPLE = fileURLToPath(new URL("../../../fixtures/wcxb-sample", import.meta.url));

/** The sample's pages, their dataset over `featureSet`, and a fresh scratch folder named after `prefix`. */
export async function loadSample(
  prefix: string,
  featureSet: FeatureSet = TEXREX_EXTENDED,
): Promise<{ pages: LabelledPage[]; data: Dataset; dir: string }> {
  const pages = await loadLabelledPages(SAMPLE);
  return { pages, data: buildDataset(pages, featureSet), dir: mkdtempSync(join(tmpdir(), prefix)) };
}
