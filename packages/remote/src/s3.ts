/**
 * s3:// inputs and outputs through the official AWS SDK (@aws-sdk/client-s3): credentials and
 * region from the standard chain (environment, shared config and credentials files, SSO, the
 * instance or task role), an endpoint of its own for S3-compatible stores. Reads are resumable
 * streams (resumable.ts) whose retries are winnow's, so the SDK tries each request once; writes
 * are multipart uploads (@aws-sdk/lib-storage) retried by the SDK, and may be made conditional
 * (`If-None-Match: *`: written only where no object is, so a twin task's finished output is
 * never replaced). The SDK is loaded only when an s3:// path is used.
 */
import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import type { OpenedInput } from "@winnow/archive";
import { UsageError } from "@winnow/errors";
import { openResumable, type RangeRequest, Retryable, type ResumableOptions } from "./resumable.js";
import { backoffDelay, type RetryPolicy, sleep } from "./retry.js";

type S3Module = typeof import("@aws-sdk/client-s3");
type S3Client = import("@aws-sdk/client-s3").S3Client;

export interface S3Location {
  bucket: string;
  key: string;
}

export interface S3Settings {
  /** An S3-compatible store's endpoint (--s3-endpoint); default: AWS, or AWS_ENDPOINT_URL_S3. */
  endpoint?: string;
}

/** "s3://bucket/some/key" → { bucket, key }. */
export function parseS3Url(url: string): S3Location {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/i.exec(url);
  if (match === null || match[1] === "") throw new UsageError("expected s3://bucket/key", url);
  return { bucket: match[1], key: match[2] };
}

/** Error names and statuses S3 asks to wait out. */
const RETRY_NAMES = new Set([
  "SlowDown",
  "ServiceUnavailable",
  "InternalError",
  "RequestTimeout",
  "Throttling",
  "ThrottlingException",
  "TooManyRequests",
]);
const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);

let sdk: Promise<S3Module> | null = null;
const clients = new Map<string, S3Client>();

async function client(settings: S3Settings, maxAttempts: number): Promise<{ s3: S3Module; client: S3Client }> {
  sdk ??= import("@aws-sdk/client-s3");
  const s3 = await sdk;
  const id = `${settings.endpoint ?? ""}\u0000${maxAttempts}`;
  let made = clients.get(id);
  if (made === undefined) {
    made = new s3.S3Client({
      ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint, forcePathStyle: true }),
      // The SDK needs a region even for other stores; the chain's own wins when there is one.
      region: process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? "us-east-1",
      maxAttempts,
    });
    clients.set(id, made);
  }
  return { s3, client: made };
}

export function openS3(
  url: string,
  settings: S3Settings,
  options: ResumableOptions,
  onProgress: ((bytes: number) => void) | undefined,
  onError: (err: unknown) => void,
): Promise<OpenedInput> {
  return openResumable(url, s3Range(url, settings), options, onProgress, onError);
}

function s3Range(url: string, settings: S3Settings): RangeRequest {
  const { bucket, key } = parseS3Url(url);
  let etag: string | undefined;
  return async (from, signal) => {
    const { s3, client: c } = await client(settings, 1);
    let response: import("@aws-sdk/client-s3").GetObjectCommandOutput;
    try {
      response = await c.send(
        new s3.GetObjectCommand({
          Bucket: bucket,
          Key: key,
          Range: from > 0 ? `bytes=${from}-` : undefined,
          IfMatch: from > 0 ? etag : undefined,
        }),
        { abortSignal: signal },
      );
    } catch (error) {
      const e = error as { name?: string; $metadata?: { httpStatusCode?: number }; message?: string };
      const status = e.$metadata?.httpStatusCode;
      if (from > 0 && (e.name === "InvalidRange" || status === 416)) return "end";
      if (e.name === "PreconditionFailed" || status === 412)
        throw new Error("the object changed while it was read (ETag no longer matches)");
      if (RETRY_NAMES.has(e.name ?? "") || (status !== undefined && RETRY_STATUS.has(status))) {
        throw new Retryable(`S3 ${e.name ?? "request failed"} (HTTP ${status ?? "none"})`);
      }
      if (status === undefined) throw unanswered(error);
      throw new Error(`S3 ${e.name ?? "error"}: ${e.message ?? ""} (HTTP ${status})`);
    }
    if (from === 0) etag = response.ETag;
    const body = response.Body as Readable | undefined;
    if (body === undefined) return "end";
    const range = /^bytes (\d+)-\d+\/(\d+)$/.exec(response.ContentRange ?? "");
    if (from > 0 && (range === null || Number(range[1]) !== from)) {
      body.destroy();
      throw new Error(`S3 answered a request for bytes ${from}- with ${response.ContentRange ?? "no Content-Range"}`);
    }
    return {
      body,
      skip: 0,
      ranged: true,
      size: range !== null ? Number(range[2]) : response.ContentLength,
      mtime: response.LastModified,
      cancel: () => body.destroy(),
    };
  };
}

/** Connection failures that passing trouble explains: worth a retry. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "ENETDOWN",
]);
const NETWORK_NAMES = new Set(["TimeoutError", "RequestTimeout", "NetworkingError"]);

/**
 * A request that got no HTTP answer: a connection that failed is Retryable; anything else
 * (no credentials, no region, a malformed endpoint) failed before a request could be sent, and
 * no wait mends it, so it is an Error at once, named for people.
 */
function unanswered(error: unknown): Error {
  const e = error as { name?: string; code?: string; message?: string };
  if (NETWORK_NAMES.has(e.name ?? "") || NETWORK_CODES.has(e.code ?? "")) {
    return new Retryable(`S3 request failed: ${e.code ?? e.name}`);
  }
  if (e.name === "CredentialsProviderError") {
    return new Error(
      `no AWS credentials found (environment, shared credentials and config files, SSO, instance or task role): ${e.message ?? ""}`,
      { cause: error },
    );
  }
  return new Error(`S3 ${e.name ?? "error"}: ${e.message ?? String(error)} (no HTTP answer)`, { cause: error });
}

/** The SDK's answer for a key that holds no object: HeadObject's NotFound, GetObject's NoSuchKey, or a bare 404. */
function isNoObject(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NotFound" || e.name === "NoSuchKey" || e.$metadata?.httpStatusCode === 404;
}

/** Whether an object exists (HeadObject); other errors throw. */
export async function s3Exists(url: string, settings: S3Settings, retry: RetryPolicy): Promise<boolean> {
  const { bucket, key } = parseS3Url(url);
  const { s3, client: c } = await client(settings, retry.tries);
  try {
    await c.send(new s3.HeadObjectCommand({ Bucket: bucket, Key: key }));
    return true;
  } catch (error) {
    if (isNoObject(error)) return false;
    throw error;
  }
}

/** A small object's text (a done marker), or null where there is none; other errors throw. */
export async function s3ReadText(url: string, settings: S3Settings, retry: RetryPolicy): Promise<string | null> {
  const { bucket, key } = parseS3Url(url);
  const { s3, client: c } = await client(settings, retry.tries);
  try {
    const got = await c.send(new s3.GetObjectCommand({ Bucket: bucket, Key: key }));
    return (await got.Body?.transformToString("utf-8")) ?? "";
  } catch (error) {
    if (isNoObject(error)) return null;
    throw error;
  }
}

export interface S3WriteOptions {
  /**
   * Write only where no object is yet (`If-None-Match: *` on the PutObject, or on the
   * CompleteMultipartUpload of a large file, which S3 honours since August 2024): when one is
   * there, nothing is written and the answer is "exists". Stores that do not implement the
   * header (501) are written unconditionally; stores that ignore it (s3rver) always write.
   */
  ifAbsent?: boolean;
}

/** What a write did: "written", or "exists" when `ifAbsent` found an object at the key (412) and left it. */
export type S3WriteOutcome = "written" | "exists";

/**
 * Uploads a local file to `url` as a multipart upload (parts of 16 MiB, 4 at a time; one
 * PutObject when smaller); the object appears only when complete.
 */
export function s3Upload(
  file: string,
  url: string,
  settings: S3Settings,
  retry: RetryPolicy,
  options: S3WriteOptions = {},
): Promise<S3WriteOutcome> {
  const { bucket, key } = parseS3Url(url);
  return conditionally(options, retry, async (condition) => {
    const { client: c } = await client(settings, retry.tries);
    const { Upload } = await import("@aws-sdk/lib-storage");
    // lib-storage sends the params with the PutObject, or with the CompleteMultipartUpload (and
    // aborts the upload when that is refused, so no parts are left behind).
    await new Upload({
      client: c,
      params: { Bucket: bucket, Key: key, Body: createReadStream(file), ...condition },
      partSize: 16 << 20,
      queueSize: 4,
    }).done();
  });
}

/** Writes a small object in one request (a done marker). */
export function s3Put(
  url: string,
  body: string,
  settings: S3Settings,
  retry: RetryPolicy,
  options: S3WriteOptions = {},
): Promise<S3WriteOutcome> {
  const { bucket, key } = parseS3Url(url);
  return conditionally(options, retry, async (condition) => {
    const { s3, client: c } = await client(settings, retry.tries);
    await c.send(new s3.PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ...condition }));
  });
}

/**
 * Runs a write with `If-None-Match: *` when asked. 412 (PreconditionFailed): an object is there,
 * "exists". 409 (ConditionalRequestConflict): another conditional write to the key was under
 * way; S3 asks for the write to be tried again, which then finds that one's object (412) or
 * none. 501 (NotImplemented): the store has no conditional writes, so the write goes as it
 * would without.
 */
async function conditionally(
  options: S3WriteOptions,
  retry: RetryPolicy,
  write: (condition: { IfNoneMatch?: string }) => Promise<void>,
): Promise<S3WriteOutcome> {
  if (options.ifAbsent !== true) {
    await write({});
    return "written";
  }
  for (let attempt = 0; ; attempt++) {
    try {
      await write({ IfNoneMatch: "*" });
      return "written";
    } catch (error) {
      const e = error as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
      const status = e.$metadata?.httpStatusCode;
      if (e.name === "PreconditionFailed" || status === 412) return "exists";
      if ((e.name === "ConditionalRequestConflict" || status === 409) && attempt + 1 < retry.tries) {
        await sleep(backoffDelay(attempt, retry));
        continue;
      }
      if (e.name === "NotImplemented" || status === 501) {
        await write({});
        return "written";
      }
      throw error;
    }
  }
}

/** The key under a prefix: ("s3://b/out/", "a/x.jsonl") → "s3://b/out/a/x.jsonl". */
export function s3Join(prefix: string, name: string): string {
  return `${prefix.replace(/\/+$/, "")}/${name}`;
}
