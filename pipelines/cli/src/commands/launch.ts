/**
 * `winnow launch slurm|k8s [clean|dedup]`: writes the jobs that run `winnow clean` tasks over a
 * paths list, or the passes of `winnow dedup` over their outputs (and, for Slurm with --submit,
 * submits them). Before writing anything it reads the arguments for the tasks with the tasks' own
 * parser and refuses what they would refuse. The writing is in @winnow/launch.
 */
import { mkdir, stat } from "node:fs/promises";
import { type Command, InvalidArgumentError, Option } from "commander";
import { InputError, OutputError, systemReason, UsageError } from "@winnow/errors";
import {
  CLEAN_LAUNCHER_FLAGS,
  type CleanJob,
  DEDUP_LAUNCHER_FLAGS,
  type DedupJob,
  DEFAULT_SCRATCH,
  DEFAULT_SIGNAL_SECONDS,
  DEFAULT_TIME,
  DEFAULT_TTL_SECONDS,
  IMAGE_PULL_POLICIES,
  indexedJobManifest,
  isUrl,
  type K8sOptions,
  k8sDedupChain,
  refuseLauncherFlags,
  type SlurmOptions,
  slurmArrayScript,
  slurmDedupChain,
  submitSlurm,
  submitSlurmChain,
} from "@winnow/launch";
import { readPathsList } from "@winnow/remote";
import { type NamedPath, refuseOutputsOverInputs, writeOutputFile } from "@winnow/writers";
import { createLogger } from "../logger.js";
import { parseCount } from "../parse.js";
import { type CleanFlags, checkPerInputFlags, registerClean } from "./clean.js";
import { registerDedup } from "./dedup.js";
import { parseTaskArguments } from "./launch-arguments.js";

type Scheduler = "slurm" | "k8s";

/** Flags every launcher takes. */
interface JobFlags {
  tasks: number;
  maxRunning?: number;
  cpusPerTask: number;
  mem?: string;
  jobName: string;
  winnow: string;
  write: string;
}

interface CleanLaunchFlags extends JobFlags {
  pathsFile: string;
  baseUrl?: string;
  output: string;
}

interface DedupLaunchFlags extends JobFlags {
  after?: string;
}

interface SlurmFlags extends Omit<SlurmOptions, "signalSeconds"> {
  submit?: boolean;
}

interface K8sFlags extends Omit<K8sOptions, "labels" | "ttlSeconds" | "deadlineSeconds"> {
  ttl: number;
  deadline?: number;
  label?: Record<string, string>;
}

const LAUNCH_HELP = `
winnow launch slurm|k8s [clean] writes an array job of winnow clean tasks: every task runs
winnow clean --paths-file ... --world-size <tasks> and finds its rank in the scheduler's
environment (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX). winnow launch slurm|k8s dedup writes
the four passes of winnow dedup as jobs that run one after the other, sharing one state folder.
The tasks' own flags go after "--" and are checked with the tasks' parser before anything is
written: winnow launch slurm --paths-file warc.paths -o out --tasks 100 -- --filters gopher.
Running a job again redoes only what has no done marker. A walk-through: docs/scale-out.md.`;

const IMAGE_HELP =
  "the container image with winnow installed: build it from the Dockerfile at the root of winnow's repository " +
  "(docker build -t REGISTRY/winnow:VERSION .; docs/scale-out.md) and push it where the cluster pulls from";

const IMAGE_NOTE = `
The image (--image): build it from the Dockerfile at the root of winnow's repository
(docker build -t REGISTRY/winnow:VERSION .; docs/scale-out.md) and push it where the
cluster pulls from.`;

/** "key=value" flags, collected. */
function parseLabel(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const match = /^([^=]+)=(.*)$/.exec(value);
  if (match === null) throw new InvalidArgumentError("expected key=value");
  return { ...previous, [match[1]]: match[2] };
}

/** Options of every launcher; `what` is clean or dedup. */
function jobOptions(command: Command, scheduler: Scheduler, what: "clean" | "dedup", writeDefault: string): Command {
  return command
    .requiredOption("--tasks <n>", "tasks in each array: each takes every n-th item", parseCount(1))
    .option("--max-running <n>", "tasks running at once (default: all)", parseCount(1))
    .option(
      "--cpus-per-task <n>",
      what === "clean"
        ? "CPUs per task; winnow clean runs as many worker threads, and above 8 the job gives Node a V8 platform thread per CPU (NODE_OPTIONS=--v8-pool-size)"
        : "CPUs per task",
      parseCount(1),
      what === "clean" ? 16 : 2,
    )
    .option(
      "--mem <size>",
      `memory per task, as the scheduler writes it (${scheduler === "slurm" ? "32G" : "32Gi"}); default: ${
        what === "clean" ? "(150 MB + 300 MB per worker) x 1.5, rounded up to 256 MB" : "4 GiB"
      }`,
    )
    .option("--job-name <name>", "the job's name (lowercase letters, digits, '-')", `winnow-${what}`)
    .option("--winnow <command>", "how the nodes run winnow", "winnow")
    .option("--write <file>", 'where to write the job ("-": standard output)', writeDefault);
}

function slurmOptions(command: Command): Command {
  return command
    .option("--time <limit>", "wall-clock limit per task, as sbatch takes it", DEFAULT_TIME)
    .option("--partition <name>", "the Slurm partition")
    .option("--account <name>", "the Slurm account")
    .option("--log-dir <folder>", "where the tasks' logs go, created if missing (default: where the job is submitted)")
    .option("--setup <shell line>", "a shell line run on the node before winnow, such as 'module load nodejs' (written as it is)")
    .addHelpText(
      "after",
      `\nEvery task is requeued when pre-empted (--requeue) and gets SIGTERM ${DEFAULT_SIGNAL_SECONDS} s before its time limit\n` +
        "(--signal=B:TERM@120): winnow stops cleanly, and the task run again resumes from the done markers.",
    );
}

function k8sOptions(command: Command): Command {
  return command
    .requiredOption("--image <image>", IMAGE_HELP)
    .addOption(
      new Option("--image-pull-policy <policy>", "when the nodes pull the image").choices(IMAGE_PULL_POLICIES).default("IfNotPresent"),
    )
    .option("--namespace <name>", "the Kubernetes namespace")
    .option(
      "--volume-claim <pvc>",
      "a ReadWriteMany PersistentVolumeClaim holding the inputs and the outputs (needed unless the outputs go to s3://)",
    )
    .option("--mount-path <path>", "where the pods mount it", "/data")
    .option("--env-secret <name>", "a Secret whose keys become the pods' environment variables (AWS credentials)")
    .option("--service-account <name>", "the pods' service account (for cloud credentials through workload identity)")
    .addOption(new Option("--retries-per-index <n>", "retries of one task before it counts as failed").argParser(parseCount(0)).default(3))
    .option("--ttl <seconds>", "seconds a finished Job is kept (with its pods' logs)", parseCount(0), DEFAULT_TTL_SECONDS)
    .option("--deadline <seconds>", "seconds the whole Job may run before Kubernetes stops it (default: no limit)", parseCount(1))
    .option("--scratch <size>", "each pod's scratch space (TMPDIR), where s3:// outputs are staged before upload", DEFAULT_SCRATCH)
    .option("--label <key=value>", "a label on the Job and its pods (repeatable)", parseLabel);
}

function k8sOf(flags: K8sFlags): K8sOptions {
  return { ...flags, ttlSeconds: flags.ttl, deadlineSeconds: flags.deadline, labels: flags.label };
}

/** Writes the job as winnow writes any output: atomically over a file, "-" to standard output. */
async function emit(text: string, path: string): Promise<void> {
  await writeOutputFile(path, text, { what: "the job", flag: "--write", stdout: true });
  // One format per stream, as for clean: a JSON line where stderr is not a terminal.
  if (path !== "-") createLogger("info").info({ path }, `wrote ${path}`);
}

/** The job file must not replace the paths list or an input (same file: device and inode, or real path). */
async function refuseWriteOverInputs(write: string, inputs: NamedPath[]): Promise<void> {
  if (write !== "-") await refuseOutputsOverInputs([{ path: write, flag: "--write" }], inputs);
}

/**
 * The paths list's inputs, read here to count them; null where it cannot be read from here (a
 * URL, or on Kubernetes a path inside the pods that is not on this machine), said in the log.
 */
async function listedInputs(flags: CleanLaunchFlags, scheduler: Scheduler): Promise<NamedPath[] | null> {
  if (isUrl(flags.pathsFile)) {
    createLogger("info").warn(
      { pathsFile: flags.pathsFile },
      `${flags.pathsFile} is not read here: its inputs are not counted against --tasks`,
    );
    return null;
  }
  if (
    scheduler === "k8s" &&
    !(await stat(flags.pathsFile).then(
      () => true,
      () => false,
    ))
  ) {
    createLogger("info").warn(
      { pathsFile: flags.pathsFile },
      `${flags.pathsFile} is not on this machine (a path inside the pods): its inputs are not counted against --tasks`,
    );
    return null;
  }
  const list = await readPathsList(flags.pathsFile, flags.baseUrl);
  if (list.length === 0) throw new InputError("the paths list names no input", `--paths-file ${flags.pathsFile}`);
  return list.map((input) => ({ path: input.location, flag: `--paths-file line ${input.index + 1}` }));
}

/** Everything a clean job is checked for before it is written; returns the job. */
async function checkedCleanJob(command: Command, scheduler: Scheduler, args: string[], flags: CleanLaunchFlags): Promise<CleanJob> {
  refuseLauncherFlags(args, CLEAN_LAUNCHER_FLAGS, `winnow launch ${scheduler}`);
  // What every task will parse, but --workers: it is the node's CPUs, which this machine may lack.
  const base = flags.baseUrl === undefined ? [] : ["--base-url", flags.baseUrl];
  const taskArgs = ["--paths-file", flags.pathsFile, ...base, "-o", flags.output, "--world-size", String(flags.tasks), ...args];
  const parsed = await parseTaskArguments(registerClean, "clean", taskArgs, args, command, scheduler);
  if (parsed.operands.length > 0) {
    throw new UsageError("the inputs come from --paths-file: give no inputs after --", `after -- ${parsed.operands[0]}`);
  }
  await checkPerInputFlags(parsed.operands, parsed.flags as unknown as CleanFlags);
  const inputs = await listedInputs(flags, scheduler);
  if (inputs !== null && flags.tasks > inputs.length) {
    throw new UsageError(
      `--tasks ${flags.tasks} is more than the ${inputs.length} inputs of the paths list: ${flags.tasks - inputs.length} tasks would have nothing to do; give --tasks ${inputs.length} or fewer`,
      `--paths-file ${flags.pathsFile}`,
    );
  }
  await refuseWriteOverInputs(flags.write, [
    { path: flags.pathsFile, flag: "--paths-file" },
    ...(inputs ?? []).filter((i) => !isUrl(i.path)),
  ]);
  return { pathsFile: flags.pathsFile, baseUrl: flags.baseUrl, output: flags.output, ...jobResources(flags), cleanArgs: args };
}

/** What a job takes from the launcher's own flags, whichever command its tasks run. */
function jobResources(flags: JobFlags): Pick<CleanJob, "tasks" | "maxRunning" | "cpusPerTask" | "memory" | "jobName" | "winnow"> {
  return {
    tasks: flags.tasks,
    maxRunning: flags.maxRunning,
    cpusPerTask: flags.cpusPerTask,
    memory: flags.mem,
    jobName: flags.jobName,
    winnow: flags.winnow,
  };
}

/** Everything a dedup job is checked for before it is written; returns the job and its paths. */
async function checkedDedupJob(
  command: Command,
  scheduler: Scheduler,
  args: string[],
  flags: DedupLaunchFlags,
): Promise<{ job: DedupJob; paths: Array<readonly [string, string, "input" | "output"]> }> {
  refuseLauncherFlags(args, DEDUP_LAUNCHER_FLAGS, `winnow launch ${scheduler} dedup`);
  const parsed = await parseTaskArguments(registerDedup, "dedup", args, args, command, scheduler);
  const output = parsed.flags.output as string;
  const state = (parsed.flags.state as string | undefined) ?? `${output.replace(/\/$/, "")}/.dedup`;
  const paths = [
    ...parsed.operands.map((input) => ["input", input, "input"] as const),
    ["-o", output, "output"] as const,
    ["--state", state, "output"] as const,
  ];
  await refuseWriteOverInputs(
    flags.write,
    paths.map(([flag, path]) => ({ flag, path })),
  );
  return {
    job: {
      ...jobResources(flags),
      dedupArgs: args,
      bucketItems: (parsed.flags.bands as number) + 1,
      chdir: process.cwd(),
      after: flags.after,
    },
    paths,
  };
}

/** sbatch does not create the folder of --output, and a task whose log cannot be opened fails. */
async function createLogDir(logDir: string | undefined): Promise<void> {
  if (logDir === undefined) return;
  await mkdir(logDir, { recursive: true }).catch((error: unknown) => {
    throw new OutputError(`cannot create the log folder: ${systemReason(error)}`, logDir, { cause: error });
  });
}

function submitPath(write: string): string {
  if (write === "-") throw new UsageError("--submit needs the script in a file: give --write <file>", "--write -");
  return write;
}

function cleanCommand(parent: Command, scheduler: Scheduler, writeDefault: string): Command {
  return jobOptions(
    parent
      .command("clean", { isDefault: true })
      .description(
        `write the ${scheduler === "slurm" ? "sbatch array script" : "Indexed Job"} of winnow clean tasks over a paths list (the default)`,
      )
      .argument("[clean-args...]", "more winnow clean flags, after --")
      .requiredOption("--paths-file <file>", "the paths list every task reads (on storage every node sees)")
      .option("--base-url <url>", "put before relative lines of the paths list (https://data.commoncrawl.org/)")
      .requiredOption("-o, --output <folder>", "the folder the outputs go in (on storage every node sees), or s3://bucket/prefix/"),
    scheduler,
    "clean",
    writeDefault,
  ).addHelpText("after", LAUNCH_HELP);
}

function dedupCommand(parent: Command, scheduler: Scheduler, writeDefault: string): Command {
  return jobOptions(
    parent
      .command("dedup")
      .description(
        `write a script that ${scheduler === "slurm" ? "submits" : "applies"} the passes of winnow dedup (signatures, buckets, clusters, filter) one after the other, sharing one state folder`,
      )
      .argument("<dedup-args...>", "winnow dedup's inputs, -o, --state and flags, after --"),
    scheduler,
    "dedup",
    writeDefault,
  ).addHelpText("after", LAUNCH_HELP);
}

export function registerLaunch(program: Command): void {
  const launch = program
    .command("launch")
    .summary("write (and submit) the jobs that clean a whole crawl and deduplicate it: Slurm or Kubernetes")
    .description("Write Slurm array scripts or Kubernetes Indexed Jobs whose tasks each clean, or deduplicate, their share.")
    .addHelpText("after", LAUNCH_HELP);

  const slurm = launch
    .command("slurm")
    .description("write sbatch array scripts (and submit them with --submit)")
    .helpCommand(false)
    .addHelpText("after", LAUNCH_HELP);
  const slurmClean = slurmOptions(cleanCommand(slurm, "slurm", "winnow-clean.sbatch")).option(
    "--submit",
    "submit the script with sbatch and print the job id",
  );
  slurmClean.action(async (args: string[], flags: CleanLaunchFlags & SlurmFlags) => {
    const submit = flags.submit === true ? submitPath(flags.write) : undefined;
    const script = slurmArrayScript(await checkedCleanJob(slurmClean, "slurm", args, flags), flags);
    await createLogDir(flags.logDir);
    await emit(script, flags.write);
    if (submit !== undefined) process.stdout.write(`${await submitSlurm(submit)}\n`);
  });
  const slurmDedup = slurmOptions(dedupCommand(slurm, "slurm", "winnow-dedup.sh"))
    .option("--after <jobid>", "start the first pass once this job (the clean job; several ids joined by ':') ended well")
    .option("--submit", "run the script: submit the passes with sbatch and print their job ids, one a line");
  slurmDedup.action(async (args: string[], flags: DedupLaunchFlags & SlurmFlags) => {
    const submit = flags.submit === true ? submitPath(flags.write) : undefined;
    const { job } = await checkedDedupJob(slurmDedup, "slurm", args, flags);
    const script = slurmDedupChain(job, flags);
    await createLogDir(flags.logDir);
    await emit(script, flags.write);
    if (submit !== undefined) process.stdout.write(`${(await submitSlurmChain(submit)).join("\n")}\n`);
  });

  const k8s = launch
    .command("k8s")
    .description("write Kubernetes Indexed Jobs (kubectl apply -f them)")
    .helpCommand(false)
    .addHelpText("after", `${IMAGE_NOTE}\n${LAUNCH_HELP}`);
  const k8sClean = k8sOptions(cleanCommand(k8s, "k8s", "winnow-clean-job.yaml"));
  k8sClean.action(async (args: string[], flags: CleanLaunchFlags & K8sFlags) => {
    const manifest = indexedJobManifest(await checkedCleanJob(k8sClean, "k8s", args, flags), k8sOf(flags));
    await emit(manifest, flags.write);
  });
  const k8sDedup = k8sOptions(dedupCommand(k8s, "k8s", "winnow-dedup-k8s.sh"));
  k8sDedup.action(async (args: string[], flags: DedupLaunchFlags & K8sFlags) => {
    const { job, paths } = await checkedDedupJob(k8sDedup, "k8s", args, flags);
    await emit(k8sDedupChain(job, k8sOf(flags), paths), flags.write);
  });
}
