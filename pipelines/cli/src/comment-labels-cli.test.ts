// winnow train --comment-labels: hand comment labels (label-ui's version-2 files, one folder per
// data set) decide the comment head's labels on their pages; a bad folder or a model without a
// comment head is a usage error before anything is read.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readModelInfo } from "@winnow/models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeLastBlockCommentLabel } from "../test/comment-label-fixture.js";
import { runWinnow, stderrMessages } from "../test/run-winnow.js";

const WCXB = fileURLToPath(new URL("../../../fixtures/wcxb-sample", import.meta.url));
const QUICK = ["--epochs", "2", "--hidden", "8", "--ensemble", "1"];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-comment-labels-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("winnow train --comment-labels", () => {
  it("refuses a folder that is not there, and a model kind without a comment head, as usage errors", async () => {
    const missing = join(dir, "nope");
    const r = await runWinnow(["train", "--data", WCXB, "-o", join(dir, "m.onnx"), "--comment-labels", missing], dir);
    expect(r.code).toBe(2);
    expect(stderrMessages(r.stderr)).toContain(`winnow: comment label folder not found (${missing})`);
    const b = await runWinnow(["train", "--model", "bilstm", "--data", WCXB, "-o", join(dir, "b.onnx"), "--comment-labels", dir], dir);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/--comment-labels trains the comment head of one MLP; not with --model bilstm/);
  });

  it("trains with the labels of the pages that have a file in the folder of their set, and says how many", async () => {
    const labels = await writeLastBlockCommentLabel(join(dir, "labels"), WCXB);
    const model = join(dir, "with-labels.onnx");
    const r = await runWinnow(["train", "--data", WCXB, "-o", model, "--comment-labels", labels, ...QUICK], dir);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/comment labels of 1 page from .* decide their comment-head labels/);
    const info = await readModelInfo(model);
    expect(JSON.parse(info.notes).commentLabelPages).toBe(1);
    expect(info.commentThreshold).toBeTypeOf("number");
  }, 120_000);
});
