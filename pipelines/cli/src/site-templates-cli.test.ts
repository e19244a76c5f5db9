// `winnow clean --site-templates` flags: what they pass on, and one clear line for a mistake.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWinnow, stderrMessages } from "../test/run-winnow.js";

const WARC = fileURLToPath(new URL("../../../fixtures/warc/example.warc.gz", import.meta.url));
const STACK_FRAME = /^\s+at /m;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-cli-site-templates-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("winnow clean --site-templates", () => {
  it("runs both passes in performance mode and says so in the summary line", async () => {
    const r = await runWinnow(
      [
        "clean",
        WARC,
        "-o",
        "out.jsonl",
        "--model",
        "heuristic",
        "--workers",
        "0",
        "--site-templates",
        "--site-templates-mode",
        "performance",
        "--template-min-pairs",
        "2",
      ],
      dir,
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/site templates \(performance\): \d+ hosts? with one, pass one [\d.]+ s/);
    expect(readFileSync(join(dir, "out.jsonl"), "utf8").length).toBeGreaterThan(0);
  });

  it.each([
    [["--near-duplicate-iou", "0"], "expected a number above 0 and at most 1"],
    [["--template-keep-score", "-1"], "expected a number >= 0"],
    [["--site-templates-mode", "fast"], "Allowed choices are memory, performance"],
  ])("refuses %j with one line and exit status 2", async (flags, why) => {
    const r = await runWinnow(["clean", WARC, "-o", "bad.jsonl", "--workers", "0", ...flags], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(why);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });

  it("takes no value, so it may stand before the inputs: --site-templates crawl/ -o x (#25)", async () => {
    const r = await runWinnow(["clean", "--site-templates", WARC, "-o", "before.jsonl", "--model", "heuristic", "--workers", "0"], dir);
    expect(r.code).toBe(0);
    expect(stderrMessages(r.stderr).at(-1)).toMatch(/site templates \(memory\): \d+ hosts? with one/);
    expect(readFileSync(join(dir, "before.jsonl"), "utf8").length).toBeGreaterThan(0);
  });

  it("refuses standard input with one line", async () => {
    const r = await runWinnow(["clean", "-", "-o", "stdin.jsonl", "--workers", "0", "--site-templates"], dir, (child) =>
      child.stdin?.end(),
    );
    // A usage error: the flags cannot go together, whatever the input holds.
    expect(r.code).toBe(2);
    expect(stderrMessages(r.stderr).join("\n")).toBe("winnow: site templates read the inputs twice, so standard input cannot be one (-)");
  });
});
