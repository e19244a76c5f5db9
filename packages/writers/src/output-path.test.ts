// The rules for every path winnow writes (output-path.ts), on real files, FIFOs and links made here.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BrokenPipeError, OutputError, UsageError } from "@winnow/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifyOutput, type OutputRole, prepareOutput, removeStaleTempFiles, writeFailure, writeOutputFile } from "./output-path.js";
import { refuseOutputsOverInputs } from "./path-clash.js";

const ROLE: OutputRole = { what: "report", flag: "-o" };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-output-path-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (...parts: string[]): string => join(dir, ...parts);

describe("classifyOutput", () => {
  it("says how each kind of path is written", async () => {
    writeFileSync(at("regular"), "x");
    symlinkSync("regular", at("link"));
    symlinkSync(join("later", "made"), at("dangling"));
    execFileSync("mkfifo", [at("fifo")]);
    mkdirSync(at("folder"));
    expect(await classifyOutput(at("new"), ROLE)).toMatchObject({ kind: "file", file: at("new") });
    expect(await classifyOutput(at("regular"), ROLE)).toMatchObject({ kind: "file", file: at("regular") });
    expect(await classifyOutput(at("link"), ROLE)).toMatchObject({ kind: "file", path: at("link"), file: at("regular") });
    expect(await classifyOutput(at("dangling"), ROLE)).toMatchObject({ kind: "file", file: at("later", "made") });
    expect(await classifyOutput(at("fifo"), ROLE)).toMatchObject({ kind: "stream", flags: "w" });
    expect(await classifyOutput(at("folder"), ROLE)).toMatchObject({ kind: "directory" });
    expect(await classifyOutput("-", { ...ROLE, stdout: true })).toMatchObject({ kind: "stdout" });
    await expect(classifyOutput("-", ROLE)).rejects.toThrow(new UsageError('-o cannot be standard output ("-") here', "-o -"));
  });

  it.skipIf(!existsSync("/proc/self/fd") && process.env.CI !== "true")(
    "writes this process's descriptors as they are, never reopening them",
    async () => {
      symlinkSync("/proc/self/fd/1", at("fd1"));
      expect(await classifyOutput(at("fd1"), ROLE)).toMatchObject({ kind: "stdout" });
      expect(await classifyOutput("/dev/stderr", ROLE)).toMatchObject({ kind: "stream", fd: 2 });
    },
  );

  it("reports a file in the way of the folders, naming the path", async () => {
    writeFileSync(at("blocker"), "x");
    await expect(prepareOutput(at("blocker", "deep", "out.html"), ROLE)).rejects.toThrow(
      new OutputError("cannot create report: a path component is not a directory", at("blocker", "deep", "out.html")),
    );
    await expect(prepareOutput(at("made", "deep", "out.html"), ROLE)).resolves.toMatchObject({ kind: "file" });
    expect(lstatSync(at("made", "deep")).isDirectory()).toBe(true);
  });
});

describe("writeOutputFile", () => {
  it("replaces a link's target, not the link, and leaves no temporary file", async () => {
    writeFileSync(at("w-target"), "old");
    symlinkSync("w-target", at("w-link"));
    await writeOutputFile(at("w-link"), "new", ROLE);
    expect(lstatSync(at("w-link")).isSymbolicLink()).toBe(true);
    expect(readFileSync(at("w-target"), "utf8")).toBe("new");
    expect(readdirSync(dir).filter((name) => name.startsWith(".w-target.tmp-"))).toEqual([]);
  });

  it("writes into a FIFO and leaves it a FIFO", async () => {
    execFileSync("mkfifo", [at("w-fifo")]);
    // A reader of its own, stopped if no writer comes.
    const reader = spawn("cat", [at("w-fifo")], { stdio: ["ignore", "pipe", "ignore"] });
    let read = "";
    reader.stdout.on("data", (d: Buffer) => (read += d));
    const timer = setTimeout(() => reader.kill(), 10_000);
    const ended = new Promise((resolve) => reader.on("close", resolve));
    await writeOutputFile(at("w-fifo"), "through the pipe", ROLE);
    await ended;
    clearTimeout(timer);
    expect(read).toBe("through the pipe");
    expect(lstatSync(at("w-fifo")).isFIFO()).toBe(true);
  });
});

describe("removeStaleTempFiles", () => {
  it("removes temporary files of processes that are gone, and no others", async () => {
    const dead = spawnSync(process.execPath, ["-e", ""]).pid as number;
    const names = [
      `.t.jsonl.tmp-${dead}`,
      `.t.jsonl.tmp-${dead}-3`,
      `.t.jsonl.tmp-${process.pid}`,
      `.t.jsonl.tmp-${process.pid}-1`,
      `.t.jsonl.tmp-${process.ppid}`,
      `.other.jsonl.tmp-${dead}`,
      "t.jsonl",
    ];
    for (const name of names) writeFileSync(at(name), "x");
    expect((await removeStaleTempFiles(at("t.jsonl"))).sort()).toEqual([at(`.t.jsonl.tmp-${dead}`), at(`.t.jsonl.tmp-${dead}-3`)]);
    expect(names.filter((name) => existsSync(at(name)))).toEqual(names.slice(2));
  });
});

describe("refuseOutputsOverInputs", () => {
  it("finds an output that is an input by real path or by device and inode, naming both", async () => {
    mkdirSync(at("in"));
    writeFileSync(at("in", "a.warc"), "WARC/1.0");
    linkSync(at("in", "a.warc"), at("hard.jsonl"));
    symlinkSync(join("in", "a.warc"), at("soft.jsonl"));
    const inputs = [at("in"), at("in", "a.warc")].map((path) => ({ path, flag: "input" }));
    await expect(refuseOutputsOverInputs([{ path: at("hard.jsonl"), flag: "-o" }], inputs)).rejects.toThrow(
      `-o ${at("hard.jsonl")} is also an input (input ${at("in", "a.warc")}): writing it would destroy the input`,
    );
    await expect(refuseOutputsOverInputs([{ path: at("soft.jsonl"), flag: "--rejects" }], inputs)).rejects.toThrow(UsageError);
    await expect(refuseOutputsOverInputs([{ path: at("in"), flag: "-o" }], inputs)).rejects.toThrow(/-o .*in is also an input/);
    await expect(
      refuseOutputsOverInputs(
        [
          { path: at("new.jsonl"), flag: "-o" },
          { path: "-", flag: "-o" },
        ],
        inputs,
      ),
    ).resolves.toBeUndefined();
  });
});

describe("writeFailure", () => {
  it("is a quiet BrokenPipeError when the reader went away, an OutputError otherwise", () => {
    const epipe = writeFailure(
      "cannot write output",
      "-",
      new Error("x", { cause: Object.assign(new Error("write EPIPE"), { code: "EPIPE" }) }),
    );
    expect(epipe).toBeInstanceOf(BrokenPipeError);
    expect(epipe.exitCode).toBe(141);
    const full = writeFailure("cannot write output", "-", Object.assign(new Error("ENOSPC"), { code: "ENOSPC" }));
    expect(full).not.toBeInstanceOf(BrokenPipeError);
    expect([full.message, full.exitCode]).toEqual(["cannot write output: no space left on device (-)", 4]);
  });
});
