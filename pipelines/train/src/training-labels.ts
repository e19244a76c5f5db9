/**
 * Training on block labels that did not come from the alignment: label files (hand-made with
 * `winnow label-ui`, or propagated by `winnow label`), or labels propagated in memory.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { commentLabels, contentLabel, labelMismatch, readLabelDir, type BlockLabel, type BlockLabelFile } from "@winnow/labels";
import type { Dataset, PageCommentLabels } from "./dataset.js";
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
 * Refuses a label file that no longer fits its page (the page or the segmenter changed since it
 * was written), naming the page; `where` goes before the message. Every reader of label files for
 * training checks this way.
 */
export function refuseUnfitFile(page: LabelledPage, file: BlockLabelFile, where = ""): void {
  const problem = labelMismatch(
    file,
    page.doc.blocks.map((b) => b.text),
  );
  if (problem !== undefined) throw new LabelMismatchError(`${where}${problem}`);
}

/**
 * The label files' labels per page, in page order; a page without a file gets undefined. A
 * "comment" block (version 2) is not main text: 0 here, as the main text trains on it.
 */
export function labelsFromFiles(pages: readonly LabelledPage[], files: ReadonlyMap<string, BlockLabelFile>): PageLabels[] {
  return pages.map((page) => {
    const file = files.get(page.id);
    if (file === undefined) return undefined;
    refuseUnfitFile(page, file);
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

/** Label files by data set (a page's `source`), then by page id. */
export type LabelFilesBySource = ReadonlyMap<string, ReadonlyMap<string, BlockLabelFile>>;

/**
 * The label files of `dir/SOURCE/` for each source named (the layout of experiments/labels/comments:
 * page ids repeat across data sets, so each set has a folder of its own); a source without a
 * folder has none.
 */
export async function readLabelDirsBySource(dir: string, sources: Iterable<string>): Promise<LabelFilesBySource> {
  const bySource = new Map<string, Map<string, BlockLabelFile>>();
  for (const source of new Set(sources)) {
    const folder = join(dir, source);
    if (existsSync(folder)) bySource.set(source, await readLabelDir(folder));
  }
  return bySource;
}

/**
 * Hand comment labels per page, in page order (DatasetOptions.commentLabels): a version-2 file
 * says which blocks are user comments (1) and which are not (0). A page without a file, or whose
 * file is of version 1 (which says nothing about comments), gets undefined; a file that no longer
 * fits its page is refused, naming the page.
 */
export function commentLabelsFromFiles(pages: readonly LabelledPage[], files: LabelFilesBySource): (PageCommentLabels | undefined)[] {
  return pages.map((page) => {
    const file = files.get(page.source)?.get(page.id);
    if (file === undefined) return undefined;
    refuseUnfitFile(page, file, `${page.source}: `);
    return commentLabels(file);
  });
}
