import { readdirSync, readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { gunzipSync } from "node:zlib";
import { heuristicClassifier, type BlockClassifier } from "@winnow/models";
import { segmentHtml, type SegmentedDocument } from "@winnow/segment";
import { describe, expect, it } from "vitest";
import { cleanPages, type PageInput } from "./page.js";

const HTML_DIR = new URL("../../../fixtures/wcxb-sample/html/", import.meta.url);
const pages: PageInput[] = readdirSync(HTML_DIR)
  .sort()
  .map((name) => ({ body: gunzipSync(readFileSync(new URL(name, HTML_DIR))), headerCharset: "utf-8" }));

describe("cleanPages", () => {
  it("keeps the blocks scoring at or above the threshold, as scoring the segmented batch does", async () => {
    const classifier = heuristicClassifier();
    const inputs: PageInput[] = [...pages, { body: Buffer.from("<html><body><script>x()</script></body></html>"), headerCharset: "" }];
    const outputs = await cleanPages(inputs, classifier);
    const docs = pages.map((p) => segmentHtml(Buffer.from(p.body).toString("utf8")));
    const scores = await classifier.score(docs);
    expect(outputs).toHaveLength(inputs.length);
    docs.forEach((doc, i) => {
      const kept = doc.blocks
        .filter((_, b) => scores[i][b] >= classifier.threshold)
        .map((b) =>
          b.layout === undefined ? { text: b.text, heading: b.heading } : { text: b.text, heading: b.heading, layout: b.layout },
        );
      expect(outputs[i]).toMatchObject({ ok: true, title: doc.title, charset: "utf-8", blocks: kept, blocksTotal: doc.blocks.length });
      expect((outputs[i] as { blocks: unknown[] }).blocks).toEqual(kept);
    });
    expect(outputs.at(-1)).toMatchObject({ ok: false, reason: "no-text" });
  });

  it("lets go of each parsed page once the classifier has taken it, before the batch is scored", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const heuristic = heuristicClassifier();
    const refs: Array<WeakRef<SegmentedDocument>> = [];
    let collected = -1;
    // Takes what it needs of each page at once (its scores), like the MLP's feature rows.
    const classifier: BlockClassifier = {
      ...heuristic,
      batch() {
        const inner = heuristic.batch!();
        return {
          add(doc) {
            refs.push(new WeakRef(doc));
            return inner.add(doc);
          },
          async score() {
            await new Promise((resolve) => setImmediate(resolve));
            gc();
            collected = refs.filter((r) => r.deref() === undefined).length;
            return inner.score();
          },
        };
      },
    };
    const outputs = await cleanPages(pages, classifier);
    expect(outputs.every((o) => o.ok)).toBe(true);
    expect(refs).toHaveLength(pages.length);
    expect(collected).toBe(pages.length);
  });

  it("fails the batch when the classifier gives a page the wrong number of scores", async () => {
    const short: BlockClassifier = {
      name: "short",
      threshold: 0.5,
      score: async (docs) => docs.map(() => new Float32Array(1)),
      close: async () => {},
    };
    await expect(cleanPages(pages.slice(0, 2), short)).rejects.toThrow(/scores for \d+ blocks/);
  });
});
