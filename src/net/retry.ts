/**
 * Retries of HTTP requests, for HTTP tools and the model providers alike: one policy shape, one
 * way to count (attempts, the first included), one backoff (exponential with "full jitter": a
 * delay drawn uniformly in [0, min(maxDelayMs, baseDelayMs · 2^(attempt-1))], so that clients that
 * failed together do not retry together), one reading of what the server asks for (`retry-after-ms`,
 * then `Retry-After` as seconds or an HTTP date), and sleeps that end at once when the work is
 * cancelled.
 *
 * Written here rather than with undici's RetryHandler: that handler has no jitter, silently caps a
 * long `Retry-After` at its maximum instead of letting the caller give up, and does not hand back
 * the server's error body once retries are spent.
 */
export { sleep } from '../core/abort.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface RetryPolicy {
  /** Attempts in all, the first included (1: no retry). */
  readonly maxAttempts: number;
  /** The cap of the delay before the first retry, doubled at each further one. */
  readonly baseDelayMs: number;
  /** Upper bound of a computed delay. */
  readonly maxDelayMs: number;
  /**
   * The longest `Retry-After` honoured; a server asking for more ends the work at once (the
   * failure is retryable and says how long the server asked for) instead of waiting.
   */
  readonly maxRetryAfterMs: number;
  /** Response statuses worth retrying. */
  readonly retryOn: ReadonlyArray<number>;
  /** Methods retried (idempotent ones by default: a POST may have taken effect). */
  readonly methods: ReadonlyArray<string>;
}

/** What a caller may be told before each retry (a provider's `onRetry`, for logs). */
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

export const IDEMPOTENT_METHODS: ReadonlyArray<string> = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'];

/** HTTP tools: three attempts of idempotent methods, on timeouts, rate limits and gateway errors. */
export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 8000,
  retryOn: [408, 425, 429, 500, 502, 503, 504],
  methods: IDEMPOTENT_METHODS,
  maxRetryAfterMs: 30_000,
};

const SERVER_ERRORS: ReadonlyArray<number> = Array.from({ length: 100 }, (_, i) => 500 + i);

/**
 * Model providers: three attempts on 429 and every 5xx (529 "overloaded" included); a model
 * request is a POST that has no effect when it fails, so it is retried.
 */
export const MODEL_RETRY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  retryOn: [429, ...SERVER_ERRORS],
  methods: ['POST'],
  maxRetryAfterMs: 60_000,
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Whether a response status is worth another attempt under `policy`. */
export const retriesStatus = (policy: RetryPolicy, status: number): boolean => policy.retryOn.includes(status);

/** Whether another attempt may follow attempt number `attempt` (from 1) of `method`. */
export const mayRetry = (policy: RetryPolicy, attempt: number, method: string): boolean =>
  attempt < policy.maxAttempts && policy.methods.includes(method.toUpperCase());

/** The delay before attempt `attempt + 1`, after `attempt` failed (attempts count from 1). */
export const backoffDelay = (policy: RetryPolicy, attempt: number, random: () => number = Math.random): number => {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(Math.max(0, Math.min(1, random())) * cap);
};

type HeaderValue = string | ReadonlyArray<string> | undefined;

const first = (v: HeaderValue): string | undefined => (typeof v === 'string' ? v : v?.[0]);

const SECONDS = /^\s*\d+(\.\d+)?\s*$/;

/**
 * The delay a server asks for, in milliseconds: `retry-after-ms`, then `Retry-After` as seconds
 * (`120`, `0.5`) or as an HTTP date (relative to `now`; a date in the past gives 0). Undefined when
 * absent or unreadable; never negative.
 */
export const retryAfterMs = (headers: Readonly<Record<string, HeaderValue>>, now: number = Date.now()): number | undefined => {
  const ms = first(headers['retry-after-ms']);
  if (ms !== undefined && SECONDS.test(ms)) return Number(ms);
  const ra = first(headers['retry-after']);
  if (ra === undefined) return undefined;
  if (SECONDS.test(ra)) return Math.round(Number(ra) * 1000);
  if (!/[a-z]/i.test(ra)) return undefined;
  const at = Date.parse(ra);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};
