import type { BlockClassifier } from "@winnow/models";
import { describe, expect, it } from "vitest";
import { cleanPagesSafely, modelProblem, packPages, unpackPages } from "./worker.js";

const html = (text: string): Uint8Array =>
  Buffer.from(`<html><head><title>T</title></head><body><p>${text}</p></body></html>`);

describe("packPages / unpackPages", () => {
  it("packs views of a shared buffer into a buffer of their own, leaving the original usable", () => {
    const chunk = Buffer.from("xxAAAyyBBBBzz");
    const pages = [
      { body: chunk.subarray(2, 5), charset: "utf-8" },
      { body: new Uint8Array(0), charset: "" },
      { body: chunk.subarray(7, 11), charset: "windows-1252" },
    ];
    const task = packPages(pages);
    expect(task.bytes.byteLength).toBe(7);
    expect(task.ends).toEqual([3, 3, 7]);
    // Transfer the packed buffer the way piscina does; the reader's chunk must stay intact.
    const moved = structuredClone(task, { transfer: [task.bytes] });
    expect(task.bytes.byteLength).toBe(0);
    expect(chunk.toString()).toBe("xxAAAyyBBBBzz");
    const out = unpackPages(moved);
    expect(out.map((p) => Buffer.from(p.body).toString())).toEqual(["AAA", "", "BBBB"]);
    expect(out.map((p) => p.headerCharset)).toEqual(["utf-8", "", "windows-1252"]);
  });
});

describe("cleanPagesSafely", () => {
  it("turns a classifier that throws into one failed output per page", async () => {
    const broken: BlockClassifier = {
      name: "broken",
      threshold: 0.5,
      score: async () => {
        throw new Error("scorer exploded");
      },
      close: async () => {},
    };
    const outputs = await cleanPagesSafely(
      [{ body: html("one two three"), headerCharset: "" }, { body: html("four five six"), headerCharset: "" }],
      broken,
    );
    expect(outputs).toEqual([
      { ok: false, reason: "failed", detail: "scorer exploded" },
      { ok: false, reason: "failed", detail: "scorer exploded" },
    ]);
  });
});

describe("modelProblem", () => {
  it("drops the path from the model loader's message (it is reported beside it)", () => {
    expect(modelProblem("m.onnx", new Error('cannot load model "m.onnx": file not found'))).toBe("cannot load model: file not found");
    expect(modelProblem("m.onnx", new Error("other"))).toBe("other");
  });
});
