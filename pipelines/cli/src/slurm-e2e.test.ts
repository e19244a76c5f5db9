// A real Slurm (scripts/slurm-local.sh sets one up on this machine): `winnow launch slurm
// --submit` runs a 4-task array over the fixture crawl, whose outputs together must hold the
// documents of one single-process run; then a task is killed, the script submitted again, and
// nothing may be missing or doubled. Skipped, with a note, where no Slurm answers.
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

/** Waits until Slurm no longer lists the job (all its tasks ended). */
async function waitFor(job: string): Promise<void> {
  const started = process.cpuUsage();
  for (let polls = 0; polls < 1200; polls++) {
    const queue = execFileSync("squeue", ["-h", "-j", job, "-o", "%i %t"], { encoding: "utf8" }).trim();
    if (queue === "") return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`job ${job} still queued after 300 s (${JSON.stringify(process.cpuUsage(started))})`);
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

    // Again into a new folder (the script is rewritten for it), killing task 2 as soon as the job is queued.
    const second = await runWinnow(launch("out2"), dir);
    const job2 = second.stdout.trim();
    execFileSync("scancel", ["--signal=KILL", `${job2}_2`]);
    await waitFor(job2);
    const cut = doneOutputs(join(dir, "out2"));
    console.log(`slurm-e2e: after killing task 2, ${cut.files.length} of 5 inputs were done`);
    // Whatever the kill took, nothing is doubled and nothing is there that should not be.
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
