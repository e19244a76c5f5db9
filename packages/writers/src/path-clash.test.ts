// No output over an input, nor over another output (path-clash.ts), and inputs told apart by
// identity (path-identity.ts), on files, folders and links made here, and on the file behind
// standard output of a child process.
import { spawnSync } from "node:child_process";
import { closeSync, linkSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UsageError } from "@winnow/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunPaths, refuseOutputsOverInputs } from "./path-clash.js";
import { distinctFiles } from "./path-identity.js";

const CLASH_MODULE = new URL("../dist/path-clash.js", import.meta.url).href;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-path-clash-"));
  mkdirSync(join(dir, "in"));
  writeFileSync(join(dir, "in", "a.warc"), "WARC/1.0 input bytes");
  writeFileSync(join(dir, "in", "en.jsonl"), "an input named like a language file");
  symlinkSync("in", join(dir, "in-link"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (...parts: string[]): string => join(dir, ...parts);
const inputs = () => [at("in"), at("in", "a.warc"), at("in", "en.jsonl")].map((path) => ({ path, flag: "input" }));

describe("RunPaths", () => {
  it("refuses an output that is an input reached through a linked folder or ..", async () => {
    await expect(refuseOutputsOverInputs([{ path: at("in-link", "a.warc"), flag: "-o" }], inputs())).rejects.toThrow(
      `-o ${at("in-link", "a.warc")} is also an input (input ${at("in", "a.warc")}): writing it would destroy the input`,
    );
    await expect(refuseOutputsOverInputs([{ path: at("in", "..", "in-link", "a.warc"), flag: "--rejects" }], inputs())).rejects.toThrow(
      UsageError,
    );
    // A folder given through a link is the input folder.
    await expect(new RunPaths(inputs()).claim({ path: at("in-link"), flag: "-o" }, { folder: true })).rejects.toThrow(/is also an input/);
  });

  it("refuses a folder written as a whole that holds an input", async () => {
    const paths = new RunPaths([{ path: at("in", "a.warc"), flag: "input" }]);
    await expect(paths.claim({ path: at("in-link"), flag: "-o" }, { folder: true })).rejects.toThrow(
      `-o ${at("in-link")} is also an input (input ${at("in", "a.warc")})`,
    );
  });

  it("refuses two outputs that are one file: there already, or still to be created", async () => {
    writeFileSync(at("out.jsonl"), "earlier output");
    symlinkSync("out.jsonl", at("out-link.jsonl"));
    const there = new RunPaths(inputs());
    await there.claim({ path: at("out.jsonl"), flag: "-o" });
    await expect(there.claim({ path: at("out-link.jsonl"), flag: "--rejects" })).rejects.toThrow(
      `--rejects ${at("out-link.jsonl")} is the same file as -o ${at("out.jsonl")}: one output would overwrite the other`,
    );
    const created = new RunPaths(inputs());
    await created.claim({ path: at("new", "x.jsonl"), flag: "-o" });
    await expect(created.claim({ path: at("new", "..", "new", "x.jsonl"), flag: "--manifest" })).rejects.toThrow(UsageError);
    await created.claim({ path: at("new", "y.jsonl"), flag: "--rejects" });
    // Devices replace nothing: two outputs may both be /dev/null.
    await created.claim({ path: "/dev/null", flag: "-o" });
    await created.claim({ path: "/dev/null", flag: "--rejects" });
  });

  it("refuses up front a template any of whose expansions is an input or another output", async () => {
    await expect(new RunPaths(inputs()).claimTemplate({ path: at("in-link", "{lang}.jsonl"), flag: "-o" })).rejects.toThrow(
      `-o ${at("in-link", "{lang}.jsonl")} is also an input (input ${at("in", "en.jsonl")})`,
    );
    const paths = new RunPaths(inputs());
    await paths.claimTemplate({ path: at("by-lang", "{lang}", "part.jsonl"), flag: "-o" });
    await expect(paths.claim({ path: at("by-lang", "de", "part.jsonl"), flag: "--rejects" })).rejects.toThrow(
      /--rejects .*by-lang\/de\/part\.jsonl is the same file as -o .*\{lang\}\/part\.jsonl/,
    );
    const rejectsFirst = new RunPaths(inputs());
    await rejectsFirst.claim({ path: at("by-lang", "und", "part.jsonl"), flag: "--rejects" });
    await expect(rejectsFirst.claimTemplate({ path: at("by-lang", "{lang}", "part.jsonl"), flag: "-o" })).rejects.toThrow(UsageError);
  });

  it("refuses an expansion that a link inside the tree turns into an input or another expansion", async () => {
    mkdirSync(at("tree", "en"), { recursive: true });
    symlinkSync(at("in"), at("tree", "de"));
    symlinkSync("en", at("tree", "fr"));
    writeFileSync(at("in", "part.jsonl"), "an input where de/part.jsonl leads");
    const template = { path: at("tree", "{lang}", "part.jsonl"), flag: "-o" };
    const paths = new RunPaths([...inputs(), { path: at("in", "part.jsonl"), flag: "input" }]);
    await paths.claimTemplate(template);
    // Named by an equal object, as a caller rebuilds it: the template's own files never clash with it.
    await paths.claimExpansion({ ...template }, at("tree", "en", "part.jsonl"));
    await expect(paths.claimExpansion(template, at("tree", "fr", "part.jsonl"))).rejects.toThrow(/is the same file as/);
    await expect(paths.claimExpansion(template, at("tree", "de", "part.jsonl"))).rejects.toThrow(
      `-o ${at("tree", "de", "part.jsonl")} is also an input (input ${at("in", "part.jsonl")})`,
    );
  });

  it("compares standard output by the file behind descriptor 1, and leaves that file as it was", () => {
    const input = at("in", "a.warc");
    const before = readFileSync(input);
    const code = `
      const { refuseOutputsOverInputs } = await import(${JSON.stringify(CLASH_MODULE)});
      await refuseOutputsOverInputs([{ path: "-", flag: "-o" }], [{ path: ${JSON.stringify(input)}, flag: "input" }])
        .then(() => process.stderr.write("allowed"), (error) => process.stderr.write(error.message));`;
    // As `node ... >> in/a.warc`: standard output appends to the input.
    const fd = openSync(input, "a");
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", code], { stdio: ["ignore", fd, "pipe"] });
    closeSync(fd);
    expect(child.stderr.toString()).toBe(`-o - is also an input (input ${input}): writing it would destroy the input`);
    expect(readFileSync(input)).toEqual(before);
    // Standard output elsewhere is no clash.
    const other = openSync(at("stdout.log"), "w");
    const fine = spawnSync(process.execPath, ["--input-type=module", "-e", code], { stdio: ["ignore", other, "pipe"] });
    closeSync(other);
    expect(fine.stderr.toString()).toBe("allowed");
  });
});

describe("distinctFiles", () => {
  it("keeps a file named twice (directly, through a linked folder, by a hard link) once, the first time", async () => {
    linkSync(at("in", "a.warc"), at("hard.warc"));
    const named = [at("in", "a.warc"), at("in-link", "a.warc"), at("hard.warc"), at("in", "en.jsonl"), "-", "https://example.com/x.warc"];
    const { kept, dropped } = await distinctFiles(named);
    expect(kept).toEqual([at("in", "a.warc"), at("in", "en.jsonl"), "-", "https://example.com/x.warc"]);
    expect(dropped).toEqual([
      { path: at("in-link", "a.warc"), same: at("in", "a.warc") },
      { path: at("hard.warc"), same: at("in", "a.warc") },
    ]);
  });
});
