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

// -------------------------------------------------------------------------------------------------
// intervals and tests (95%, deterministic: the bootstrap draws from a seeded generator)
// -------------------------------------------------------------------------------------------------

/** A 95% interval `[lo, hi]`. */
export type Interval = readonly [number, number];

/** Two-sided 95% normal quantile. */
const Z95 = 1.959963984540054;

/** The Wilson score interval (95%) of a rate: `k` successes of `n`. `[0, 1]` when `n` is 0. */
export const wilsonInterval = (k: number, n: number): Interval => {
  if (n <= 0) return [0, 1];
  const p = k / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  // the bounds hold the estimate exactly at the ends (rounding aside)
  return [k === 0 ? 0 : Math.min(p, Math.max(0, centre - half)), k === n ? 1 : Math.max(p, Math.min(1, centre + half))];
};

export const mean = (values: ReadonlyArray<number>): number => (values.length === 0 ? 0 : values.reduce((s, v) => s + v, 0) / values.length);

/**
 * The percentile bootstrap interval (95%) of the mean of `values` (2,000 resamples, seeded).
 * `[0, 0]` for no values. Paired data: give the differences.
 */
export const bootstrapMeanInterval = (values: ReadonlyArray<number>, resamples = 2000, seed = 20): Interval => {
  const n = values.length;
  if (n === 0) return [0, 0];
  // values all the same (one value, a variant that always passes): every resample's mean is that value
  const first = values[0] as number;
  if (values.every((v) => v === first)) return [first, first];
  // the generator inlined (this loop is most of an experiment's own cost): mulberry32, as `generator`
  const data = Float64Array.from(values);
  const means = new Float64Array(resamples);
  let a = seed >>> 0;
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), a | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      s += data[Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)] as number;
    }
    means[r] = s / n;
  }
  means.sort();
  const at = (p: number): number => means[Math.min(resamples - 1, Math.max(0, Math.floor(p * resamples)))] as number;
  return [at(0.025), at(0.975)];
};

/** From this many values on, `meanInterval` uses the bootstrap's large-sample limit instead of resampling. */
export const RESAMPLE_BELOW = 100;

/**
 * The 95% interval of the mean of `values`, as the percentile bootstrap gives it, computed cheaply
 * where that is exact or accurate:
 * - fewer than `RESAMPLE_BELOW` values: the seeded bootstrap itself (`bootstrapMeanInterval`);
 * - values that are all 0 or 1 (pass/fail scores): the bootstrap's exact distribution, Binomial(n, p̂)/n,
 *   its 2.5% and 97.5% quantiles in closed form (what infinitely many resamples converge to);
 * - otherwise: the normal limit of the bootstrap distribution, mean ± 1.96·σ̂/√n with σ̂ the sample's
 *   own (plug-in) deviation, kept within the data as every resample's mean is.
 * `[0, 0]` for no values.
 */
export const meanInterval = (values: ReadonlyArray<number>): Interval => {
  const n = values.length;
  if (n < RESAMPLE_BELOW) return bootstrapMeanInterval(values);
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  let binary = true;
  for (const v of values) {
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
    if (v !== 0 && v !== 1) binary = false;
  }
  if (binary) {
    const k = Math.round(sum);
    return [binomialQuantile(0.025, n, k / n) / n, binomialQuantile(0.975, n, k / n) / n];
  }
  const m = sum / n;
  let ss = 0;
  for (const v of values) ss += (v - m) * (v - m);
  const half = Z95 * Math.sqrt(ss / n / n);
  return [Math.max(min, m - half), Math.min(max, m + half)];
};

/**
 * The smallest `x` with P(X ≤ x) > `q` for X ~ Binomial(n, p) (the bootstrap's percentile: the
 * resample mean at rank ⌊q·R⌋ of R sorted resamples), the pmf summed in log space.
 */
const binomialQuantile = (q: number, n: number, p: number): number => {
  if (p <= 0) return 0;
  if (p >= 1) return n;
  const lp = Math.log(p);
  const lq = Math.log(1 - p);
  let logC = 0; // log C(n, x)
  let total = 0;
  for (let x = 0; x <= n; x++) {
    if (x > 0) logC += Math.log(n - x + 1) - Math.log(x);
    total += Math.exp(logC + x * lp + (n - x) * lq);
    if (total > q) return x;
  }
  return n;
};

/** P(X ≤ k) for X ~ Binomial(n, 1/2), summed in log space (exact enough for any n). */
const binomialHalfCdf = (k: number, n: number): number => {
  if (k < 0) return 0;
  if (k >= n) return 1;
  let logTerm = n * Math.log(0.5);
  let total = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log(n - i + 1) - Math.log(i);
    total += Math.exp(logTerm);
  }
  return Math.min(1, total);
};

/**
 * The exact two-sided p-value of a sign test: `plus` pairs went one way, `minus` the other (ties
 * left out). For pass/fail pairs it is McNemar's exact test (`plus`: baseline failed and the
 * variant passed; `minus`: the other way). 1 when no pair differs.
 */
export const signTestPValue = (plus: number, minus: number): number => {
  const n = plus + minus;
  if (n === 0) return 1;
  return Math.min(1, 2 * binomialHalfCdf(Math.min(plus, minus), n));
};

/** McNemar's exact test of paired pass/fail outcomes: the p-value (two-sided). */
export const mcnemarExactPValue = signTestPValue;

/** A difference against the baseline, paired by input and repetition. */
export interface PairedComparison {
  /** The variant's mean minus the baseline's. */
  readonly difference: number;
  /** 95% paired bootstrap interval of the difference. */
  readonly ci: Interval;
  readonly pValue: number;
  /** `pValue < 0.05`. */
  readonly significant: boolean;
  /** Pairs where the variant did better, worse, the same. */
  readonly better: number;
  readonly worse: number;
  readonly same: number;
}

/**
 * Paired comparison of per-run values (`baseline[i]` and `variant[i]` are the same input and
 * repetition): the mean difference, its bootstrap interval (`meanInterval`), and the sign test's p-value (McNemar's
 * exact test when the values are 0 and 1).
 */
export const comparePaired = (baseline: ReadonlyArray<number>, variant: ReadonlyArray<number>): PairedComparison => {
  const diffs = variant.map((v, i) => v - (baseline[i] ?? 0));
  const better = diffs.filter((d) => d > 0).length;
  const worse = diffs.filter((d) => d < 0).length;
  const pValue = signTestPValue(better, worse);
  return { difference: mean(diffs), ci: meanInterval(diffs), pValue, significant: pValue < 0.05, better, worse, same: diffs.length - better - worse };
};
