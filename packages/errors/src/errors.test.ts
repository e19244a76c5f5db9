import { describe, expect, it } from "vitest";
import { EXIT, EXIT_STATUS_TABLE, InputError, ModelError, OutputError, UsageError, WinnowError, systemReason } from "./index.js";

describe("error kinds", () => {
  it("carry the exit status of their kind and a message naming where", () => {
    const cases: Array<[WinnowError, number]> = [
      [new UsageError("--workers must be at least 1", "--workers 0"), EXIT.usage],
      [new InputError("cannot open input: no such file or directory", "a.warc"), EXIT.input],
      [new ModelError("not a winnow model", "m.onnx"), EXIT.usage],
      [new OutputError("cannot create output: permission denied", "/out.jsonl"), EXIT.output],
    ];
    for (const [error, code] of cases) {
      expect(error).toBeInstanceOf(WinnowError);
      expect(error.exitCode).toBe(code);
      expect(error.message).toBe(`${error.what} (${error.where})`);
    }
    expect(new UsageError("just this").message).toBe("just this");
  });

  it("list every exit status once in the table --help prints", () => {
    expect(EXIT_STATUS_TABLE.map(([code]) => code).sort((a, b) => a - b)).toEqual(Object.values(EXIT).sort((a, b) => a - b));
  });

  it("say system errors in words", () => {
    expect(systemReason(Object.assign(new Error("x"), { code: "ENOSPC" }))).toBe("no space left on device");
    expect(systemReason(new Error("something else"))).toBe("something else");
  });
});

describe("the documented table", () => {
  it("is the table --help prints, row for row (docs/exit-codes.md)", async () => {
    const { readFileSync } = await import("node:fs");
    const doc = readFileSync(new URL("../../../docs/exit-codes.md", import.meta.url), "utf8");
    const rows = doc.split("\n").filter((line) => /^\| \d+ /.test(line));
    expect(
      rows.map((line) =>
        line
          .split("|")
          .map((cell) => cell.trim())
          .slice(1, 3),
      ),
    ).toEqual(EXIT_STATUS_TABLE.map(([code, meaning]) => [String(code), meaning]));
  });
});
