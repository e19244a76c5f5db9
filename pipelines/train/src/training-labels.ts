/**
 * Training on block labels that did not come from the alignment: label files (hand-made with
 * `winnow label-ui`, or propagated by `winnow label`), or labels propagated in memory.
 */
import { contentLabel, labelMismatch, type BlockLabel, type BlockLabelFile } from "@winnow/labels";
import type { Dataset } from "./dataset.js";
import type { LabelledPage } from "@winnow/evaluation";
import { UsageError } from "@winnow/errors";

/** Per block 1, 0 or null (no label); undefined for a page with no labels at all. */
export type PageLabels = readonly BlockLabel[] | undefined;

/** A label file that does not belong to its page's blocks, as the page or the segmenter changed (exit 2). */
export class LabelMismatchError extends UsageError {
  override readonly name: string = "LabelMismatchError";
}

/**
 * Where the keep threshold is chosen against during training:
 * - "gold-or-labels": the page's gold text, or for a page without one the text of its label-1
 *   blocks (`winnow train --labels`: a page of a plain HTML folder has no gold, and its labels
 *   are the user's statement of what the main text is);
 * - "labels": always the text of the label-1 blocks, as a user without gold text would have to
 *   (cross-validating label sources, so the figure is what such a user gets).
 */
export type ValidationGold = "gold-or-labels" | "labels";

/**
 * The label files' labels per page, in page order; a page without a file gets undefined. A
 * "comment" block (version 2) is not main text: 0 here, as the main text trains on it.
 */
export function labelsFromFiles(pages: readonly LabelledPage[], files: ReadonlyMap<string, BlockLabelFile>): PageLabels[] {
  return pages.map((page) => {
    const file = files.get(page.id);
    if (file === undefined) return undefined;
    const problem = labelMismatch(
      file,
      page.doc.blocks.map((b) => b.text),
    );
    if (problem !== undefined) throw new LabelMismatchError(problem);
    return file.labels.map(contentLabel);
  });
}

/** The text a page's label-1 blocks make, joined as the writers join kept blocks. */
export function labelledText(page: LabelledPage, labels: PageLabels): string {
  if (labels === undefined) return "";
  const parts: string[] = [];
  for (let b = 0; b < page.doc.blocks.length; b++) if (labels[b] === 1) parts.push(page.doc.blocks[b].text);
  return parts.join("\n\n");
}

/**
 * The dataset with these labels to train on. Blocks labelled null, and every block of a page
 * without labels, get weight 0; the alignment labels stay in `data.labels` for reporting.
 */
export function withTrainingLabels(data: Dataset, perPage: readonly PageLabels[], validationGold: ValidationGold): Dataset {
  if (perPage.length !== data.pages.length)
    throw new RangeError(`labels for ${perPage.length} pages, the dataset has ${data.pages.length}`);
  const labels = new Uint8Array(data.labels.length);
  const known = new Uint8Array(data.labels.length);
  perPage.forEach((pageLabels, p) => {
    if (pageLabels === undefined) return;
    const from = data.firstRow[p];
    const count = data.firstRow[p + 1] - from;
    if (pageLabels.length !== count) throw new RangeError(`page ${data.pages[p].id}: ${pageLabels.length} labels for ${count} blocks`);
    for (let b = 0; b < count; b++) {
      const label = pageLabels[b];
      if (label === null) continue;
      labels[from + b] = label;
      known[from + b] = 1;
    }
  });
  const gold = data.pages.map((page, p) =>
    validationGold === "gold-or-labels" && page.gold.length > 0 ? page.gold : labelledText(page, perPage[p]),
  );
  return { ...data, training: { labels, known, validationGold: gold } };
}

/** The pages that have a label file, with their labels; the rest are counted, not trained on. */
export function pagesWithLabelFiles(
  pages: readonly LabelledPage[],
  files: ReadonlyMap<string, BlockLabelFile>,
): { pages: LabelledPage[]; labels: PageLabels[]; skipped: number } {
  const all = labelsFromFiles(pages, files);
  const kept: LabelledPage[] = [];
  const labels: PageLabels[] = [];
  pages.forEach((page, p) => {
    if (all[p] === undefined) return;
    kept.push(page);
    labels.push(all[p]);
  });
  return { pages: kept, labels, skipped: pages.length - kept.length };
}
