import { describe, expect, it } from "vitest";
import { summarise } from "./summary.js";

describe("summarise", () => {
  const rows = [
    { pageType: "forum", precision: 1, recall: 0.5, f1: 0.6, withRate: 1 },
    { pageType: "article", precision: 0.5, recall: 1, f1: 0.8, withRate: 0.5, note: "x" },
    { pageType: "article", precision: 0, recall: 0, f1: 0, withRate: Number.NaN },
  ];

  it("averages overall and per page type with counts", () => {
    const s = summarise(rows);
    expect(s.overall.count).toBe(3);
    expect(s.overall.precision).toBeCloseTo(0.5, 15);
    expect(s.overall.recall).toBeCloseTo(0.5, 15);
    expect(s.overall.f1).toBeCloseTo(1.4 / 3, 15);
    expect(Object.keys(s.byType)).toEqual(["article", "forum"]);
    expect(s.byType.article).toEqual({ count: 2, precision: 0.25, recall: 0.5, f1: 0.4, extra: { withRate: 0.5 } });
    expect(s.byType.forum.count).toBe(1);
  });

  it("averages extra numeric fields over the rows that have a finite value", () => {
    expect(summarise(rows).overall.extra).toEqual({ withRate: 0.75 });
  });

  it("reports NaN means for no rows", () => {
    const s = summarise([]);
    expect(s.overall.count).toBe(0);
    expect(s.overall.f1).toBeNaN();
    expect(s.byType).toEqual({});
  });
});
