/**
 * Retries with exponential backoff and jitter for 429 and 5xx answers and dropped connections,
 * respecting `Retry-After` (seconds or an HTTP date) and `retry-after-ms`. Never for other 4xx.
 *
 * Written here rather than with undici's RetryHandler: that handler has no jitter, silently caps
 * a long `Retry-After` at its maximum instead of letting the caller give up, and does not hand
 * back the provider's error body once retries are spent.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface RetryPolicy {
  /** Retries after the first attempt (0: no retry). */
  readonly maxRetries: number;
  /** Delay before the first retry, doubled at each further one. */
  readonly baseDelayMs: number;
  /** Upper bound of a computed delay. */
  readonly maxDelayMs: number;
  /**
   * The longest `Retry-After` honoured; a server asking for more ends the call with
   * `RATE_LIMITED` at once (saying how long it asked for) instead of waiting.
   */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60_000 };

/** What a caller may be told before each retry. */
export interface RetryInfo {
  /** 1 for the first retry. */
  readonly retry: number;
  readonly delayMs: number;
  /** The HTTP status that caused it, or undefined for a connection failure. */
  readonly status?: number;
  /** Whether the delay came from the server (`Retry-After`). */
  readonly fromServer: boolean;
  readonly reason: string;
}

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

export const isRetryableStatus = (status: number): boolean => status === 429 || (status >= 500 && status <= 599);

type HeaderValue = string | ReadonlyArray<string> | undefined;

const first = (v: HeaderValue): string | undefined => (typeof v === 'string' ? v : v?.[0]);

/**
 * The delay a server asks for, in milliseconds: `retry-after-ms`, then `Retry-After` as seconds
 * or as an HTTP date (relative to `now`). Undefined when absent or unreadable; never negative.
 */
export const retryAfterMs = (headers: Readonly<Record<string, HeaderValue>>, now: number = Date.now()): number | undefined => {
  const ms = first(headers['retry-after-ms']);
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.max(0, Number(ms));
  const ra = first(headers['retry-after']);
  if (ra === undefined) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Math.max(0, Number(ra) * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
};

/**
 * The delay before retry number `retry` (1-based): `base × 2^(retry-1)`, capped, then scaled by
 * a random factor in [0.5, 1) ("equal jitter"), so that clients that failed together do not
 * retry together.
 */
export const backoffMs = (retry: number, policy: RetryPolicy, random: () => number = Math.random): number => {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exp * (0.5 + random() * 0.5));
};

/** Waits `ms`, or less when `signal` aborts; resolves to whether it slept the whole time. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<boolean> =>
  new Promise((resolve) => {
    if (signal?.aborted === true) {
      resolve(false);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
