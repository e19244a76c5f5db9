/**
 * Kubernetes Indexed Jobs: `completions` pods, each given JOB_COMPLETION_INDEX, each running
 * winnow on its share. Built as typed objects (kubernetes-models), checked against the Kubernetes
 * schema, written with the yaml library. The paths list and the outputs live on a volume every pod
 * mounts (a ReadWriteMany PersistentVolumeClaim), or the outputs go to s3://; a pod that fails is
 * retried for its own index, but a usage error (exit 2) fails its index at once, and a pod evicted
 * or pre-empted is replaced without counting as a failure. A Job run again redoes only inputs
 * without a done marker.
 */
import { UsageError } from "@winnow/errors";
import { Job } from "kubernetes-models/batch/v1/Job";
import { stringify } from "yaml";
import { type DedupJob, dedupCommand, dedupPasses } from "./dedup.js";
import { type CleanJob, checkJob, cleanArguments, winnowWords } from "./job.js";
import { cleanMemoryMib, DEDUP_MEMORY_MIB, memoryString, v8PoolSizeFor } from "./resources.js";
import { checkValue, isUrl, literalWords, shellQuote, type Word } from "./values.js";

export const IMAGE_PULL_POLICIES = ["Always", "IfNotPresent", "Never"] as const;
export type ImagePullPolicy = (typeof IMAGE_PULL_POLICIES)[number];

export interface K8sOptions {
  /** The container image with winnow installed (the repository's Dockerfile). */
  image: string;
  imagePullPolicy?: ImagePullPolicy;
  namespace?: string;
  /** The PersistentVolumeClaim holding the paths list and the outputs, and where pods mount it. */
  volumeClaim?: string;
  mountPath: string;
  /** A Secret whose keys become environment variables (AWS credentials for https/s3 stores, ...). */
  envSecret?: string;
  serviceAccount?: string;
  /** Retries of one index before it counts as failed. */
  retriesPerIndex: number;
  /** Seconds a finished Job (and its pods' logs) is kept; default a week. */
  ttlSeconds?: number;
  /** Seconds the whole Job may run before Kubernetes stops it; default none. */
  deadlineSeconds?: number;
  /** Size of each pod's scratch space (TMPDIR: s3:// outputs are staged there). */
  scratch?: string;
  /** More labels on the Job and its pods: "team=nlp". */
  labels?: Readonly<Record<string, string>>;
}

export const DEFAULT_TTL_SECONDS = 7 * 24 * 3600;
export const DEFAULT_SCRATCH = "20Gi";
const SCRATCH_PATH = "/scratch";
/** Statuses of a usage error: running again cannot help (docs/exit-codes.md). */
const USAGE_EXIT_CODES = [2];

/** One Indexed Job: its name, its size and what each pod runs. */
interface IndexedSpec {
  name: string;
  component: string;
  completions: number;
  parallelism: number;
  cpus: number;
  memory: string;
  command: readonly string[];
  /** V8's platform threads for the pod's process (resources.ts); undefined: Node's own. */
  v8PoolSize?: number;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_KEY = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/;

function checkOptions(k8s: K8sOptions): void {
  if (k8s.image.trim() === "") throw new UsageError("an image is needed: --image", "--image");
  for (const [flag, value] of [
    ["--image", k8s.image],
    ["--mount-path", k8s.mountPath],
    ["--scratch", k8s.scratch],
  ] as const) {
    if (value !== undefined) checkValue(flag, value);
  }
  for (const [flag, value] of [
    ["--namespace", k8s.namespace],
    ["--volume-claim", k8s.volumeClaim],
    ["--env-secret", k8s.envSecret],
    ["--service-account", k8s.serviceAccount],
  ] as const) {
    if (value !== undefined && !(DNS_LABEL.test(value) && value.length <= 253)) {
      throw new UsageError("a Kubernetes name is lowercase letters, digits and '-'", `${flag} ${value}`);
    }
  }
  if (!k8s.mountPath.startsWith("/")) throw new UsageError("the mount path must be absolute", `--mount-path ${k8s.mountPath}`);
  for (const [key, value] of Object.entries(k8s.labels ?? {})) {
    if (!LABEL_KEY.test(key) || !LABEL_VALUE.test(value)) {
      throw new UsageError(
        "a label is key=value, each a Kubernetes label name (letters, digits, '-', '_', '.')",
        `--label ${key}=${value}`,
      );
    }
  }
}

/**
 * Refuses paths the pods cannot reach: a local path is only in the pods under the volume's mount
 * path, and without a volume nothing local is (outputs written there would go with the pod).
 */
function checkPodPaths(k8s: K8sOptions, paths: ReadonlyArray<readonly [flag: string, path: string, what: "input" | "output"]>): void {
  const mount = `${k8s.mountPath.replace(/\/$/, "")}/`;
  for (const [flag, path, what] of paths) {
    if (isUrl(path)) continue;
    if (k8s.volumeClaim === undefined) {
      throw new UsageError(
        what === "output"
          ? "the outputs would be lost when the pods exit: give --volume-claim (a ReadWriteMany claim the pods mount), or -o s3://bucket/prefix/"
          : "a local path is not in the pods: give --volume-claim (a ReadWriteMany claim holding it), or an https:// or s3:// URL",
        `${flag} ${path}`,
      );
    }
    if (!path.startsWith(mount))
      throw new UsageError(`${flag} must be a path inside the pods, under --mount-path ${k8s.mountPath}`, `${flag} ${path}`);
  }
}

/** The labels every object of the job carries. */
function labelsOf(spec: IndexedSpec, k8s: K8sOptions): Record<string, string> {
  return {
    "app.kubernetes.io/name": "winnow",
    "app.kubernetes.io/component": spec.component,
    "app.kubernetes.io/instance": spec.name,
    "app.kubernetes.io/managed-by": "winnow-launch",
    ...k8s.labels,
  };
}

/** The Job object, validated against the Kubernetes schema. */
function indexedJob(spec: IndexedSpec, k8s: K8sOptions): Job {
  const labels = labelsOf(spec, k8s);
  const resources = { cpu: String(spec.cpus), memory: spec.memory };
  const job = new Job({
    metadata: { name: spec.name, ...(k8s.namespace === undefined ? {} : { namespace: k8s.namespace }), labels },
    spec: {
      completionMode: "Indexed",
      completions: spec.completions,
      parallelism: spec.parallelism,
      backoffLimitPerIndex: k8s.retriesPerIndex,
      podFailurePolicy: {
        rules: [
          // A usage error fails the same way every time: fail the index now, not after its retries.
          { action: "FailIndex", onExitCodes: { containerName: "winnow", operator: "In", values: USAGE_EXIT_CODES } },
          // Evicted, pre-empted, drained: not the task's fault; the new pod resumes from the done markers.
          { action: "Ignore", onPodConditions: [{ type: "DisruptionTarget", status: "True" }] },
        ],
      },
      ttlSecondsAfterFinished: k8s.ttlSeconds ?? DEFAULT_TTL_SECONDS,
      ...(k8s.deadlineSeconds === undefined ? {} : { activeDeadlineSeconds: k8s.deadlineSeconds }),
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: "Never",
          ...(k8s.serviceAccount === undefined ? {} : { serviceAccountName: k8s.serviceAccount }),
          // The image runs as a user of its own (Dockerfile); refuse to start as root if it does not.
          securityContext: { runAsNonRoot: true },
          containers: [
            {
              name: "winnow",
              image: k8s.image,
              imagePullPolicy: k8s.imagePullPolicy ?? "IfNotPresent",
              command: [...spec.command],
              // Outputs for s3:// are written to a temporary file first, then uploaded.
              env: [
                { name: "TMPDIR", value: SCRATCH_PATH },
                ...(spec.v8PoolSize === undefined ? [] : [{ name: "NODE_OPTIONS", value: `--v8-pool-size=${spec.v8PoolSize}` }]),
              ],
              ...(k8s.envSecret === undefined ? {} : { envFrom: [{ secretRef: { name: k8s.envSecret } }] }),
              resources: { requests: resources, limits: resources },
              volumeMounts: [
                { name: "scratch", mountPath: SCRATCH_PATH },
                ...(k8s.volumeClaim === undefined ? [] : [{ name: "data", mountPath: k8s.mountPath }]),
              ],
            },
          ],
          volumes: [
            { name: "scratch", emptyDir: { sizeLimit: k8s.scratch ?? DEFAULT_SCRATCH } },
            ...(k8s.volumeClaim === undefined ? [] : [{ name: "data", persistentVolumeClaim: { claimName: k8s.volumeClaim } }]),
          ],
        },
      },
    },
  });
  try {
    job.validate();
  } catch (error) {
    throw new UsageError(`the Job would not be valid: ${(error as Error).message}`, spec.name, { cause: error });
  }
  return job;
}

function yamlOf(job: Job, comment: readonly string[]): string {
  return `${comment.map((c) => `# ${c}\n`).join("")}${stringify(job.toJSON(), { lineWidth: 0 })}`;
}

/** The words a pod runs; $(JOB_COMPLETION_INDEX)-style expansions are not needed: winnow reads the index. */
function podWords(words: readonly Word[]): string[] {
  return literalWords(words, (shell) => {
    throw new Error(`no shell in a pod's command: ${shell}`);
  });
}

/** The Indexed Job manifest of a `winnow clean` array job. */
export function indexedJobManifest(job: CleanJob, k8s: K8sOptions): string {
  checkJob(job);
  checkOptions(k8s);
  checkPodPaths(k8s, [
    ["--paths-file", job.pathsFile, "input"],
    ["-o", job.output, "output"],
    ...(job.baseUrl === undefined ? [] : ([["--base-url", job.baseUrl, "input"]] as const)),
  ]);
  const args = cleanArguments(job, { pathsFile: job.pathsFile, output: job.output, baseUrl: job.baseUrl }, String(job.cpusPerTask));
  const manifest = indexedJob(
    {
      name: job.jobName,
      component: "clean",
      completions: job.tasks,
      parallelism: job.maxRunning ?? job.tasks,
      cpus: job.cpusPerTask,
      memory: job.memory ?? memoryString(cleanMemoryMib(job.cpusPerTask), "k8s"),
      command: podWords([...winnowWords(job.winnow), ...args]),
      v8PoolSize: v8PoolSizeFor(job.cpusPerTask),
    },
    k8s,
  );
  return yamlOf(manifest, [
    "Written by winnow launch k8s: pod R of the Indexed Job cleans inputs i of the paths list with",
    `i mod ${job.tasks} = R (winnow reads JOB_COMPLETION_INDEX), one output per input, each marked done.`,
    "Apply it again (after kubectl delete job) to redo only what failed or was cut short.",
  ]);
}

/** The Indexed Job of each pass of a dedup job, in order. */
export function dedupJobs(job: DedupJob, k8s: K8sOptions, paths: ReadonlyArray<readonly [string, string, "input" | "output"]>) {
  checkOptions(k8s);
  checkPodPaths(k8s, paths);
  return dedupPasses(job).map(({ pass, tasks }) => {
    const name = `${job.jobName}-${pass}`;
    const manifest = indexedJob(
      {
        name,
        component: `dedup-${pass}`,
        completions: tasks,
        parallelism: job.maxRunning === undefined ? tasks : Math.min(job.maxRunning, tasks),
        cpus: job.cpusPerTask,
        memory: job.memory ?? memoryString(DEDUP_MEMORY_MIB, "k8s"),
        command: podWords(dedupCommand(job, pass, tasks)),
      },
      k8s,
    );
    return {
      pass,
      name,
      manifest: yamlOf(manifest, [`Written by winnow launch k8s dedup: the ${pass} pass of winnow dedup, ${tasks} task(s).`]),
    };
  });
}

const END = "WINNOW_MANIFEST_END";

/**
 * A bash script that applies the passes' Jobs one after the other, each once the one before is
 * complete, and stops at the first that fails. `kubectl wait` waits for one condition only, so the
 * script polls the Job's conditions for Complete or Failed.
 */
export function k8sDedupChain(job: DedupJob, k8s: K8sOptions, paths: ReadonlyArray<readonly [string, string, "input" | "output"]>): string {
  const ns = k8s.namespace === undefined ? "" : ` --namespace ${shellQuote(k8s.namespace)}`;
  const lines = [
    "#!/bin/bash",
    "# Written by winnow launch k8s dedup: applies the passes of winnow dedup as Indexed Jobs, each once",
    "# the one before is complete; all share one state folder. Run again (after kubectl delete job -l",
    `# app.kubernetes.io/managed-by=winnow-launch), each pass skips the tasks marked done.`,
    "set -euo pipefail",
    "finished() {",
    "  local state",
    "  while true; do",
    `    state=$(kubectl get job "$1"${ns} -o 'jsonpath={.status.conditions[?(@.status=="True")].type}')`,
    '    case " $state " in',
    '      *" Complete "*) echo "$1: complete"; return 0 ;;',
    '      *" Failed "*) echo "$1: failed (kubectl describe job $1)" >&2; return 1 ;;',
    "    esac",
    "    sleep 30",
    "  done",
    "}",
  ];
  for (const { name, manifest } of dedupJobs(job, k8s, paths)) {
    lines.push(`kubectl apply${ns} -f - <<'${END}'`, manifest.trimEnd(), END, `finished ${shellQuote(name)}`);
  }
  lines.push("");
  return lines.join("\n");
}
