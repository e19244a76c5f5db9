// winnow eval's table shows only the columns the data can fill, and its --help explains each (#25).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWinnow } from "../test/run-winnow.js";

const WCXB = fileURLToPath(new URL("../../../fixtures/wcxb-sample", import.meta.url));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-eval-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const header = (stdout: string): string[] => (stdout.split("\n").find((l) => l.startsWith("method")) ?? "").trim().split(/\s+/);

describe("winnow eval", () => {
  it("shows the with and w/out snippet columns only for a set that has snippets", async () => {
    const text = "Real text here about cats and dogs, who play in the park every single day of the week.";
    writeFileSync(
      join(dir, "pages.jsonl"),
      `${JSON.stringify({ url: "https://a.example/x", html: `<html><body><nav>Home About</nav><p>${text}</p></body></html>`, text })}\n`,
    );
    const plain = await runWinnow(["eval", "--data", "pages.jsonl", "--model", "heuristic"], dir);
    expect(plain.code).toBe(0);
    expect(header(plain.stdout).slice(0, 4)).toEqual(["method", "P", "R", "F1"]);
    expect(header(plain.stdout)).not.toContain("with");
    expect(header(plain.stdout)).not.toContain("w/out");

    const wcxb = await runWinnow(["eval", "--data", WCXB, "--model", "heuristic", "--limit", "4"], dir);
    expect(wcxb.code).toBe(0);
    expect(header(wcxb.stdout).slice(0, 6)).toEqual(["method", "P", "R", "F1", "with", "w/out"]);
  });

  it("explains every column in --help", async () => {
    const help = await runWinnow(["eval", "--help"], dir);
    for (const column of ["method", "P, R, F1", "with", "w/out", "page type", "block decisions"]) expect(help.stdout).toContain(column);
  });
});
