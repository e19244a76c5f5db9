/** Which inputs are remote, and the opener readRecords uses for them. */
import { type InputOpener, openInput } from "@winnow/archive";
import { UsageError } from "@winnow/errors";
import { openHttps } from "./https.js";
import type { ResumableOptions } from "./resumable.js";

const REMOTE = /^(https?|s3):\/\//i;

export function isRemote(input: string): boolean {
  return REMOTE.test(input);
}

/** An opener for http:// and https:// inputs (and, where supported, s3://); local paths and "-" are opened as files. */
export function remoteOpener(options: ResumableOptions): InputOpener {
  return (input, onProgress, onError) => {
    if (/^https?:\/\//i.test(input)) return openHttps(input, options, onProgress, onError);
    if (!isRemote(input)) return openInput(input, onProgress, onError);
    throw new UsageError("s3:// inputs are not supported yet: read them through https (an S3 website or presigned URLs)", input);
  };
}
