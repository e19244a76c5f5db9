/** How remote reads are retried: a bounded number of tries, exponential backoff with full jitter. */

export interface RetryPolicy {
  /** Tries in a row that may fail before the input is given up (a try that gets bytes resets the count). */
  tries: number;
  /** The first delay's upper bound; each failure in a row doubles it. */
  baseDelayMs: number;
  /** No delay is longer than this (a server's Retry-After included). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { tries: 8, baseDelayMs: 500, maxDelayMs: 30_000 };

/**
 * The wait before retry number `attempt` (0-based): uniform in [0, base·2^attempt] ("full
 * jitter"), so thousands of tasks throttled at once do not come back at once; never less than
 * the server's Retry-After.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, retryAfterMs = 0): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.min(policy.maxDelayMs, Math.max(retryAfterMs, Math.random() * ceiling));
}

/** Retry-After as milliseconds (seconds or an HTTP date); 0 when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number {
  if (header === null || header === undefined || header === "") return 0;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? 0 : Math.max(0, date - now);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
