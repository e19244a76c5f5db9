// A real Slurm (scripts/slurm-local.sh sets one up on this machine): `winnow launch slurm
// --submit` runs a 4-task array over the fixture crawl, whose outputs together must hold the
// documents of one single-process run; then a running task is cancelled (scancel), the script
// submitted again, and nothing may be missing or doubled. Skipped, with a note, where no Slurm answers.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { doneOutputs, fixtureCrawl, singleRunDocuments } from "../test/crawl-fixture.js";
import { BIN, runWinnow } from "../test/run-winnow.js";

const slurmUp = spawnSync("sinfo", ["-h", "-o", "%t"], { encoding: "utf8" });
const available = slurmUp.status === 0 && /idle|mix|alloc/.test(slurmUp.stdout);
if (!available) {
  console.log("slurm-e2e: skipped: no Slurm answers here (sinfo); scripts/slurm-local.sh installs and starts one (as root)");
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-slurm-"));
  fixtureCrawl(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Waits until a task of an array is running. */
async function waitUntilRunning(task: string): Promise<void> {
  for (let polls = 0; polls < 6000; polls++) {
    const state = execFileSync("squeue", ["-h", "-j", task, "-o", "%t"], { encoding: "utf8" }).trim();
    if (state === "R") return;
    if (state === "" && polls > 20) throw new Error(`task ${task} ended before it could be cancelled`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${task} never started`);
}

/** Waits until Slurm no longer lists the job (all its tasks ended). */
async function waitFor(job: string): Promise<void> {
  for (let polls = 0; polls < 1200; polls++) {
    const queue = execFileSync("squeue", ["-h", "-j", job, "-o", "%i %t"], { encoding: "utf8" }).trim();
    if (queue === "") return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`job ${job} still queued after 1,200 polls (5 minutes)`);
}

describe.skipIf(!available)("winnow launch slurm --submit on a real Slurm", () => {
  it("a 4-task array writes every document once; a killed task's inputs are redone by submitting again", async () => {
    const script = join(dir, "job.sbatch");
    const launch = (out: string): string[] => [
      ...["launch", "slurm", "--paths-file", "warc.paths.gz", "--base-url", "mirror/", "-o", out, "--tasks", "4"],
      ...["--cpus-per-task", "1", "--mem", "400M", "--winnow", `${process.execPath} ${BIN}`, "--log-dir", dir],
      ...["--write", script, "--submit", "--", "--model", "heuristic", "--no-lang-id", "--compress", "none"],
    ];
    const reference = await singleRunDocuments(dir);

    const first = await runWinnow(launch("out"), dir);
    expect(first.stderr).not.toMatch(/internal error/);
    expect(first.code).toBe(0);
    const job = first.stdout.trim();
    expect(job).toMatch(/^\d+$/);
    await waitFor(job);
    expect(doneOutputs(join(dir, "out")).documents).toEqual(reference);

    // Again into a new folder (the script is rewritten for it), cancelling task 2 once it runs:
    // Slurm sends it SIGTERM, winnow stops, and its input is left without a done marker.
    const second = await runWinnow(launch("out2"), dir);
    const job2 = second.stdout.trim();
    await waitUntilRunning(`${job2}_2`);
    execFileSync("scancel", [`${job2}_2`]);
    await waitFor(job2);
    const cut = doneOutputs(join(dir, "out2"));
    // Task 2 of 4 had input 2 of the list (seg/b.warc): it is missing, the others are there, none doubled.
    expect(cut.files).toEqual(["seg/a.jsonl", "seg/c.jsonl", "seg/d.jsonl", "seg/sample.jsonl"]);
    expect(new Set(cut.documents).size).toBe(cut.documents.length);
    expect(cut.documents.every((d) => reference.includes(d))).toBe(true);
    const before = new Map(cut.files.map((f) => [f, statSync(join(dir, "out2", f)).mtimeMs]));

    const resubmitted = execFileSync("sbatch", ["--parsable", script], { cwd: dir, encoding: "utf8" });
    expect(resubmitted).toMatch(/^\d+/);
    await waitFor(resubmitted.trim());
    const whole = doneOutputs(join(dir, "out2"));
    expect(whole.documents).toEqual(reference);
    // Inputs done before the kill were not redone.
    for (const [file, mtime] of before) expect(statSync(join(dir, "out2", file)).mtimeMs).toBe(mtime);
  }, 600_000);
});
