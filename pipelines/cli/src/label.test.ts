// winnow label, train --labels, eval --labels/--seeds and train --per-host as users run them (build first: `npx tsc -b`).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWinnow, type WinnowResult, stderrMessages } from "../test/run-winnow.js";

const SAMPLE = fileURLToPath(new URL("../../../fixtures/wcxb-sample", import.meta.url));
const WARC = fileURLToPath(new URL("../../../fixtures/warc/example.warc.gz", import.meta.url));
const QUICK = ["--epochs", "2", "--hidden", "6", "--ensemble", "1"];

function winnow(args: string[]): Promise<WinnowResult> {
  return runWinnow(args, dir);
}
const plainLines = (stderr: string): string[] => stderrMessages(stderr, 50);
let dir: string;
let html: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-label-cli-"));
  html = join(dir, "html");
  mkdirSync(html);
  for (const name of readdirSync(join(SAMPLE, "html")).slice(0, 6)) {
    writeFileSync(join(html, name.replace(/\.gz$/, "")), gunzipSync(readFileSync(join(SAMPLE, "html", name))));
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("winnow label and train --labels", () => {
  it("labels a folder of plain HTML from heuristic seeds and trains on those labels", async () => {
    const label = await winnow(["label", "--data", html, "-o", "labels", "--seeds", "heuristic"]);
    expect(label.code).toBe(0);
    expect(label.stdout).toMatch(/^labelled 6 of 6 pages .* wrote 6 label files to labels/);
    expect(label.stdout).not.toMatch(/alignment/); // no gold text, nothing to check against
    expect(readdirSync(join(dir, "labels")).filter((n) => n.endsWith(".labels.json"))).toHaveLength(6);

    rmSync(join(dir, "labels", readdirSync(join(dir, "labels"))[0]));
    const train = await winnow(["train", "--data", html, "--labels", "labels", "-o", "m.onnx", ...QUICK]);
    expect(train.code).toBe(0);
    expect(train.stdout).toMatch(/labels from labels; 1 pages without a label file skipped/);
    expect(existsSync(join(dir, "m.onnx"))).toBe(true);
  });

  it("reads what clean reads: a folder of .html.gz files and a WARC archive (#25)", async () => {
    const gz = join(dir, "html-gz");
    mkdirSync(gz);
    for (const name of readdirSync(join(SAMPLE, "html")).slice(0, 3))
      writeFileSync(join(gz, name), readFileSync(join(SAMPLE, "html", name)));
    const label = await winnow(["label", "--data", gz, "-o", "gz-labels", "--seeds", "heuristic"]);
    expect(label.code).toBe(0);
    expect(label.stdout).toMatch(/^labelled 3 of 3 pages .* wrote 3 label files to gz-labels/);
    const archive = await winnow(["label", "--data", WARC, "-o", "warc-labels", "--seeds", "heuristic"]);
    expect(archive.code).toBe(0);
    expect(archive.stdout).toMatch(/^labelled 1 of 1 pages /);
    const [file] = readdirSync(join(dir, "warc-labels")).filter((n) => n.endsWith(".labels.json"));
    expect(JSON.parse(readFileSync(join(dir, "warc-labels", file), "utf8"))).toMatchObject({ url: "http://example.com/" });
  });

  it("refuses labels made for other blocks in one line naming the page, and --seeds without --folds", async () => {
    const label = await winnow(["label", "--data", SAMPLE, "-o", "sample-labels", "--seeds", "reveal:0.3", "--limit", "2"]);
    expect(label.stdout).toMatch(/against the alignment labels of 2 pages with gold text: accuracy/);
    const file = join(dir, "sample-labels", readdirSync(join(dir, "sample-labels"))[0]);
    const stored = JSON.parse(readFileSync(file, "utf8")) as { id: string; fingerprint: string };
    writeFileSync(file, JSON.stringify({ ...stored, fingerprint: "0123456789abcdef" }));
    const train = await winnow(["train", "--data", SAMPLE, "--labels", "sample-labels", "-o", "x.onnx", ...QUICK]);
    expect(train.code).toBe(2);
    expect(plainLines(train.stderr)).toEqual([
      `winnow: labels of page ${stored.id} were made for different block texts (the page or winnow's segmenter changed); relabel it`,
    ]);

    const evaluate = await winnow(["eval", "--data", SAMPLE, "--seeds", "heuristic"]);
    expect(evaluate.code).toBe(2);
    expect(plainLines(evaluate.stderr)).toEqual(["winnow: --labels and --seeds train models, so they need --folds K or --loso"]);
    const same = await winnow(["label", "--data", SAMPLE, "-o", "sample-labels", "--seeds", "hand:sample-labels"]);
    expect(same.code).toBe(2);
  });

  it("cross-validates on propagated labels, naming the label source", async () => {
    const r = await winnow(["eval", "--data", SAMPLE, "--folds", "2", "--seeds", "snippets", ...QUICK]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^mlp on snippets +\d\.\d{3}/m);
  });
});

describe("winnow train --per-host", () => {
  it("writes a general model and models.json, and winnow clean --models uses the folder", async () => {
    const r = await winnow(["train", "--data", SAMPLE, "--per-host", "--min-pages", "4", "-o", "models", ...QUICK]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^general: general\.onnx, 14 pages/m);
    expect(JSON.parse(readFileSync(join(dir, "models", "models.json"), "utf8"))).toEqual({ general: "general.onnx", hosts: {} });
    const clean = await winnow(["clean", html, "-o", "out.jsonl", "--models", "models", "--workers", "0"]);
    expect(clean.code).toBe(0);
    expect(readFileSync(join(dir, "out.jsonl"), "utf8").trim().split("\n").length).toBeGreaterThan(0);
    const both = await winnow(["clean", html, "-o", "out.jsonl", "--models", "models", "--model", "heuristic"]);
    expect(both.code).toBe(2);
  });
});
