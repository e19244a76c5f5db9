export interface SnippetRates {
  /** Fraction of `with` snippets found in the extraction (1 when there are none). */
  withRate: number;
  /** Fraction of `without` snippets absent from the extraction (1 when there are none). */
  withoutRate: number;
  withFound: number;
  withTotal: number;
  withoutAbsent: number;
  withoutTotal: number;
}

/** Lowercase and fold every whitespace run to one space, so line breaks and nbsp don't matter. */
export function normaliseSnippetText(text: string): string {
  return text.replace(/\s+/gu, " ").trim().toLowerCase();
}

/**
 * Substring test of the WCXB `with` / `without` snippets against an extraction, after
 * {@link normaliseSnippetText} on both sides. Snippets that normalise to "" are skipped (they
 * would trivially be "present"). An empty list gives rate 1 (nothing violated); the counts are
 * returned so callers can pool over pages instead of averaging rates.
 */
export function snippetRates(extracted: string, withSnippets: readonly string[], withoutSnippets: readonly string[]): SnippetRates {
  const text = normaliseSnippetText(extracted);
  const [withFound, withTotal] = countPresent(text, withSnippets);
  const [withoutPresent, withoutTotal] = countPresent(text, withoutSnippets);
  const withoutAbsent = withoutTotal - withoutPresent;
  return {
    withRate: withTotal === 0 ? 1 : withFound / withTotal,
    withoutRate: withoutTotal === 0 ? 1 : withoutAbsent / withoutTotal,
    withFound,
    withTotal,
    withoutAbsent,
    withoutTotal,
  };
}

function countPresent(text: string, snippets: readonly string[]): [present: number, total: number] {
  let present = 0;
  let total = 0;
  for (const s of snippets) {
    const n = normaliseSnippetText(s);
    if (n === "") continue;
    total++;
    if (text.includes(n)) present++;
  }
  return [present, total];
}
