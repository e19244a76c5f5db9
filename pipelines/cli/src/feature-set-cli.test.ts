// The experimental structure feature set end to end: a model trained on it records it, and clean
// scores with it in worker threads (which look the set up by the name in the model file).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWinnow } from "../test/run-winnow.js";

const WCXB = fileURLToPath(new URL("../../../fixtures/wcxb-sample", import.meta.url));
const QUICK = ["--epochs", "2", "--hidden", "8", "--ensemble", "1"];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-feature-set-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("--feature-set texrex37+ext+ctx+struct", () => {
  it("trains a model that reads the 146 values, and clean scores pages with it", async () => {
    const model = join(dir, "struct.onnx");
    const trained = await runWinnow(["train", "--data", WCXB, "-o", model, "--feature-set", "texrex37+ext+ctx+struct", ...QUICK], dir);
    expect(trained.stderr).not.toMatch(/internal error/);
    expect(trained.code).toBe(0);
    expect(trained.stdout + trained.stderr).toMatch(/mlp on texrex37\+ext\+ctx\+struct v1/);
    const out = join(dir, "out.jsonl");
    const cleaned = await runWinnow(
      ["clean", "../../fixtures/sample.warc.gz", "-o", out, "--model", model, "--workers", "1"],
      fileURLToPath(new URL("../", import.meta.url)),
    );
    expect(cleaned.stderr).not.toMatch(/internal error/);
    expect(cleaned.code).toBe(0);
    const docs = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { text: string; blocks_kept: number; blocks_total: number });
    expect(docs.length).toBeGreaterThan(0);
    // Scored, not passed through: some pages keep part of their blocks and some text.
    expect(docs.some((d) => d.blocks_kept > 0 && d.blocks_kept < d.blocks_total)).toBe(true);
    expect(docs.some((d) => d.text.length > 200)).toBe(true);
  }, 120_000);
});
