/**
 * What every classifier `--model` names does to a page's scores besides the model itself: one
 * copy of each repeated block, no empty-page fallback for the shipped MLP, and --favor refused
 * where a model has no operating points.
 */
import { describe, expect, it } from "vitest";
import { ModelError } from "@winnow/errors";
import { segmentHtml } from "@winnow/segment";
import { heuristicClassifier, scoreBatch } from "./classifier.js";
import { loadClassifier } from "./spec.js";
import { dropRepeatedBlocks, keepingOneCopy, repeatLinks } from "./repeated-blocks.js";

const paragraph = "A paragraph of the article that is long enough to be kept by the heuristic on its own.";
const repeated = `<html><body><article>
  <p>${paragraph}</p>
  <p>The caption of the first photo in this gallery, with its credit line, shown twice.</p>
  <p>${paragraph.replace("article", "story")}</p>
  <div class="gallery"><p>The caption of the first photo in this gallery, with its credit line, shown twice.</p></div>
</article></body></html>`;

describe("one copy of each repeated block", () => {
  it("scores 0 every kept copy under another tag path after the first kept one, and leaves the rest alone", () => {
    const scores = Float32Array.from([0.2, 0.9, 0.8, 0.95, 0.7, 0.6]);
    // Blocks 2 to 5 repeat block 0; block 0 is not kept, so block 2 is the first kept copy; block 5
    // sits under block 0's tag path (an entry of the same list) and stays.
    const links = { first: Int32Array.from([-1, -1, 0, 0, 0, 0]), samePath: Uint8Array.from([0, 0, 0, 0, 0, 1]) };
    dropRepeatedBlocks(scores, links, 0.5);
    expect([...scores].map((s) => Math.round(s * 100) / 100)).toEqual([0.2, 0.9, 0.8, 0, 0, 0.6]);
  });

  it("takes the comment score of every copy of a kept text to 0, so that it does not come back as a comment", () => {
    const scores = Float32Array.from([0.9, 0.9, 0.1, 0.1]);
    const comments = Float32Array.from([0.1, 0.8, 0.9, 0.9]);
    const links = { first: Int32Array.from([-1, 0, 0, -1]), samePath: Uint8Array.from([0, 0, 1, 0]) };
    dropRepeatedBlocks(scores, links, 0.5, comments);
    expect([...scores]).toEqual([0.9, 0, 0.1, 0.1].map(Math.fround));
    // Block 3 is another text: still a comment.
    expect([...comments]).toEqual([0.1, 0, 0, 0.9].map(Math.fround));
  });

  it("drops the second copy of a caption from the heuristic's kept blocks, in score() and in batches", async () => {
    const doc = segmentHtml(repeated);
    expect(doc.blocks.map((b) => b.repeatOf)).toEqual([-1, -1, -1, 1]);
    expect(repeatLinks(doc)).not.toBeNull();
    const bare = heuristicClassifier();
    const before = (await bare.score([doc]))[0];
    expect(before[3]).toBeGreaterThanOrEqual(bare.threshold);
    const one = keepingOneCopy(bare);
    const [after] = await one.score([doc]);
    expect(after[3]).toBe(0);
    expect([...after.subarray(0, 3)]).toEqual([...before.subarray(0, 3)]);
    const batch = scoreBatch(one);
    await batch.add(doc);
    expect((await batch.score())[0]).toEqual(after);
  });

  it("is applied by loadClassifier to the shipped MLP", async () => {
    const mlp = await loadClassifier("mlp");
    try {
      const [scores] = await mlp.score([segmentHtml(repeated)]);
      expect(scores[3]).toBeLessThan(mlp.threshold);
    } finally {
      await mlp.close();
    }
  });
});

describe("the shipped MLP on a page where nothing reaches its threshold", () => {
  it("keeps nothing: its file has no empty-page fallback, and none is added (it lost 0.004 F1 on WCXB dev)", async () => {
    // A page of link-like one-liners: the shipped MLP keeps none of them at its threshold.
    const links = Array.from({ length: 12 }, (_, i) => `<li><a href="/p${i}">Item ${i}</a></li>`).join("");
    const doc = segmentHtml(`<html><body><nav><ul>${links}</ul></nav><footer><p>Copyright 2025</p></footer></body></html>`);
    const mlp = await loadClassifier("mlp");
    try {
      expect(mlp.info?.emptyPageFallback).toBeUndefined();
      const [scores] = await mlp.score([doc]);
      expect(scores.length).toBe(doc.blocks.length);
      expect(Math.max(...scores)).toBeLessThan(mlp.threshold);
    } finally {
      await mlp.close();
    }
  });
});

describe("--favor", () => {
  it("is refused for the heuristic, which has no operating points, and taken by the shipped MLP and BiLSTM", async () => {
    for (const favor of ["precision", "recall"] as const) {
      const error = await loadClassifier("heuristic", { favor }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelError);
      expect((error as ModelError).message).toMatch(/--favor .* needs a model with operating points/);
    }
    // balanced is every model's one threshold, and the default.
    await (await loadClassifier("heuristic", { favor: "balanced" })).close();
    for (const spec of ["mlp", "bilstm"]) {
      const precise = await loadClassifier(spec, { favor: "precision" });
      expect(precise.threshold).toBe(precise.info?.operatingPoints?.precision);
      await precise.close();
    }
  });
});
