// A hand comment label file for the comment-label CLI tests: the first page of a WCXB-layout set,
// its last block marked a user comment, the others boilerplate (as the alignment has them there).
import { mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { loadLabelledPages } from "@winnow/evaluation";
import { makeLabelFile, writeLabelFile } from "@winnow/labels";

/** Writes the label file under `labels/<the set's folder name>/` and returns `labels`. */
export async function writeLastBlockCommentLabel(labels: string, set: string): Promise<string> {
  const folder = join(labels, basename(set));
  mkdirSync(folder, { recursive: true });
  const [page] = await loadLabelledPages(set, { limit: 1 });
  const blockTexts = page.doc.blocks.map((b) => b.text);
  const file = makeLabelFile(
    { id: page.id, url: page.url, blockTexts },
    blockTexts.map((_, b) => (b === blockTexts.length - 1 ? "comment" : 0)),
    "hand",
  );
  await writeLabelFile(folder, file);
  return labels;
}
