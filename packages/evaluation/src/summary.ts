/** One scored page. Any further finite numeric fields (e.g. snippet rates) are averaged too. */
export interface PageResult {
  pageType: string;
  /** The data set, when pages come from several. */
  source?: string;
  /** The gold's language code ("en", "zh-cn"), "" when unknown. */
  language?: string;
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
  /** Keyed by source, in order of first appearance. */
  bySource: Record<string, GroupSummary>;
  /** Keyed by language group (see languageGroup), sorted. */
  byLanguage: Record<string, GroupSummary>;
  /** Keyed by source, then page type. */
  bySourceAndType: Record<string, Record<string, GroupSummary>>;
}

const CORE = new Set(["pageType", "source", "language", "precision", "recall", "f1"]);

/**
 * The language group a page is reported in: English, Chinese, Japanese and Korean by name (the
 * scripts that matter most to word splitting), every other known language as "other".
 */
export function languageGroup(language: string | undefined): string {
  const code = (language ?? "").toLowerCase().slice(0, 2);
  if (code === "") return "unknown";
  return code === "en" || code === "zh" || code === "ja" || code === "ko" ? code : "other";
}

function groupBy(results: readonly PageResult[], key: (r: PageResult) => string, sort: boolean): Record<string, GroupSummary> {
  const groups = new Map<string, PageResult[]>();
  for (const r of results) {
    const k = key(r);
    const g = groups.get(k);
    if (g === undefined) groups.set(k, [r]);
    else g.push(r);
  }
  const keys = sort ? [...groups.keys()].sort() : [...groups.keys()];
  const out: Record<string, GroupSummary> = {};
  for (const k of keys) out[k] = summariseGroup(groups.get(k)!);
  return out;
}

/**
 * Unweighted mean over pages (the benchmark's macro average): overall, per page type, per source
 * and per language group.
 */
export function summarise(results: readonly PageResult[]): Summary {
  const bySourceAndType: Record<string, Record<string, GroupSummary>> = {};
  const sources = [...new Set(results.map((r) => r.source ?? ""))];
  for (const source of sources) {
    bySourceAndType[source] = groupBy(
      results.filter((r) => (r.source ?? "") === source),
      (r) => r.pageType,
      true,
    );
  }
  return {
    overall: summariseGroup(results),
    byType: groupBy(results, (r) => r.pageType, true),
    bySource: groupBy(results, (r) => r.source ?? "", false),
    byLanguage: groupBy(results, (r) => languageGroup(r.language), true),
    bySourceAndType,
  };
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
