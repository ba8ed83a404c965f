/**
 * Usage metrics per tool (`callCount`, `lastCalledAt`, plus errors by code and latency
 * percentiles), collected by an invocation observer.
 *
 * Recording a call is O(1) and allocation-free after a tool's first call: counters, and a
 * log-scale latency histogram (32 buckets per doubling, so a percentile is within 1.1% of the
 * exact nearest-rank value; bounded memory whatever the number of calls). Percentiles are
 * computed when read.
 */
import type { FailedEvent, InvocationObserver, ResultEvent } from './events.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface LatencySummary {
  /** Median call duration, in milliseconds (nearest rank, within 1.1%). */
  readonly p50: number;
  /** 95th percentile, in milliseconds (nearest rank, within 1.1%). */
  readonly p95: number;
  /** Exact mean, in milliseconds. */
  readonly mean: number;
  /** Exact extremes, in milliseconds. */
  readonly min: number;
  readonly max: number;
}

export interface ToolUsage {
  readonly callCount: number;
  readonly okCount: number;
  readonly errorCount: number;
  /** Failures by error code, e.g. `{"TIMEOUT": 2, "INVALID_ARGUMENTS": 1}`. */
  readonly errorsByCode: Readonly<Record<string, number>>;
  /** When the last call started, ISO 8601 (UTC), or `null` before the first call. */
  readonly lastCalledAt: string | null;
  /** `null` before the first call. */
  readonly latencyMs: LatencySummary | null;
}

export interface MetricsSnapshot {
  /** Usage by tool name, names sorted. */
  readonly tools: Readonly<Record<string, ToolUsage>>;
}

/** An observer that keeps usage metrics; pass it as `observer` to `bindTool`/`bindAll`/`invoke`. */
export interface ToolMetrics extends InvocationObserver {
  readonly result: (event: ResultEvent) => void;
  readonly failed: (event: FailedEvent) => void;
  /** The usage of every tool called so far, as JSON-ready data. */
  readonly snapshot: () => MetricsSnapshot;
  /** The usage of one tool, or `undefined` when it was never called. */
  readonly usage: (toolName: string) => ToolUsage | undefined;
  /** `JSON.stringify(metrics)` gives the snapshot. */
  readonly toJSON: () => MetricsSnapshot;
  /** Forgets everything recorded. */
  readonly reset: () => void;
}

// -------------------------------------------------------------------------------------------------
// histogram
// -------------------------------------------------------------------------------------------------

/** Buckets per doubling of the duration. */
const SUB = 32;
/** Durations are bucketed in microseconds from 1 µs up to 2^OCTAVES µs (about 12.7 days). */
const OCTAVES = 40;
const BUCKETS = 1 + OCTAVES * SUB + 1;

const bucketOf = (ms: number): number => {
  const us = ms * 1000;
  if (!(us >= 1)) return 0; // also NaN
  const i = 1 + Math.floor(Math.log2(us) * SUB);
  return i < BUCKETS ? i : BUCKETS - 1;
};

/** The geometric middle of a bucket, in milliseconds. */
const bucketValue = (i: number): number => (i === 0 ? 0.0005 : 2 ** ((i - 1 + 0.5) / SUB) / 1000);

interface Usage {
  callCount: number;
  okCount: number;
  errorsByCode: Map<string, number>;
  lastCalledAt: number;
  sum: number;
  min: number;
  max: number;
  readonly histogram: Uint32Array;
}

const newUsage = (): Usage => ({
  callCount: 0,
  okCount: 0,
  errorsByCode: new Map(),
  lastCalledAt: 0,
  sum: 0,
  min: Number.POSITIVE_INFINITY,
  max: 0,
  histogram: new Uint32Array(BUCKETS),
});

const percentile = (u: Usage, q: number): number => {
  const rank = Math.max(1, Math.ceil(q * u.callCount));
  let seen = 0;
  for (let i = 0; i < BUCKETS; i++) {
    seen += u.histogram[i] as number;
    if (seen >= rank) return Math.min(u.max, Math.max(u.min, bucketValue(i)));
  }
  return u.max;
};

const round = (ms: number): number => Math.round(ms * 1e6) / 1e6;

const summarize = (u: Usage): ToolUsage => {
  let errors = 0;
  const byCode: Record<string, number> = {};
  for (const code of [...u.errorsByCode.keys()].sort()) {
    const n = u.errorsByCode.get(code) as number;
    byCode[code] = n;
    errors += n;
  }
  return {
    callCount: u.callCount,
    okCount: u.okCount,
    errorCount: errors,
    errorsByCode: byCode,
    lastCalledAt: u.callCount === 0 ? null : new Date(u.lastCalledAt).toISOString(),
    latencyMs:
      u.callCount === 0
        ? null
        : {
            p50: round(percentile(u, 0.5)),
            p95: round(percentile(u, 0.95)),
            mean: round(u.sum / u.callCount),
            min: round(u.min),
            max: round(u.max),
          },
  };
};

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** A fresh metrics collector. Use one per library (or per A/B variant) to compare them. */
export const createToolMetrics = (): ToolMetrics => {
  const byTool = new Map<string, Usage>();

  const record = (toolName: string, startedAt: number, durationMs: number): Usage => {
    let u = byTool.get(toolName);
    if (u === undefined) {
      u = newUsage();
      byTool.set(toolName, u);
    }
    u.callCount++;
    if (startedAt > u.lastCalledAt) u.lastCalledAt = startedAt;
    const d = durationMs >= 0 ? durationMs : 0;
    u.sum += d;
    if (d < u.min) u.min = d;
    if (d > u.max) u.max = d;
    const b = bucketOf(d);
    u.histogram[b] = (u.histogram[b] as number) + 1;
    return u;
  };

  const snapshot = (): MetricsSnapshot => {
    const tools: Record<string, ToolUsage> = {};
    for (const name of [...byTool.keys()].sort()) tools[name] = summarize(byTool.get(name) as Usage);
    return { tools };
  };

  return {
    result: (e) => {
      record(e.toolName, e.startedAt, e.durationMs).okCount++;
    },
    failed: (e) => {
      const u = record(e.toolName, e.startedAt, e.durationMs);
      const code = String(e.error.reason);
      u.errorsByCode.set(code, (u.errorsByCode.get(code) ?? 0) + 1);
    },
    snapshot,
    usage: (name) => {
      const u = byTool.get(name);
      return u === undefined ? undefined : summarize(u);
    },
    toJSON: snapshot,
    reset: () => byTool.clear(),
  };
};
