/** Which inputs are remote, and the opener readRecords uses for them. */
import { type InputOpener, openInput } from "@winnow/archive";
import { openHttps } from "./https.js";
import type { ResumableOptions } from "./resumable.js";
import { openS3, type S3Settings } from "./s3.js";

const REMOTE = /^(https?|s3):\/\//i;

export function isRemote(input: string): boolean {
  return REMOTE.test(input);
}

/** An opener for http://, https:// and s3:// inputs; local paths and "-" are opened as files. */
export function remoteOpener(options: ResumableOptions, s3: S3Settings = {}): InputOpener {
  return (input, onProgress, onError) => {
    if (/^https?:\/\//i.test(input)) return openHttps(input, options, onProgress, onError);
    if (/^s3:\/\//i.test(input)) return openS3(input, s3, options, onProgress, onError);
    return openInput(input, onProgress, onError);
  };
}
