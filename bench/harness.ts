/**
 * A tiny benchmark harness. Speed is reported as ratios against a baseline measured in the same
 * process and run, never as absolute thresholds in tests: machines differ, ratios travel.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface Measurement {
  readonly name: string;
  /** Mean time per operation, in nanoseconds. */
  readonly nsPerOp: number;
  readonly ops: number;
}

const now = (): bigint => process.hrtime.bigint();

/**
 * Runs `fn` repeatedly for about `ms` milliseconds (after a warm-up) and returns the mean time per
 * call. `fn` may be async; `batch` calls are made per timing sample to amortize the clock.
 */
export const measure = async (
  name: string,
  fn: () => unknown,
  options: { readonly ms?: number; readonly warmupMs?: number; readonly batch?: number } = {},
): Promise<Measurement> => {
  const ms = options.ms ?? 1000;
  const batch = options.batch ?? 1;
  const run = async (budgetMs: number): Promise<{ ops: number; ns: bigint }> => {
    let ops = 0;
    let ns = 0n;
    const end = Date.now() + budgetMs;
    do {
      const t0 = now();
      for (let i = 0; i < batch; i++) {
        const r = fn();
        if (r instanceof Promise) await r;
      }
      ns += now() - t0;
      ops += batch;
    } while (Date.now() < end);
    return { ops, ns };
  };
  await run(options.warmupMs ?? Math.min(300, ms / 3));
  const { ops, ns } = await run(ms);
  return { name, nsPerOp: Number(ns) / ops, ops };
};

/** A synchronous operation timed over a whole run, cold start included: no warm-up, no best round. */
export interface RoundsMeasurement {
  /** CPU time (user + system, the process's) over the number of operations, every round included. */
  readonly nsPerOp: number;
  /** The same in elapsed time, which also counts the time the machine ran something else. */
  readonly wallNsPerOp: number;
  /** The median and 99th percentile of the rounds' own averages (CPU time), and the worst round. */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

const cpuNs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
};

/**
 * Calls `fn(0)`, `fn(1)`, ... `rounds × perRound` times, timing each round of `perRound` calls, and
 * returns the average over the whole run with the spread of the rounds. For costs that must hold
 * from the first call on: the JIT's warm-up and any lazy work are part of what is measured. CPU
 * time, because on a shared machine elapsed time counts other programs' turns (it is reported too).
 */
export const measureRounds = (fn: (i: number) => unknown, options: { readonly rounds: number; readonly perRound: number }): RoundsMeasurement => {
  const perRound: number[] = [];
  const wall0 = now();
  const cpu0 = cpuNs();
  let i = 0;
  for (let r = 0; r < options.rounds; r++) {
    const t0 = cpuNs();
    for (const end = i + options.perRound; i < end; i++) fn(i);
    perRound.push((cpuNs() - t0) / options.perRound);
  }
  const cpu = cpuNs() - cpu0;
  const wall = Number(now() - wall0);
  const sorted = perRound.sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
  return { nsPerOp: cpu / i, wallNsPerOp: wall / i, p50: at(0.5), p99: at(0.99), max: at(1) };
};

/** Times one call of `fn` (for work that is too big to repeat many times). */
export const timeOnce = async (fn: () => unknown): Promise<number> => {
  const t0 = now();
  const r = fn();
  if (r instanceof Promise) await r;
  return Number(now() - t0) / 1e6;
};

/** The best (smallest) of `n` single timings, in milliseconds. */
export const bestOf = async (n: number, fn: () => unknown): Promise<number> => {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) best = Math.min(best, await timeOnce(fn));
  return best;
};

/** The median of `xs` (the mean of the middle two for an even count). */
export const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/** One round's wall-clock and CPU time (user + system of this process), in milliseconds. */
export interface Timing {
  readonly wall: number;
  readonly cpu: number;
}

/** Times one synchronous call of `fn`: wall clock and this process's CPU time. */
export const timeSync = (fn: () => unknown): Timing => {
  const c0 = process.cpuUsage();
  const t0 = now();
  fn();
  const wall = Number(now() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
};

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let gcFn: (() => void) | undefined;

/** A full garbage collection (V8's `gc()`, exposed for a fresh context of the benchmark only). */
export const collectGarbage = (): void => {
  if (gcFn === undefined) {
    setFlagsFromString('--expose-gc');
    gcFn = runInNewContext('gc') as () => void;
  }
  gcFn();
};

/**
 * `rounds` interleaved rounds of timings: each round runs each of `fns` twice, untimed then timed,
 * with a full garbage collection and a short pause before each timed run. Interleaving exposes
 * every contender to the same drift of a shared machine; the collection makes each timed run start
 * from the same clean heap, so that it pays for the collections its own allocations cause and not
 * for the garbage of the run before (a large AST left behind would otherwise be charged to whoever
 * runs next); the pause lets concurrent sweeping finish. Round `i`
 * of one contender and round `i` of another ran side by side: compare them as a ratio per round
 * (`medianRatio`), which ignores the rounds a neighbour or a major GC spoiled.
 */
export const interleaved = async <K extends string>(rounds: number, fns: Readonly<Record<K, () => unknown>>): Promise<Record<K, Timing[]>> => {
  const keys = Object.keys(fns) as K[];
  const out = {} as Record<K, Timing[]>;
  for (const k of keys) out[k] = [];
  for (let r = 0; r < rounds; r++) {
    for (const k of keys) {
      fns[k]();
      collectGarbage();
      await pause(50);
      out[k].push(timeSync(fns[k]));
    }
  }
  return out;
};

/** Medians of `rounds` interleaved rounds (see `interleaved`). */
export const medians = async <K extends string>(rounds: number, fns: Readonly<Record<K, () => unknown>>): Promise<Record<K, Timing>> => {
  const seen = await interleaved(rounds, fns);
  const out = {} as Record<K, Timing>;
  for (const k of Object.keys(fns) as K[]) out[k] = { wall: median(seen[k].map((t) => t.wall)), cpu: median(seen[k].map((t) => t.cpu)) };
  return out;
};

/** The median over rounds of `a[i] / b[i]` (times of two contenders of `interleaved`), in wall-clock and CPU time. */
export const medianRatio = (a: ReadonlyArray<Timing>, b: ReadonlyArray<Timing>): Timing => ({
  wall: median(a.map((t, i) => t.wall / (b[i] as Timing).wall)),
  cpu: median(a.map((t, i) => t.cpu / (b[i] as Timing).cpu)),
});

/** Elapsed time of one call, in milliseconds, and how much of it the garbage collector paused the program. */
export interface GcTiming {
  readonly ms: number;
  readonly gcMs: number;
}

/** Times one call of `fn` with the garbage collector's pauses during it (from `perf_hooks` gc entries). */
export const timeWithGc = async (fn: () => unknown): Promise<GcTiming> => {
  let gcMs = 0;
  let end = Number.POSITIVE_INFINITY;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.startTime >= start && e.startTime <= end) gcMs += e.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
  const start = performance.now();
  const r = fn();
  if (r instanceof Promise) await r;
  end = performance.now();
  // the entries arrive asynchronously
  await new Promise((resolve) => setTimeout(resolve, 20));
  observer.disconnect();
  return { ms: end - start, gcMs };
};

export const formatNs = (ns: number): string =>
  ns >= 1e9 ? `${(ns / 1e9).toFixed(2)} s` : ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`;

/** Prints a table of rows; `target` lines say whether a goal is met, without failing anything. */
export const report = (title: string, rows: ReadonlyArray<readonly [string, string]>): void => {
  const width = Math.max(...rows.map(([k]) => k.length));
  process.stdout.write(`\n## ${title}\n`);
  for (const [k, v] of rows) process.stdout.write(`  ${k.padEnd(width)}  ${v}\n`);
};

/** `1.23× (target ≤ 3×: met)` */
export const ratio = (value: number, target?: { readonly max?: number; readonly min?: number }): string => {
  const r = `${value.toFixed(2)}×`;
  if (target === undefined) return r;
  const met = (target.max === undefined || value <= target.max) && (target.min === undefined || value >= target.min);
  const goal = target.max !== undefined ? `≤ ${target.max}×` : `≥ ${target.min}×`;
  return `${r} (target ${goal}: ${met ? 'met' : 'NOT MET'})`;
};

/**
 * A live process's CPU time so far (user + system), in µs, from `/proc/<pid>/stat` (Linux; the
 * kernel counts it in clock ticks, 10 ms each): what a server in its own process spent, whatever
 * else the machine ran.
 */
export const processCpuUs = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};

/** Stops a server the benchmark started (SIGTERM) and waits for it to exit; its own 'exit' listeners go first. */
export const stopProcess = (child: ChildProcess): Promise<void> => {
  child.removeAllListeners('exit');
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
};

/**
 * Two CPUs this process may run on, one for a server and one for its load generator (Linux, with
 * `taskset`): each runs alone on its core, as load tests are run, so neither the scheduler moving
 * them nor the other's work lands in a server's figure. `undefined` when there are fewer than two
 * or no `taskset`: then nothing is pinned (the report says so).
 */
export const cpuPair = (): { readonly server: string; readonly client: string } | undefined => {
  try {
    if (!existsSync('/usr/bin/taskset') && !existsSync('/bin/taskset')) return undefined;
    const list = /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    const cpus = (list ?? '').split(',').flatMap((part) => {
      const [a, b] = part.split('-').map(Number);
      if (a === undefined || Number.isNaN(a)) return [];
      return b === undefined ? [a] : Array.from({ length: b - a + 1 }, (_, i) => a + i);
    });
    return cpus.length >= 2 ? { server: String(cpus[cpus.length - 1]), client: String(cpus[0]) } : undefined;
  } catch {
    return undefined;
  }
};

/** `command args` on one CPU when `cpu` is given (`taskset` execs the command: the process, and its pid, are the command's). */
export const pinned = (cpu: string | undefined, command: string, args: ReadonlyArray<string>): readonly [string, ReadonlyArray<string>] =>
  cpu === undefined ? [command, args] : ['taskset', ['-c', cpu, command, ...args]];
