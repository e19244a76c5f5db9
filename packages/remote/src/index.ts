// Public API of @winnow/remote: paths lists, a task's share of them by rank, and remote inputs
// (http://, https://, s3://) read as streams with retries and Range resume.

export { joinBase, type ListedInput, readPathsList } from "./paths-list.js";
export { peakRssBytes } from "./peak-rss.js";
export { resolveShard, type Shard, type ShardFlags, takeShard } from "./shard.js";
export { backoffDelay, DEFAULT_RETRY, type RetryPolicy, retryAfterMs } from "./retry.js";
export {
  DEFAULT_READ_TIMEOUT_MS,
  openResumable,
  type RangeRequest,
  type RangeResponse,
  Retryable,
  type ResumableOptions,
} from "./resumable.js";
export { openHttps } from "./https.js";
export { isRemote, remoteOpener } from "./open.js";
export { REDACTED, redactUrl, redactUrlsIn, SECRET_QUERY_PARAMETERS } from "./redact.js";
export {
  openS3,
  parseS3Url,
  s3Exists,
  s3Join,
  type S3Location,
  s3Put,
  s3ReadText,
  type S3Settings,
  s3Upload,
  type S3WriteOptions,
  type S3WriteOutcome,
} from "./s3.js";
