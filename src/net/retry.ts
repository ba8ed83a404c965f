/**
 * Retries of HTTP tools: exponential backoff with full jitter ("AWS full jitter": a delay drawn
 * uniformly in [0, min(maxDelayMs, baseDelayMs · 2^(attempt-1))]), `Retry-After` respected when the
 * server sends it, and sleeps that end at once when the call is cancelled.
 */
import { onAbort } from '../core/abort.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface RetryPolicy {
  /** Attempts in all, the first included (1: no retry). */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** Response statuses worth retrying. */
  readonly retryOn: ReadonlyArray<number>;
  /** Methods retried (idempotent ones by default: a POST may have taken effect). */
  readonly methods: ReadonlyArray<string>;
  /** A `Retry-After` longer than this is not waited for: the call fails (retryable) at once. */
  readonly maxRetryAfterMs: number;
}

export const IDEMPOTENT_METHODS: ReadonlyArray<string> = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'];

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 8000,
  retryOn: [408, 425, 429, 500, 502, 503, 504],
  methods: IDEMPOTENT_METHODS,
  maxRetryAfterMs: 30_000,
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** The delay before attempt `attempt + 1`, after `attempt` failed (attempts count from 1). */
export const backoffDelay = (policy: RetryPolicy, attempt: number, random: () => number): number => {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(Math.max(0, Math.min(1, random())) * cap);
};

/**
 * `Retry-After` in milliseconds: delay-seconds (`120`) or an HTTP date; undefined when absent or
 * unreadable. A date in the past gives 0.
 */
export const parseRetryAfter = (value: string | undefined, now: number = Date.now()): number | undefined => {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};

/** Waits `ms`, or less when `signal` aborts; resolves to whether the wait was complete. */
export const sleep = (ms: number, signal: AbortSignal): Promise<boolean> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const stop = onAbort(signal, () => {
      clearTimeout(timer);
      resolve(false);
    });
    const timer = setTimeout(() => {
      stop();
      resolve(true);
    }, Math.max(0, ms));
  });
