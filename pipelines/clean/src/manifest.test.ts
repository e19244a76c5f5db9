import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkParts, ManifestLog, readManifest, ResumeProblem } from "./manifest.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-manifest-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const input = (run: string, path: string, complete: boolean, records: number, part = "out.jsonl"): string =>
  JSON.stringify({ run, type: "input", part, path, size: 10, mtimeMs: 5, complete, records, documents: records });
const part = (run: string, number: number, name: string, bytes: number): string =>
  JSON.stringify({ run, type: "part", part: name, number, bytes, documents: 1, interrupted: true });

describe("readManifest", () => {
  it("is null when there is no manifest", async () => {
    expect(await readManifest(join(dir, "none.manifest"))).toBeNull();
  });

  it("counts committed runs only, takes the furthest record reached, and passes over a torn last line", async () => {
    const path = join(dir, "m.manifest");
    writeFileSync(
      path,
      [
        input("r1", "/in/a", true, 30),
        input("r1", "/in/b", false, 7),
        part("r1", 1, "out.jsonl", 100),
        input("r2", "/in/b", false, 19, "out.part2.jsonl"),
        part("r2", 2, "out.part2.jsonl", 50),
        // r3 crashed: its lines count for nothing, and its part number is free again.
        input("r3", "/in/b", true, 25, "out.part3.jsonl"),
        input("r3", "/in/c", true, 4, "out.part3.jsonl"),
        '{"run":"r3","type":"pa',
      ].join("\n"),
    );
    const state = await readManifest(path);
    expect(state?.nextPart).toBe(3);
    expect(Object.fromEntries(state?.inputs ?? [])).toEqual({
      "/in/a": { complete: true, records: 30, size: 10, mtimeMs: 5 },
      "/in/b": { complete: false, records: 19, size: 10, mtimeMs: 5 },
    });
  });
});

describe("checkParts", () => {
  it("accepts parts as written and refuses one missing or changed", async () => {
    const output = join(dir, "out.jsonl");
    writeFileSync(output, "x".repeat(100));
    const path = join(dir, "parts.manifest");
    writeFileSync(path, `${part("r1", 1, "out.jsonl", 100)}\n`);
    const state = (await readManifest(path))!;
    await expect(checkParts(state, output)).resolves.toBeUndefined();
    writeFileSync(output, "y");
    await expect(checkParts(state, output)).rejects.toThrow(
      new ResumeProblem(
        `${output} is not the file an earlier run wrote (1 bytes, not 100); --overwrite starts the run again from the beginning`,
      ),
    );
    rmSync(output);
    await expect(checkParts(state, output)).rejects.toThrow(`${output}, written by an earlier run, is missing`);
  });
});

describe("ManifestLog", () => {
  it("appends whole lines tagged with its run, in order, and adds to what is there", async () => {
    const path = join(dir, "log.manifest");
    writeFileSync(path, "earlier line\n");
    const log = await ManifestLog.open(path);
    void log.append({ type: "input", part: "p", path: "/a", size: 1, mtimeMs: 2, complete: true, records: 3, documents: 3 });
    void log.append({ type: "part", part: "p", number: 1, bytes: 9, documents: 3, interrupted: false });
    await log.close();
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines[0]).toBe("earlier line");
    expect(JSON.parse(lines[1])).toMatchObject({ run: log.run, type: "input", path: "/a" });
    expect(JSON.parse(lines[2])).toMatchObject({ run: log.run, type: "part", bytes: 9 });
    expect(lines[3]).toBe("");
  });
});
