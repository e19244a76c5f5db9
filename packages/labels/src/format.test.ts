import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { blockFingerprint, labelFileName, labelMismatch, makeLabelFile, parseLabelFile, readLabelDir, writeLabelFile } from "./format.js";

const page = {
  id: "https://example.com/a?b=1",
  url: "https://example.com/a?b=1",
  blockTexts: ["Home", "A long article paragraph.", "Footer"],
};

describe("block label files", () => {
  it("round-trips through a directory, atomically named by id", async () => {
    const dir = mkdtempSync(join(tmpdir(), "labels-"));
    const file = makeLabelFile(page, [0, 1, null], "hand");
    await writeLabelFile(dir, file);
    expect(readdirSync(dir)).toEqual([labelFileName(page.id)]);
    const read = await readLabelDir(dir);
    expect(read.get(page.id)?.labels).toEqual([0, 1, null]);
    expect(labelMismatch(read.get(page.id)!, page.blockTexts)).toBeUndefined();
  });

  it("refuses labels for blocks that changed", () => {
    const file = makeLabelFile(page, [0, 1, 0], "propagated");
    expect(labelMismatch(file, ["Home", "A long article paragraph!", "Footer"])).toMatch(/different block texts/);
    expect(labelMismatch(file, ["Home"])).toMatch(/3 blocks but the page now has 1/);
  });

  it("fingerprints the split, not only the joined text", () => {
    expect(blockFingerprint(["ab", "c"])).not.toBe(blockFingerprint(["a", "bc"]));
  });

  it("says what is wrong with a bad file and where", async () => {
    const good = makeLabelFile(page, [0, 1, 0], "hand");
    expect(() => parseLabelFile({ ...good, labels: [0, 2, 1] }, "x.json")).toThrow(/x.json: labels\[1\] is 2/);
    expect(() => parseLabelFile({ ...good, version: 9 }, "x.json")).toThrow(/unsupported version 9/);
    expect(() => parseLabelFile({ ...good, labels: [0] }, "x.json")).toThrow(/1 labels for 3 blocks/);
    const dir = mkdtempSync(join(tmpdir(), "labels-"));
    writeFileSync(join(dir, "broken.labels.json"), "{");
    await expect(readLabelDir(dir)).rejects.toThrow(/broken.labels.json: not valid JSON/);
  });

  it("keeps ids that differ only in unsafe characters apart", () => {
    expect(labelFileName("a/b")).not.toBe(labelFileName("a?b"));
  });
});
