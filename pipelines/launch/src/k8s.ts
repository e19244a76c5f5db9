/**
 * A Kubernetes Indexed Job: `completions` pods, each given JOB_COMPLETION_INDEX, each running
 * `winnow clean` on its share of the paths list. The paths list and the outputs live on a
 * volume every pod mounts (a ReadWriteMany PersistentVolumeClaim). A pod that fails is retried
 * for its own index; a Job run again redoes only inputs without a done marker.
 */
import { UsageError } from "@winnow/errors";
import { type CleanJob, checkJob, cleanArguments } from "./job.js";

export interface K8sOptions {
  /** The container image with winnow installed. */
  image: string;
  namespace?: string;
  /** The PersistentVolumeClaim holding the paths list and the outputs, and where pods mount it. */
  volumeClaim?: string;
  mountPath: string;
  /** A Secret whose keys become environment variables (AWS credentials for https/s3 stores, ...). */
  envSecret?: string;
  /** Retries of one index before it counts as failed. */
  retriesPerIndex: number;
}

export function indexedJobManifest(job: CleanJob, k8s: K8sOptions): string {
  checkJob(job);
  if (k8s.image === "") throw new UsageError("an image is needed: --image", "--image");
  for (const [flag, path] of [
    ["--paths-file", job.pathsFile],
    ["-o", job.output],
  ] as const) {
    const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(path);
    if (k8s.volumeClaim !== undefined && !url && !path.startsWith(`${k8s.mountPath.replace(/\/$/, "")}/`)) {
      throw new UsageError(`${flag} must be a path inside the pods, under --mount-path ${k8s.mountPath}`, `${flag} ${path}`);
    }
  }
  const q = (value: string | number): string => JSON.stringify(String(value));
  const args = cleanArguments(job, { pathsFile: job.pathsFile, output: job.output, baseUrl: job.baseUrl }, String(job.cpusPerTask));
  const command = [...job.winnow.split(/\s+/), ...args];
  const lines = [
    "# Written by winnow launch k8s: pod R of the Indexed Job cleans inputs i of the paths list with",
    `# i mod ${job.tasks} = R (winnow reads JOB_COMPLETION_INDEX), one output per input, each marked done.`,
    "# Apply it again (after kubectl delete job) to redo only what failed or was cut short.",
    "apiVersion: batch/v1",
    "kind: Job",
    "metadata:",
    `  name: ${q(job.jobName)}`,
  ];
  if (k8s.namespace !== undefined) lines.push(`  namespace: ${q(k8s.namespace)}`);
  lines.push(
    "spec:",
    "  completionMode: Indexed",
    `  completions: ${job.tasks}`,
    `  parallelism: ${job.maxRunning ?? job.tasks}`,
    `  backoffLimitPerIndex: ${k8s.retriesPerIndex}`,
    "  template:",
    "    spec:",
    "      restartPolicy: Never",
    "      containers:",
    "        - name: winnow",
    `          image: ${q(k8s.image)}`,
    "          command:",
    ...command.map((word) => `            - ${q(word)}`),
    "          resources:",
    `            requests: { cpu: ${q(job.cpusPerTask)}, memory: ${q(job.memory)} }`,
    `            limits: { cpu: ${q(job.cpusPerTask)}, memory: ${q(job.memory)} }`,
  );
  if (k8s.envSecret !== undefined) lines.push("          envFrom:", `            - secretRef: { name: ${q(k8s.envSecret)} }`);
  if (k8s.volumeClaim !== undefined) {
    lines.push(
      "          volumeMounts:",
      `            - { name: data, mountPath: ${q(k8s.mountPath)} }`,
      "      volumes:",
      `        - name: data`,
      `          persistentVolumeClaim: { claimName: ${q(k8s.volumeClaim)} }`,
    );
  }
  lines.push("");
  return lines.join("\n");
}
