// Safe by construction, in every command (issue #31, and the locks of #30.5): no output reaches
// an input or another output however it is named (links, .., {lang}, standard output), --overwrite
// removes only what a run's own records list, a failed run replaces nothing, a file named twice
// is read once, and two runs on one output never both go on. Each case checks the property
// (input bytes unchanged, each record once, the exit status and its message), through the built
// `winnow` as users run it. Build first: `npx tsc -b`.
import { spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, runWinnow, stderrMessages, type WinnowResult } from "../test/run-winnow.js";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/", import.meta.url));
const WARC = join(FIXTURES, "warc", "example.warc.gz");
const CLEAN = ["--model", "heuristic", "--workers", "0", "--log-level", "warn"];

let dir: string;
/** The one document winnow writes for example.warc.gz, as a JSON line. */
let expected: string;
/** Its language, which {lang} paths expand to. */
let lang: string;

function winnow(args: string[]): Promise<WinnowResult> {
  return runWinnow(args, dir);
}
const here = (...parts: string[]): string => join(dir, ...parts);
const failure = (r: WinnowResult): string[] => stderrMessages(r.stderr, 50);

/** A folder `name` holding a copy of the WARC as a.warc.gz; returns the copy's path. */
function inputFolder(name: string): string {
  mkdirSync(here(name), { recursive: true });
  copyFileSync(WARC, here(name, "a.warc.gz"));
  return here(name, "a.warc.gz");
}

/** A lock's start for a holder that is this test's process: after it started, so it is live, not a reused pid. */
const NOW = new Date().toISOString();

/** A pid no process has any more: a child that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid as number;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "winnow-safe-paths-"));
  const r = await winnow(["clean", WARC, "-o", "expected.jsonl", ...CLEAN]);
  expect(r.code).toBe(0);
  expected = readFileSync(here("expected.jsonl"), "utf8");
  lang = JSON.parse(expected).lang;
  expect(lang).toMatch(/^[a-z]+$/);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("clean: outputs never reach inputs (#31.1)", () => {
  it("refuses -o - when standard output appends to an input, and leaves the input as it was", () => {
    const input = inputFolder("stdout-in");
    const before = readFileSync(input);
    const fd = openSync(input, "a");
    const r = spawnSync(process.execPath, [BIN, "clean", input, "-o", "-", ...CLEAN], { cwd: dir, stdio: ["ignore", fd, "pipe"] });
    closeSync(fd);
    expect(r.status).toBe(2);
    expect(stderrMessages(r.stderr.toString(), 50)).toEqual([
      `winnow: -o - is also an input (input ${input}): writing it would destroy the input`,
    ]);
    expect(readFileSync(input)).toEqual(before);
    // Through /dev/stdout and /proc/self/fd/1 alike.
    for (const alias of ["/dev/stdout", "/proc/self/fd/1"]) {
      const again = openSync(input, "a");
      const viaLink = spawnSync(process.execPath, [BIN, "clean", input, "-o", alias, ...CLEAN], {
        cwd: dir,
        stdio: ["ignore", again, "pipe"],
      });
      closeSync(again);
      expect(viaLink.status).toBe(2);
      expect(readFileSync(input)).toEqual(before);
    }
  });

  it("refuses a rejects file that is an input, named through a linked folder", async () => {
    const input = inputFolder("rejects-in");
    symlinkSync("rejects-in", here("rejects-link"));
    const before = readFileSync(input);
    const r = await winnow(["clean", here("rejects-in"), "-o", "r.jsonl", "--rejects", here("rejects-link", "a.warc.gz"), ...CLEAN]);
    expect(r.code).toBe(2);
    expect(failure(r)).toEqual([
      `winnow: --rejects ${here("rejects-link", "a.warc.gz")} is also an input (input ${input}): writing it would destroy the input`,
    ]);
    expect(readFileSync(input)).toEqual(before);
    expect(existsSync(here("r.jsonl"))).toBe(false);
  });

  it("refuses a {lang} path that can expand onto an input, before anything is read", async () => {
    const input = inputFolder("lang-in");
    copyFileSync(WARC, here("lang-in", `${lang}.warc.gz`));
    const before = readFileSync(here("lang-in", `${lang}.warc.gz`));
    const r = await winnow(["clean", input, "-o", here("lang-in", "{lang}.warc.gz"), "--format", "jsonl", ...CLEAN]);
    expect(r.code).toBe(2);
    expect(failure(r)[0]).toMatch(/^winnow: -o .*lang-in\/\{lang\}\.warc\.gz is also an input \(input .*lang-in\/\w+\.warc\.gz\)/);
    expect(readFileSync(here("lang-in", `${lang}.warc.gz`))).toEqual(before);
  });

  it("refuses a {lang} file that a link in the tree turns into an input, when it is created", async () => {
    const input = inputFolder("tree-in");
    mkdirSync(here("tree"));
    symlinkSync(here("tree-in"), here("tree", lang));
    const before = readFileSync(input);
    const r = await winnow(["clean", input, "-o", here("tree", "{lang}", "a.warc.gz"), "--format", "jsonl", ...CLEAN]);
    expect(r.code).toBe(2);
    expect(failure(r)).toEqual([
      `winnow: -o ${here("tree", lang, "a.warc.gz")} is also an input (input ${input}): writing it would destroy the input`,
    ]);
    expect(readFileSync(input)).toEqual(before);
    expect(readdirSync(here("tree-in"))).toEqual(["a.warc.gz"]);
  });
});

describe("clean, one output per input: outputs never reach inputs (#31.1)", () => {
  it("refuses an output folder where an input's output would be the input, before anything is read", async () => {
    mkdirSync(here("pi", "src"), { recursive: true });
    // An input already named like its output (its .jsonl suffix is taken off and put back on).
    copyFileSync(WARC, here("pi", "src", "page.jsonl.gz"));
    const before = readFileSync(here("pi", "src", "page.jsonl.gz"));
    const r = await winnow(["clean", join("pi", "src", "page.jsonl.gz"), "-o", ".", "--per-input", ...CLEAN]);
    expect(r.code).toBe(2);
    expect(failure(r)).toEqual([
      `winnow: -o ${join(".", "pi", "src", "page.jsonl.gz")} is also an input (input ${join("pi", "src", "page.jsonl.gz")}): writing it would destroy the input`,
    ]);
    expect(readFileSync(here("pi", "src", "page.jsonl.gz"))).toEqual(before);
    expect(readdirSync(here("pi", "src"))).toEqual(["page.jsonl.gz"]);
  });
});

describe("clean: outputs never reach each other (#31.2)", () => {
  it("refuses the corpus and the rejects as one file, named alike or through a link", async () => {
    writeFileSync(here("both.jsonl"), "a user's file\n");
    symlinkSync("both.jsonl", here("both-link.jsonl"));
    for (const rejects of ["both.jsonl", "both-link.jsonl", "./sub/../both.jsonl"]) {
      const r = await winnow(["clean", WARC, "-o", "both.jsonl", "--rejects", rejects, ...CLEAN]);
      expect(r.code).toBe(2);
      expect(failure(r)).toEqual([`winnow: --rejects ${rejects} is the same file as -o both.jsonl: one output would overwrite the other`]);
    }
    expect(readFileSync(here("both.jsonl"), "utf8")).toBe("a user's file\n");
  });

  it("refuses a manifest that is the output or the rejects file", async () => {
    const r = await winnow(["clean", WARC, "-o", "m.jsonl", "--rejects", "m.rejects", "--resume", "--manifest", "m.rejects", ...CLEAN]);
    expect(r.code).toBe(2);
    expect(failure(r)).toEqual([
      "winnow: --manifest m.rejects is the same file as --rejects m.rejects: one output would overwrite the other",
    ]);
  });

  it("refuses a rejects file that one {lang} file would be", async () => {
    const r = await winnow(["clean", WARC, "-o", "by-lang/{lang}.jsonl", "--rejects", `by-lang/${lang}.jsonl`, ...CLEAN]);
    expect(r.code).toBe(2);
    expect(failure(r)).toEqual([
      `winnow: --rejects by-lang/${lang}.jsonl is the same file as -o by-lang/{lang}.jsonl: one output would overwrite the other`,
    ]);
  });
});

describe("clean: --overwrite removes only what a run's records list (#31.3)", () => {
  it("removes the parts the manifest names, not a user's file that looks like one", async () => {
    const args = ["clean", WARC, "-o", "ow.jsonl", "--resume", ...CLEAN];
    expect((await winnow(args)).code).toBe(0);
    writeFileSync(here("ow.part7.jsonl"), "a user's file named like a part\n");
    const r = await winnow(["clean", WARC, "-o", "ow.jsonl", "--overwrite", ...CLEAN]);
    expect([r.code, failure(r)]).toEqual([0, []]);
    expect(existsSync(here("ow.jsonl.manifest"))).toBe(false);
    expect(readFileSync(here("ow.part7.jsonl"), "utf8")).toBe("a user's file named like a part\n");
    expect(readFileSync(here("ow.jsonl"), "utf8")).toBe(expected);
  });

  it("never removes a file that is an input, whatever the manifest says", async () => {
    const args = ["clean", WARC, "-o", "owi.jsonl", "--resume", ...CLEAN];
    expect((await winnow(args)).code).toBe(0);
    // An input that happens to have the name of a part the manifest lists.
    copyFileSync(WARC, here("owi.part2.jsonl"));
    writeFileSync(
      here("owi.jsonl.manifest"),
      `${readFileSync(here("owi.jsonl.manifest"), "utf8")}{"type":"part","run":"x","part":"owi.part2.jsonl","number":2,"bytes":1,"documents":0,"interrupted":false}\n`,
    );
    const before = readFileSync(here("owi.part2.jsonl"));
    const r = await winnow(["clean", here("owi.part2.jsonl"), "-o", "owi.jsonl", "--format", "jsonl", "--overwrite", ...CLEAN]);
    expect(r.code).toBe(2);
    expect(failure(r)[0]).toMatch(/^winnow: --overwrite would remove .*owi\.part2\.jsonl is also an input/);
    expect(readFileSync(here("owi.part2.jsonl"))).toEqual(before);
  });

  it("in a text folder, removes the documents its index lists and refuses a user's file with a document's name", async () => {
    expect((await winnow(["clean", WARC, "-o", "txt/", ...CLEAN])).code).toBe(0);
    const written = readdirSync(here("txt")).sort();
    expect(written).toContain("index.jsonl");
    writeFileSync(here("txt", "notes.md"), "the user's notes\n");
    expect((await winnow(["clean", WARC, "-o", "txt/", "--overwrite", ...CLEAN])).code).toBe(0);
    expect(readdirSync(here("txt")).sort()).toEqual([...written, "notes.md"].sort());
    writeFileSync(here("txt", "000099.txt"), "the user's own file\n");
    const r = await winnow(["clean", WARC, "-o", "txt/", "--overwrite", ...CLEAN]);
    expect(r.code).toBe(2);
    expect(failure(r)[0]).toMatch(/^winnow: the output folder holds 000099\.txt, which no earlier run's index\.jsonl lists/);
    expect(readFileSync(here("txt", "000099.txt"), "utf8")).toBe("the user's own file\n");
  });
});

describe("clean: a run that fails replaces nothing (#31.4)", () => {
  it("keeps the earlier rejects file when the output cannot be written", async () => {
    writeFileSync(here("kept.rejects.jsonl"), "the earlier run's rejects\n");
    const r = await winnow([
      "clean",
      WARC,
      "-o",
      "/dev/full",
      "--format",
      "jsonl",
      "--rejects",
      "kept.rejects.jsonl",
      "--rejects-all",
      ...CLEAN,
    ]);
    expect(r.code).toBe(4);
    expect(failure(r)).toEqual(["winnow: cannot write output: no space left on device (/dev/full)"]);
    expect(readFileSync(here("kept.rejects.jsonl"), "utf8")).toBe("the earlier run's rejects\n");
    expect(readdirSync(dir).filter((n) => n.includes(".tmp-"))).toEqual([]);
  });
});

describe("clean: an input named twice is read once (#31.7)", () => {
  it("directly, through its folder and through a link: each record once", async () => {
    const input = inputFolder("twice-in");
    symlinkSync("twice-in", here("twice-link"));
    const r = await winnow(["clean", input, here("twice-in"), here("twice-link", "a.warc.gz"), "-o", "twice.jsonl", ...CLEAN]);
    expect(r.code).toBe(0);
    expect(readFileSync(here("twice.jsonl"), "utf8")).toBe(expected.replace(WARC, input));
    expect(stderrMessages(r.stderr)).toContain(
      `winnow: warning: input named twice, read once: ${here("twice-in", "a.warc.gz")} is ${input}`,
    );
  });
});

describe("locks (#30.5)", () => {
  it("two runs on one output at once: the second refuses (exit 75) naming the first, whose output is whole", async () => {
    // The first run reads standard input, which is held open until the second has tried.
    const first = spawn(process.execPath, [BIN, "clean", "-", "-o", "locked.jsonl", ...CLEAN], {
      cwd: dir,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let firstErr = "";
    first.stderr.on("data", (d: Buffer) => (firstErr += d));
    const firstDone = new Promise<number | null>((resolve) => first.on("close", resolve));
    for (let i = 0; i < 200 && !existsSync(here(".locked.jsonl.lock")); i++) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(here(".locked.jsonl.lock"))).toBe(true);
    const second = await winnow(["clean", WARC, "-o", "locked.jsonl", ...CLEAN]);
    expect(second.code).toBe(75);
    expect(failure(second)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^winnow: the output locked\\.jsonl is being written by another winnow run \\(pid ${first.pid} on this host since [-0-9T:.Z]+\\): wait for it to end, or stop it \\(.*\\.locked\\.jsonl\\.lock\\)$`,
        ),
      ),
    ]);
    first.stdin.end(readFileSync(WARC));
    expect(await firstDone).toBe(0);
    expect(firstErr).toBe("");
    expect(readFileSync(here("locked.jsonl"), "utf8")).toBe(expected.replace(/"source":"[^"]*"/, '"source":"-"'));
    expect(existsSync(here(".locked.jsonl.lock"))).toBe(false);
  });

  it("takes over the lock a dead run left, and refuses one a live process holds", async () => {
    writeFileSync(
      here(".stale.jsonl.lock"),
      JSON.stringify({ host: hostname(), pid: deadPid(), started: "2026-01-01T00:00:00Z", id: "dead" }),
    );
    const r = await winnow(["clean", WARC, "-o", "stale.jsonl", ...CLEAN]);
    expect([r.code, failure(r)]).toEqual([0, []]);
    expect(readFileSync(here("stale.jsonl"), "utf8")).toBe(expected);
    expect(existsSync(here(".stale.jsonl.lock"))).toBe(false);
    writeFileSync(here(".live.jsonl.lock"), JSON.stringify({ host: hostname(), pid: process.pid, started: NOW, id: "live" }));
    const live = await winnow(["clean", WARC, "-o", "live.jsonl", ...CLEAN]);
    expect(live.code).toBe(75);
    expect(failure(live)[0]).toContain(`(pid ${process.pid} on this host since ${NOW})`);
    expect(existsSync(here("live.jsonl"))).toBe(false);
  });
});

describe("inspect, train, eval, label: the same rules (#31.1, #30.5)", () => {
  it("inspect refuses -o - when standard output appends to its input page", () => {
    mkdirSync(here("page-in"));
    const page = here("page-in", "page.html");
    copyFileSync(join(FIXTURES, "wcxb-sample", "html", readdirSync(join(FIXTURES, "wcxb-sample", "html")).sort()[0]), page);
    const before = readFileSync(page);
    const fd = openSync(page, "a");
    const r = spawnSync(process.execPath, [BIN, "inspect", page, "-o", "-", "--model", "heuristic"], {
      cwd: dir,
      stdio: ["ignore", fd, "pipe"],
    });
    closeSync(fd);
    expect(r.status).toBe(2);
    expect(stderrMessages(r.stderr.toString(), 50)).toEqual([
      `winnow: -o - is also an input (input ${page}): writing it would destroy the input`,
    ]);
    expect(readFileSync(page)).toEqual(before);
  });

  it("inspect and train refuse an output another live run holds, naming it (exit 75)", async () => {
    const page = join(FIXTURES, "wcxb-sample", "html");
    writeFileSync(here(".report.html.lock"), JSON.stringify({ host: hostname(), pid: process.pid, started: NOW, id: "x" }));
    const inspect = await winnow(["inspect", page, "-o", "report.html", "--model", "heuristic", "--limit", "1"]);
    expect(inspect.code).toBe(75);
    expect(failure(inspect)[0]).toMatch(/^winnow: the report report\.html is being written by another winnow run \(pid \d+ on this host/);
    expect(existsSync(here("report.html"))).toBe(false);
    writeFileSync(here(".model.json.lock"), JSON.stringify({ host: hostname(), pid: process.pid, started: NOW, id: "y" }));
    const train = await winnow([
      "train",
      "--data",
      join(FIXTURES, "wcxb-sample"),
      "-o",
      "model.json",
      "--epochs",
      "1",
      "--hidden",
      "4",
      "--ensemble",
      "1",
    ]);
    expect(train.code).toBe(75);
    expect(failure(train)[0]).toMatch(/^winnow: the model file model\.json is being written by another winnow run/);
    // Once the holder is gone, the lock is taken over and released.
    writeFileSync(
      here(".report.html.lock"),
      JSON.stringify({ host: hostname(), pid: deadPid(), started: "2026-01-01T00:00:00Z", id: "z" }),
    );
    const again = await winnow(["inspect", page, "-o", "report.html", "--model", "heuristic", "--limit", "1"]);
    expect(again.code).toBe(0);
    expect(existsSync(here(".report.html.lock"))).toBe(false);
  });
});

describe("dedup: the same rules (#31.1, #30.5)", () => {
  /** A folder of clean outputs for dedup: two copies of one corpus. */
  function corpus(name: string): string {
    mkdirSync(here(name), { recursive: true });
    writeFileSync(here(name, "a.jsonl"), expected);
    writeFileSync(here(name, "b.jsonl"), expected);
    return here(name);
  }

  it("refuses an output folder where an output would be an input", async () => {
    const input = corpus("dd-in");
    const before = readFileSync(join(input, "a.jsonl"));
    const r = await winnow(["dedup", input, "-o", input]);
    expect(r.code).toBe(2);
    expect(failure(r)[0]).toMatch(/^winnow: -o .*dd-in(\/a\.jsonl)? is also an input/);
    expect(readFileSync(join(input, "a.jsonl"))).toEqual(before);
    expect(existsSync(join(input, ".dedup"))).toBe(false);
  });

  it("refuses an output folder that is the input folder through a link, or a link's .. (the one check runDedup keeps)", async () => {
    const input = corpus("dd-in3");
    mkdirSync(here("dd-in3", "sub"));
    symlinkSync("dd-in3", here("dd-in3-link"));
    // dd-in3-deep/.. is dd-in3/ for the file system; path.resolve would make it the test's folder.
    symlinkSync(join("dd-in3", "sub"), here("dd-in3-deep"));
    for (const output of ["dd-in3-link", "dd-in3-deep/.."]) {
      const r = await winnow(["dedup", input, "-o", output]);
      expect(r.code).toBe(2);
      expect(failure(r)).toEqual([expect.stringMatching(/^winnow: -o .*dd-in3(-link|-deep\/\.\.)(\/a\.jsonl)? is also an input/)]);
    }
    expect(readFileSync(join(input, "a.jsonl"), "utf8")).toBe(expected);
    expect(readdirSync(input).sort()).toEqual(["a.jsonl", "b.jsonl", "sub"]);
  });

  it("refuses a rejects file that is an input, and a state folder that holds one", async () => {
    const input = corpus("dd-in2");
    symlinkSync("dd-in2", here("dd-link"));
    const rejects = await winnow(["dedup", input, "-o", "dd-out", "--rejects", here("dd-link", "b.jsonl")]);
    expect(rejects.code).toBe(2);
    expect(failure(rejects)[0]).toMatch(/^winnow: --rejects .*dd-link\/b\.jsonl is also an input/);
    const state = await winnow(["dedup", input, "-o", "dd-out", "--state", here("dd-link")]);
    expect(state.code).toBe(2);
    expect(failure(state)[0]).toMatch(/^winnow: --state .*dd-link is also an input/);
    expect(readFileSync(join(input, "b.jsonl"), "utf8")).toBe(expected);
    expect(readdirSync(input).sort()).toEqual(["a.jsonl", "b.jsonl"]);
  });

  it("locks the state folder per task: the same task refuses while one runs, and a dead one's lock is taken over", async () => {
    const input = corpus("dd-lock");
    mkdirSync(here("dd-lock-out"));
    writeFileSync(
      here("dd-lock-out", "..dedup.all.lock"),
      JSON.stringify({ host: hostname(), pid: process.pid, started: NOW, id: "live" }),
    );
    const busy = await winnow(["dedup", input, "-o", "dd-lock-out"]);
    expect(busy.code).toBe(75);
    expect(failure(busy)[0]).toMatch(/^winnow: the state folder .*dd-lock-out\/\.dedup is being written by another winnow run/);
    writeFileSync(
      here("dd-lock-out", "..dedup.all.lock"),
      JSON.stringify({ host: hostname(), pid: deadPid(), started: "2026-01-01T00:00:00Z", id: "dead" }),
    );
    const r = await winnow(["dedup", input, "-o", "dd-lock-out"]);
    expect(r.code).toBe(0);
    expect(readdirSync(here("dd-lock-out")).filter((n) => n.endsWith(".lock"))).toEqual([]);
    expect(readFileSync(here("dd-lock-out", "a.jsonl"), "utf8")).toBe(expected);
    // An array task's lock names its index (from the scheduler too): another index is not held up.
    const live = JSON.stringify({ host: hostname(), pid: process.pid, started: NOW, id: "rank3" });
    writeFileSync(here("dd-lock-out", "..dedup.signatures-rank3of8.lock"), live);
    const signatures = ["dedup", input, "-o", "dd-lock-out", "--pass", "signatures", "--world-size", "8"];
    const same = await runWinnow(signatures, dir, undefined, { ...process.env, SLURM_ARRAY_TASK_ID: "3" });
    expect(same.code).toBe(75);
    const other = await runWinnow(signatures, dir, undefined, { ...process.env, SLURM_ARRAY_TASK_ID: "4" });
    expect([other.code, failure(other)]).toEqual([0, []]);
  });
});
