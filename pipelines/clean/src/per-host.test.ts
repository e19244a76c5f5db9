import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { wordScores } from "@winnow/evaluation";
import { TEXREX_EXTENDED } from "@winnow/features";
import { segmentHtml } from "@winnow/segment";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LabelledPage } from "./dataset.js";
import { HostRoutedClassifier, cleanPagesByHost, hostKey, readModelIndex } from "./host-models.js";
import { loadLabelledPages } from "./labelled-data.js";
import { cleanPages, type PageOutput } from "./page.js";
import { hostsWithPages, trainPerHost } from "./per-host.js";
import { warcResponse } from "./test-warcs.js";
import { loadClassifier, packPages, unpackPages } from "./worker.js";
// The compiled run: worker threads load dist/worker.js (run `npx tsc -b` first).
import { runClean } from "../dist/run.js";

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

describe("hostKey", () => {
  it("takes the lowercased host without www., and nothing from non-web URLs", () => {
    expect(hostKey("https://WWW.Shop.Example/a?b")).toBe("shop.example");
    expect(hostKey("file:///tmp/a.html")).toBe("");
    expect(hostKey("")).toBe("");
    expect(hostKey("not a url")).toBe("");
  });
});

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
      const inputs = heldOut.map((p) => ({
        body: Buffer.from((p as LabelledPage & { html: string }).html),
        headerCharset: "",
        url: p.url,
      }));
      const f1 = (outputs: PageOutput[]): number =>
        outputs.reduce((sum, o, i) => sum + (o.ok ? wordScores(o.blocks.map((b) => b.text).join("\n\n"), heldOut[i].gold).f1 : 0), 0) /
        outputs.length;
      const byHost = await cleanPagesByHost(inputs, routed, cleanPages);
      const general = await cleanPages(inputs, routed);
      expect(f1(byHost)).toBeGreaterThan(f1(general));
      // The same pages without a URL go to the general model.
      expect(
        await cleanPagesByHost(
          inputs.map((p) => ({ ...p, url: undefined })),
          routed,
          cleanPages,
        ),
      ).toEqual(general);
    } finally {
      await routed.close();
    }
  }, 120_000);

  it("carries each page's URL across to the worker", () => {
    const task = packPages([
      { body: Buffer.from("<p>a</p>"), charset: "", url: "http://a.example/" },
      { body: Buffer.from("<p>b</p>"), charset: "utf-8" },
    ]);
    expect(unpackPages(task).map((p) => p.url)).toEqual(["http://a.example/", ""]);
  });

  it("winnow clean with a model folder scores each record by its host's model, on the pool and inline", async () => {
    const out = join(dir, "models");
    const warc = join(dir, "site.warc");
    const pages = site.slice(-2);
    writeFileSync(
      warc,
      Buffer.concat(
        pages.map((p, i) => warcResponse({ id: `<urn:x:${i}>`, url: p.url, body: (p as LabelledPage & { html: string }).html })),
      ),
    );
    const expected = await (async () => {
      const host = await loadClassifier(join(out, "shop.example.onnx"));
      try {
        return (
          await cleanPages(
            pages.map((p) => ({ body: Buffer.from((p as LabelledPage & { html: string }).html), headerCharset: "" })),
            host,
          )
        ).map((o) => (o.ok ? o.blocks.map((b) => b.text).join("\n\n") : ""));
      } finally {
        await host.close();
      }
    })();
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
