// The winnow executable as users run it (build first: `npx tsc -b`).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, runWinnow, type WinnowResult, stderrMessages } from "../test/run-winnow.js";
import { parseByteSize, parseCount } from "./parse.js";

const WARC = fileURLToPath(new URL("../../../fixtures/warc/", import.meta.url));

function winnow(args: string[], feed?: (child: ChildProcess) => void): Promise<WinnowResult> {
  return runWinnow(args, dir, feed);
}

/** Lines of stderr that are not pino's JSON log records. */
const plainLines = (stderr: string): string[] => stderrMessages(stderr, 50);
const STACK_FRAME = /^\s+at /m;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-cli-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** This process's environment less what npm exported to it (vitest may run under npm or npx). */
function withoutNpmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== "NODE_OPTIONS"));
}

describe("a reader that stops early", () => {
  it("ends winnow quietly: no stack trace when stdout closes under --help (winnow clean --help | head)", async () => {
    const r = await winnow(["clean", "--help"], (child) => {
      child.stdin.end();
      child.stdout?.destroy();
    });
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(r.code).toBe(0);
  });

  it("stops a run whose corpus goes to that stdout quietly, with 141 as for SIGPIPE: the corpus is cut short", async () => {
    const r = await winnow(["clean", join(WARC, "..", "sample.warc.gz"), "-o", "-", "--format", "text"], (child) => {
      child.stdin.end();
      child.stdout?.destroy();
    });
    expect(plainLines(r.stderr)).toEqual([]);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(r.code).toBe(141);
  });

  it("ends `winnow clean ... -o - | head -1` quietly and soon, with 141 (#21.4)", async () => {
    // Enough documents to fill the pipe after head has gone.
    const sample = readFileSync(join(WARC, "..", "sample.warc.gz"));
    writeFileSync(join(dir, "many.warc.gz"), Buffer.concat(Array(40).fill(sample)));
    const script = `"${process.execPath}" "${BIN}" clean many.warc.gz -o - --format text --model heuristic --workers 0 --log-level warn | head -1 >/dev/null; echo "\${PIPESTATUS[0]}" >&2`;
    const r = await new Promise<{ stderr: string }>((resolve, reject) => {
      const child = spawn("bash", ["-c", script], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d));
      child.on("error", reject);
      child.on("close", () => resolve({ stderr }));
    });
    expect(r.stderr).toBe("141\n");
  });
});

describe("winnow clean", () => {
  it("cleans archives: exit 0, the output written, a one-line summary last on stderr", async () => {
    const r = await winnow([
      "clean",
      `${WARC}example.warc.gz`,
      `${WARC}example.arc`,
      "-o",
      "out.jsonl",
      "--model",
      "heuristic",
      "--workers",
      "0",
    ]);
    expect(r.code).toBe(0);
    const docs = readFileSync(join(dir, "out.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { url: string; text: string });
    expect(docs.map((d) => d.url)).toEqual(["http://example.com/", "http://example.com/"]);
    expect(docs[0].text).toContain("illustrative examples");
    expect(r.stdout).toBe("");
    // Not a terminal: every line is JSON, the summary included, with its fields (#25).
    const lines = r.stderr
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { level: number; msg: string; summary?: { documentsWritten: number } });
    expect(lines[0]).toMatchObject({ level: 30, msg: "cleaning 2 inputs with heuristic on the main thread" });
    expect(lines.at(-1)?.msg).toMatch(/^wrote 2 documents \(jsonl\) to out\.jsonl from 2 HTML records, .* skipped 6 \(6 not-response\)/);
    expect(lines.at(-1)?.summary).toMatchObject({ documentsWritten: 2, skipped: { "not-response": 6 } });
  });

  it("`npx winnow --help` prints the help and nothing else: npm's warning about the project's onnxruntime-node key is silenced by its loglevel (#25)", async () => {
    const root = fileURLToPath(new URL("../../../", import.meta.url));
    // A home of its own, so that only the project's config is read, not this machine's.
    const home = mkdtempSync(join(tmpdir(), "winnow-home-"));
    const r = spawnSync("npx", ["--offline", "winnow", "--help"], {
      cwd: root,
      env: { ...withoutNpmEnv(), HOME: home, npm_config_update_notifier: "false" },
      encoding: "utf8",
    });
    rmSync(home, { recursive: true, force: true });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: winnow /);
  });

  it("logs the summary once, at --log-level debug too, and a failure as a JSON line where the log is JSON (#25)", async () => {
    const r = await winnow([
      "clean",
      `${WARC}example.warc.gz`,
      "-o",
      "debug.jsonl",
      "--model",
      "heuristic",
      "--workers",
      "0",
      "--log-level",
      "debug",
    ]);
    expect(r.code).toBe(0);
    const records = r.stderr
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { level: number; msg: string; summary?: unknown });
    expect(records.filter((l) => l.summary !== undefined)).toHaveLength(1);
    expect(records.filter((l) => /^wrote \d+ document/.test(l.msg))).toHaveLength(1);
    writeFileSync(join(dir, "not-a-model.onnx"), "not a model");
    const failed = await winnow(["clean", `${WARC}example.warc.gz`, "-o", "f.jsonl", "--model", "not-a-model.onnx", "--workers", "0"]);
    expect(failed.code).toBe(2);
    for (const line of failed.stderr.trim().split("\n")) expect(() => JSON.parse(line), line).not.toThrow();
    expect(JSON.parse(failed.stderr.trim().split("\n").at(-1) as string)).toMatchObject({
      level: 50,
      msg: expect.stringContaining("not-a-model.onnx"),
    });
  });

  it("writes to standard output with -o -", async () => {
    const r = await winnow([
      "clean",
      `${WARC}example-iana.org-chunked.warc`,
      "-o",
      "-",
      "--format",
      "xml",
      "--model",
      "heuristic",
      "--workers",
      "0",
      "--log-level",
      "warn",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^<\?xml [^]*<doc url="http:\/\/www\.iana\.org\/"[^]*<\/corpus>\n$/);
    expect(r.stderr).toBe("");
  });

  it("exits 3 with one clear line when no input can be opened", async () => {
    const r = await winnow(["clean", "missing.warc", "-o", "out-missing.jsonl", "--model", "heuristic"]);
    expect(r.code).toBe(3);
    expect(stderrMessages(r.stderr.toString())).toEqual(["winnow: cannot open input: no such file or directory (missing.warc)"]);
    expect(existsSync(join(dir, "out-missing.jsonl"))).toBe(false);
  });

  it("exits 4 when the output cannot be created", async () => {
    // Missing folders are created, and root ignores permissions: a file in the way blocks both.
    writeFileSync(join(dir, "blocker"), "a file, not a folder");
    const r = await winnow(["clean", `${WARC}example.warc.gz`, "-o", "blocker/out.jsonl", "--model", "heuristic", "--workers", "0"]);
    expect(r.code).toBe(4);
    expect(plainLines(r.stderr)).toEqual(["winnow: cannot create output: a path component is not a directory (blocker/out.jsonl)"]);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });

  it("exits 2 with one line for a model file that cannot be used", async () => {
    writeFileSync(join(dir, "bad.onnx"), "not a model");
    const r = await winnow(["clean", `${WARC}example.warc.gz`, "-o", "out-model.jsonl", "--model", "bad.onnx", "--workers", "0"]);
    expect(r.code).toBe(2);
    const lines = plainLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^winnow: .*model.* \(bad\.onnx\)$/);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });

  it.each([
    [["--format", "pdf"], /^winnow: option '--format <format>' argument 'pdf' is invalid/],
    [["--workers", "-1"], /^winnow: option '--workers <n>' argument '-1' is invalid/],
    [["--max-page-bytes", "lots"], /^winnow: option '--max-page-bytes <n>' argument 'lots' is invalid/],
    [["--frobnicate"], /^winnow: unknown option '--frobnicate'/],
  ])("exits 2 on a bad flag: %j", async (flags, message) => {
    const r = await winnow(["clean", `${WARC}example.warc.gz`, "-o", "never.jsonl", ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(existsSync(join(dir, "never.jsonl"))).toBe(false);
  });

  it("exits 130 on SIGINT, leaving a valid output of what was read", async () => {
    const record = readFileSync(`${WARC}example-iana.org-chunked.warc`);
    const r = await winnow(["clean", "-", "-o", "interrupted.jsonl", "--model", "heuristic", "--workers", "0"], (child) => {
      child.stdin!.write(record);
      // Interrupt once the run is under way, then end the input as a dying upstream would.
      child.stderr!.on("data", (d: Buffer) => {
        if (d.toString().includes("cleaning 1 input")) {
          child.kill("SIGINT");
          setTimeout(() => child.stdin!.end(), 200);
        }
      });
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/SIGINT: stopping/);
    expect(stderrMessages(r.stderr).join("\n")).toMatch(/^winnow: interrupted: wrote \d+ documents? /m);
    const text = readFileSync(join(dir, "interrupted.jsonl"), "utf8");
    for (const line of text.split("\n").filter((l) => l !== "")) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("leaves no temporary file after any number of SIGINTs: the second quits at once and removes them (#25)", async () => {
    const sample = readFileSync(join(WARC, "..", "sample.warc.gz"));
    mkdirSync(join(dir, "sigints"));
    writeFileSync(join(dir, "sigints", "big.warc.gz"), Buffer.concat(Array(60).fill(sample)));
    const r = await winnow(
      [
        "clean",
        "sigints/big.warc.gz",
        "-o",
        "sigints/out.jsonl",
        "--rejects",
        "sigints/rejects.jsonl",
        "--model",
        "heuristic",
        "--workers",
        "0",
      ],
      (child) => {
        child.stdin?.end();
        let sent = false;
        child.stderr?.on("data", (d: Buffer) => {
          if (sent || !d.toString().includes("cleaning 1 input")) return;
          sent = true;
          // Five Ctrl-Cs, as an impatient user gives them.
          for (let i = 0; i < 5; i++) setTimeout(() => child.kill("SIGINT"), 50 + 30 * i);
        });
      },
    );
    expect(r.code).toBe(130);
    expect(readdirSync(join(dir, "sigints")).filter((name) => name.includes(".tmp-"))).toEqual([]);
    // Nor the locks of the output and the rejects (#30.5): the exit that quits at once releases them.
    expect(readdirSync(join(dir, "sigints")).filter((name) => name.endsWith(".lock"))).toEqual([]);
  });

  it("exits 2 when asked to resume what cannot be resumed", async () => {
    const r = await winnow([
      "clean",
      `${WARC}example.warc.gz`,
      "-o",
      "-",
      "--resume",
      "--manifest",
      "m.manifest",
      "--model",
      "heuristic",
      "--workers",
      "0",
    ]);
    expect(r.code).toBe(2);
    expect(plainLines(r.stderr)).toEqual([
      "winnow: cannot resume: resuming needs an output file, as each run writes a part of its own (m.manifest)",
    ]);
    expect(r.stdout).toBe("");
  });

  it("resumes: a second --resume run has nothing left to do and says so", async () => {
    const args = ["clean", `${WARC}example.warc.gz`, "-o", "resumed.jsonl", "--resume", "--model", "heuristic", "--workers", "0"];
    const first = await winnow(args);
    expect(first.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "resumed.jsonl.manifest"), "utf8").trim().split("\n").at(-1) as string)).toMatchObject({
      type: "part",
      part: "resumed.jsonl",
      documents: 1,
    });
    const second = await winnow(args);
    expect(second.code).toBe(0);
    expect(stderrMessages(second.stderr).at(-1)).toBe(
      "winnow: nothing left to do: earlier runs read all 1 input (manifest resumed.jsonl.manifest)",
    );
  });

  it("documents every flag and the exit statuses", async () => {
    const r = await winnow(["clean", "--help"]);
    expect(r.code).toBe(0);
    for (const flag of [
      "--output",
      "--format",
      "--model",
      "--workers",
      "--batch-size",
      "--max-page-bytes",
      "--rejects",
      "--unordered",
      "--resume",
      "--manifest",
      "--log-level",
      "--no-progress",
      "--paths-file",
      "--base-url",
      "--rank",
      "--world-size",
      "--per-input",
      "--compress",
      "--no-skip-done",
      "--retries",
      "--retry-delay",
      "--s3-endpoint",
    ]) {
      expect(r.stdout).toContain(flag);
    }
    expect(r.stdout).toMatch(/^One output per input \(--paths-file[^]*SLURM_ARRAY_TASK_ID[^]*JOB_COMPLETION_INDEX[^]*Range request/m);
    expect(r.stdout).toMatch(/^Resuming \(--resume\):\n[^]*out\.part2\.jsonl[^]*exactly once/m);
    for (const code of ["0 ", "2 ", "3 ", "4 ", "130 ", "141 "]) expect(r.stdout).toMatch(new RegExp(`^  ${code}`, "m"));
    const top = await winnow(["--help"]);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/clean \[options\] \[input\.\.\.\]/);
  });
});

describe("flag parsers", () => {
  it("read counts and byte sizes", () => {
    expect(parseCount(0)("0")).toBe(0);
    expect(() => parseCount(1)("0")).toThrow(/>= 1/);
    expect(() => parseCount(0)("1.5")).toThrow();
    expect(parseByteSize("500000")).toBe(500000);
    expect(parseByteSize("512K")).toBe(512 << 10);
    expect(parseByteSize("16M")).toBe(16 << 20);
    expect(parseByteSize("1GiB")).toBe(1 << 30);
    expect(() => parseByteSize("0")).toThrow();
    expect(() => parseByteSize("16 M")).toThrow();
  });
});

describe("winnow help", () => {
  it("shows every command's help as COMMAND --help does, launch's subcommands too", async () => {
    const commands = ["clean", "stats", "dedup", "eval", "train", "label", "inspect", "label-ui", "launch"];
    for (const args of [...commands.map((c) => [c]), ["launch", "slurm"], ["launch", "k8s"]]) {
      const [viaHelp, viaFlag] = await Promise.all([winnow(["help", ...args]), winnow([...args, "--help"])]);
      expect(viaHelp.code, args.join(" ")).toBe(0);
      expect(viaHelp.stdout).toMatch(new RegExp(`^Usage: winnow ${args.join(" ")} `));
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
    }
    const root = await winnow(["help"]);
    expect(root.code).toBe(0);
    expect(root.stdout).toMatch(/^Usage: winnow \[options\] \[command\]/);
    expect(root.stdout).toContain("winnow help COMMAND (or winnow COMMAND --help) shows a command's help.");
    const unknown = await winnow(["help", "claen"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^winnow: unknown command 'claen'/);
  });
});
