import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LabelledPage, keptText, wordScores } from "@winnow/evaluation";
import { TEXREX_EXTENDED } from "@winnow/features";
import { HostRoutedClassifier, loadClassifier, readModelIndex, scorePages } from "@winnow/models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostsWithPages, trainPerHost } from "./per-host.js";
import { QUICK, type SitePage, shopSite } from "../test/shop-site.js";

let wcxb: LabelledPage[];
let site: SitePage[];
let dir: string;
beforeAll(async () => {
  ({ wcxb, site } = await shopSite());
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
    const results = await trainPerHost({ pages: train, featureSet: TEXREX_EXTENDED, outputDir: out, minPages: 6, minHeldOut: 1, ...QUICK });
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

  it("writes no model it could not validate: a host with too few held-out pages keeps the general model, and says so (#25)", async () => {
    // 7 pages of one host: a 7:1 page split holds out none of them.
    const train = [...wcxb, ...site.slice(0, 7)];
    const out = join(dir, "few");
    const results = await trainPerHost({ pages: train, featureSet: TEXREX_EXTENDED, outputDir: out, minPages: 4, ...QUICK });
    expect(results[1]).toMatchObject({ host: "shop.example", file: "general.onnx", keptGeneral: true, validationPages: 0 });
    expect(existsSync(join(out, "shop.example.onnx"))).toBe(false);
    expect(readModelIndex(out)).toEqual({ general: "general.onnx", hosts: {} });
  }, 120_000);
});
