import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtinModelPath } from "@winnow/models/model-names";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OutputSettings, outputSettings, settingsDifferences } from "../dist/output-settings.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-output-settings-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BASE = { format: "jsonl", compression: "gzip" } as const;

describe("outputSettings", () => {
  it("knows a model by its bytes: the shipped MLP by name or copied elsewhere is one model, the BiLSTM another", async () => {
    const copy = join(dir, "elsewhere.onnx");
    copyFileSync(builtinModelPath("mlp") as string, copy);
    const byName = await outputSettings(BASE, "mlp");
    expect(byName.model).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await outputSettings(BASE, copy)).model).toBe(byName.model);
    expect((await outputSettings(BASE, "bilstm")).model).not.toBe(byName.model);
    expect((await outputSettings(BASE, "heuristic")).model).toBe("heuristic");
  });

  it("knows a per-host model folder by its files' names and bytes", async () => {
    const folder = join(dir, "per-host");
    mkdirSync(join(folder, "hosts"), { recursive: true });
    writeFileSync(join(folder, "hosts", "a.onnx"), "model a");
    writeFileSync(join(folder, "general.onnx"), "general");
    const first = (await outputSettings(BASE, folder)).model;
    expect(first).toMatch(/^sha256:/);
    writeFileSync(join(folder, "hosts", "a.onnx"), "model A");
    expect((await outputSettings(BASE, folder)).model).not.toBe(first);
  });
});

describe("settingsDifferences", () => {
  const now: OutputSettings = {
    ...BASE,
    model: "heuristic",
    comments: false,
    corpus: { langId: true, filters: ["c4"], stats: false, keepFiltered: false },
  };
  const recorded = (settings: unknown) => JSON.parse(JSON.stringify(settings));

  it("finds nothing between a marker and the settings it was written from, whatever the order of keys", () => {
    expect(settingsDifferences(recorded(now), now)).toEqual([]);
    const reordered = {
      corpus: { keepFiltered: false, stats: false, filters: ["c4"], langId: true },
      comments: false,
      model: "heuristic",
      ...BASE,
    };
    expect(settingsDifferences(reordered, now)).toEqual([]);
    // A key written undefined is a key left out: the default either way.
    expect(settingsDifferences(recorded(now), { ...now, links: undefined })).toEqual([]);
  });

  it("names each setting that differs, inside corpus by its own name, long values cut", () => {
    const other: OutputSettings = {
      ...now,
      comments: true,
      links: true,
      corpus: {
        ...now.corpus,
        filters: ["c4", "gopher_quality"],
        filterConfig: { settings: { rules: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`rule${i}`, { max: i }])) } },
      },
    } as OutputSettings;
    const found = settingsDifferences(recorded(now), other);
    expect(found).toEqual([
      "comments: false → true",
      expect.stringMatching(/^corpus\.filterConfig: default → \{"settings":\{"rules":.{40,}…$/),
      'corpus.filters: ["c4"] → ["c4","gopher_quality"]',
      "links: default → true",
    ]);
    expect(found[1].length).toBeLessThan(130);
  });

  it("compares nothing where the marker recorded no settings (written before they were)", () => {
    for (const legacy of [undefined, null, "text", 3, ["a"]]) expect(settingsDifferences(legacy, now)).toEqual([]);
  });
});
