// Public API of @winnow/launch: array jobs that run `winnow clean` and `winnow dedup` tasks.

export { type CleanJob, checkJob, cleanArguments, CLEAN_LAUNCHER_FLAGS, refuseLauncherFlags } from "./job.js";
export { DEDUP_LAUNCHER_FLAGS, DEDUP_PASS_ORDER, type DedupJob, type DedupPassName, dedupPasses } from "./dedup.js";
export { checkValue, isUrl, shellQuote } from "./values.js";
export { cleanMemoryMib, memoryString } from "./resources.js";
export {
  DEFAULT_SIGNAL_SECONDS,
  DEFAULT_TIME,
  type SlurmOptions,
  slurmArrayScript,
  slurmDedupChain,
  slurmDedupScripts,
  submitSlurm,
  submitSlurmChain,
} from "./slurm.js";
export {
  DEFAULT_SCRATCH,
  DEFAULT_TTL_SECONDS,
  dedupJobs,
  IMAGE_PULL_POLICIES,
  type ImagePullPolicy,
  indexedJobManifest,
  k8sDedupChain,
  type K8sOptions,
} from "./k8s.js";
