/**
 * `winnow launch slurm|k8s`: writes the array job that runs `winnow clean` tasks over a paths
 * list (and, for Slurm with --submit, submits it). All the writing is in @winnow/launch.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { type Command, Option } from "commander";
import { OutputError, systemReason } from "@winnow/errors";
import { type CleanJob, indexedJobManifest, type K8sOptions, type SlurmOptions, slurmArrayScript, submitSlurm } from "@winnow/launch";
import { createLogger } from "../logger.js";
import { parseCount } from "../parse.js";

/** The job's flags are the fields of CleanJob, but for --mem (its memory) and --write. */
interface LaunchFlags extends Omit<CleanJob, "memory" | "cleanArgs"> {
  mem: string;
  write: string;
}

/** The scheduler's own flags are its options in @winnow/launch, named alike. */
interface SlurmFlags extends LaunchFlags, SlurmOptions {
  submit?: boolean;
}

interface K8sFlags extends LaunchFlags, K8sOptions {}

const LAUNCH_HELP = `
Every task runs winnow clean --paths-file ... --world-size <tasks> and finds its rank in the
scheduler's environment (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX). Flags for winnow clean go
after "--": winnow launch slurm ... -- --filters gopher --langs en. Running the job again redoes
only inputs without a done marker. A worked Common Crawl example: docs/scale-out.md.`;

function jobOptions(command: Command, memoryDefault: string, writeDefault: string): Command {
  return command
    .argument("[clean-args...]", "more winnow clean flags, after --")
    .requiredOption("--paths-file <file>", "the paths list every task reads (on storage every node sees)")
    .option("--base-url <url>", "put before relative lines of the paths list (https://data.commoncrawl.org/)")
    .requiredOption("-o, --output <folder>", "the folder the outputs go in (on storage every node sees)")
    .requiredOption("--tasks <n>", "tasks in the array: each takes every n-th input", parseCount(1))
    .option("--max-running <n>", "tasks running at once (default: all)", parseCount(1))
    .option("--cpus-per-task <n>", "CPUs per task; winnow clean runs as many worker threads", parseCount(1), 16)
    .option("--mem <size>", `memory per task, as the scheduler writes it`, memoryDefault)
    .option("--job-name <name>", "the job's name (lowercase letters, digits, '-')", "winnow-clean")
    .option("--winnow <command>", "how the nodes run winnow", "winnow")
    .option("--write <file>", 'where to write the job ("-": standard output)', writeDefault);
}

function jobOf(flags: LaunchFlags, cleanArgs: string[]): CleanJob {
  return {
    pathsFile: flags.pathsFile,
    baseUrl: flags.baseUrl,
    output: flags.output,
    tasks: flags.tasks,
    maxRunning: flags.maxRunning,
    cpusPerTask: flags.cpusPerTask,
    memory: flags.mem,
    jobName: flags.jobName,
    winnow: flags.winnow,
    cleanArgs,
  };
}

async function emit(text: string, path: string): Promise<void> {
  if (path === "-") {
    process.stdout.write(text);
    return;
  }
  await writeFile(path, text, { mode: 0o755 }).catch((error: unknown) => {
    throw new OutputError(`cannot write the job: ${systemReason(error)}`, path, { cause: error });
  });
  // One format per stream, as for clean: a JSON line where stderr is not a terminal.
  createLogger("info").info({ path }, `wrote ${path}`);
}

export function registerLaunch(program: Command): void {
  const launch = program
    .command("launch")
    .summary("write (and submit) the array job that cleans a whole crawl: Slurm or Kubernetes")
    .description("Write a Slurm array script or a Kubernetes Indexed Job whose tasks each clean their share of a paths list.")
    .addHelpText("after", LAUNCH_HELP);

  jobOptions(
    launch.command("slurm").description("write an sbatch array script (and submit it with --submit)"),
    "32G",
    "winnow-clean.sbatch",
  )
    .option("--time <limit>", "wall-clock limit per task, as sbatch takes it (24:00:00)")
    .option("--partition <name>", "the Slurm partition")
    .option("--account <name>", "the Slurm account")
    .option("--log-dir <folder>", "where the tasks' logs go, created if missing (default: where the job is submitted)")
    .option("--submit", "submit the script with sbatch and print the job id")
    .addHelpText("after", LAUNCH_HELP)
    .action(async (cleanArgs: string[], flags: SlurmFlags) => {
      const script = slurmArrayScript(jobOf(flags, cleanArgs), flags);
      // sbatch does not create the folder of --output, and a task whose log cannot be opened fails.
      if (flags.logDir !== undefined) {
        await mkdir(flags.logDir, { recursive: true }).catch((error: unknown) => {
          throw new OutputError(`cannot create the log folder: ${systemReason(error)}`, flags.logDir as string, { cause: error });
        });
      }
      await emit(script, flags.write);
      if (flags.submit === true) {
        const path = flags.write === "-" ? "" : flags.write;
        if (path === "") throw new OutputError("--submit needs the script in a file: give --write <file>", "--write -");
        process.stdout.write(`${await submitSlurm(path)}\n`);
      }
    });

  jobOptions(
    launch.command("k8s").description("write a Kubernetes Indexed Job manifest (kubectl apply -f it)"),
    "32Gi",
    "winnow-clean-job.yaml",
  )
    .requiredOption("--image <image>", "the container image with winnow installed")
    .option("--namespace <name>", "the Kubernetes namespace")
    .option("--volume-claim <pvc>", "a ReadWriteMany PersistentVolumeClaim holding the paths list and the outputs")
    .option("--mount-path <path>", "where the pods mount it", "/data")
    .option("--env-secret <name>", "a Secret whose keys become the pods' environment variables")
    .addOption(new Option("--retries-per-index <n>", "retries of one task before it counts as failed").argParser(parseCount(0)).default(3))
    .addHelpText("after", LAUNCH_HELP)
    .action(async (cleanArgs: string[], flags: K8sFlags) => {
      const manifest = indexedJobManifest(jobOf(flags, cleanArgs), flags);
      await emit(manifest, flags.write);
    });
}
