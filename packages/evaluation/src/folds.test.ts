import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { normaliseHost } from "@winnow/archive";
import { domainFolds } from "./folds.js";
import { listWcxb } from "./wcxb.js";

const FIXTURE = fileURLToPath(new URL("../../../fixtures/wcxb-sample", import.meta.url));

/** Pages over domains of the given sizes, ids in a scrambled order. */
function pagesOf(sizes: number[]): { id: string; domain: string }[] {
  const pages: { id: string; domain: string }[] = [];
  sizes.forEach((n, d) => {
    for (let i = 0; i < n; i++) {
      // Alternate www. prefixes: they must not split a domain.
      const domain = i % 2 === 0 ? `site${d}.example` : `www.site${d}.example`;
      pages.push({ id: `p${d}-${i}`, domain });
    }
  });
  return pages.reverse();
}

function foldSizes(folds: number[], k: number): number[] {
  const sizes = new Array<number>(k).fill(0);
  for (const f of folds) sizes[f]++;
  return sizes;
}

describe("domainFolds", () => {
  const sizes = [10, 7, 5, 3, 3, 2, ...new Array<number>(20).fill(1)];
  const pages = pagesOf(sizes);

  it("never puts one domain (www. or not) in two folds", () => {
    const folds = domainFolds(pages, 4, 7);
    const foldOf = new Map<string, number>();
    pages.forEach((p, i) => {
      const key = normaliseHost(p.domain);
      expect(folds[i]).toBeGreaterThanOrEqual(0);
      expect(folds[i]).toBeLessThan(4);
      if (foldOf.has(key)) expect(folds[i]).toBe(foldOf.get(key));
      else foldOf.set(key, folds[i]);
    });
  });

  it("balances folds by page count", () => {
    // 50 pages into 4 folds: greedy packing reaches 13/13/12/12.
    const s = foldSizes(domainFolds(pages, 4), 4);
    expect(s.reduce((x, y) => x + y)).toBe(50);
    expect(Math.max(...s) - Math.min(...s)).toBeLessThanOrEqual(1);
  });

  it("is deterministic and independent of input order", () => {
    const a = domainFolds(pages, 5, 3);
    expect(domainFolds(pages, 5, 3)).toEqual(a);
    const shuffled = [...pages].sort((x, y) => (x.id < y.id ? -1 : 1));
    const b = domainFolds(shuffled, 5, 3);
    const byId = new Map(shuffled.map((p, i) => [p.id, b[i]]));
    pages.forEach((p, i) => expect(byId.get(p.id)).toBe(a[i]));
  });

  it("gives different partitions for different seeds", () => {
    expect(domainFolds(pages, 5, 1)).not.toEqual(domainFolds(pages, 5, 2));
  });

  it("treats pages without a domain as separate sites", () => {
    const anon = [1, 2, 3, 4].map((i) => ({ id: `a${i}`, domain: "" }));
    expect(foldSizes(domainFolds(anon, 2), 2)).toEqual([2, 2]);
  });

  it("allows k larger than the number of domains and rejects bad k", () => {
    expect(domainFolds([{ id: "x", domain: "a.com" }], 3)).toEqual([0]);
    expect(() => domainFolds(pages, 0)).toThrow(RangeError);
    expect(() => domainFolds(pages, 2.5)).toThrow(RangeError);
  });

  it("splits the fixture's 14 single-page domains evenly", () => {
    const s = foldSizes(domainFolds(listWcxb(FIXTURE), 7), 7);
    expect(s).toEqual([2, 2, 2, 2, 2, 2, 2]);
  });
});
