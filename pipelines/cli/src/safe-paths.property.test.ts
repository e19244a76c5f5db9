// A property of every path winnow writes (issue #31): whatever combination of outputs, rejects
// files, manifests, {lang} templates, --overwrite, standard output and links to inputs a user
// gives `winnow clean` or `winnow dedup`, no input changes, the run ends with a status of the
// table (never a stack), and a corpus it completes holds each record once. Fast-check draws the
// combinations (fixed seeds, so a failure is replayed); each is run by the built `winnow` in a
// fresh folder. Build first: `npx tsc -b`.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, stderrMessages } from "../test/run-winnow.js";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/", import.meta.url));
const WARC = join(FIXTURES, "warc", "example.warc.gz");
const OTHER_WARC = join(FIXTURES, "sample.warc.gz");
const CLEAN = ["--model", "heuristic", "--workers", "0", "--log-level", "warn", "--format", "jsonl"];
/** Statuses a user's mistake may end with (docs/exit-codes.md); 1 would be a bug. */
const STATUSES = [0, 2, 3, 4];

let root: string;
let jsonl: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "winnow-safe-property-"));
  const made = spawnSync(process.execPath, [BIN, "clean", WARC, "-o", join(root, "corpus.jsonl"), ...CLEAN]);
  expect(made.status).toBe(0);
  jsonl = readFileSync(join(root, "corpus.jsonl"), "utf8");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every regular file under `dir`, with a hash of its bytes: what "no input changed" compares. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (statSync(path).isFile()) out[name] = createHash("sha256").update(readFileSync(path)).digest("hex");
  }
  return out;
}

let cases = 0;
/** A fresh folder for one case. */
function caseFolder(): string {
  const dir = join(root, `case-${++cases}`);
  mkdirSync(dir);
  return dir;
}

/** Runs winnow in `cwd`; `stdoutTo`: a file standard output appends to (as `>> file`), else a pipe. */
function run(cwd: string, args: string[], stdoutTo: string | null): { status: number | null; stderr: string } {
  const fd = stdoutTo === null ? "pipe" : openSync(join(cwd, stdoutTo), "a");
  try {
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd, stdio: ["ignore", fd, "pipe"], timeout: 60_000 });
    return { status: r.status, stderr: r.stderr.toString() };
  } finally {
    if (typeof fd === "number") closeSync(fd);
  }
}

// Paths a user might give, many of them reaching an input: directly, through a linked folder or
// file, through .., by a hard link, or by a {lang} expansion (the sample's pages are English).
const CLEAN_PATHS = [
  "in/a.warc.gz",
  "ln/b.warc.gz",
  "lf",
  "hl.warc.gz",
  "in/../in/en.warc.gz",
  "in/{lang}.warc.gz",
  "ln/{lang}.warc.gz",
  "t/{lang}/c.jsonl",
  "out.jsonl",
  "old.jsonl",
  "sub/r.jsonl",
  "-",
];

/** The files of in/ that each input names: a folder all of them, a link or hard link its target. */
const INPUT_FILES: Record<string, string[]> = {
  in: ["a.warc.gz", "b.warc.gz", "en.warc.gz"],
  "in/a.warc.gz": ["a.warc.gz"],
  "ln/b.warc.gz": ["b.warc.gz"],
  lf: ["b.warc.gz"],
  "hl.warc.gz": ["a.warc.gz"],
};

/** A scenario with nothing but inputs and -o, for the examples. */
const PLAIN = {
  rejects: undefined,
  manifest: undefined,
  resume: false,
  overwrite: false,
  stdoutTo: null,
  earlierRun: false,
};

/** Paths of CLEAN_PATHS that reach no input. */
const FRESH = ["t/{lang}/c.jsonl", "out.jsonl", "old.jsonl", "sub/r.jsonl"];

describe("winnow clean, any combination of paths", () => {
  it("changes no input, and ends with a status of the table", () => {
    const scenario = fc.record({
      inputs: fc.subarray(["in", "in/a.warc.gz", "ln/b.warc.gz", "lf", "hl.warc.gz"], { minLength: 1 }),
      output: fc.constantFrom(...CLEAN_PATHS),
      rejects: fc.option(fc.constantFrom(...CLEAN_PATHS), { nil: undefined }),
      manifest: fc.option(fc.constantFrom(...CLEAN_PATHS, "out.jsonl.manifest"), { nil: undefined }),
      resume: fc.boolean(),
      overwrite: fc.boolean(),
      stdoutTo: fc.constantFrom(null, "in/a.warc.gz", "hl.warc.gz", "old.jsonl"),
      earlierRun: fc.boolean(),
    });
    fc.assert(
      fc.property(scenario, (s) => {
        const dir = caseFolder();
        mkdirSync(join(dir, "in"));
        copyFileSync(WARC, join(dir, "in", "a.warc.gz"));
        copyFileSync(OTHER_WARC, join(dir, "in", "b.warc.gz"));
        copyFileSync(WARC, join(dir, "in", "en.warc.gz"));
        symlinkSync("in", join(dir, "ln"));
        symlinkSync(join("in", "b.warc.gz"), join(dir, "lf"));
        linkSync(join(dir, "in", "a.warc.gz"), join(dir, "hl.warc.gz"));
        writeFileSync(join(dir, "old.jsonl"), "a user's file\n");
        const args = ["clean", ...s.inputs, "-o", s.output, ...CLEAN];
        if (s.rejects !== undefined) args.push("--rejects", s.rejects);
        if (s.resume) args.push("--resume");
        if (s.resume && s.manifest !== undefined) args.push("--manifest", s.manifest);
        if (s.overwrite) args.push("--overwrite");
        if (s.earlierRun) {
          // What an earlier resumable run leaves: its manifest names its parts.
          writeFileSync(
            join(dir, "out.jsonl.manifest"),
            `${JSON.stringify({ type: "part", run: "r", part: "out.part2.jsonl", number: 2, bytes: 5, documents: 0, interrupted: false })}\n`,
          );
          writeFileSync(join(dir, "out.part2.jsonl"), "part\n");
        }
        // The run's inputs, as files of in/ (a file named as an output that is no input may be replaced).
        const inputNames = new Set(s.inputs.flatMap((input) => INPUT_FILES[input]));
        const inputsOnly = (all: Record<string, string>) =>
          Object.fromEntries(Object.entries(all).filter(([name]) => inputNames.has(name)));
        const inputsBefore = inputsOnly(snapshot(join(dir, "in")));
        const userFile = readFileSync(join(dir, "old.jsonl"), "utf8");
        const r = run(dir, args, s.output === "-" ? s.stdoutTo : null);
        expect(inputsOnly(snapshot(join(dir, "in")))).toEqual(inputsBefore);
        expect(STATUSES).toContain(r.status);
        expect(r.stderr).not.toMatch(/internal error|^\s+at /m);
        // And no false alarm: outputs that are neither inputs nor each other are written.
        const fresh = (p: string | undefined) => p !== undefined && FRESH.includes(p);
        const earlierInTheWay = s.earlierRun && !s.overwrite && s.output === "out.jsonl";
        if (fresh(s.output) && (s.rejects === undefined || (fresh(s.rejects) && s.rejects !== s.output)) && !s.resume && !earlierInTheWay) {
          expect([r.status, stderrMessages(r.stderr, 50)]).toEqual([0, []]);
        }
        if (r.status === 0 && s.output === "out.jsonl" && !s.resume) {
          const ids = readFileSync(join(dir, "out.jsonl"), "utf8")
            .split("\n")
            .filter((l) => l !== "")
            .map((l) => JSON.parse(l).warc_record_id as string);
          expect(new Set(ids).size).toBe(ids.length);
        }
        // A user's file is replaced only when it was named as an output, and never removed.
        const named = [s.output, s.rejects, s.resume ? s.manifest : undefined];
        if (!named.includes("old.jsonl") && s.stdoutTo !== "old.jsonl") expect(readFileSync(join(dir, "old.jsonl"), "utf8")).toBe(userFile);
        expect(existsSync(join(dir, "old.jsonl"))).toBe(true);
        rmSync(dir, { recursive: true, force: true });
      }),
      {
        seed: 3105,
        numRuns: 24,
        // Cases that destroyed an input before #31, always tried besides the drawn ones.
        examples: [
          [{ ...PLAIN, inputs: ["in"], output: "-", stdoutTo: "hl.warc.gz" }],
          [{ ...PLAIN, inputs: ["in"], output: "ln/{lang}.warc.gz" }],
          [{ ...PLAIN, inputs: ["lf"], output: "out.jsonl", rejects: "ln/b.warc.gz" }],
          // And one that must go through: an {lang} output beside a rejects file.
          [{ ...PLAIN, inputs: ["in"], output: "t/{lang}/c.jsonl", rejects: "sub/r.jsonl" }],
        ],
      },
    );
  }, 300_000);
});

/** The files of dd/ that each dedup input names. */
const DEDUP_INPUT_FILES: Record<string, string[]> = { dd: ["a.jsonl", "b.jsonl"], "dd/a.jsonl": ["a.jsonl"], "dl/b.jsonl": ["b.jsonl"] };

const DEDUP_PATHS = ["dd", "dl", "dd/a.jsonl", "dl/b.jsonl", "dd/sub", "out", "st", "r.jsonl"];

describe("winnow dedup, any combination of paths", () => {
  it("changes no input, and ends with a status of the table", () => {
    const scenario = fc.record({
      inputs: fc.subarray(["dd", "dd/a.jsonl", "dl/b.jsonl"], { minLength: 1 }),
      output: fc.constantFrom(...DEDUP_PATHS),
      rejects: fc.option(fc.constantFrom(...DEDUP_PATHS), { nil: undefined }),
      state: fc.option(fc.constantFrom(...DEDUP_PATHS), { nil: undefined }),
    });
    fc.assert(
      fc.property(scenario, (s) => {
        const dir = caseFolder();
        mkdirSync(join(dir, "dd"));
        writeFileSync(join(dir, "dd", "a.jsonl"), jsonl);
        writeFileSync(join(dir, "dd", "b.jsonl"), jsonl);
        symlinkSync("dd", join(dir, "dl"));
        const args = ["dedup", ...s.inputs, "-o", s.output];
        if (s.rejects !== undefined) args.push("--rejects", s.rejects);
        if (s.state !== undefined) args.push("--state", s.state);
        const before = snapshot(join(dir, "dd"));
        const r = run(dir, args, null);
        // No false alarm: fresh output, state and rejects paths are written.
        if (s.output === "out" && [undefined, "st"].includes(s.state) && [undefined, "r.jsonl"].includes(s.rejects)) {
          expect([r.status, stderrMessages(r.stderr, 50)]).toEqual([0, []]);
        }
        const after = snapshot(join(dir, "dd"));
        // Outputs may be written beside the inputs (-o dd/sub), or over a file that is no input of
        // this run: only the inputs' own bytes count.
        const inputNames = new Set(s.inputs.flatMap((input) => DEDUP_INPUT_FILES[input]));
        for (const name of inputNames) expect([name, after[name]]).toEqual([name, before[name]]);
        expect(STATUSES).toContain(r.status);
        expect(r.stderr).not.toMatch(/internal error|^\s+at /m);
        rmSync(dir, { recursive: true, force: true });
      }),
      {
        seed: 3106,
        numRuns: 16,
        examples: [
          [{ inputs: ["dd"], output: "dd", rejects: undefined, state: undefined }],
          [{ inputs: ["dd/a.jsonl", "dl/b.jsonl"], output: "out", rejects: "dd/a.jsonl", state: "st" }],
          [{ inputs: ["dd"], output: "out", rejects: "r.jsonl", state: "st" }],
        ],
      },
    );
  }, 300_000);
});
