/** http:// and https:// inputs through Node's fetch (undici), as resumable streams. */
import type { OpenedInput } from "@winnow/archive";
import { openResumable, type RangeRequest, type RangeResponse, Retryable, type ResumableOptions } from "./resumable.js";
import { retryAfterMs } from "./retry.js";

/** Statuses worth waiting out: throttling and passing server trouble. */
const RETRY_STATUS = new Set([408, 429, 500, 502, 503, 504]);

export function openHttps(
  url: string,
  options: ResumableOptions,
  onProgress: ((bytes: number) => void) | undefined,
  onError: (err: unknown) => void,
): Promise<OpenedInput> {
  return openResumable(url, httpRange(url), options, onProgress, onError);
}

function httpRange(url: string): RangeRequest {
  // Later requests must read the same object: a changed one fails (412) rather than splice two.
  let etag: string | null = null;
  return async (from, signal) => {
    const headers: Record<string, string> = {};
    if (from > 0) headers.range = `bytes=${from}-`;
    if (from > 0 && etag !== null) headers["if-match"] = etag;
    let response: Response;
    try {
      response = await fetch(url, { headers, signal, redirect: "follow" });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new Retryable(`request failed: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
    }
    const { status } = response;
    if (status === 416 && from > 0) {
      await response.body?.cancel();
      return "end";
    }
    if (RETRY_STATUS.has(status)) {
      await response.body?.cancel();
      throw new Retryable(`HTTP ${status}`, retryAfterMs(response.headers.get("retry-after")));
    }
    if (status === 412) {
      await response.body?.cancel();
      throw new Error("the object changed while it was read (ETag no longer matches)");
    }
    if (status !== 200 && status !== 206) {
      await response.body?.cancel();
      throw new Error(`HTTP ${status}${response.statusText ? ` ${response.statusText}` : ""}`);
    }
    if (from === 0) etag = weakless(response.headers.get("etag"));
    const body = response.body;
    if (body === null) return "end";
    let skip = 0;
    if (status === 206) {
      const start = /^bytes (\d+)-/.exec(response.headers.get("content-range") ?? "");
      if (start === null || Number(start[1]) !== from) {
        await body.cancel();
        throw new Error(
          `the server answered a request for bytes ${from}- with ${response.headers.get("content-range") ?? "no Content-Range"}`,
        );
      }
    } else {
      skip = from;
    }
    const result: RangeResponse = {
      body: body as AsyncIterable<Uint8Array>,
      skip,
      ranged: status === 206 || response.headers.get("accept-ranges") === "bytes",
      size: sizeOf(response, status),
      mtime: dateOf(response.headers.get("last-modified")),
      cancel: () => void body.cancel().catch(() => {}),
    };
    return result;
  };
}

/** A weak ETag cannot be used with If-Match. */
function weakless(etag: string | null): string | null {
  return etag === null || etag.startsWith("W/") ? null : etag;
}

function sizeOf(response: Response, status: number): number | undefined {
  const total = /\/(\d+)$/.exec(response.headers.get("content-range") ?? "");
  if (status === 206 && total !== null) return Number(total[1]);
  const length = response.headers.get("content-length");
  return status === 200 && length !== null ? Number(length) : undefined;
}

function dateOf(header: string | null): Date | undefined {
  if (header === null) return undefined;
  const ms = Date.parse(header);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}
