import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  blockFingerprint,
  commentLabels,
  contentLabel,
  labelFileName,
  labelMismatch,
  makeLabelFile,
  parseLabelFile,
  readLabelDir,
  writeLabelFile,
} from "./format.js";

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

describe("comment labels (version 2)", () => {
  it("reads a version-1 file as written before comments existed, byte for byte the same labels", async () => {
    const dir = mkdtempSync(join(tmpdir(), "labels-"));
    // As winnow wrote it before version 2, typed out rather than made by this build's writer.
    const v1 = `{"format":"winnow-block-labels","version":1,"id":"p1","url":"https://example.com/","source":"hand","blocks":3,"fingerprint":"${blockFingerprint(page.blockTexts)}","labels":[0,1,null]}\n`;
    writeFileSync(join(dir, "p1.labels.json"), v1);
    const file = (await readLabelDir(dir)).get("p1")!;
    expect(file.version).toBe(1);
    expect(file.labels).toEqual([0, 1, null]);
    expect(commentLabels(file)).toBeUndefined();
    expect(file.labels.map(contentLabel)).toEqual([0, 1, null]);
  });

  it("writes version 1 when nothing is said about comments, as winnow label always did", () => {
    expect(makeLabelFile(page, [0, 1, null], "propagated").version).toBe(1);
  });

  it("writes version 2 for a comment label, or when the labeller looked for comments and found none", async () => {
    const withComment = makeLabelFile(page, [0, 1, "comment"], "hand");
    expect(withComment).toMatchObject({ version: 2, labels: [0, 1, "comment"] });
    expect(commentLabels(withComment)).toEqual([0, 0, 1]);
    expect(withComment.labels.map(contentLabel)).toEqual([0, 1, 0]);
    const none = makeLabelFile(page, [0, 1, null], "hand", { commentsLabelled: true });
    expect(none.version).toBe(2);
    expect(commentLabels(none)).toEqual([0, 0, null]);
    const dir = mkdtempSync(join(tmpdir(), "labels-"));
    await writeLabelFile(dir, withComment);
    expect((await readLabelDir(dir)).get(page.id)).toEqual(withComment);
  });

  it("refuses a comment in a version-1 file and any other value, naming the file", async () => {
    const v2 = makeLabelFile(page, [0, 1, "comment"], "hand");
    expect(() => parseLabelFile({ ...v2, version: 1 }, "old.json")).toThrow(/old.json: labels\[2\] is "comment", which needs "version": 2/);
    expect(() => parseLabelFile({ ...v2, labels: [0, "Comment", 1] }, "x.json")).toThrow(
      /x.json: labels\[1\] is "Comment"; expected 1, 0, null or "comment"/,
    );
    expect(() => parseLabelFile({ ...v2, version: 3 }, "x.json")).toThrow(/x.json: unsupported version 3 \(this winnow reads 1 and 2\)/);
    const dir = mkdtempSync(join(tmpdir(), "labels-"));
    writeFileSync(join(dir, "bad.labels.json"), JSON.stringify({ ...v2, labels: [0, 2, 1] }));
    await expect(readLabelDir(dir)).rejects.toThrow(/bad.labels.json: labels\[1\] is 2/);
  });
});
