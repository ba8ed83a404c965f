/**
 * The laws of the experiment's statistics: intervals hold their estimate and stay in range, tests
 * are symmetric, p-values are probabilities; and known values (McNemar's exact test, Wilson).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bootstrapMeanInterval, comparePaired, mcnemarExactPValue, meanInterval, RESAMPLE_BELOW, wilsonInterval } from '../../src/agent/experiment-stats.js';

const counts = fc.integer({ min: 1, max: 500 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)));
const values = fc.array(fc.double({ min: -1000, max: 1000, noNaN: true }), { minLength: 1, maxLength: 60 });

describe('experiment statistics', () => {
  it('Wilson: the interval holds the rate, lies in [0, 1], and is mirrored by swapping successes and failures', () => {
    fc.assert(
      fc.property(counts, ([k, n]) => {
        const [lo, hi] = wilsonInterval(k, n);
        expect(0 <= lo && lo <= k / n && k / n <= hi && hi <= 1).toBe(true);
        const [lo2, hi2] = wilsonInterval(n - k, n);
        expect(lo2).toBeCloseTo(1 - hi, 9);
        expect(hi2).toBeCloseTo(1 - lo, 9);
      }),
    );
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
    // a textbook value: 8 of 14
    const [lo, hi] = wilsonInterval(8, 14);
    expect(lo).toBeCloseTo(0.3259, 3);
    expect(hi).toBeCloseTo(0.7862, 3);
  });

  it('Wilson narrows as runs grow at the same rate', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 50 }), (n, k0) => {
        const k = Math.min(k0, n);
        const width = (i: readonly [number, number]) => i[1] - i[0];
        expect(width(wilsonInterval(4 * k, 4 * n))).toBeLessThanOrEqual(width(wilsonInterval(k, n)) + 1e-12);
      }),
    );
  });

  it('sign test / McNemar: p in [0, 1], symmetric in its two counts, 1 with no discordant pair; exact values', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 400 }), (b, c) => {
        const p = mcnemarExactPValue(b, c);
        expect(p >= 0 && p <= 1).toBe(true);
        expect(mcnemarExactPValue(c, b)).toBe(p);
        // more lopsided, smaller p
        expect(mcnemarExactPValue(b + 1, 0)).toBeLessThanOrEqual(mcnemarExactPValue(b, 0));
      }),
    );
    expect(mcnemarExactPValue(0, 0)).toBe(1);
    expect(mcnemarExactPValue(0, 6)).toBeCloseTo(0.03125, 10);
    expect(mcnemarExactPValue(14, 0)).toBeCloseTo(2 / 2 ** 14, 12);
    // 2 × P(X ≤ 3), X ~ Bin(12, 1/2) = 2 × 299/4096
    expect(mcnemarExactPValue(3, 9)).toBeCloseTo((2 * 299) / 4096, 10);
  });

  it('bootstrap: the interval is ordered, within the data, deterministic, and a constant sample has a point interval', () => {
    fc.assert(
      fc.property(values, (xs) => {
        const [lo, hi] = bootstrapMeanInterval(xs, 300);
        expect(lo).toBeLessThanOrEqual(hi);
        expect(lo).toBeGreaterThanOrEqual(Math.min(...xs) - 1e-9);
        expect(hi).toBeLessThanOrEqual(Math.max(...xs) + 1e-9);
        expect(bootstrapMeanInterval(xs, 300)).toEqual([lo, hi]);
      }),
    );
    expect(bootstrapMeanInterval([3, 3, 3])).toEqual([3, 3]);
  });

  it('meanInterval: the bootstrap below RESAMPLE_BELOW values, and from there on its limit, close to what resampling gives', () => {
    const small = fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: RESAMPLE_BELOW - 1 });
    fc.assert(
      fc.property(small, (xs) => {
        expect(meanInterval(xs)).toEqual(bootstrapMeanInterval(xs));
      }),
      { numRuns: 30 },
    );
    // pass/fail scores, latencies (a skewed positive spread), partial scores, paired differences
    const kinds = [
      fc.constantFrom(0, 1),
      fc.double({ min: 0, max: 1, noNaN: true }).map((u) => Math.round(5 + 200 * u ** 4)),
      fc.constantFrom(0, 0.5, 1),
      fc.constantFrom(-1, 0, 0, 1),
    ];
    for (const kind of kinds) {
      fc.assert(
        fc.property(fc.array(kind, { minLength: RESAMPLE_BELOW, maxLength: 400 }), (xs) => {
          const [lo, hi] = meanInterval(xs);
          const [blo, bhi] = bootstrapMeanInterval(xs, 4000, 7);
          const m = xs.reduce((s, v) => s + v, 0) / xs.length;
          expect(lo).toBeLessThanOrEqual(m + 1e-12);
          expect(hi).toBeGreaterThanOrEqual(m - 1e-12);
          expect(lo).toBeGreaterThanOrEqual(Math.min(...xs) - 1e-12);
          expect(hi).toBeLessThanOrEqual(Math.max(...xs) + 1e-12);
          // within a tenth of the interval's width, plus one step of the mean's grid for discrete data
          const slack = 0.1 * (bhi - blo) + (Math.max(...xs) - Math.min(...xs)) / xs.length + 1e-9;
          expect(Math.abs(lo - blo)).toBeLessThanOrEqual(slack);
          expect(Math.abs(hi - bhi)).toBeLessThanOrEqual(slack);
          expect(meanInterval(xs)).toEqual([lo, hi]);
        }),
        { numRuns: 25 },
      );
    }
    // every pass or every failure: a point interval, as every resample is
    expect(meanInterval(Array.from({ length: 200 }, () => 1))).toEqual([1, 1]);
    expect(meanInterval(Array.from({ length: 200 }, () => 0))).toEqual([0, 0]);
  });

  it('paired comparison: swapping the two sides negates the difference, swaps better and worse, keeps p', () => {
    const pairs = fc.array(fc.tuple(fc.constantFrom(0, 1), fc.constantFrom(0, 0.5, 1)), { minLength: 1, maxLength: 80 });
    fc.assert(
      fc.property(pairs, (ps) => {
        const a = ps.map((p) => p[0]);
        const b = ps.map((p) => p[1]);
        const ab = comparePaired(a, b);
        const ba = comparePaired(b, a);
        expect(ba.difference).toBeCloseTo(-ab.difference, 12);
        expect(ba.pValue).toBe(ab.pValue);
        expect(ba.better).toBe(ab.worse);
        expect(ab.better + ab.worse + ab.same).toBe(ps.length);
        expect(ab.significant).toBe(ab.pValue < 0.05);
        expect(ab.pValue >= 0 && ab.pValue <= 1).toBe(true);
        expect(comparePaired(a, a)).toMatchObject({ difference: 0, ci: [0, 0], pValue: 1, significant: false });
      }),
    );
  });
});
