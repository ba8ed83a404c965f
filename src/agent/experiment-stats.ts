/**
 * The statistics of experiment reports: exact nearest-rank percentiles of run latencies (every
 * duration is kept: an experiment is small), and how answers are compared.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface LatencyStats {
  readonly p50: number;
  readonly p95: number;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
}

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

export const round3 = (v: number): number => Math.round(v * 1000) / 1000;

/** Nearest-rank percentile of sorted values (`p` from 0 to 1). */
export const percentile = (sorted: ReadonlyArray<number>, p: number): number => {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
};

export const latencyStats = (values: ReadonlyArray<number>): LatencyStats => {
  if (values.length === 0) return { p50: 0, p95: 0, mean: 0, min: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((s, v) => s + v, 0) / sorted.length;
  return {
    p50: round3(percentile(sorted, 0.5)),
    p95: round3(percentile(sorted, 0.95)),
    mean: round3(mean),
    min: round3(sorted[0] as number),
    max: round3(sorted[sorted.length - 1] as number),
  };
};

/** How answers are compared: trimmed, runs of whitespace collapsed. */
export const normalizeAnswer = (s: string): string => s.trim().replace(/\s+/g, ' ');
