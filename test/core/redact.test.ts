/**
 * core/redact.ts: secrets never leave a tool, in any form.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/entries/tools.js';
import { redactor } from '../../src/core/redact.js';

describe('secret redaction', () => {
  // a secret that is part of the marker, or has brackets that can join a marker, could reappear around it
  const secret = fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }).filter((s) => !REDACTED.includes(s) && !/[[\]]/.test(s));
  const forms = (s: string) => [
    s,
    encodeURIComponent(s),
    JSON.stringify(s).slice(1, -1),
    new URLSearchParams([['', s]]).toString().slice(1),
    Buffer.from(s).toString('base64'),
  ];

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
