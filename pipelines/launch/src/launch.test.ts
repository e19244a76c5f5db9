import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Job } from "kubernetes-models/batch/v1/Job";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import type { DedupJob } from "./dedup.js";
import type { CleanJob } from "./job.js";
import { indexedJobManifest, type K8sOptions, k8sDedupChain } from "./k8s.js";
import { cleanMemoryMib, v8PoolSizeFor, v8PoolSizeGiven } from "./resources.js";
import { slurmArrayScript, slurmDedupChain, slurmDedupScripts } from "./slurm.js";
import { shellQuote } from "./values.js";

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

const K8S: K8sOptions = { image: "ghcr.io/example/winnow:0.1", volumeClaim: "crawl", mountPath: "/data", retriesPerIndex: 3 };

const DEDUP: DedupJob = {
  tasks: 8,
  cpusPerTask: 2,
  jobName: "cc-dedup",
  winnow: "winnow",
  dedupArgs: ["/data/out", "-o", "/data/dedup", "--state", "/data/state"],
  bucketItems: 15,
  chdir: "/shared/cc",
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-launch-lib-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `bash -n`: the script parses. */
function bashSyntax(script: string): void {
  const file = join(dir, "syntax.sh");
  writeFileSync(file, script);
  const r = spawnSync("bash", ["-n", file], { encoding: "utf8" });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
}

/** A slurmctld answers here (CI starts one with scripts/slurm-local.sh). */
const slurmUp = spawnSync("scontrol", ["ping"], { encoding: "utf8" }).stdout?.includes("UP") === true;

/** The arguments the script's winnow receives: the script run with `winnow` replaced by a printer. */
function wordsRun(script: string, env: Record<string, string>): string[] {
  const printer = join(dir, "print-args.sh");
  writeFileSync(printer, "#!/bin/bash\nprintf '%s\\0' \"$@\"\n");
  chmodSync(printer, 0o755);
  const file = join(dir, "run.sh");
  writeFileSync(file, script);
  const out = execFileSync("bash", [file], { env: { ...process.env, ...env }, encoding: "utf8" });
  return out.split("\0").slice(0, -1);
}

describe("slurmArrayScript", () => {
  it("writes an array of `tasks` tasks, requeued when pre-empted and warned before the time limit, each running winnow clean", () => {
    const script = slurmArrayScript(JOB, { time: "12:00:00", partition: "cpu", logDir: "/shared/logs/" });
    expect(script.split("\n").filter((l) => l.startsWith("#SBATCH"))).toEqual([
      "#SBATCH --job-name=cc-2024-10",
      "#SBATCH --array=0-999%200",
      "#SBATCH --ntasks=1",
      "#SBATCH --cpus-per-task=16",
      "#SBATCH --mem=32G",
      "#SBATCH --time=12:00:00",
      "#SBATCH --output=/shared/logs/cc-2024-10-%A_%a.log",
      "#SBATCH --requeue",
      "#SBATCH --signal=B:TERM@120",
      "#SBATCH --partition=cpu",
    ]);
    // exec: winnow is the batch shell, so the B:TERM signal reaches it.
    expect(script).toContain(
      "\nexec winnow clean --paths-file /shared/cc/warc.paths.gz --base-url https://data.commoncrawl.org/ -o /shared/cc/out " +
        '--world-size 1000 --workers "$SLURM_CPUS_PER_TASK" --filters gopher,c4 --langs en\n',
    );
    bashSyntax(script);
  });

  it("has a day's time limit and memory from the workers unless told, and runs the setup line before winnow", () => {
    const script = slurmArrayScript({ ...JOB, memory: undefined, cpusPerTask: 2 }, { setup: "module load nodejs/20" });
    expect(script).toMatch(/^#SBATCH --time=24:00:00$/m);
    // 150 MB + 300 MB per worker, measured with 2 workers at 320 MB peak; x1.5, rounded up to 256 MiB.
    expect(cleanMemoryMib(2)).toBe(1280);
    expect(cleanMemoryMib(16)).toBe(7680);
    expect(script).toMatch(/^#SBATCH --mem=1280M$/m);
    expect(script).toMatch(/\nmodule load nodejs\/20\n(.*\n)*if \[ .*\n.*--v8-pool-size.*\nfi\nexec winnow clean /);
    bashSyntax(script);
  });

  it("gives a task of more than 8 CPUs one V8 platform thread per worker, read from Slurm at run time, keeping the user's NODE_OPTIONS", () => {
    const printer = join(dir, "print-node-options.sh");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's parameter expansion, written as it is
    writeFileSync(printer, '#!/bin/bash\nprintf "%s" "${NODE_OPTIONS-unset}"\n');
    chmodSync(printer, 0o755);
    const script = slurmArrayScript({ ...JOB, winnow: printer });
    bashSyntax(script);
    const run = (env: Record<string, string | undefined>): string => {
      const file = join(dir, "pool.sh");
      writeFileSync(file, script);
      const base = { ...process.env };
      delete base.NODE_OPTIONS;
      delete base.SLURM_CPUS_PER_TASK;
      return execFileSync("bash", [file], { env: { ...base, ...env }, encoding: "utf8" });
    };
    expect(run({ SLURM_CPUS_PER_TASK: "16" })).toBe("--v8-pool-size=16");
    expect(run({ SLURM_CPUS_PER_TASK: "9" })).toBe("--v8-pool-size=9");
    // sbatch --cpus-per-task=4 at submission overrides the script's 16: Node's own 4 then.
    expect(run({ SLURM_CPUS_PER_TASK: "8" })).toBe("unset");
    // The user's own options stay, after ours: a --v8-pool-size of theirs is read last and wins.
    expect(run({ SLURM_CPUS_PER_TASK: "32", NODE_OPTIONS: "--max-old-space-size=4096 --v8-pool-size=2" })).toBe(
      "--v8-pool-size=32 --max-old-space-size=4096 --v8-pool-size=2",
    );
    expect(run({ SLURM_CPUS_PER_TASK: "4", NODE_OPTIONS: "--max-old-space-size=4096" })).toBe("--max-old-space-size=4096");
    expect(v8PoolSizeFor(16)).toBe(16);
    expect(v8PoolSizeFor(8)).toBeUndefined();
    expect(v8PoolSizeFor(1)).toBeUndefined();
  });

  it("passes every value to winnow as it was given: quotes, spaces, $, and text like a placeholder", () => {
    const odd = join(dir, 'it\'s a $HOME __WORKERS__ "$SLURM_CPUS_PER_TASK"');
    const script = slurmArrayScript({
      ...JOB,
      pathsFile: join(odd, "paths"),
      output: odd,
      baseUrl: undefined,
      winnow: join(dir, "print-args.sh"),
      cleanArgs: ["--rejects", `${odd}/rejects`, "--langs", "en;rm -rf ~"],
    });
    bashSyntax(script);
    expect(wordsRun(script, { SLURM_CPUS_PER_TASK: "3" })).toEqual([
      "clean",
      "--paths-file",
      join(odd, "paths"),
      "-o",
      odd,
      "--world-size",
      "1000",
      "--workers",
      "3",
      "--rejects",
      `${odd}/rejects`,
      "--langs",
      "en;rm -rf ~",
    ]);
  });

  it("quotes a log folder with a space for sbatch, doubles its %, and refuses what sbatch cannot take", () => {
    const script = slurmArrayScript(JOB, { logDir: "/shared/my logs/100%" });
    expect(script).toContain('#SBATCH --output="/shared/my logs/100%%/cc-2024-10-%A_%a.log"\n');
    bashSyntax(script);
    expect(() => slurmArrayScript(JOB, { logDir: '/shared/"x"' })).toThrow(/may not hold a double quote/);
    expect(() => slurmArrayScript(JOB, { time: "a day" })).toThrow(/time limit must be as sbatch takes it/);
    for (const time of ["90", "12:00:00", "2-00:00:00", "1-12", "unlimited"]) expect(() => slurmArrayScript(JOB, { time })).not.toThrow();
  });

  it("refuses a newline or control character in any value written into the script", () => {
    const cases: Array<[string, () => unknown]> = [
      ["--partition", () => slurmArrayScript(JOB, { partition: "cpu\nrm -rf /" })],
      ["--account", () => slurmArrayScript(JOB, { account: "a\rb" })],
      ["--log-dir", () => slurmArrayScript(JOB, { logDir: "/logs\n#SBATCH --uid=0" })],
      ["--setup", () => slurmArrayScript(JOB, { setup: "module load x\ncurl evil | sh" })],
      ["--time", () => slurmArrayScript(JOB, { time: "1:00\n" })],
      ["--paths-file", () => slurmArrayScript({ ...JOB, pathsFile: "/a\nb" })],
      ["-o", () => slurmArrayScript({ ...JOB, output: "/out\u0007" })],
      ["--mem", () => slurmArrayScript({ ...JOB, memory: "4G\n" })],
      ["--winnow", () => slurmArrayScript({ ...JOB, winnow: "winnow\ttouch x" })],
      ["after --", () => slurmArrayScript({ ...JOB, cleanArgs: ["--langs", "en\nid"] })],
    ];
    for (const [flag, make] of cases) {
      expect(make, flag).toThrow(/may not hold a newline or control character/);
      try {
        make();
      } catch (error) {
        expect((error as { exitCode: number }).exitCode).toBe(2);
        expect((error as Error).message).toContain(`(${flag} `);
      }
    }
  });

  it("quotes what the shell would touch, and refuses flags the launcher sets", () => {
    expect(shellQuote("it's a $file")).toBe(`'it'\\''s a $file'`);
    expect(() => slurmArrayScript({ ...JOB, cleanArgs: ["--rank", "3"] })).toThrow(/--rank is set by the launcher/);
    expect(() => slurmArrayScript({ ...JOB, cleanArgs: ["--world-size=3"] })).toThrow(/--world-size is set by the launcher/);
    expect(() => slurmArrayScript({ ...JOB, cleanArgs: ["-o/tmp/x"] })).toThrow(/-o is set by the launcher/);
    expect(() => slurmArrayScript({ ...JOB, tasks: 0 })).toThrow(/--tasks must be a whole number >= 1/);
    expect(() => slurmArrayScript({ ...JOB, jobName: "Big Job" })).toThrow(/job name must be lowercase/);
  });

  it.runIf(slurmUp || process.env.CI === "true")("sbatch --test-only accepts the clean script and each dedup pass's", () => {
    const file = join(dir, "test-only.sbatch");
    writeFileSync(
      file,
      slurmArrayScript({ ...JOB, tasks: 2, maxRunning: undefined, memory: "100M", cpusPerTask: 1 }, { logDir: dir, time: "5" }),
    );
    const r = spawnSync("sbatch", ["--test-only", file], { encoding: "utf8" });
    expect(r.stderr).toMatch(/to start at/);
    for (const { pass, script } of slurmDedupScripts({ ...DEDUP, memory: "100M", cpusPerTask: 1 }, { logDir: dir, time: "5" })) {
      writeFileSync(file, script.replace(/^#SBATCH --chdir=.*$/m, `#SBATCH --chdir=${dir}`));
      expect(spawnSync("sbatch", ["--test-only", file], { encoding: "utf8" }).stderr, pass).toMatch(/to start at/);
    }
  });
});

/** A Job manifest read back and checked against the Kubernetes schema. */
function validJob(yamlText: string): Job {
  const job = new Job(parse(yamlText));
  job.validate();
  return job;
}

describe("indexedJobManifest", () => {
  it("writes an Indexed Job that passes the Kubernetes schema: failure policy, TTL, deadline, pull policy, labels, scratch", () => {
    const manifest = indexedJobManifest(
      { ...JOB, pathsFile: "/data/warc.paths.gz", output: "/data/out", memory: "32Gi" },
      {
        ...K8S,
        envSecret: "aws",
        namespace: "crawl",
        serviceAccount: "winnow-runner",
        imagePullPolicy: "Always",
        deadlineSeconds: 86400,
        labels: { team: "nlp" },
      },
    );
    const job = validJob(manifest);
    const spec = job.spec;
    expect(job.metadata?.namespace).toBe("crawl");
    expect(job.metadata?.labels).toEqual({
      "app.kubernetes.io/name": "winnow",
      "app.kubernetes.io/component": "clean",
      "app.kubernetes.io/instance": "cc-2024-10",
      "app.kubernetes.io/managed-by": "winnow-launch",
      team: "nlp",
    });
    expect(spec?.completionMode).toBe("Indexed");
    expect(spec?.completions).toBe(1000);
    expect(spec?.parallelism).toBe(200);
    expect(spec?.backoffLimitPerIndex).toBe(3);
    expect(spec?.podFailurePolicy?.rules).toEqual([
      { action: "FailIndex", onExitCodes: { containerName: "winnow", operator: "In", values: [2] } },
      { action: "Ignore", onPodConditions: [{ type: "DisruptionTarget", status: "True" }] },
    ]);
    expect(spec?.ttlSecondsAfterFinished).toBe(7 * 24 * 3600);
    expect(spec?.activeDeadlineSeconds).toBe(86400);
    const pod = spec?.template.spec;
    expect(pod?.restartPolicy).toBe("Never");
    expect(pod?.serviceAccountName).toBe("winnow-runner");
    const container = pod?.containers[0];
    expect(container?.imagePullPolicy).toBe("Always");
    expect(container?.command).toEqual([
      "winnow",
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
      "--filters",
      "gopher,c4",
      "--langs",
      "en",
    ]);
    expect(container?.resources?.limits).toEqual({ cpu: "16", memory: "32Gi" });
    expect(container?.envFrom).toEqual([{ secretRef: { name: "aws" } }]);
    // 16 CPUs: a V8 platform thread per worker (resources.ts); 8 or fewer: Node's own.
    expect(container?.env).toEqual([
      { name: "TMPDIR", value: "/scratch" },
      { name: "NODE_OPTIONS", value: "--v8-pool-size=16" },
    ]);
    const small = validJob(indexedJobManifest({ ...JOB, pathsFile: "/data/p", output: "/data/out", cpusPerTask: 8 }, K8S));
    expect(small.spec?.template.spec?.containers[0]?.env).toEqual([{ name: "TMPDIR", value: "/scratch" }]);
    expect(pod?.volumes).toEqual([
      { name: "scratch", emptyDir: { sizeLimit: "20Gi" } },
      { name: "data", persistentVolumeClaim: { claimName: "crawl" } },
    ]);
  });

  it("sizes memory from the workers in Kubernetes units", () => {
    const job = validJob(indexedJobManifest({ ...JOB, pathsFile: "/data/p", output: "/data/out", memory: undefined, cpusPerTask: 4 }, K8S));
    expect(job.spec?.template.spec?.containers[0].resources?.requests).toEqual({ cpu: "4", memory: "2048Mi" });
  });

  it("refuses outputs that would be lost with the pod, and paths the pods cannot see", () => {
    const noClaim = { ...K8S, volumeClaim: undefined };
    expect(() => indexedJobManifest({ ...JOB, pathsFile: "https://x/paths.gz", output: "/data/out" }, noClaim)).toThrow(
      /the outputs would be lost when the pods exit: give --volume-claim .* or -o s3:\/\/bucket\/prefix\/ \(-o \/data\/out\)/,
    );
    expect(() => indexedJobManifest({ ...JOB, pathsFile: "/data/paths.gz", output: "s3://b/out/" }, noClaim)).toThrow(
      /a local path is not in the pods/,
    );
    expect(() => indexedJobManifest(JOB, K8S)).toThrow(/--paths-file must be a path inside the pods, under --mount-path \/data/);
    // Outputs on S3 need no volume: the pods stage them in their scratch space.
    const toS3 = validJob(indexedJobManifest({ ...JOB, pathsFile: "s3://commoncrawl/paths.gz", output: "s3://bucket/cc/" }, noClaim));
    expect(toS3.spec?.template.spec?.volumes).toEqual([{ name: "scratch", emptyDir: { sizeLimit: "20Gi" } }]);
    expect(toS3.spec?.template.spec?.containers[0].command).toContain("s3://bucket/cc/");
  });

  it("refuses names and labels Kubernetes would refuse, and control characters", () => {
    const job = { ...JOB, pathsFile: "/data/p", output: "/data/out" };
    expect(() => indexedJobManifest(job, { ...K8S, labels: { "bad key": "x" } })).toThrow(/a label is key=value/);
    expect(() => indexedJobManifest(job, { ...K8S, labels: { team: "has space" } })).toThrow(/a label is key=value/);
    expect(() => indexedJobManifest(job, { ...K8S, namespace: "Crawl_NS" })).toThrow(/a Kubernetes name/);
    expect(() => indexedJobManifest(job, { ...K8S, serviceAccount: "a b" })).toThrow(/a Kubernetes name/);
    expect(() => indexedJobManifest(job, { ...K8S, image: "" })).toThrow(/an image is needed/);
    expect(() => indexedJobManifest(job, { ...K8S, image: "winnow\n  evil: 1" })).toThrow(/control character/);
    expect(() => indexedJobManifest({ ...job, cleanArgs: ["--langs", "en\n- x"] }, K8S)).toThrow(/control character/);
  });
});

describe("dedup jobs", () => {
  it("runs the four passes in order: buckets no wider than its bands, clusters one task, the state shared", () => {
    const scripts = slurmDedupScripts(DEDUP, { time: "4:00:00" });
    expect(scripts.map((s) => s.pass)).toEqual(["signatures", "buckets", "clusters", "filter"]);
    const execLines = scripts.map((s) => s.script.split("\n").find((l) => l.startsWith("exec ")));
    expect(execLines).toEqual([
      "exec winnow dedup /data/out -o /data/dedup --state /data/state --pass signatures --world-size 8",
      "exec winnow dedup /data/out -o /data/dedup --state /data/state --pass buckets --world-size 8",
      "exec winnow dedup /data/out -o /data/dedup --state /data/state --pass clusters",
      "exec winnow dedup /data/out -o /data/dedup --state /data/state --pass filter --world-size 8",
    ]);
    expect(scripts[2].script).not.toContain("--array");
    expect(scripts[0].script).toMatch(/^#SBATCH --chdir=\/shared\/cc$/m);
    for (const { script } of scripts) bashSyntax(script);
    const wide = slurmDedupScripts({ ...DEDUP, tasks: 100 });
    expect(wide[1].script).toMatch(/^#SBATCH --array=0-14$/m);
    expect(wide[1].script).toContain("--pass buckets --world-size 15\n");
    expect(() => slurmDedupScripts({ ...DEDUP, dedupArgs: ["in", "-o", "out", "--pass", "filter"] })).toThrow(
      /--pass is set by the launcher/,
    );
    expect(() => slurmDedupScripts({ ...DEDUP, dedupArgs: ["in", "-o", "out", "--shard", "1"] })).toThrow(/--shard is set by the launcher/);
  });

  it("submits the passes with sbatch, each after the one before (afterok), the first after --after", () => {
    const bin = join(dir, "fake-sbatch");
    rmSync(bin, { recursive: true, force: true });
    execFileSync("mkdir", ["-p", bin]);
    // A stand-in for sbatch: records its arguments and the script it reads, prints the next id.
    writeFileSync(
      join(bin, "sbatch"),
      `#!/bin/bash\nn=$(( $(cat "${bin}/count" 2>/dev/null || echo 100) + 1 ))\necho $n > "${bin}/count"\n` +
        `echo "$*" >> "${bin}/args"\ncat > "${bin}/script-$n"\necho "$n;cluster"\n`,
    );
    chmodSync(join(bin, "sbatch"), 0o755);
    const chain = join(dir, "chain.sh");
    writeFileSync(chain, slurmDedupChain({ ...DEDUP, after: "77" }));
    bashSyntax(readFileSync(chain, "utf8"));
    const out = execFileSync("bash", [chain, "--qos=high"], {
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
      encoding: "utf8",
    });
    expect(out).toBe("101\n102\n103\n104\n");
    expect(readFileSync(join(bin, "args"), "utf8")).toBe(
      [
        "--parsable --dependency=afterok:77 --kill-on-invalid-dep=yes --qos=high",
        "--parsable --dependency=afterok:101 --kill-on-invalid-dep=yes --qos=high",
        "--parsable --dependency=afterok:102 --kill-on-invalid-dep=yes --qos=high",
        "--parsable --dependency=afterok:103 --kill-on-invalid-dep=yes --qos=high",
        "",
      ].join("\n"),
    );
    // Each job got its pass's script, whole.
    expect(readFileSync(join(bin, "script-103"), "utf8")).toBe(`${slurmDedupScripts(DEDUP)[2].script}`);
    expect(() => slurmDedupChain({ ...DEDUP, after: "77; rm -rf /" })).toThrow(/--after takes Slurm job ids/);
  });

  it("on Kubernetes applies one valid Indexed Job per pass, each once the one before is complete", () => {
    const bin = join(dir, "fake-kubectl");
    execFileSync("mkdir", ["-p", bin]);
    // A stand-in for kubectl: keeps what is applied, and every Job is complete.
    writeFileSync(
      join(bin, "kubectl"),
      `#!/bin/bash\necho "$*" >> "${bin}/calls"\nif [ "$1" = apply ]; then cat >> "${bin}/applied"; echo ---  >> "${bin}/applied"; else echo -n "Complete"; fi\n`,
    );
    chmodSync(join(bin, "kubectl"), 0o755);
    const paths = [
      ["input", "/data/out", "input"],
      ["-o", "/data/dedup", "output"],
      ["--state", "/data/state", "output"],
    ] as const;
    const chain = join(dir, "k8s-chain.sh");
    writeFileSync(chain, k8sDedupChain(DEDUP, { ...K8S, namespace: "crawl" }, paths));
    bashSyntax(readFileSync(chain, "utf8"));
    const out = execFileSync("bash", [chain], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, encoding: "utf8" });
    expect(out.trim().split("\n")).toEqual(["signatures", "buckets", "clusters", "filter"].map((p) => `cc-dedup-${p}: complete`));
    const calls = readFileSync(join(bin, "calls"), "utf8").trim().split("\n");
    expect(calls[0]).toBe("apply --namespace crawl -f -");
    expect(calls[1]).toMatch(/^get job cc-dedup-signatures --namespace crawl -o /);
    const jobs = parseAllDocuments(readFileSync(join(bin, "applied"), "utf8"))
      .map((d) => d.toJS())
      .filter((d) => d !== null)
      .map((d) => {
        const job = new Job(d);
        job.validate();
        return job;
      });
    expect(jobs.map((j) => [j.metadata?.name, j.spec?.completions])).toEqual([
      ["cc-dedup-signatures", 8],
      ["cc-dedup-buckets", 8],
      ["cc-dedup-clusters", 1],
      ["cc-dedup-filter", 8],
    ]);
    expect(jobs[2].spec?.template.spec?.containers[0].command).toEqual([
      "winnow",
      "dedup",
      "/data/out",
      "-o",
      "/data/dedup",
      "--state",
      "/data/state",
      "--pass",
      "clusters",
    ]);
    expect(() => k8sDedupChain(DEDUP, { ...K8S, volumeClaim: undefined }, paths)).toThrow(/outputs would be lost|not in the pods/);
  });
});

describe("v8PoolSizeGiven", () => {
  it("reads --v8-pool-size from the command line before NODE_OPTIONS, the last of each, in both spellings", () => {
    expect(v8PoolSizeGiven([], undefined)).toBeUndefined();
    expect(v8PoolSizeGiven(["--max-old-space-size=4096"], "--enable-source-maps")).toBeUndefined();
    expect(v8PoolSizeGiven([], "--v8-pool-size=16")).toBe(16);
    expect(v8PoolSizeGiven([], "  --v8-pool-size 12  --v8-pool-size=6 ")).toBe(6);
    expect(v8PoolSizeGiven(["--v8-pool-size=8"], "--v8-pool-size=16")).toBe(8);
    expect(v8PoolSizeGiven(["--v8-pool-size", "0"], undefined)).toBe(0);
    // A flag with no value after it gives nothing.
    expect(v8PoolSizeGiven(["--v8-pool-size"], undefined)).toBeUndefined();
  });
});
