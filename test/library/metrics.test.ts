import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createToolMetrics, type FailedEvent, invoke, type ResultEvent, ToolFailure } from '../../src/index.js';
import { expectGolden } from '../support/golden.js';
import { boundFor, spec } from './support.js';

afterEach(() => vi.useRealTimers());

const result = (toolName: string, durationMs: number, startedAt = 0): ResultEvent => ({
  type: 'result',
  callId: 'c',
  toolName,
  args: {},
  startedAt,
  value: null,
  durationMs,
});
const failed = (toolName: string, code: string, durationMs: number, startedAt = 0): FailedEvent => ({
  type: 'failed',
  callId: 'c',
  toolName,
  args: {},
  startedAt,
  error: { code: 'EXECUTION_ERROR', reason: code, message: code, retryable: false },
  durationMs,
});

/** The exact nearest-rank percentile. */
const nearestRank = (xs: ReadonlyArray<number>, q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1] as number;
};

describe('metrics', () => {
  it('counts calls, successes and errors by code, and keeps the last call time, per tool', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2025, 0, 27, 12, 0, 0));
    const metrics = createToolMetrics();
    const a = boundFor(
      spec('a', { type: 'object', properties: { n: { type: 'integer' } } }),
      (x: { n?: number }) => {
        if (x.n === 1) throw new ToolFailure('FILE_NOT_FOUND', 'gone');
        if (x.n === 2) throw new Error('bug');
        return x.n ?? 0;
      },
      { observer: metrics },
    );
    const b = boundFor(spec('b', { type: 'object' }), () => 'b', { observer: metrics });
    for (const n of [0, 1, 2, 2, 5]) await invoke(a, { n });
    await invoke(a, { n: 'x' });
    vi.setSystemTime(Date.UTC(2025, 0, 27, 12, 0, 5));
    await invoke(b, {});
    expect(metrics.usage('never')).toBeUndefined();
    const snap = metrics.snapshot();
    expect(Object.keys(snap.tools)).toEqual(['a', 'b']);
    expect(snap.tools['a']).toMatchObject({
      callCount: 6,
      okCount: 2,
      errorCount: 4,
      errorsByCode: { TOOL_EXECUTION_ERROR: 2, FILE_NOT_FOUND: 1, TOOL_INVALID_ARGUMENTS: 1 },
      lastCalledAt: '2025-01-27T12:00:00.000Z',
    });
    expect(snap.tools['b']?.lastCalledAt).toBe('2025-01-27T12:00:05.000Z');
    expect(JSON.parse(JSON.stringify(metrics))).toEqual(snap);
    metrics.reset();
    expect(metrics.snapshot()).toEqual({ tools: {} });
  });

  it('gives latency percentiles within 1.1% of the exact nearest-rank values (plus the 0.5 ns of rounding to 6 decimals), and the exact mean, min and max', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.001, max: 120_000, noNaN: true }), { minLength: 1, maxLength: 300 }), (durations) => {
        const m = createToolMetrics();
        for (const d of durations) m.result(result('t', d));
        const l = m.usage('t')?.latencyMs;
        expect(l).toBeDefined();
        if (l == null) return;
        for (const [q, got] of [
          [0.5, l.p50],
          [0.95, l.p95],
        ] as const) {
          const exact = nearestRank(durations, q);
          // the bucket's half-width (2^(1/64) − 1 ≈ 1.09%) plus rounding to 1e-6 ms
          expect(Math.abs(got - exact)).toBeLessThanOrEqual(0.011 * exact + 5e-7);
        }
        const sum = durations.reduce((x, y) => x + y, 0);
        expect(l.mean).toBeCloseTo(sum / durations.length, 5);
        expect(l.min).toBeCloseTo(Math.min(...durations), 5);
        expect(l.max).toBeCloseTo(Math.max(...durations), 5);
      }),
    );
  });

  it('keeps memory bounded whatever the number of calls', () => {
    const m = createToolMetrics();
    for (let i = 0; i < 200_000; i++) m.result(result('t', (i % 1000) / 10));
    const u = m.usage('t');
    expect(u?.callCount).toBe(200_000);
    expect(Math.abs((u?.latencyMs?.p50 ?? 0) - 49.9) / 49.9).toBeLessThan(0.011);
  });

  it('reads as JSON (golden)', () => {
    const m = createToolMetrics();
    const t0 = Date.UTC(2025, 0, 27);
    [3, 1, 2, 40, 5].forEach((d, i) => m.result(result('get_weather', d, t0 + i * 1000)));
    m.failed(failed('get_weather', 'TIMEOUT', 10_000, t0 + 10_000));
    m.failed(failed('read_file', 'FILE_NOT_FOUND', 0.2, t0 + 500));
    expectGolden('library/golden/metrics.json', m);
  });
});
