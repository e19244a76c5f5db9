// Public API of @winnow/launch: array jobs that run `winnow clean` tasks over a paths list.

export { type CleanJob, checkJob, cleanArguments } from "./job.js";
export { shellQuote, type SlurmOptions, slurmArrayScript, submitSlurm } from "./slurm.js";
export { indexedJobManifest, type K8sOptions } from "./k8s.js";
