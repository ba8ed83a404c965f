/**
 * net/retry.ts: the one retry module of HTTP tools and providers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY } from '../../src/entries/tools.js';
import { MODEL_RETRY } from '../../src/entries/providers.js';
import { backoffDelay, mayRetry, retriesStatus, retryAfterMs, sleep } from '../../src/net/retry.js';

describe('Retry-After', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads seconds, an HTTP date, and retry-after-ms (which wins)', () => {
    expect(retryAfterMs({ 'retry-after': '2' }, now)).toBe(2000);
    expect(retryAfterMs({ 'retry-after': '120' }, now)).toBe(120_000);
    expect(retryAfterMs({ 'retry-after': ' 0 ' }, now)).toBe(0);
    expect(retryAfterMs({ 'retry-after': '0.5' }, now)).toBe(500);
    expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, now)).toBe(3000);
    expect(retryAfterMs({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, now)).toBe(0);
    expect(retryAfterMs({ 'retry-after': '2', 'retry-after-ms': '150' }, now)).toBe(150);
    expect(retryAfterMs({ 'retry-after': ['4'] }, now)).toBe(4000);
  });
  it('ignores what it cannot read', () => {
    expect(retryAfterMs({}, now)).toBeUndefined();
    expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(retryAfterMs({ 'retry-after': '-5' }, now)).toBeUndefined();
    expect(retryAfterMs({ 'retry-after-ms': '-5', 'retry-after': '1' }, now)).toBe(1000);
  });
});

describe('backoff', () => {
  it('law: full jitter stays within [0, min(maxDelay, base·2^(attempt-1))]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 60_000 }),
        (attempt, r, base, max) => {
          const policy = { ...DEFAULT_RETRY, baseDelayMs: base, maxDelayMs: max };
          const d = backoffDelay(policy, attempt, () => r);
          expect(d).toBeGreaterThanOrEqual(0);
          expect(d).toBeLessThanOrEqual(Math.min(max, base * 2 ** (attempt - 1)));
        },
      ),
    );
    expect(backoffDelay(MODEL_RETRY, 1, () => 0.999)).toBe(499);
    expect(backoffDelay(MODEL_RETRY, 3, () => 0.5)).toBe(1000);
    expect(backoffDelay(MODEL_RETRY, 10, () => 0.5)).toBe(MODEL_RETRY.maxDelayMs / 2);
  });
  it('counts attempts the same way everywhere: the first included', () => {
    expect([1, 2, 3].map((a) => mayRetry(DEFAULT_RETRY, a, 'GET'))).toEqual([true, true, false]);
    expect(mayRetry(DEFAULT_RETRY, 1, 'post')).toBe(false);
    expect([1, 2, 3].map((a) => mayRetry(MODEL_RETRY, a, 'POST'))).toEqual([true, true, false]);
    expect(mayRetry({ ...MODEL_RETRY, maxAttempts: 1 }, 1, 'POST')).toBe(false);
  });
  it('models retry 429 and 5xx only; HTTP tools the statuses they list', () => {
    expect([400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 529, 600].map((s) => retriesStatus(MODEL_RETRY, s))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
    expect([408, 425, 429, 500, 501, 502, 503, 504, 529].map((s) => retriesStatus(DEFAULT_RETRY, s))).toEqual([
      true,
      true,
      true,
      true,
      false,
      true,
      true,
      true,
      false,
    ]);
  });
  it('sleeps, or stops when aborted', async () => {
    expect(await sleep(1)).toBe(true);
    const c = new AbortController();
    const p = sleep(10_000, c.signal);
    c.abort();
    expect(await p).toBe(false);
    expect(await sleep(10, c.signal)).toBe(false);
  });
});
