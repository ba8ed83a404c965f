import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { admitCall, RATE_WINDOW_MS } from '../../src/library/rate-limit.js';

describe('maxCallsPerMinute window', () => {
  it('admits a call exactly when fewer than `limit` calls were admitted in the 60 s before it, and says how long to wait', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(fc.integer({ min: 0, max: 20_000 }), { maxLength: 60 }), (limit, gaps) => {
        const tool = {};
        const admitted: number[] = [];
        let now = 0;
        for (const gap of gaps) {
          now += gap;
          const inWindow = admitted.filter((t) => t > now - RATE_WINDOW_MS);
          const wait = admitCall(tool, limit, now);
          expect(wait === 0).toBe(inWindow.length < limit);
          if (wait === 0) admitted.push(now);
          else {
            // after waiting, the oldest call that blocks this one has left the window
            const blocking = inWindow[inWindow.length - limit] as number;
            expect(wait).toBe(Math.max(1, blocking + RATE_WINDOW_MS - now));
          }
        }
      }),
    );
  });

  it('keeps separate windows per tool', () => {
    const [a, b] = [{}, {}];
    expect(admitCall(a, 1, 0)).toBe(0);
    expect(admitCall(a, 1, 1)).toBeGreaterThan(0);
    expect(admitCall(b, 1, 1)).toBe(0);
  });
});
