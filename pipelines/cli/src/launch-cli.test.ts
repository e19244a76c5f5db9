// `winnow launch`: the sbatch script it writes, run as Slurm runs an array (one bash per task
// with its SLURM_ARRAY_* variables), cleans every input once; killed and run again, it redoes
// only what was lost. The same with a real Slurm is slurm-e2e.test.ts.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, runWinnow, stderrMessages } from "../test/run-winnow.js";
import { doneOutputs, fixtureCrawl, singleRunDocuments } from "../test/crawl-fixture.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-launch-"));
  fixtureCrawl(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the script as task `rank` of a Slurm array of `tasks`, as slurmd would; resolves with its exit status. */
function runTask(script: string, rank: number, tasks: number): Promise<number | null> {
  const env = {
    ...process.env,
    SLURM_ARRAY_TASK_ID: String(rank),
    SLURM_ARRAY_TASK_MIN: "0",
    SLURM_ARRAY_TASK_MAX: String(tasks - 1),
    SLURM_CPUS_PER_TASK: "1",
  };
  return new Promise((resolve) => spawn("bash", [script], { env, cwd: dir, stdio: "ignore" }).on("close", resolve));
}

/** All tasks of the array at once, as Slurm starts them. */
const runArray = (script: string, tasks: number) => Promise.all(Array.from({ length: tasks }, (_, rank) => runTask(script, rank, tasks)));

describe("winnow launch slurm", () => {
  it("writes a script whose tasks together clean every input once; a task run again redoes only what was lost", async () => {
    const script = join(dir, "job.sbatch");
    const out = join(dir, "out");
    const r = await runWinnow(
      [
        "launch",
        "slurm",
        "--paths-file",
        "warc.paths.gz",
        "--base-url",
        "mirror/",
        "-o",
        "out",
        "--tasks",
        "4",
        "--cpus-per-task",
        "1",
        "--winnow",
        `${process.execPath} ${BIN}`,
        "--write",
        script,
        "--log-dir",
        "logs/run",
        "--",
        "--model",
        "heuristic",
        "--no-lang-id",
        "--compress",
        "none",
      ],
      dir,
    );
    expect(stderrMessages(r.stderr)).toEqual([`winnow: wrote ${script}`]);
    expect(r.code).toBe(0);
    expect(readFileSync(script, "utf8")).toMatch(/^#SBATCH --array=0-3$/m);
    // sbatch does not create the log folder, and a task whose log cannot be opened fails.
    expect(readFileSync(script, "utf8")).toContain(`#SBATCH --output=${join(dir, "logs", "run")}/winnow-clean-%A_%a.log\n`);
    expect(existsSync(join(dir, "logs", "run"))).toBe(true);
    expect(await runArray(script, 4)).toEqual([0, 0, 0, 0]);
    const reference = await singleRunDocuments(dir);
    expect(doneOutputs(out).documents).toEqual(reference);

    // Task 1 killed before it finished: its output and marker for one input are gone.
    const lost = doneOutputs(out).files.find((f) => f.includes("b."));
    expect(lost).toBeDefined();
    unlinkSync(join(out, `${lost}.done`));
    unlinkSync(join(out, lost as string));
    expect(await runArray(script, 4)).toEqual([0, 0, 0, 0]);
    expect(doneOutputs(out).documents).toEqual(reference);
  }, 240_000);

  it("k8s writes an Indexed Job manifest", async () => {
    const r = await runWinnow(
      [
        "launch",
        "k8s",
        "--paths-file",
        "/data/warc.paths.gz",
        "-o",
        "/data/out",
        "--tasks",
        "8",
        "--image",
        "winnow:dev",
        "--volume-claim",
        "crawl",
        "--write",
        "-",
      ],
      dir,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("completionMode: Indexed\n  completions: 8\n");
  });

  it("--submit without Slurm says so", async () => {
    const r = await runWinnow(
      ["launch", "slurm", "--paths-file", "warc.paths.gz", "-o", "out", "--tasks", "2", "--write", join(dir, "x.sbatch"), "--submit"],
      dir,
      undefined,
      { ...process.env, PATH: "/nonexistent" },
    );
    expect(r.code).toBe(2);
    expect(stderrMessages(r.stderr).join("\n")).toMatch(/winnow: cannot submit: sbatch is not on the PATH/);
  });
});
