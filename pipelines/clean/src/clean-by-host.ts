/**
 * Per-host models while cleaning: each page of a batch is cleaned with its host's model (from
 * the record's URL), the rest with the general one (see @winnow/models' HostRoutedClassifier).
 */
import { hostOf } from "@winnow/archive/pages";
import type { BlockClassifier, HostRoutedClassifier } from "@winnow/models/classifiers";
import type { PageInput, PageOutput } from "./page.js";

/**
 * Cleans a batch with each page's host model: pages are grouped by host, each group cleaned by
 * `clean` with its model, and the outputs put back in batch order. A host model that cannot be
 * loaded fails its own pages only.
 */
export async function cleanPagesByHost(
  pages: readonly PageInput[],
  routed: HostRoutedClassifier,
  clean: (pages: readonly PageInput[], classifier: BlockClassifier) => Promise<PageOutput[]>,
): Promise<PageOutput[]> {
  const groups = new Map<string, number[]>();
  pages.forEach((page, i) => {
    const host = hostOf(page.url);
    const key = routed.hasModelFor(host) ? host : "";
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [i]);
    else group.push(i);
  });
  const outputs = new Array<PageOutput>(pages.length);
  for (const [host, indexes] of groups) {
    let cleaned: PageOutput[];
    try {
      cleaned = await clean(
        indexes.map((i) => pages[i]),
        await routed.forHost(host),
      );
    } catch (error) {
      const detail = `cannot use the model of ${host}: ${(error as Error).message}`;
      cleaned = indexes.map(() => ({ ok: false, reason: "failed", detail }));
    }
    indexes.forEach((i, k) => (outputs[i] = cleaned[k]));
  }
  return outputs;
}
