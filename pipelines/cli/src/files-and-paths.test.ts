// What winnow does with the paths it writes (issue #21; docs/guarantees.md, "Files and paths"):
// devices, FIFOs and symbolic links are never replaced, no output overwrites an input, missing
// folders are created for every output, "-" is standard output or a usage error, temporary files
// of killed runs are cleaned up, and inputs with nothing in them are an input error. Each test
// makes the file, device, FIFO or link it writes to. Build first: `npx tsc -b`.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, runWinnow, type WinnowResult, stderrMessages } from "../test/run-winnow.js";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/", import.meta.url));
const WARC = join(FIXTURES, "warc", "example.warc.gz");
const WCXB = join(FIXTURES, "wcxb-sample");
const QUICK = ["--epochs", "1", "--hidden", "4", "--ensemble", "1"];
const CLEAN = ["--model", "heuristic", "--workers", "0", "--log-level", "warn"];
const STACK_FRAME = /^\s+at /m;
/** Under CI=true (Linux, as root) a test never skips for a missing device or capability: it fails. */
const IN_CI = process.env.CI === "true";

let dir: string;
/** The one document winnow writes for example.warc.gz, as JSONL. */
let expected: string;

function winnow(args: string[]): Promise<WinnowResult> {
  return runWinnow(args, dir);
}
const plainLines = (stderr: string): string[] => stderrMessages(stderr, 50);
const here = (...parts: string[]): string => join(dir, ...parts);

/** A fresh copy of the WCXB sample, for commands that must not be allowed to damage it. */
function wcxbCopy(name: string): string {
  cpSync(WCXB, here(name), { recursive: true });
  return here(name);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "winnow-paths-"));
  const r = await winnow(["clean", WARC, "-o", "expected.jsonl", ...CLEAN]);
  expect(r.code).toBe(0);
  expected = readFileSync(here("expected.jsonl"), "utf8");
  expect(expected).toMatch(/^\{"url":"http:\/\/example\.com\/"/);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("-o onto what is not a regular file (#21.1)", () => {
  /** A character device of our own, like /dev/null (major 1, minor 3); null where mknod is not allowed. */
  function makeNullDevice(path: string): string | null {
    const made = spawnSync("mknod", ["-m", "666", path, "c", "1", "3"]);
    return made.status === 0 && lstatSync(path).isCharacterDevice() ? path : null;
  }

  it("writes into a character device and leaves it a device", async (context) => {
    const device = makeNullDevice(here("null-device"));
    // mknod needs CAP_MKNOD, which some containers drop; CI runs as root with it, so there it must work.
    if (device === null && !IN_CI) return context.skip();
    if (device === null) throw new Error("CI=true but mknod could not make a character device (needs CAP_MKNOD)");
    const r = await winnow(["clean", WARC, "-o", device, ...CLEAN]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
    expect(readdirSync(dir).filter((n) => n.includes(".tmp-"))).toEqual([]);
  });

  it("writes into a FIFO, for its reader, and leaves it a FIFO", async () => {
    const fifo = here("corpus.fifo");
    execFileSync("mkfifo", [fifo]);
    // The reader is a process of its own, so that it can be stopped if no writer ever comes
    // (before #21 the FIFO was replaced by a file, and its reader waited for ever).
    const reader = spawn("cat", [fifo], { stdio: ["ignore", "pipe", "ignore"] });
    let read = "";
    reader.stdout.on("data", (d: Buffer) => (read += d));
    const ended = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        reader.kill();
        resolve(false);
      }, 10_000);
      reader.on("close", () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    const r = await winnow(["clean", WARC, "-o", fifo, ...CLEAN]);
    expect(r.code).toBe(0);
    expect(await ended).toBe(true);
    expect(read).toBe(expected);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it("writes a symbolic link's target, atomically, and keeps the link", async () => {
    writeFileSync(here("target.jsonl"), "the old corpus\n");
    symlinkSync("target.jsonl", here("link.jsonl"));
    const r = await winnow(["clean", WARC, "-o", "link.jsonl", ...CLEAN]);
    expect(r.code).toBe(0);
    expect(lstatSync(here("link.jsonl")).isSymbolicLink()).toBe(true);
    expect(readFileSync(here("target.jsonl"), "utf8")).toBe(expected);
    // A link to a file not there yet: the file is made where the link points, folders and all.
    symlinkSync(join("made", "by-link.jsonl"), here("dangling.jsonl"));
    expect((await winnow(["clean", WARC, "-o", "dangling.jsonl", ...CLEAN])).code).toBe(0);
    expect(lstatSync(here("dangling.jsonl")).isSymbolicLink()).toBe(true);
    expect(readFileSync(here("made", "by-link.jsonl"), "utf8")).toBe(expected);
  });

  it.skipIf(!existsSync("/proc/self/fd") && !IN_CI)(
    "writes through a link to a descriptor (like /dev/stdout) into standard output",
    async () => {
      symlinkSync("/proc/self/fd/1", here("stdout-link"));
      const r = await winnow(["clean", WARC, "-o", "stdout-link", ...CLEAN]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(expected);
      expect(lstatSync(here("stdout-link")).isSymbolicLink()).toBe(true);
    },
  );
});

describe("an output that is also an input (#21.2)", () => {
  it("clean refuses -o, --rejects and --manifest onto an input, naming both, before reading anything", async () => {
    mkdirSync(here("crawl"));
    cpSync(WARC, here("crawl", "a.warc.gz"));
    const before = readFileSync(here("crawl", "a.warc.gz"));
    const cases: Array<[string[], string]> = [
      [["crawl/a.warc.gz", "-o", "crawl/a.warc.gz"], "-o crawl/a.warc.gz is also an input (input crawl/a.warc.gz)"],
      [["crawl", "-o", "x.jsonl", "--rejects", "crawl/a.warc.gz"], "--rejects crawl/a.warc.gz is also an input (input crawl/a.warc.gz)"],
      [["crawl", "-o", "crawl"], "-o crawl is also an input (input crawl)"],
    ];
    linkSync(here("crawl", "a.warc.gz"), here("hard-link.warc.gz"));
    cases.push([
      ["crawl", "-o", "y.jsonl", "--resume", "--manifest", "hard-link.warc.gz"],
      "--manifest hard-link.warc.gz is also an input (input crawl/a.warc.gz)",
    ]);
    symlinkSync(join("crawl", "a.warc.gz"), here("sym.jsonl"));
    cases.push([["crawl", "-o", "sym.jsonl"], "-o sym.jsonl is also an input (input crawl/a.warc.gz)"]);
    for (const [args, message] of cases) {
      const r = await winnow(["clean", ...args, ...CLEAN]);
      expect(plainLines(r.stderr), args.join(" ")).toEqual([`winnow: ${message}: writing it would destroy the input`]);
      expect(r.code).toBe(2);
    }
    expect(readFileSync(here("crawl", "a.warc.gz"))).toEqual(before);
    expect(lstatSync(here("sym.jsonl")).isSymbolicLink()).toBe(true);
  });

  it("train refuses -o onto a file of --data (its metadata.json), and --per-host onto the data folder", async () => {
    const data = wcxbCopy("wcxb-train");
    const before = readFileSync(join(data, "metadata.json"));
    const r = await winnow(["train", "--data", "wcxb-train", "-o", "wcxb-train/metadata.json", ...QUICK]);
    expect(plainLines(r.stderr)).toEqual([
      "winnow: -o wcxb-train/metadata.json is also an input (--data wcxb-train/metadata.json): writing it would destroy the input",
    ]);
    expect(r.code).toBe(2);
    expect(readFileSync(join(data, "metadata.json"))).toEqual(before);
    const perHost = await winnow(["train", "--data", "wcxb-train", "--per-host", "-o", "wcxb-train", ...QUICK]);
    expect(perHost.code).toBe(2);
    expect(plainLines(perHost.stderr)).toEqual([
      "winnow: -o wcxb-train is also an input (--data wcxb-train): writing it would destroy the input",
    ]);
    expect(existsSync(join(data, "general.onnx"))).toBe(false);
  });

  it("label refuses -o onto the data; eval --json onto a data file; inspect -o onto an input", async () => {
    const jsonl = here("pages.jsonl");
    writeFileSync(jsonl, `${JSON.stringify({ url: "https://example.com/", html: "<p>Some text here.</p>", text: "Some text here." })}\n`);
    const before = readFileSync(jsonl);
    const label = await winnow(["label", "--data", "pages.jsonl", "-o", "pages.jsonl", "--seeds", "heuristic"]);
    expect([label.code, plainLines(label.stderr)]).toEqual([
      2,
      ["winnow: -o pages.jsonl is also an input (--data pages.jsonl): writing it would destroy the input"],
    ]);
    expect(readFileSync(jsonl)).toEqual(before);

    const data = wcxbCopy("wcxb-eval");
    const gold = join(data, "ground-truth", "0437.json");
    const goldBefore = readFileSync(gold);
    const evaluate = await winnow(["eval", "--data", "wcxb-eval", "--model", "heuristic", "--json", "wcxb-eval/ground-truth/0437.json"]);
    expect(evaluate.code).toBe(2);
    expect(plainLines(evaluate.stderr)).toEqual([
      "winnow: --json wcxb-eval/ground-truth/0437.json is also an input (--data wcxb-eval/ground-truth/0437.json): writing it would destroy the input",
    ]);
    expect(readFileSync(gold)).toEqual(goldBefore);

    cpSync(WARC, here("inspected.warc.gz"));
    const inspect = await winnow(["inspect", "inspected.warc.gz", "-o", "inspected.warc.gz", "--model", "heuristic"]);
    expect(inspect.code).toBe(2);
    expect(readFileSync(here("inspected.warc.gz"))).toEqual(readFileSync(WARC));
  });
});

describe("missing folders and files in the way, for every output (#21.3)", () => {
  it("creates the folders of --rejects, --manifest, inspect -o, train -o and eval --json", async () => {
    const clean = await winnow([
      "clean",
      WARC,
      "-o",
      "p1/out.jsonl",
      "--rejects",
      "p2/deep/rejects.jsonl",
      "--rejects-all",
      "--resume",
      "--manifest",
      "p3/m.manifest",
      ...CLEAN,
    ]);
    expect([clean.code, clean.stderr]).toEqual([0, ""]);
    expect(readFileSync(here("p2", "deep", "rejects.jsonl"), "utf8")).toMatch(/"reason":"not-response"/);
    expect(readFileSync(here("p3", "m.manifest"), "utf8")).toMatch(/"type":"part"/);
    const inspect = await winnow(["inspect", WARC, "-o", "p4/report.html", "--model", "heuristic", "--log-level", "warn"]);
    expect([inspect.code, inspect.stderr]).toEqual([0, ""]);
    expect(existsSync(here("p4", "report.html"))).toBe(true);
    const train = await winnow(["train", "--data", WCXB, "-o", "p5/deep/model.onnx", ...QUICK]);
    expect(plainLines(train.stderr)).toEqual([]);
    expect(train.code).toBe(0);
    expect(existsSync(here("p5", "deep", "model.onnx"))).toBe(true);
    const evaluate = await winnow(["eval", "--data", WCXB, "--model", "heuristic", "--limit", "2", "--json", "p6/results.json"]);
    expect(evaluate.code).toBe(0);
    expect(JSON.parse(readFileSync(here("p6", "results.json"), "utf8"))).toHaveProperty("reports");
  });

  it("reports a file in the way as an output error naming the path (exit 4)", async () => {
    writeFileSync(here("in-the-way"), "a file, not a folder");
    const cases: Array<[string[], string]> = [
      [
        ["clean", WARC, "-o", "ok.jsonl", "--rejects", "in-the-way/r.jsonl", ...CLEAN],
        "cannot create rejects file: a path component is not a directory (in-the-way/r.jsonl)",
      ],
      [
        ["clean", WARC, "-o", "ok2.jsonl", "--resume", "--manifest", "in-the-way/m", ...CLEAN],
        "cannot create manifest: a path component is not a directory (in-the-way/m)",
      ],
      [
        ["train", "--data", WCXB, "-o", "in-the-way/m.onnx", ...QUICK],
        "cannot create model file: a path component is not a directory (in-the-way/m.onnx)",
      ],
    ];
    for (const [args, message] of cases) {
      const r = await winnow(args);
      expect(plainLines(r.stderr), args.join(" ")).toEqual([`winnow: ${message}`]);
      expect(r.stderr).not.toMatch(STACK_FRAME);
      expect(r.code).toBe(4);
    }
    expect(existsSync(here("ok.jsonl"))).toBe(false);
  });
});

describe('"-" and standard output (#21.4)', () => {
  it("--rejects - writes the rejects to standard output, not to a file named -", async () => {
    const r = await winnow(["clean", WARC, "-o", "with-rejects.jsonl", "--rejects", "-", "--rejects-all", ...CLEAN]);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { reason: string }).reason),
    ).toEqual(Array(5).fill("not-response"));
    expect(existsSync(here("-"))).toBe(false);
    const both = await winnow(["clean", WARC, "-o", "-", "--rejects", "-", ...CLEAN]);
    expect([both.code, plainLines(both.stderr)]).toEqual([
      2,
      ["winnow: -o and --rejects cannot both be standard output: their lines would be mixed (--rejects -)"],
    ]);
  });

  it('refuses "-" with a usage error where a file or folder is needed', async () => {
    const cases: string[][] = [
      ["clean", WARC, "-o", "m.jsonl", "--resume", "--manifest", "-", ...CLEAN],
      ["clean", WARC, "-o", "m.jsonl", "--resume", "--rejects", "-", ...CLEAN],
      ["train", "--data", WCXB, "-o", "-", ...QUICK],
      ["eval", "--data", WCXB, "--model", "heuristic", "--json", "-"],
      ["label", "--data", WCXB, "-o", "-", "--seeds", "heuristic"],
    ];
    for (const args of cases) {
      const r = await winnow(args);
      expect(plainLines(r.stderr), args.join(" ")).toEqual([
        expect.stringMatching(
          /^winnow: (-o|--manifest|--json) cannot be standard output \("-"\) here|^winnow: a resumable run writes --rejects in parts/,
        ),
      ]);
      expect(r.code).toBe(2);
    }
    expect(existsSync(here("-"))).toBe(false);
  });

  it.skipIf(!existsSync("/dev/full") && !IN_CI)("says so and exits 4 when standard output is full (ENOSPC)", async () => {
    const full = openSync("/dev/full", "w");
    const r = spawnSync(process.execPath, [BIN, "clean", WARC, "-o", "-", ...CLEAN], { cwd: dir, stdio: ["ignore", full, "pipe"] });
    expect(stderrMessages(r.stderr.toString())).toEqual(["winnow: cannot write output: no space left on device (-)"]);
    expect(r.status).toBe(4);
    const help = spawnSync(process.execPath, [BIN, "clean", "--help"], { cwd: dir, stdio: ["ignore", full, "pipe"] });
    expect(stderrMessages(help.stderr.toString())).toEqual(["winnow: cannot write to standard output: no space left on device"]);
    expect(help.status).toBe(4);
  });
});

describe("temporary files of killed runs (#21.5)", () => {
  it("--resume removes those whose process is gone, beside the output, its parts and the rejects", async () => {
    // A pid no process has any more: a child that has exited.
    const dead = spawnSync(process.execPath, ["-e", ""]).pid as number;
    const stale = [".stale.jsonl.tmp-", ".stale.part2.jsonl.tmp-", ".stale.rejects.jsonl.tmp-"].map((prefix) => here(`${prefix}${dead}`));
    for (const path of stale) writeFileSync(path, '{"half a line');
    // One of a live process (this test's) is not touched.
    const live = here(`.stale.jsonl.tmp-${process.pid}`);
    writeFileSync(live, "in progress");
    const args = ["clean", WARC, "-o", "stale.jsonl", "--rejects", "stale.rejects.jsonl", "--resume", ...CLEAN];
    expect((await winnow(args)).code).toBe(0);
    expect(existsSync(stale[0])).toBe(false);
    // The next run would write part 2 (here it finds nothing left to do), so that part's leftovers go too.
    expect((await winnow(args)).code).toBe(0);
    expect(stale.filter((path) => existsSync(path))).toEqual([]);
    expect(existsSync(live)).toBe(true);
  });
});

describe("--workers (#21.13)", () => {
  it(`is capped at 4 per CPU (${4 * availableParallelism()} here), with a clear message and the cap in --help`, async () => {
    const r = await winnow(["clean", WARC, "-o", "workers.jsonl", "--workers", "100000", "--model", "heuristic"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^winnow: option '--workers <n>' argument '100000' is invalid\\. expected a whole number from 0 to ${4 * availableParallelism()}`,
      ),
    );
    expect(existsSync(here("workers.jsonl"))).toBe(false);
    const help = await winnow(["clean", "--help"]);
    expect(help.stdout.replace(/\s+/g, " ")).toContain(`at most ${4 * availableParallelism()} (4 per CPU)`);
  });
});

describe("inputs with no records (#21.14)", () => {
  it("an empty file or random bytes: exit 3, no records found in it, no output written", async () => {
    writeFileSync(here("empty.warc"), "");
    let seed = 21;
    writeFileSync(
      here("noise.bin"),
      Buffer.alloc(5000).map(() => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 24) & 0xff),
    );
    cpSync(here("noise.bin"), here("noise.warc.gz"));
    for (const input of ["empty.warc", "noise.bin", "noise.warc.gz"]) {
      const r = await winnow(["clean", input, "-o", "none.jsonl", "--rejects", "none.rejects.jsonl", ...CLEAN]);
      expect([r.code, plainLines(r.stderr)], input).toEqual([3, [`winnow: no records found in ${input}: not WARC, ARC or HTML, or empty`]]);
      expect(existsSync(here("none.jsonl"))).toBe(false);
      expect(existsSync(here("none.rejects.jsonl"))).toBe(false);
    }
    // One input with records is enough.
    const some = await winnow(["clean", "noise.bin", WARC, "-o", "some.jsonl", ...CLEAN]);
    expect(some.code).toBe(0);
  });

  it("--model foo lists the model names in inspect, label-ui and eval as in clean", async () => {
    const runs = [
      ["inspect", WARC, "-o", "r.html", "--model", "foo"],
      ["label-ui", "--data", WCXB, "--labels", "ui-labels", "--port", "0", "--model", "foo"],
      ["eval", "--data", WCXB, "--limit", "1", "--model", "foo"],
    ];
    for (const args of runs) {
      const r = await winnow(args);
      expect(plainLines(r.stderr), args[0]).toEqual([
        expect.stringMatching(/^winnow: no such model: give heuristic, mlp, bilstm, .*a model file made by winnow train.* \(foo\)$/),
      ]);
      expect(r.code).toBe(2);
    }
  });

  it("--model all-text and --model FOLDER in clean name the valid choices, and point a folder to --models (#25)", async () => {
    mkdirSync(here("not-models"), { recursive: true });
    writeFileSync(here("not-models", "x.onnx"), "x");
    const allText = await winnow(["clean", WARC, "-o", "a.jsonl", "--model", "all-text", "--workers", "0"]);
    expect(allText.code).toBe(2);
    expect(plainLines(allText.stderr)).toEqual([
      expect.stringMatching(
        /^winnow: all-text is winnow eval's keep-everything baseline, .*give heuristic, mlp, bilstm, .*--models DIR\) \(all-text\)$/,
      ),
    ]);
    const folder = await winnow(["clean", WARC, "-o", "f.jsonl", "--model", "not-models", "--workers", "0"]);
    expect(folder.code).toBe(2);
    expect(plainLines(folder.stderr)).toEqual([
      expect.stringMatching(
        /^winnow: a folder is not a model file: --model takes heuristic, mlp, bilstm .*goes to --models DIR \(not-models\)$/,
      ),
    ]);
  });
});

describe("train and eval without gold text (#21.12)", () => {
  it("refuse pages without gold text, saying how many and which (exit 3), unless --labels gives the labels", async () => {
    mkdirSync(here("plain-html"));
    for (const name of readdirSync(join(WCXB, "html")).slice(0, 3)) {
      writeFileSync(here("plain-html", name.replace(/\.gz$/, "")), gunzipSync(readFileSync(join(WCXB, "html", name))));
    }
    const train = await winnow(["train", "--data", "plain-html", "-o", "plain.onnx", ...QUICK]);
    expect(train.code).toBe(3);
    expect(plainLines(train.stderr)).toEqual([
      expect.stringMatching(/^winnow: 3 of 3 pages have no gold text \(0437\.html, 0541\.html, 0575\.html\): .* \(plain-html\)$/),
    ]);
    expect(existsSync(here("plain.onnx"))).toBe(false);

    const lines = [0, 1, 2].map((i) =>
      JSON.stringify({
        id: `p${i}`,
        url: `https://example.com/${i}`,
        html: "<p>Some words of text.</p>",
        text: i === 2 ? "Some words of text." : "",
      }),
    );
    writeFileSync(here("no-gold.jsonl"), `${lines.join("\n")}\n`);
    const evaluate = await winnow(["eval", "--data", "no-gold.jsonl", "--model", "heuristic"]);
    expect(evaluate.code).toBe(3);
    expect(plainLines(evaluate.stderr)).toEqual([
      expect.stringMatching(/^winnow: 2 of 3 pages have no gold text \(p0, p1\): .* \(no-gold\.jsonl\)$/),
    ]);
    expect(evaluate.stdout).toBe("");

    const label = await winnow(["label", "--data", "plain-html", "-o", "plain-labels", "--seeds", "heuristic"]);
    expect(label.code).toBe(0);
    const withLabels = await winnow(["train", "--data", "plain-html", "--labels", "plain-labels", "-o", "plain.onnx", ...QUICK]);
    expect(withLabels.code).toBe(0);
    // A handful of pages trains, but not without a word.
    expect(withLabels.stderr).toMatch(/training an MLP on texrex37\+ext\+ctx \(133 features\)/);
    expect(withLabels.stderr).toMatch(/"level":40,[^\n]*training on only \d pages: a model learnt from fewer than 100/);
  });
});
