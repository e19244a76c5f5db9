// winnow train/eval/clean --model bilstm as users run them (build first: `npx tsc -b`).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWinnow, type WinnowResult, stderrMessages } from "../test/run-winnow.js";

const SAMPLE = fileURLToPath(new URL("../../../fixtures/wcxb-sample", import.meta.url));
const SAMPLE_WARC = fileURLToPath(new URL("../../../fixtures/sample.warc.gz", import.meta.url));
const QUICK = ["--epochs", "2", "--hidden", "6"];

function winnow(args: string[]): Promise<WinnowResult> {
  return runWinnow(args, dir);
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-bilstm-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("winnow with a BiLSTM", () => {
  it("trains one, then cleans an archive with the file it wrote", async () => {
    const train = await winnow([
      "train",
      "--model",
      "bilstm",
      "--data",
      SAMPLE,
      "-o",
      "b.onnx",
      ...QUICK,
      "--ensemble",
      "1",
      "--input",
      "tags-words",
      "--skip",
      "--averaging",
      "0.9",
    ]);
    expect(train.code).toBe(0);
    expect(train.stdout).toMatch(
      /^wrote b\.onnx: bilstm \(tags-words, 1 x 6 units, skip path\), threshold 0\.\d\d \(favor precision 0\.\d\d, recall 0\.\d\d\) \(validation F1 0\.\d+ on \d+ held-out pages at epoch [12]; trained on \d+ pages/,
    );

    const clean = await winnow(["clean", SAMPLE_WARC, "-o", "out.jsonl", "--model", "b.onnx", "--workers", "1"]);
    expect(clean.code).toBe(0);
    const docs = readFileSync(join(dir, "out.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { text: string; blocks_total: number });
    expect(docs.length).toBe(14);
    expect(docs.every((d) => d.blocks_total > 0)).toBe(true);
  });

  it("runs the shipped BiLSTM by name: it keeps text and drops blocks on every page", async () => {
    const clean = await winnow(["clean", SAMPLE_WARC, "-o", "shipped.jsonl", "--model", "bilstm", "--workers", "0"]);
    expect(clean.code).toBe(0);
    expect(clean.stderr.trim().split("\n").at(-1)).toMatch(/model bilstm/);
    const docs = readFileSync(join(dir, "shipped.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { blocks_kept: number; blocks_total: number });
    expect(docs).toHaveLength(14);
    for (const d of docs) expect(d.blocks_kept).toBeGreaterThan(0);
    expect(docs.filter((d) => d.blocks_kept < d.blocks_total).length).toBeGreaterThanOrEqual(12);
  });

  it("cross-validates the default ensemble by domain with eval --model bilstm --folds", async () => {
    const r = await winnow(["eval", "--data", SAMPLE, "--model", "bilstm", "--folds", "2", "--epochs", "1", "--hidden", "4"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/cross-validated, 2 domain folds/);
    expect(r.stdout).toMatch(/^bilstm tags-words-features\s+0\.\d{3}/m);
    expect(r.stdout).toMatch(/^all text\s+0\.\d{3}/m);
  });

  it("trains an ensemble with --ensemble, one file that cleans like any model", async () => {
    const train = await winnow(["train", "--model", "bilstm", "--data", SAMPLE, "-o", "e.onnx", ...QUICK, "--ensemble", "2"]);
    expect(train.code).toBe(0);
    expect(train.stdout).toMatch(
      /^wrote e\.onnx: bilstm ×2 \(tags-words-features, 1 x 6 units\), threshold 0\.\d\d \(favor precision 0\.\d\d, recall 0\.\d\d\) \(validation F1 0\.\d+ on \d+ held-out pages at epochs [12], [12];/,
    );
    expect(train.stderr).toMatch(/member 2, epoch 2: loss/);
    const clean = await winnow(["clean", SAMPLE_WARC, "-o", "e.jsonl", "--model", "e.onnx", "--workers", "0"]);
    expect(clean.code).toBe(0);
    expect(readFileSync(join(dir, "e.jsonl"), "utf8").trim().split("\n")).toHaveLength(14);
  });

  it("refuses the other model's flags instead of ignoring them", async () => {
    const r = await winnow(["train", "--model", "bilstm", "--data", SAMPLE, "-o", "x.onnx", "--optimizer", "rprop"]);
    expect(r.code).toBe(2);
    expect(stderrMessages(r.stderr, 50)).toEqual(["winnow: --optimizer applies to the MLP only, not to --model bilstm"]);
    const e = await winnow(["eval", "--data", SAMPLE, "--folds", "2", "--input", "tags-words"]);
    expect(e.code).toBe(2);
    expect(stderrMessages(e.stderr).join("\n")).toMatch(/winnow: --input applies to the BiLSTM only, not to --model mlp/);
    const f = await winnow(["train", "--data", SAMPLE, "-o", "y.onnx", "--skip", "--averaging", "0.9"]);
    expect(f.code).toBe(2);
    expect(stderrMessages(f.stderr).join("\n")).toMatch(/winnow: --skip applies to the BiLSTM only, not to --model mlp/);
    expect(f.stderr).toMatch(/--averaging applies to the BiLSTM only/);
  });

  it("refuses other kinds with --folds, in one line", async () => {
    const r = await winnow(["eval", "--data", SAMPLE, "--model", "heuristic", "--folds", "2"]);
    expect(r.code).toBe(2);
    expect(stderrMessages(r.stderr, 50)).toEqual(['winnow: with --folds or --loso, --model must be mlp or bilstm, not "heuristic"']);
  });
});
