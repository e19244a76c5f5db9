import { describe, expect, it } from "vitest";
import type { CleanJob } from "./job.js";
import { indexedJobManifest } from "./k8s.js";
import { shellQuote, slurmArrayScript } from "./slurm.js";

const JOB: CleanJob = {
  pathsFile: "/shared/cc/warc.paths.gz",
  baseUrl: "https://data.commoncrawl.org/",
  output: "/shared/cc/out",
  tasks: 1000,
  maxRunning: 200,
  cpusPerTask: 16,
  memory: "32G",
  jobName: "cc-2024-10",
  winnow: "winnow",
  cleanArgs: ["--filters", "gopher,c4", "--langs", "en"],
};

describe("slurmArrayScript", () => {
  it("writes an array of `tasks` tasks, each running winnow clean with the world size and its CPUs as workers", () => {
    const script = slurmArrayScript(JOB, { time: "12:00:00", partition: "cpu", logDir: "/shared/logs/" });
    expect(script.split("\n").filter((l) => l.startsWith("#SBATCH"))).toEqual([
      "#SBATCH --job-name=cc-2024-10",
      "#SBATCH --array=0-999%200",
      "#SBATCH --ntasks=1",
      "#SBATCH --cpus-per-task=16",
      "#SBATCH --mem=32G",
      "#SBATCH --output=/shared/logs/cc-2024-10-%A_%a.log",
      "#SBATCH --time=12:00:00",
      "#SBATCH --partition=cpu",
    ]);
    expect(script).toContain(
      "\nexec winnow clean --paths-file /shared/cc/warc.paths.gz --base-url https://data.commoncrawl.org/ -o /shared/cc/out " +
        '--world-size 1000 --workers "$SLURM_CPUS_PER_TASK" --filters gopher,c4 --langs en\n',
    );
  });

  it("quotes what the shell would touch, and refuses flags the launcher sets", () => {
    expect(shellQuote("it's a $file")).toBe(`'it'\\''s a $file'`);
    expect(() => slurmArrayScript({ ...JOB, cleanArgs: ["--rank", "3"] })).toThrow(/--rank is set by the launcher/);
    expect(() => slurmArrayScript({ ...JOB, tasks: 0 })).toThrow(/--tasks must be a whole number >= 1/);
  });
});

describe("indexedJobManifest", () => {
  it("writes an Indexed Job of `tasks` completions mounting the shared volume", () => {
    const manifest = indexedJobManifest(
      { ...JOB, pathsFile: "/data/warc.paths.gz", output: "/data/out", memory: "32Gi" },
      { image: "ghcr.io/example/winnow:0.1", volumeClaim: "crawl", mountPath: "/data", envSecret: "aws", retriesPerIndex: 3 },
    );
    expect(manifest).toContain("kind: Job\n");
    expect(manifest).toContain("  completionMode: Indexed\n  completions: 1000\n  parallelism: 200\n  backoffLimitPerIndex: 3\n");
    expect(manifest).toContain(
      [
        "clean",
        "--paths-file",
        "/data/warc.paths.gz",
        "--base-url",
        "https://data.commoncrawl.org/",
        "-o",
        "/data/out",
        "--world-size",
        "1000",
        "--workers",
        "16",
      ]
        .map((w) => `            - "${w}"\n`)
        .join(""),
    );
    expect(manifest).toContain('persistentVolumeClaim: { claimName: "crawl" }');
    expect(manifest).toContain('limits: { cpu: "16", memory: "32Gi" }');
    expect(() => indexedJobManifest(JOB, { image: "x", volumeClaim: "crawl", mountPath: "/data", retriesPerIndex: 3 })).toThrow(
      /--paths-file must be a path inside the pods, under --mount-path \/data/,
    );
    // Outputs on S3 need no volume path.
    const toS3 = indexedJobManifest(
      { ...JOB, pathsFile: "/data/warc.paths.gz", output: "s3://bucket/cc/" },
      { image: "x", volumeClaim: "crawl", mountPath: "/data", retriesPerIndex: 3 },
    );
    expect(toS3).toContain('            - "s3://bucket/cc/"\n');
  });
});
