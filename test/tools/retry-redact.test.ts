import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, REDACTED } from '../../src/entries/tools.js';
import { redactor } from '../../src/core/redact.js';
import { backoffDelay, parseRetryAfter } from '../../src/net/retry.js';

describe('retry delays', () => {
  it('law: full jitter stays within [0, min(maxDelay, base·2^(attempt-1))]', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 60_000 }), (attempt, r, base, max) => {
        const policy = { ...DEFAULT_RETRY, baseDelayMs: base, maxDelayMs: max };
        const d = backoffDelay(policy, attempt, () => r);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(Math.min(max, base * 2 ** (attempt - 1)));
      }),
    );
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('secret redaction', () => {
  // a secret that is part of the marker, or has brackets that can join a marker, could reappear around it
  const secret = fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }).filter((s) => !REDACTED.includes(s) && !/[[\]]/.test(s));
  const forms = (s: string) => [s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1), new URLSearchParams([['', s]]).toString().slice(1), Buffer.from(s).toString('base64')];

  it('law: no form of a secret survives in a text that embeds it', () => {
    fc.assert(
      fc.property(secret, fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), fc.nat(4), (s, before, after, which) => {
        const out = redactor([s]).text(`${before}${forms(s)[which]}${after}`);
        expect(out).toContain(REDACTED);
        expect(out.includes(s) && !`${before}${after}`.includes(s)).toBe(false);
      }),
    );
  });

  it('redacts keys and values deep inside results, and leaves the input alone', () => {
    const r = redactor(['k3y']);
    const input = { a: ['x k3y y', { 'k3y-name': 1, nested: { deep: 'k3y' } }], n: 3, b: true, z: null };
    expect(r.value(input)).toEqual({ a: [`x ${REDACTED} y`, { [`${REDACTED}-name`]: 1, nested: { deep: REDACTED } }], n: 3, b: true, z: null });
    expect(input.a[0]).toBe('x k3y y');
    expect(redactor([]).value(input)).toBe(input);
  });
});
