// winnow train --per-host and winnow clean --models together: a model folder from one, used by the other.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runClean } from "@winnow/clean";
import { type LabelledPage, keptText } from "@winnow/evaluation";
import { TEXREX_EXTENDED } from "@winnow/features";
import { loadClassifier, scorePages } from "@winnow/models";
import { trainPerHost } from "@winnow/train";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { warcResponse } from "../../clean/test/test-warcs.js";
import { QUICK, type SitePage, shopSite } from "../../train/test/shop-site.js";

let wcxb: LabelledPage[];
let site: SitePage[];
let dir: string;
beforeAll(async () => {
  ({ wcxb, site } = await shopSite());
  dir = mkdtempSync(join(tmpdir(), "winnow-perhost-"));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("per-host models end to end", () => {
  it("winnow clean with a model folder scores each record by its host's model, on the pool and inline", async () => {
    const out = join(dir, "models");
    await trainPerHost({
      pages: [...wcxb, ...site.slice(0, -2)],
      featureSet: TEXREX_EXTENDED,
      outputDir: out,
      minPages: 6,
      minHeldOut: 1,
      ...QUICK,
    });
    const warc = join(dir, "site.warc");
    const pages = site.slice(-2);
    writeFileSync(warc, Buffer.concat(pages.map((p, i) => warcResponse({ id: `<urn:x:${i}>`, url: p.url, body: p.html }))));
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
