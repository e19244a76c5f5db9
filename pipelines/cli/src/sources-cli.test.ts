// Several labelled sets on the command line: eval --loso and --curve, train with operating
// points and a comment head, clean --favor and --comments.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWinnow, stderrMessages } from "../test/run-winnow.js";

const WCXB = fileURLToPath(new URL("../../../fixtures/wcxb-sample", import.meta.url));
const MAGIC = fileURLToPath(new URL("../../../fixtures/magic-html-sample", import.meta.url));
const QUICK = ["--epochs", "2", "--hidden", "8", "--ensemble", "1"];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-sources-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("winnow eval with several --data sets", () => {
  it("leaves one source out and prints the figures per source, per language and the curve", async () => {
    const r = await runWinnow(["eval", "--data", WCXB, MAGIC, "--loso", "--curve", "--feature-set", "texrex37+ext+ctx", ...QUICK], dir);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/leave one source out: each source scored by a model trained on the others/);
    expect(r.stdout).toMatch(/^wcxb-sample \(14\)\s+\d\.\d{3} \d\.\d{3} \d\.\d{3}/m);
    expect(r.stdout).toMatch(/^magic-html-sample \(16\)/m);
    expect(r.stdout).toMatch(/^zh \(\d+\)/m);
    expect(r.stdout).toMatch(/<- .*balanced/);
    // Each set's own F1 at every threshold, its best marked.
    expect(r.stdout).toMatch(/then each source's F1 \(\* its best\)\n\s+P\s+R\s+F1\s+wcxb-sample\s+magic-html-sample\n/);
    expect(r.stdout.match(/^ {2}\d\.\d{3}(?: +\d\.\d{3}){3} +\d\.\d{3}[* ] +\d\.\d{3}[* ]/gm)).toHaveLength(29);
    expect(r.stdout.match(/\d\.\d{3}\*/g)?.length).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it("refuses --loso with one set, and two sets of the same name", async () => {
    const one = await runWinnow(["eval", "--data", WCXB, "--loso"], dir);
    expect([one.code, stderrMessages(one.stderr).join("\n")]).toEqual([
      2,
      "winnow: --loso leaves one source out, so it needs two or more --data sets",
    ]);
    const same = await runWinnow(["eval", "--data", WCXB, WCXB, "--folds", "2"], dir);
    expect(same.code).toBe(3);
    expect(stderrMessages(same.stderr).join("\n")).toMatch(/^winnow: two data sets are both named "wcxb-sample"/);
  });
});

describe("winnow eval --loso --held-out", () => {
  /** The figures line of a set in the per-source table (all text, then the model). */
  const sourceLine = (stdout: string, set: string): string | undefined => new RegExp(`^${set} \\(\\d+\\) .*$`, "m").exec(stdout)?.[0];

  it("scores only the named set, with the figures the full run gives it", async () => {
    const flags = ["--loso", "--feature-set", "texrex37+ext+ctx", ...QUICK];
    const full = await runWinnow(["eval", "--data", WCXB, MAGIC, ...flags], dir);
    const json = join(dir, "held-out.json");
    const one = await runWinnow(["eval", "--data", WCXB, MAGIC, ...flags, "--held-out", "magic-html-sample", "--json", json], dir);
    expect([full.code, one.code]).toEqual([0, 0]);
    // The fold that leaves magic-html-sample out is trained on the same pages either way.
    const line = sourceLine(one.stdout, "magic-html-sample");
    expect(line).toMatch(/^magic-html-sample \(16\)(?:\s+\d\.\d{3}){6}\s*$/);
    expect(line).toBe(sourceLine(full.stdout, "magic-html-sample"));
    // The other set trains that fold but is not scored, nor in the floor's line.
    expect(sourceLine(one.stdout, "wcxb-sample")).toBeUndefined();
    expect(one.stdout).toMatch(/^word-level scores over 16 pages /m);
    expect(one.stdout).toMatch(/^thresholds chosen per fold on its own validation domains: \d\.\d\d\n/m);
    const { reports } = JSON.parse(readFileSync(json, "utf8")) as { reports: Array<{ pages: Array<{ source: string }> }> };
    for (const report of reports) expect(new Set(report.pages.map((p) => p.source))).toEqual(new Set(["magic-html-sample"]));
    expect(reports[1].pages).toHaveLength(16);
  }, 120_000);

  it("refuses a name that is no --data set, and --held-out without --loso, before reading a page", async () => {
    const unknown = await runWinnow(["eval", "--data", WCXB, MAGIC, "--loso", "--held-out", "magic-html", "wcxb-sample"], dir);
    expect([unknown.code, stderrMessages(unknown.stderr).join("\n")]).toEqual([
      2,
      'winnow: --held-out: no --data set is named "magic-html" (the sets: wcxb-sample, magic-html-sample)',
    ]);
    expect(unknown.stderr).not.toMatch(/read \d+ labelled pages|at .*\.js/);
    const noLoso = await runWinnow(["eval", "--data", WCXB, MAGIC, "--held-out", "wcxb-sample"], dir);
    expect([noLoso.code, stderrMessages(noLoso.stderr).join("\n")]).toEqual([
      2,
      "winnow: --held-out names the sets --loso leaves out, so it needs --loso",
    ]);
  });
});

describe("winnow train --loso", () => {
  it("prints each set scored by a model trained on the other, and writes the operating points of those scores", async () => {
    const model = join(dir, "loso.onnx");
    const r = await runWinnow(["train", "--data", WCXB, MAGIC, "--loso", "-o", model, "--feature-set", "texrex37+ext+ctx", ...QUICK], dir);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/leave one source out: each source scored by a model trained on the others/);
    expect(r.stdout).toMatch(/^magic-html-sample \(16\)/m);
    // The threshold written is the curve's balanced point.
    const balanced = /^ {2}(\d\.\d{3}) .*<- [a-z, ]*balanced/m.exec(r.stdout)?.[1];
    expect(balanced).toBeDefined();
    expect(r.stdout).toMatch(
      new RegExp(`wrote .*loso\\.onnx: mlp on texrex37\\+ext\\+ctx v\\d+, threshold ${Number(balanced).toFixed(2)} `),
    );
  }, 120_000);

  it("leaves one source out for the BiLSTM too, whose file then takes --favor", async () => {
    const model = join(dir, "loso-bilstm.onnx");
    const r = await runWinnow(
      ["train", "--model", "bilstm", "--data", WCXB, MAGIC, "--loso", "-o", model, "--epochs", "2", "--hidden", "6", "--ensemble", "1"],
      dir,
    );
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/leave one source out: each source scored by a model trained on the others/);
    const balanced = /^ {2}(\d\.\d{3}) .*<- [a-z, ]*balanced/m.exec(r.stdout)?.[1];
    expect(balanced).toBeDefined();
    expect(r.stdout).toMatch(
      new RegExp(
        `wrote .*loso-bilstm\\.onnx: bilstm .*threshold ${Number(balanced).toFixed(2)} \\(favor precision \\d\\.\\d\\d, recall \\d\\.\\d\\d\\)`,
      ),
    );
    const clean = await runWinnow(
      [
        "clean",
        "../../fixtures/sample.warc.gz",
        "-o",
        join(dir, "bilstm-precision.jsonl"),
        "--model",
        model,
        "--favor",
        "precision",
        "--workers",
        "0",
      ],
      fileURLToPath(new URL("../", import.meta.url)),
    );
    expect([clean.code, clean.stderr]).toEqual([0, expect.not.stringMatching(/needs a model with operating points/)]);
  }, 240_000);

  it("is refused with one set and with --folds", async () => {
    const model = join(dir, "refused.onnx");
    const one = await runWinnow(["train", "--data", WCXB, "--loso", "-o", model], dir);
    expect([one.code, stderrMessages(one.stderr).join("\n")]).toEqual([
      2,
      "winnow: --loso leaves one source out, so it needs two or more --data sets",
    ]);
    const folds = await runWinnow(["train", "--data", WCXB, MAGIC, "--loso", "--folds", "3", "-o", model], dir);
    expect(folds.code).toBe(2);
    expect(stderrMessages(folds.stderr).join("\n")).toMatch(/--loso.*cannot be used with.*--folds/);
  });
});

describe("a model with operating points and a comment head", () => {
  let model: string;
  beforeAll(async () => {
    model = join(dir, "m.onnx");
    const r = await runWinnow(["train", "--data", WCXB, MAGIC, "-o", model, "--feature-set", "texrex37+ext+ctx", ...QUICK], dir);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
  }, 120_000);

  it("keeps fewer words with --favor precision than with --favor recall", async () => {
    const words: Record<string, number> = {};
    for (const favor of ["precision", "recall"]) {
      const out = join(dir, `${favor}.jsonl`);
      const r = await runWinnow(
        ["clean", "../../fixtures/sample.warc.gz", "-o", out, "--model", model, "--favor", favor, "--workers", "0"],
        fileURLToPath(new URL("../", import.meta.url)),
      );
      expect(r.code).toBe(0);
      words[favor] = readFileSync(out, "utf8")
        .trim()
        .split("\n")
        .reduce((n, line) => n + (JSON.parse(line) as { text: string }).text.split(/\s+/).length, 0);
    }
    expect(words.precision).toBeLessThanOrEqual(words.recall);
  }, 60_000);

  it("gives each document a comments field with --comments, and none without", async () => {
    for (const comments of [true, false]) {
      const out = join(dir, `comments-${comments}.jsonl`);
      const r = await runWinnow(
        ["clean", "../../fixtures/sample.warc.gz", "-o", out, "--model", model, "--workers", "1", ...(comments ? ["--comments"] : [])],
        fileURLToPath(new URL("../", import.meta.url)),
      );
      expect(r.code).toBe(0);
      const docs = readFileSync(out, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { text: string; comments?: string });
      expect(docs.length).toBeGreaterThan(0);
      for (const doc of docs) {
        expect(typeof doc.comments === "string").toBe(comments);
        // A comment is never also main text.
        if (doc.comments) for (const para of doc.comments.split("\n\n")) expect(doc.text.split("\n\n")).not.toContain(para);
      }
    }
  }, 60_000);
});
