/**
 * One remote object read as a stream that survives failures: each request asks for the bytes
 * from the last one read on (a Range request), throttling and server errors are retried with
 * backoff, and a clean end is checked by asking for what lies past it, since a wrong
 * Content-Length can end a body early. The protocol (https, s3) only makes the requests.
 */
import { ArchiveOpenError, type OpenedInput } from "@winnow/archive";
import { backoffDelay, type RetryPolicy, sleep } from "./retry.js";

/** A body whose bytes start at `from` (or at 0, `skip` bytes before `from`, from a server that ignores Range). */
export interface RangeResponse {
  body: AsyncIterable<Uint8Array>;
  /** Bytes of the body to drop before `from`. */
  skip: number;
  /** Whether the server answers Range requests (else a clean end is taken as the end). */
  ranged: boolean;
  /** The object's size when the server said. */
  size?: number;
  mtime?: Date;
  /** Cancels the body (called when reading stops early). */
  cancel(): void;
}

/** The request was answered with an error to wait out and retry (429, 5xx, SlowDown, a refused connection). */
export class Retryable extends Error {
  constructor(
    message: string,
    readonly retryAfterMs = 0,
  ) {
    super(message);
  }
}

/** Asks for the object from byte `from` on; "end" when nothing lies there (416). Throws Retryable, or anything else to give up. */
export type RangeRequest = (from: number, signal: AbortSignal) => Promise<RangeResponse | "end">;

/** How long a request may wait for its answer, or a body for its next bytes, before it counts as a failure (--read-timeout). */
export const DEFAULT_READ_TIMEOUT_MS = 30_000;

export interface ResumableOptions {
  retry: RetryPolicy;
  /**
   * A request unanswered, or a body that sends nothing, for this long is given up and retried
   * (from the last byte read, with Range) like a dropped connection (default 30 s).
   */
  readTimeoutMs?: number;
  /** Called with each retry, for the log. */
  onRetry?: (what: string, attempt: number, delayMs: number, input: string) => void;
}

/** Opens `input` through `request`: rejects with ArchiveOpenError when the first bytes cannot be had within the tries. */
export async function openResumable(
  input: string,
  request: RangeRequest,
  options: ResumableOptions,
  onProgress: ((bytes: number) => void) | undefined,
  onError: (err: unknown) => void,
): Promise<OpenedInput> {
  const abort = new AbortController();
  const timeoutMs = options.readTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
  // Each retry is reported with the input it is for.
  const retried: Retried = (what, attempt, delayMs) => options.onRetry?.(what, attempt, delayMs, input);
  let first: RangeResponse | "end";
  try {
    first = await withRetries(requestWithin(request, 0, abort.signal, timeoutMs), options.retry, retried, abort.signal);
  } catch (error) {
    throw new ArchiveOpenError(input, (error as Error).message ?? String(error), { cause: error });
  }
  let current: RangeResponse | null = first === "end" ? null : first;
  const opened: OpenedInput = {
    chunks: first === "end" ? empty() : stream(first),
    mtime: (first !== "end" && first.mtime) || new Date(),
    size: first === "end" ? 0 : first.size,
    close: async () => {
      abort.abort();
      current?.cancel();
    },
  };
  return opened;

  async function* stream(start: RangeResponse): AsyncGenerator<Buffer> {
    let pos = 0;
    let response: RangeResponse | null = start;
    let drops = 0;
    for (;;) {
      if (response === null) {
        try {
          const next = await withRetries(requestWithin(request, pos, abort.signal, timeoutMs), options.retry, retried, abort.signal);
          if (next === "end") return;
          response = next;
        } catch (error) {
          onError(new Error(`reading stopped at byte ${pos}: ${(error as Error).message}`, { cause: error }));
          return;
        }
      }
      current = response;
      const before = pos;
      try {
        let skip = response.skip;
        const body = response.body[Symbol.asyncIterator]();
        for (;;) {
          const next = await withinTime(body.next(), timeoutMs, response.cancel, "no bytes came");
          if (next.done === true) break;
          const piece = next.value;
          let chunk = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
          if (skip > 0) {
            const dropped = Math.min(skip, chunk.length);
            skip -= dropped;
            chunk = chunk.subarray(dropped);
            if (chunk.length === 0) continue;
          }
          pos += chunk.length;
          drops = 0;
          onProgress?.(pos);
          yield chunk;
        }
      } catch (error) {
        if (abort.signal.aborted) return;
        drops++;
        if (drops >= options.retry.tries) {
          onError(new Error(`connection dropped at byte ${pos} ${drops} times in a row: ${(error as Error).message}`, { cause: error }));
          return;
        }
        const delay = backoffDelay(drops - 1, options.retry);
        retried(`connection dropped at byte ${pos} (${(error as Error).message})`, drops, delay);
        await sleep(delay, abort.signal);
        response = null;
        continue;
      }
      // A clean end. Ask for what lies past it, unless the server cannot say or gave nothing new.
      if (!response.ranged || pos === before) return;
      response = null;
    }
  }
}

/** Rejects with Retryable when `promise` is not settled within `ms` (a stall), after calling `onStall`. */
function withinTime<T>(promise: Promise<T>, ms: number, onStall: () => void, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      // The abandoned promise settles later, when the stalled body is cancelled: nobody waits for it.
      promise.catch(() => {});
      onStall();
      reject(new Retryable(`${what} for ${seconds(ms)} (--read-timeout)`));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** A request that gets no answer within the read timeout is cancelled and counts as a retryable failure. */
function requestWithin(request: RangeRequest, from: number, signal: AbortSignal, timeoutMs: number): () => Promise<RangeResponse | "end"> {
  return () => {
    const attempt = new AbortController();
    const stop = () => attempt.abort();
    signal.addEventListener("abort", stop, { once: true });
    return withinTime(request(from, attempt.signal), timeoutMs, stop, "no answer came").finally(() =>
      signal.removeEventListener("abort", stop),
    );
  };
}

type Retried = (what: string, attempt: number, delayMs: number) => void;

async function withRetries<T>(attempt: () => Promise<T>, retry: RetryPolicy, retried: Retried, signal: AbortSignal): Promise<T> {
  for (let failures = 0; ; ) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof Retryable) || signal.aborted) throw error;
      failures++;
      if (failures >= retry.tries) throw new Error(`${error.message} (gave up after ${failures} tries)`, { cause: error });
      const delay = backoffDelay(failures - 1, retry, error.retryAfterMs);
      retried(error.message, failures, delay);
      await sleep(delay, signal);
    }
  }
}

async function* empty(): AsyncGenerator<Buffer> {}
