import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffMs, DEFAULT_RETRY, isRetryableStatus, retryAfterMs, sleep } from '../../src/providers/retry.js';

describe('Retry-After', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads seconds, an HTTP date, and retry-after-ms (which wins)', () => {
    expect(retryAfterMs({ 'retry-after': '2' }, now)).toBe(2000);
    expect(retryAfterMs({ 'retry-after': '0.5' }, now)).toBe(500);
    expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, now)).toBe(3000);
    expect(retryAfterMs({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, now)).toBe(0);
    expect(retryAfterMs({ 'retry-after': '2', 'retry-after-ms': '150' }, now)).toBe(150);
    expect(retryAfterMs({ 'retry-after': ['4'] }, now)).toBe(4000);
  });
  it('ignores what it cannot read', () => {
    expect(retryAfterMs({}, now)).toBeUndefined();
    expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(retryAfterMs({ 'retry-after-ms': '-5', 'retry-after': '1' }, now)).toBe(1000);
  });
});

describe('backoff', () => {
  it('doubles from the base, is capped, and is jittered into [½, 1) of the step', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (retry, r) => {
        const step = Math.min(DEFAULT_RETRY.maxDelayMs, DEFAULT_RETRY.baseDelayMs * 2 ** (retry - 1));
        const d = backoffMs(retry, DEFAULT_RETRY, () => r);
        expect(d).toBeGreaterThanOrEqual(Math.floor(step / 2));
        expect(d).toBeLessThanOrEqual(step);
      }),
    );
    expect(backoffMs(1, DEFAULT_RETRY, () => 0)).toBe(250);
    expect(backoffMs(3, DEFAULT_RETRY, () => 0.999)).toBe(1999);
  });
  it('retries 429 and 5xx only', () => {
    expect([400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 529, 600].map(isRetryableStatus)).toEqual([
      false, false, false, false, false, false, false, true, true, true, true, true, false,
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
