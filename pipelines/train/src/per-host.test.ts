import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type LabelledPage, keptText, loadLabelledPages, wordScores } from "@winnow/evaluation";
import { TEXREX_EXTENDED } from "@winnow/features";
import { HostRoutedClassifier, loadClassifier, readModelIndex, scorePages } from "@winnow/models";
import { segmentHtml } from "@winnow/segment";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostsWithPages, trainPerHost } from "./per-host.js";

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

describe("per-host models", () => {
  it("picks hosts by page count", () => {
    expect([...hostsWithPages([...wcxb, ...site], 8).keys()]).toEqual(["shop.example"]);
    expect(hostsWithPages([...wcxb, ...site], 1000).size).toBe(0);
  });

  it("trains a general and a host model; on unseen pages of that site the host model beats the general one", async () => {
    const heldOut = site.slice(-2);
    const train = [...wcxb, ...site.slice(0, -2)];
    const out = join(dir, "models");
    const results = await trainPerHost({ pages: train, featureSet: TEXREX_EXTENDED, outputDir: out, minPages: 6, ...QUICK });
    expect(results.map((r) => [r.host, r.file, r.pages])).toEqual([
      [undefined, "general.onnx", train.length],
      ["shop.example", "shop.example.onnx", site.length - 2],
    ]);
    // One host, one domain: the threshold was still validated, on a page split.
    expect(results[1].validationPages).toBeGreaterThan(0);
    expect(readModelIndex(out)).toEqual({ general: "general.onnx", hosts: { "shop.example": "shop.example.onnx" } });

    const routed = await HostRoutedClassifier.open(out, loadClassifier);
    try {
      const f1 = async (host: string): Promise<number> => {
        const model = await routed.forHost(host);
        const scored = await scorePages(
          heldOut.map((p) => p.doc),
          model,
        );
        return (
          scored.reduce((sum, s, i) => sum + wordScores(keptText(s.doc, s.scores, model.threshold), heldOut[i].gold).f1, 0) / scored.length
        );
      };
      expect(await f1("shop.example")).toBeGreaterThan(await f1("other.example"));
    } finally {
      await routed.close();
    }
  }, 120_000);
});
