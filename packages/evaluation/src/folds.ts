import { mulberry32 } from "@winnow/random";
import { normaliseHost } from "@winnow/archive";

/**
 * Assigns each page a fold in [0, k) so that no domain spans two folds (pages of one site share
 * templates, so splitting a site would leak its boilerplate into the test fold).
 *
 * Greedy bin packing: domains sorted by page count, largest first, each into the currently
 * smallest fold (lowest index on ties). Domains of equal size are ordered by a seeded shuffle of
 * their sorted names, so the result depends only on (the set of pages, k, seed), not on input
 * order, and different seeds give different partitions. Pages with an empty domain are treated
 * as distinct singleton sites (an unknown site is not evidence of a shared one).
 * Folds stay empty when k exceeds the number of domains.
 */
export function domainFolds(pages: ReadonlyArray<{ id: string; domain: string }>, k: number, seed = 1): number[] {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
  const groups = new Map<string, number[]>();
  pages.forEach((p, index) => {
    const d = normaliseHost(p.domain);
    const key = d === "" ? `\u0000${p.id}` : d; // NUL prefix: can't collide with a host name
    const g = groups.get(key);
    if (g === undefined) groups.set(key, [index]);
    else g.push(index);
  });

  const keys = [...groups.keys()].sort();
  shuffle(keys, mulberry32(seed));
  const order = keys.map((key, rank) => ({ key, rank, size: groups.get(key)!.length }));
  order.sort((x, y) => y.size - x.size || x.rank - y.rank);

  const load = new Array<number>(k).fill(0);
  const fold = new Array<number>(pages.length);
  for (const { key, size } of order) {
    let best = 0;
    for (let f = 1; f < k; f++) if (load[f] < load[best]) best = f;
    load[best] += size;
    for (const index of groups.get(key)!) fold[index] = best;
  }
  return fold;
}

function shuffle<T>(items: T[], random: () => number): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
}
