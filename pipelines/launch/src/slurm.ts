/**
 * Slurm array jobs: sbatch scripts whose array tasks each run winnow on their share (winnow reads
 * SLURM_ARRAY_TASK_ID itself). A task near its time limit gets SIGTERM two minutes early
 * (--signal=B:TERM@120; the script execs winnow, so winnow is the batch shell and gets it) and
 * ends cleanly; a pre-empted one gets SIGTERM too and Slurm requeues it (--requeue). Every run
 * redoes only what has no done marker.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { UsageError } from "@winnow/errors";
import { type DedupJob, dedupCommand, dedupPasses } from "./dedup.js";
import { absolute, type CleanJob, checkJob, cleanArguments, winnowWords } from "./job.js";
import { cleanMemoryMib, DEDUP_MEMORY_MIB, memoryString, V8_POOL_ABOVE_WORKERS } from "./resources.js";
import { checkValue, shellCommand, type Word } from "./values.js";

export interface SlurmOptions {
  /** Wall-clock limit per task, as sbatch takes it; default DEFAULT_TIME. */
  time?: string;
  partition?: string;
  account?: string;
  /** Folder of the tasks' log files (%A_%a); default: where the job is submitted. */
  logDir?: string;
  /** A shell line run before winnow on the node ("module load nodejs"): shell code, written as it is. */
  setup?: string;
  /** Seconds before the time limit (or pre-emption) that winnow gets SIGTERM to stop cleanly. */
  signalSeconds?: number;
}

/** A day: long enough for a share of a large crawl, short enough for most partitions' limits. */
export const DEFAULT_TIME = "24:00:00";
export const DEFAULT_SIGNAL_SECONDS = 120;

/** One array (or single) job: its name, its size and what each task runs. */
interface ArraySpec {
  jobName: string;
  /** Tasks in the array; undefined: a single task, no array. */
  arraySize?: number;
  maxRunning?: number;
  cpusPerTask: number;
  memory: string;
  /** Where relative paths resolve; default: where the job is submitted. */
  chdir?: string;
  command: readonly Word[];
  comment: readonly string[];
  /** Shell lines run on the node after --setup, before winnow: written by winnow, not the user. */
  environment?: readonly string[];
}

/** Time limits sbatch accepts: minutes, [days-]hours:minutes[:seconds], or unlimited. */
function checkTime(time: string): void {
  checkValue("--time", time);
  if (!/^(\d+|\d+-\d+(:\d+){0,2}|\d+:\d+(:\d+)?|unlimited|infinite)$/i.test(time)) {
    throw new UsageError("the time limit must be as sbatch takes it: minutes, HH:MM:SS, D-HH:MM:SS or unlimited", `--time ${time}`);
  }
}

/**
 * One "#SBATCH --name=value" line. sbatch splits these lines on white space unless it is inside
 * double quotes, so a value with a space is quoted; one with a double quote cannot be written.
 */
function sbatchLine(option: string, value: string): string {
  checkValue(`--${option}`, value);
  if (value.includes('"')) throw new UsageError("a Slurm option's value may not hold a double quote", `--${option} ${value}`);
  return `#SBATCH --${option}=${/\s|'|#/.test(value) ? `"${value}"` : value}`;
}

function sbatchScript(spec: ArraySpec, slurm: SlurmOptions): string {
  const time = slurm.time ?? DEFAULT_TIME;
  checkTime(time);
  const signal = slurm.signalSeconds ?? DEFAULT_SIGNAL_SECONDS;
  if (!Number.isInteger(signal) || signal < 0 || signal > 65535) {
    throw new UsageError("the signal lead time must be whole seconds from 0 to 65535", `--signal-seconds ${signal}`);
  }
  if (slurm.logDir !== undefined) checkValue("--log-dir", slurm.logDir);
  // In a log file name sbatch reads %A, %a, ...; a % of the folder's own name is written %%.
  const logs = slurm.logDir === undefined ? "" : `${absolute(slurm.logDir).replace(/\/$/, "").replaceAll("%", "%%")}/`;
  const lines = ["#!/bin/bash", sbatchLine("job-name", spec.jobName)];
  if (spec.arraySize !== undefined) {
    const limit = spec.maxRunning === undefined ? "" : `%${spec.maxRunning}`;
    lines.push(sbatchLine("array", `0-${spec.arraySize - 1}${limit}`));
  }
  lines.push(
    "#SBATCH --ntasks=1",
    sbatchLine("cpus-per-task", String(spec.cpusPerTask)),
    sbatchLine("mem", spec.memory),
    sbatchLine("time", time),
    sbatchLine("output", `${logs}${spec.jobName}-${spec.arraySize === undefined ? "%j" : "%A_%a"}.log`),
    // Pre-empted or out of time: SIGTERM to winnow, which finishes what it can and exits 130.
    "#SBATCH --requeue",
    sbatchLine("signal", `B:TERM@${signal}`),
  );
  if (spec.chdir !== undefined) lines.push(sbatchLine("chdir", spec.chdir));
  if (slurm.partition !== undefined) lines.push(sbatchLine("partition", slurm.partition));
  if (slurm.account !== undefined) lines.push(sbatchLine("account", slurm.account));
  lines.push("#", ...spec.comment.map((c) => `# ${c}`), "set -euo pipefail");
  if (slurm.setup !== undefined) {
    checkValue("--setup", slurm.setup);
    lines.push(slurm.setup);
  }
  lines.push(...(spec.environment ?? []));
  lines.push(`exec ${shellCommand(spec.command)}`, "");
  return lines.join("\n");
}

/** The sbatch script of a `winnow clean` array job. */
export function slurmArrayScript(job: CleanJob, slurm: SlurmOptions = {}): string {
  checkJob(job);
  const args = cleanArguments(
    job,
    {
      pathsFile: absolute(job.pathsFile),
      output: absolute(job.output),
      baseUrl: job.baseUrl === undefined ? undefined : absolute(job.baseUrl),
    },
    { shell: '"$SLURM_CPUS_PER_TASK"' },
  );
  return sbatchScript(
    {
      jobName: job.jobName,
      arraySize: job.tasks,
      maxRunning: job.maxRunning,
      cpusPerTask: job.cpusPerTask,
      memory: job.memory ?? memoryString(cleanMemoryMib(job.cpusPerTask), "slurm"),
      command: [...winnowWords(job.winnow), ...args],
      // Read at run time: sbatch --cpus-per-task on the command line overrides the script's.
      environment: [
        `# Above ${V8_POOL_ABOVE_WORKERS} worker threads, a V8 platform thread per worker (Node starts 4 for all): docs/speed.md.`,
        `if [ "\${SLURM_CPUS_PER_TASK:-1}" -gt ${V8_POOL_ABOVE_WORKERS} ]; then`,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's parameter expansion, written as it is
        '  export NODE_OPTIONS="--v8-pool-size=$SLURM_CPUS_PER_TASK${NODE_OPTIONS:+ $NODE_OPTIONS}"',
        "fi",
      ],
      comment: [
        "Written by winnow launch slurm. Task R of the array cleans inputs i of the paths list with",
        `i mod ${job.tasks} = R (winnow reads SLURM_ARRAY_TASK_ID), one output per input, each marked done;`,
        "a task pre-empted is requeued, one out of time stops cleanly; requeued or submitted again, a",
        "task redoes only what failed or was cut short.",
      ],
    },
    slurm,
  );
}

/** The sbatch script of each pass of a dedup job, in order. */
export function slurmDedupScripts(job: DedupJob, slurm: SlurmOptions = {}): { pass: string; script: string }[] {
  return dedupPasses(job).map(({ pass, tasks }) => ({
    pass,
    script: sbatchScript(
      {
        jobName: `${job.jobName}-${pass}`,
        arraySize: pass === "clusters" ? undefined : tasks,
        maxRunning: job.maxRunning !== undefined && job.maxRunning < tasks ? job.maxRunning : undefined,
        cpusPerTask: job.cpusPerTask,
        memory: job.memory ?? memoryString(DEDUP_MEMORY_MIB, "slurm"),
        chdir: job.chdir,
        command: dedupCommand(job, pass, tasks),
        comment: [
          `Written by winnow launch slurm dedup: the ${pass} pass${pass === "clusters" ? ", one task" : `, ${tasks} tasks`}; task R runs the`,
          "items i of the pass with i mod tasks = R (winnow reads SLURM_ARRAY_TASK_ID). Tasks whose done",
          "marker is in the state folder are skipped, so a requeued task resumes.",
        ],
      },
      slurm,
    ),
  }));
}

/** The heredoc end line: no script line can equal it (no value holds a newline). */
const END = "WINNOW_PASS_END";

/**
 * A bash script that submits the passes of a dedup job in order, each with
 * --dependency=afterok on the one before (the first after --after's job, if any), and prints the
 * job ids, one a line.
 */
export function slurmDedupChain(job: DedupJob, slurm: SlurmOptions = {}): string {
  if (job.after !== undefined && !/^\d+(_\d+)?(:\d+(_\d+)?)*$/.test(job.after)) {
    throw new UsageError("--after takes Slurm job ids (numbers, several joined by ':')", `--after ${job.after}`);
  }
  const lines = [
    "#!/bin/bash",
    "# Written by winnow launch slurm dedup: submits the passes of winnow dedup as Slurm jobs, each",
    "# starting once the one before ended well (--dependency=afterok), and prints their job ids.",
    "# All share one state folder; submitted again, each pass skips the tasks marked done.",
    "set -euo pipefail",
    "# Arguments of this script go to every sbatch: bash THIS_SCRIPT --qos=high",
    'extra=("$@")',
    "# sbatch --parsable prints the id, then ';cluster' on a multi-cluster site. A pass whose",
    "# dependency failed is removed (--kill-on-invalid-dep), not left pending for ever.",
    // biome-ignore-start lint/suspicious/noTemplateCurlyInString: shell expansions, not templates
    "submit() {",
    "  local id",
    '  if [ -n "$1" ]; then id=$(sbatch --parsable --dependency="afterok:$1" --kill-on-invalid-dep=yes ${extra[@]+"${extra[@]}"}); else id=$(sbatch --parsable ${extra[@]+"${extra[@]}"}); fi',
    '  echo "${id%%;*}"',
    "}",
    // biome-ignore-end lint/suspicious/noTemplateCurlyInString: shell expansions, not templates
    `previous=${job.after ?? "''"}`,
  ];
  for (const { script } of slurmDedupScripts(job, slurm)) {
    lines.push(`previous=$(submit "$previous" <<'${END}'`, script.trimEnd(), END, ")", 'echo "$previous"');
  }
  lines.push("");
  return lines.join("\n");
}

/** Submits a script with sbatch; returns the job id. */
export async function submitSlurm(scriptPath: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)("sbatch", ["--parsable", scriptPath]);
    return stdout.trim().split(";")[0];
  } catch (error) {
    throw submitFailure(error, scriptPath);
  }
}

/** Runs a chain script (slurmDedupChain); returns the job ids it printed. */
export async function submitSlurmChain(scriptPath: string): Promise<string[]> {
  try {
    const { stdout } = await promisify(execFile)("bash", [scriptPath]);
    return stdout.trim().split("\n");
  } catch (error) {
    throw submitFailure(error, scriptPath);
  }
}

function submitFailure(error: unknown, scriptPath: string): UsageError {
  const e = error as NodeJS.ErrnoException & { stderr?: string };
  if (e.code === "ENOENT" || /sbatch: (command )?not found/.test(e.stderr ?? "")) {
    return new UsageError("cannot submit: sbatch is not on the PATH (is Slurm installed here?)", scriptPath);
  }
  return new UsageError(`sbatch refused the job: ${(e.stderr ?? e.message).trim()}`, scriptPath, { cause: error });
}
