import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { alignBlockLabels } from "./align.js";
import { wordScores } from "./scores.js";
import { wordTokens } from "./tokens.js";
import { loadWcxbSync } from "./wcxb.js";

/** CPU milliseconds of this process: unlike wall time, not stretched when other jobs share the cores. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const FIXTURE = fileURLToPath(new URL("../../../fixtures/wcxb-sample", import.meta.url));

describe("alignBlockLabels on constructed pages", () => {
  it("counts each block's word tokens as wordTokens does", () => {
    const blocks = ["Hello, world!", "", "Café crème 2024 a_b", "—"];
    const { tokens } = alignBlockLabels(blocks, "hello world");
    expect([...tokens]).toEqual(blocks.map((b) => wordTokens(b).length));
    expect([...tokens]).toEqual([2, 0, 4, 0]);
  });

  it("does not credit navigation words that the gold also contains", () => {
    const body = "Healthy soil feeds plants. Share this idea with your neighbours and read more about it in our guide.";
    const blocks = ["Home", "Share", "Read more", "Why soil matters", body, "Share", "Read more", "Home"];
    const r = alignBlockLabels(blocks, `Why soil matters\n\n${body}`);
    expect([...r.labels]).toEqual([0, 0, 0, 1, 1, 0, 0, 0]);
    expect(r.goldCoverage).toBe(1);
    expect(r.approximate).toBe(false);
  });

  it("prefers the copy of a phrase that continues the matched text", () => {
    // "Read more" could match the menu or the paragraph equally well by LCS length.
    const r = alignBlockLabels(["Read more", "Read more about soil and water"], "Read more about soil and water");
    expect([...r.labels]).toEqual([0, 1]);
    expect(r.matchedFraction[0]).toBe(0);
  });

  it("credits blocks that the gold text puts in another order", () => {
    const first = "An opening paragraph that introduces the topic at some length";
    const second = "A closing section whose text the annotator moved to the top";
    const blocks = ["Menu", first, "Related posts", second];
    const r = alignBlockLabels(blocks, `${second}\n\n${first}`);
    expect([...r.labels]).toEqual([0, 1, 0, 1]);
    // Without the moved-text pass only one of the two can be in order.
    const strict = alignBlockLabels(blocks, `${second}\n\n${first}`, { movedRunMin: 0 });
    expect(strict.labels[1] + strict.labels[3]).toBe(1);
  });

  it("applies the threshold to partly matched blocks", () => {
    const blocks = ["alpha beta gamma delta", "epsilon zeta eta theta iota", "—", ""];
    const gold = "alpha beta\n\nepsilon zeta";
    const r = alignBlockLabels(blocks, gold);
    expect(Array.from(r.matchedFraction)).toEqual([0.5, Math.fround(0.4), 0, 0]);
    expect([...r.labels]).toEqual([1, 0, 0, 0]); // 0.5 ≥ 0.5, 0.4 < 0.5, no words → 0
    expect([...alignBlockLabels(blocks, gold, { threshold: 0.4 }).labels]).toEqual([1, 1, 0, 0]);
  });

  it("labels everything boilerplate against an empty gold", () => {
    const r = alignBlockLabels(["Some text", "More text"], "");
    expect([...r.labels]).toEqual([0, 0]);
    expect(r.goldCoverage).toBe(0);
  });

  it("handles a 20k-token page against 5k gold tokens quickly", () => {
    const words = Array.from({ length: 800 }, (_, i) => `w${i}`);
    let seed = 1;
    const word = (): string => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return words[Math.floor(words.length * (seed / 4294967296) ** 2)];
    };
    const para = (n: number): string => Array.from({ length: n }, word).join(" ");
    const content = Array.from({ length: 100 }, () => para(50));
    const boiler = Array.from({ length: 1500 }, () => para(10));
    const blocks = [...boiler.slice(0, 750), ...content, ...boiler.slice(750)];
    const t0 = cpuMs();
    const r = alignBlockLabels(blocks, content.join("\n\n"));
    expect(cpuMs() - t0).toBeLessThan(3000);
    expect(r.labels.subarray(750, 850).every((x) => x === 1)).toBe(true);
    const boilerLabelled = r.labels.reduce((s, x, k) => s + (k < 750 || k >= 850 ? x : 0), 0);
    expect(boilerLabelled).toBeLessThan(15); // 10-word random blocks rarely half-match leftovers
  });
});

/** Crude visible text lines of a page: enough to stand in for the segmenter in tests. */
function visibleLines(html: string): string[] {
  const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
  return html
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<(script|style|noscript|template|svg|head)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(
      /<\/?(p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|section|article|header|footer|nav|aside|main|pre|dd|dt|form|button)\b[^>]*>/gi,
      "\n",
    )
    .replace(/<[^>]+>/g, " ")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] !== "#") return entities[e.toLowerCase()] ?? m;
      const cp = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : " ";
    })
    .split("\n")
    .map((l) => l.replace(/\s+/g, " ").trim())
    .filter((l) => l.length > 0);
}

describe("alignBlockLabels on real WCXB pages (fixture)", () => {
  const pages = loadWcxbSync(FIXTURE);

  it("separates gold paragraphs from the page's own boilerplate snippets", () => {
    for (const p of pages) {
      const paras = p.gold.split(/\n\s*\n/).filter((s) => s.trim() !== "");
      const boiler = [...p.withoutSnippets, "Share", "Read more", "Home"];
      const blocks = [...boiler, ...paras, ...[...boiler].reverse()];
      const r = alignBlockLabels(blocks, p.gold);
      const expected = blocks.map((t, k) => (k >= boiler.length && k < boiler.length + paras.length && wordTokens(t).length > 0 ? 1 : 0));
      expect([...r.labels], p.id).toEqual(expected);
      expect(r.goldCoverage, p.id).toBe(1);
    }
  });

  it("labels the visible text lines so that the content blocks reproduce the gold", () => {
    for (const p of pages) {
      const lines = visibleLines(p.html);
      const r = alignBlockLabels(lines, p.gold);
      const extracted = lines.filter((_, k) => r.labels[k] === 1).join("\n");
      expect(wordScores(extracted, p.gold).f1, p.id).toBeGreaterThan(0.95);
      // Short boilerplate lines that are exactly a `without` snippet stay boilerplate.
      const without = new Set(p.withoutSnippets.map((s) => s.toLowerCase()));
      lines.forEach((line, k) => {
        if (without.has(line.toLowerCase()) && !p.gold.toLowerCase().includes(line.toLowerCase())) {
          expect(r.labels[k], `${p.id}: ${line}`).toBe(0);
        }
      });
    }
  });
});
