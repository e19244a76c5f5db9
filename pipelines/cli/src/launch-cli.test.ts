// `winnow launch`: the sbatch script it writes, run as Slurm runs an array (one bash per task
// with its SLURM_ARRAY_* variables), cleans every input once; killed and run again, it redoes
// only what was lost. The same with a real Slurm is slurm-e2e.test.ts.
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
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

/** A slurmctld answers here (CI starts one with scripts/slurm-local.sh). */
const slurmUp = spawnSync("scontrol", ["ping"], { encoding: "utf8" }).stdout?.includes("UP") === true;

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
  it("picks no compression for Parquet outputs of per-input tasks, and their documents read back whole (DuckDB)", async () => {
    const script = join(dir, "parquet.sbatch");
    const out = join(dir, "out-parquet");
    const r = await runWinnow(
      [
        "launch",
        "slurm",
        "--paths-file",
        "warc.paths.gz",
        "--base-url",
        "mirror/",
        "-o",
        out,
        "--tasks",
        "2",
        "--cpus-per-task",
        "1",
        "--winnow",
        `${process.execPath} ${BIN}`,
        "--write",
        script,
        "--",
        "--format",
        "parquet",
        "--model",
        "heuristic",
        "--no-lang-id",
      ],
      dir,
    );
    expect(r.code).toBe(0);
    expect(await runArray(script, 2)).toEqual([0, 0]);
    const { files } = doneOutputs(out);
    expect(files).toHaveLength(5);
    for (const f of files) expect(f).toMatch(/\.parquet$/);
    const db = await (await DuckDBInstance.create(":memory:")).connect();
    const rows = (await db.runAndReadAll(`SELECT url, text FROM read_parquet('${out}/**/*.parquet') ORDER BY url, text`)).getRowObjects();
    const reference = (await singleRunDocuments(dir)).map((line) => JSON.parse(line) as { url: string; text: string });
    expect(rows.map((row) => [row.url, row.text])).toEqual(
      reference.map((d) => [d.url, d.text]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)),
    );
  }, 240_000);

  it("the old form and the explicit clean sub-verb write the same script", async () => {
    const args = ["--paths-file", "warc.paths.gz", "-o", "out", "--tasks", "2", "--write", "-", "--", "--filters", "gopher"];
    const old = await runWinnow(["launch", "slurm", ...args], dir);
    const explicit = await runWinnow(["launch", "slurm", "clean", ...args], dir);
    expect(old.code).toBe(0);
    expect(explicit.stdout).toBe(old.stdout);
    expect(old.stdout).toContain(" --filters gopher\n");
  });

  /** Each refusal: its status, its message, and no job written. */
  const REFUSALS: Array<[what: string, args: string[], code: number, message: RegExp]> = [
    ["an unknown clean flag", ["--", "--bogus"], 2, /^winnow: unknown option '--bogus' \(winnow clean flags after --\)$/],
    [
      "a bad clean value",
      ["--", "--langs", "english"],
      2,
      /^winnow: option '--langs <codes>' argument 'english' is invalid\. expected language codes/,
    ],
    ["Parquet compressed", ["--", "--format", "parquet", "--compress", "gz"], 2, /Parquet compresses its own pages/],
    ["--resume in a per-input run", ["--", "--resume"], 2, /--resume and --manifest do not apply/],
    ["--dedup in a per-input run", ["--", "--dedup", "exact"], 2, /run winnow dedup over them/],
    ["inputs after --", ["--", "mirror/seg/b.warc"], 2, /the inputs come from --paths-file: give no inputs after --/],
    ["a launcher flag after --", ["--", "--rank", "1"], 2, /--rank is set by the launcher/],
    [
      "a scheduler flag after --",
      ["--", "--partition", "cpu"],
      2,
      /--partition is a flag of winnow launch slurm, not of the tasks: give it before --/,
    ],
    ["an sbatch flag after --", ["--", "--qos", "high"], 2, /--qos is an sbatch flag that winnow launch does not write/],
    [
      "more tasks than inputs",
      ["--tasks", "1000"],
      2,
      /--tasks 1000 is more than the 5 inputs of the paths list: 995 tasks would have nothing to do/,
    ],
    ["a newline in a value", ["--partition", "cpu\nrm -rf ~"], 2, /may not hold a newline or control character/],
    ["a time sbatch would refuse", ["--time", "one day"], 2, /the time limit must be as sbatch takes it/],
    ["--submit without a script file", ["--submit", "--write", "-"], 2, /--submit needs the script in a file: give --write <file>/],
  ];

  for (const [what, extra, code, message] of REFUSALS) {
    it(`refuses ${what} before writing anything`, async () => {
      const write = join(dir, "refused.sbatch");
      const flags = extra.includes("--tasks") ? [] : ["--tasks", "2"];
      const at = extra.indexOf("--");
      const before = at < 0 ? extra : extra.slice(0, at);
      const after = at < 0 ? [] : extra.slice(at);
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
          ...flags,
          ...before,
          ...(before.includes("--write") ? [] : ["--write", write]),
          ...after,
        ],
        dir,
      );
      expect(stderrMessages(r.stderr).join("\n")).toMatch(message);
      expect(r.code).toBe(code);
      expect(existsSync(write)).toBe(false);
      expect(r.stdout).toBe("");
    });
  }

  it("refuses a paths list that is not there (exit 3), and a job file over the paths list or an input", async () => {
    const missing = await runWinnow(["launch", "slurm", "--paths-file", "nope.paths", "-o", "out", "--tasks", "1", "--write", "-"], dir);
    expect(missing.code).toBe(3);
    expect(stderrMessages(missing.stderr)).toEqual(["winnow: cannot read the paths list: no such file or directory (nope.paths)"]);
    const before = readFileSync(join(dir, "warc.paths.gz"));
    const overList = await runWinnow(
      ["launch", "slurm", "--paths-file", "warc.paths.gz", "-o", "out", "--tasks", "1", "--write", "warc.paths.gz"],
      dir,
    );
    expect(overList.code).toBe(2);
    expect(stderrMessages(overList.stderr).join("\n")).toMatch(/--write warc\.paths\.gz is also an input \(--paths-file warc\.paths\.gz\)/);
    // A hard link to an input is the same file: device and inode.
    linkSync(join(dir, "mirror", "seg", "b.warc"), join(dir, "linked.sbatch"));
    const overInput = await runWinnow(
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
        "1",
        "--write",
        "linked.sbatch",
      ],
      dir,
    );
    expect(overInput.code).toBe(2);
    expect(stderrMessages(overInput.stderr).join("\n")).toMatch(
      /--write linked\.sbatch is also an input \(--paths-file line 3 mirror\/seg\/b\.warc\)/,
    );
    expect(readFileSync(join(dir, "warc.paths.gz"))).toEqual(before);
    expect(readFileSync(join(dir, "linked.sbatch"))).toEqual(readFileSync(join(dir, "mirror", "seg", "b.warc")));
    unlinkSync(join(dir, "linked.sbatch"));
  });

  it("k8s refuses local outputs without a volume claim, and says which image to give", async () => {
    const r = await runWinnow(
      [
        "launch",
        "k8s",
        "--paths-file",
        "https://example.org/warc.paths.gz",
        "-o",
        "/data/out",
        "--tasks",
        "2",
        "--image",
        "winnow:dev",
        "--write",
        "-",
      ],
      dir,
    );
    expect(r.code).toBe(2);
    expect(stderrMessages(r.stderr, 50)).toEqual([
      "winnow: the outputs would be lost when the pods exit: give --volume-claim (a ReadWriteMany claim the pods mount), or -o s3://bucket/prefix/ (-o /data/out)",
    ]);
    const toS3 = await runWinnow(
      [
        "launch",
        "k8s",
        "--paths-file",
        "https://example.org/warc.paths.gz",
        "-o",
        "s3://bucket/cc/",
        "--tasks",
        "2",
        "--image",
        "winnow:dev",
        "--write",
        "-",
      ],
      dir,
    );
    expect(toS3.code).toBe(0);
    expect(toS3.stdout).toContain("emptyDir:");
    for (const verb of [[], ["clean"], ["dedup"]]) {
      const help = await runWinnow(["launch", "k8s", ...verb, "--help"], dir);
      expect(help.stdout).toMatch(/--image[\s\S]*Dockerfile at the root/);
    }
  });

  it("slurm dedup writes the passes as jobs chained with afterok, read with dedup's own parser", async () => {
    const write = join(dir, "dedup.sh");
    const r = await runWinnow(
      ["launch", "slurm", "dedup", "--tasks", "3", "--after", "41", "--write", write, "--", "out", "-o", "deduped", "--state", "state"],
      dir,
    );
    expect(r.code).toBe(0);
    const script = readFileSync(write, "utf8");
    expect(spawnSync("bash", ["-n", write]).status).toBe(0);
    expect(script).toContain("previous=41\n");
    expect(script.match(/^exec winnow dedup .*$/gm)).toEqual([
      "exec winnow dedup out -o deduped --state state --pass signatures --world-size 3",
      "exec winnow dedup out -o deduped --state state --pass buckets --world-size 3",
      "exec winnow dedup out -o deduped --state state --pass clusters",
      "exec winnow dedup out -o deduped --state state --pass filter --world-size 3",
    ]);
    // Relative paths resolve where the job was launched.
    expect(script).toContain(`#SBATCH --chdir=${dir}\n`);
    for (const [args, message] of [
      [["--", "out", "-o", "deduped", "--pass", "filter"], /--pass is set by the launcher/],
      [["--", "out", "-o", "deduped", "--bogus"], /unknown option '--bogus' \(winnow dedup flags after --\)/],
      [["--", "out"], /required option '-o, --output <dir>' not specified/],
      [["--", "out", "-o", "deduped", "--time", "5"], /--time is a flag of winnow launch slurm, not of the tasks/],
    ] as const) {
      const refused = await runWinnow(["launch", "slurm", "dedup", "--tasks", "3", "--write", write, ...args], dir);
      expect(stderrMessages(refused.stderr).join("\n")).toMatch(message);
      expect(refused.code).toBe(2);
    }
  });

  it("k8s dedup needs every path inside the pods", async () => {
    const r = await runWinnow(
      ["launch", "k8s", "dedup", "--tasks", "3", "--image", "w", "--volume-claim", "crawl", "--write", "-", "--", "out", "-o", "/data/dd"],
      dir,
    );
    expect(r.code).toBe(2);
    expect(stderrMessages(r.stderr)).toEqual(["winnow: input must be a path inside the pods, under --mount-path /data (input out)"]);
    const ok = await runWinnow(
      [
        "launch",
        "k8s",
        "dedup",
        "--tasks",
        "3",
        "--image",
        "w",
        "--volume-claim",
        "crawl",
        "--write",
        "-",
        "--",
        "/data/out",
        "-o",
        "/data/dd",
      ],
      dir,
    );
    expect(ok.code).toBe(0);
    expect(ok.stdout.match(/^kubectl apply -f - <<'WINNOW_MANIFEST_END'$/gm)).toHaveLength(4);
  });
  it("a task sent SIGTERM (Slurm's --signal=B:TERM, to the batch shell winnow was exec'ed into) stops cleanly; run again, it finishes", async () => {
    mkdirSync(join(dir, "many"), { recursive: true });
    const names = Array.from({ length: 30 }, (_, i) => `s${String(i).padStart(2, "0")}.warc.gz`);
    for (const name of names) copyFileSync(join(dir, "mirror", "seg", "sample.warc.gz"), join(dir, "many", name));
    writeFileSync(join(dir, "many.paths"), names.map((n) => `many/${n}`).join("\n"));
    const script = join(dir, "term.sbatch");
    const out = join(dir, "out-term");
    const r = await runWinnow(
      [
        "launch",
        "slurm",
        "--paths-file",
        "many.paths",
        "-o",
        out,
        "--tasks",
        "1",
        "--cpus-per-task",
        "1",
        "--winnow",
        `${process.execPath} ${BIN}`,
        "--write",
        script,
        "--",
        "--model",
        "heuristic",
        "--no-lang-id",
        "--compress",
        "none",
      ],
      dir,
    );
    expect(r.code).toBe(0);
    const env = {
      ...process.env,
      SLURM_ARRAY_TASK_ID: "0",
      SLURM_ARRAY_TASK_MIN: "0",
      SLURM_ARRAY_TASK_MAX: "0",
      SLURM_CPUS_PER_TASK: "1",
    };
    const task = spawn("bash", [script], { env, cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
    let log = "";
    // Once the first input is done, winnow is running with its signal handlers: SIGTERM to the script's process.
    task.stderr.on("data", (d: Buffer) => {
      log += d;
      if (log.includes("task 0 of 1") && !task.killed && existsSync(out) && doneOutputs(out).files.length > 0) task.kill("SIGTERM");
    });
    const code = await new Promise<number | null>((resolve) => task.on("close", resolve));
    expect(code).toBe(130);
    const partly = doneOutputs(out).files.length;
    expect(partly).toBeGreaterThan(0);
    expect(partly).toBeLessThan(30);
    // Requeued (or submitted again): only the rest is cleaned, and every output is whole.
    expect(await runTask(script, 0, 1)).toBe(0);
    const { files, documents } = doneOutputs(out);
    expect(files).toHaveLength(30);
    const one = join(dir, "one-sample.jsonl");
    const single = await runWinnow(["clean", join(dir, "many", names[0]), "-o", one, "--model", "heuristic", "--no-lang-id"], dir);
    expect(single.code).toBe(0);
    const perInput = readFileSync(one, "utf8")
      .split("\n")
      .filter((l) => l !== "").length;
    expect(perInput).toBeGreaterThan(0);
    expect(documents).toHaveLength(30 * perInput);
  }, 240_000);
  it.runIf(slurmUp || process.env.CI === "true")(
    "slurm dedup --submit on a real Slurm runs the passes in order, each after the one before",
    async () => {
      // The tasks run a recorder in place of winnow: what is checked here is the chain, not dedup.
      const record = join(dir, "record.sh");
      const log = join(dir, "passes.txt");
      writeFileSync(record, `#!/bin/bash\necho "\${SLURM_ARRAY_TASK_ID:--} $*" >> '${log}'\n`);
      chmodSync(record, 0o755);
      const r = await runWinnow(
        [
          ...["launch", "slurm", "dedup", "--tasks", "2", "--cpus-per-task", "1", "--mem", "100M", "--time", "5"],
          ...["--winnow", record, "--log-dir", join(dir, "dedup-logs"), "--write", join(dir, "chain.sh"), "--submit"],
          ...["--", "out", "-o", "deduped", "--state", "dedup-state"],
        ],
        dir,
      );
      expect(r.code).toBe(0);
      const ids = r.stdout.trim().split("\n");
      expect(ids).toHaveLength(4);
      for (const id of ids) expect(id).toMatch(/^\d+$/);
      for (let polls = 0; spawnSync("squeue", ["-h", "-j", ids.join(",")], { encoding: "utf8" }).stdout.trim() !== ""; polls++) {
        if (polls > 600) throw new Error("the dedup jobs were still queued after 2 minutes");
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const ran = readFileSync(log, "utf8").trim().split("\n");
      const passes = ran.map((line) => /--pass (\w+)/.exec(line)?.[1]);
      expect(passes).toEqual(["signatures", "signatures", "buckets", "buckets", "clusters", "filter", "filter"]);
      expect(ran.filter((l) => l.includes("--pass filter")).sort()).toEqual([
        "0 dedup out -o deduped --state dedup-state --pass filter --world-size 2",
        "1 dedup out -o deduped --state dedup-state --pass filter --world-size 2",
      ]);
      expect(ran.find((l) => l.includes("--pass clusters"))).toBe("- dedup out -o deduped --state dedup-state --pass clusters");
    },
    240_000,
  );
});
