/** Which inputs are remote, and the opener readRecords uses for them. */
import type { InputOpener } from "@winnow/archive";
import { UsageError } from "@winnow/errors";
import { openHttps } from "./https.js";
import type { ResumableOptions } from "./resumable.js";

const REMOTE = /^(https?|s3):\/\//i;

export function isRemote(input: string): boolean {
  return REMOTE.test(input);
}

/** An opener for http://, https:// (and, where supported, s3://) inputs; local paths are not its job. */
export function remoteOpener(options: ResumableOptions): InputOpener {
  return (input, onProgress, onError) => {
    if (/^https?:\/\//i.test(input)) return openHttps(input, options, onProgress, onError);
    throw new UsageError("s3:// inputs are not supported yet: read them through https (an S3 website or presigned URLs)", input);
  };
}
