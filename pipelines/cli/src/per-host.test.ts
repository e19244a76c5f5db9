// winnow train --per-host and winnow clean --models together: a model folder from one, used by the other.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runClean } from "@winnow/clean";
import { type LabelledPage, keptText, loadLabelledPages } from "@winnow/evaluation";
import { TEXREX_EXTENDED } from "@winnow/features";
import { loadClassifier, scorePages } from "@winnow/models";
import { segmentHtml } from "@winnow/segment";
import { trainPerHost } from "@winnow/train";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { warcResponse } from "../../clean/test/test-warcs.js";

const SAMPLE = fileURLToPath(new URL("../../../fixtures/wcxb-sample", import.meta.url));
const QUICK = { epochs: 6, hiddenSize: 8, learningRate: 0.01, ensemble: 1 };
const SITE = "https://www.shop.example";

/**
 * A site whose template is long and link-free (a wordy "about us" box and footer), so markup
 * rules and a general model keep it, around real article text taken from the WCXB sample.
 */
function sitePage(article: string, n: number): string {
  const about =
    "Our shop has sold hand made goods since 1982 and every item you see here was made in our workshop by the people who run it, which is why we take returns for a full year without asking why.";
  const footer =
    "Shop Example Limited is registered in a small town, all prices include tax, delivery is free on orders above fifty pounds and we reply to every message within two working days.";
  const paragraphs = article
    .split(/\n+/)
    .filter((p) => p.trim().length > 0)
    .map((p) => `<p>${p}</p>`)
    .join("");
  return `<html><head><title>Item ${n}</title></head><body><div class="side"><p>${about}</p></div><div class="main">${paragraphs}</div><div class="bottom"><p>${footer}</p></div></body></html>`;
}

let wcxb: LabelledPage[];
let site: LabelledPage[];
let dir: string;
beforeAll(async () => {
  wcxb = await loadLabelledPages(SAMPLE);
  site = wcxb
    .filter((p) => p.gold.length > 200)
    .map((p, n) => {
      const html = sitePage(p.gold, n);
      return {
        ...p,
        id: `site-${n}`,
        url: `${SITE}/item/${n}`,
        domain: "shop.example",
        doc: segmentHtml(html),
        gold: p.gold,
        html,
      } as LabelledPage & { html: string };
    });
  dir = mkdtempSync(join(tmpdir(), "winnow-perhost-"));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("per-host models end to end", () => {
  it("winnow clean with a model folder scores each record by its host's model, on the pool and inline", async () => {
    const out = join(dir, "models");
    await trainPerHost({ pages: [...wcxb, ...site.slice(0, -2)], featureSet: TEXREX_EXTENDED, outputDir: out, minPages: 6, ...QUICK });
    const warc = join(dir, "site.warc");
    const pages = site.slice(-2);
    writeFileSync(
      warc,
      Buffer.concat(
        pages.map((p, i) => warcResponse({ id: `<urn:x:${i}>`, url: p.url, body: (p as LabelledPage & { html: string }).html })),
      ),
    );
    const host = await loadClassifier(join(out, "shop.example.onnx"));
    let expected: string[];
    try {
      expected = (
        await scorePages(
          pages.map((p) => p.doc),
          host,
        )
      ).map((s) => keptText(s.doc, s.scores, host.threshold));
    } finally {
      await host.close();
    }
    for (const workers of [0, 1]) {
      const output = join(dir, `out-${workers}.jsonl`);
      const summary = await runClean({ inputs: [warc], output, model: out, workers });
      expect(summary.documentsWritten).toBe(2);
      const texts = readFileSync(output, "utf8")
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { text: string }).text);
      expect(texts).toEqual(expected);
    }
  }, 120_000);
});
