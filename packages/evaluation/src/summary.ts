/** One scored page. Any further finite numeric fields (e.g. snippet rates) are averaged too. */
export interface PageResult {
  pageType: string;
  precision: number;
  recall: number;
  f1: number;
  [metric: string]: unknown;
}

export interface GroupSummary {
  count: number;
  precision: number;
  recall: number;
  f1: number;
  /**
   * Means of the other numeric fields, each over the rows that carry a finite number for it
   * (so a metric missing on some pages is not dragged towards 0).
   */
  extra: Record<string, number>;
}

export interface Summary {
  overall: GroupSummary;
  /** Keyed by page type, keys in sorted order for stable printing. */
  byType: Record<string, GroupSummary>;
}

const CORE = new Set(["pageType", "precision", "recall", "f1"]);

/** Unweighted mean over pages (the benchmark's macro average), overall and per page type. */
export function summarise(results: readonly PageResult[]): Summary {
  const groups = new Map<string, PageResult[]>();
  for (const r of results) {
    const g = groups.get(r.pageType);
    if (g === undefined) groups.set(r.pageType, [r]);
    else g.push(r);
  }
  const byType: Record<string, GroupSummary> = {};
  for (const type of [...groups.keys()].sort()) byType[type] = summariseGroup(groups.get(type)!);
  return { overall: summariseGroup(results), byType };
}

function summariseGroup(rows: readonly PageResult[]): GroupSummary {
  let p = 0;
  let r = 0;
  let f = 0;
  const sums = new Map<string, [sum: number, n: number]>();
  for (const row of rows) {
    p += row.precision;
    r += row.recall;
    f += row.f1;
    for (const key in row) {
      if (CORE.has(key)) continue;
      const v = row[key];
      if (typeof v !== "number" || !Number.isFinite(v)) continue;
      const acc = sums.get(key);
      if (acc === undefined) sums.set(key, [v, 1]);
      else {
        acc[0] += v;
        acc[1]++;
      }
    }
  }
  const n = rows.length;
  const extra: Record<string, number> = {};
  for (const key of [...sums.keys()].sort()) {
    const [sum, count] = sums.get(key)!;
    extra[key] = sum / count;
  }
  // An empty group reports NaN means rather than a misleading 0.
  return { count: n, precision: p / n, recall: r / n, f1: f / n, extra };
}
