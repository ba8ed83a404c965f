/**
 * Experiment benchmarks (issue 20), ratios measured in the same run:
 * - overhead per run: `runExperiment` (scoring, statistics, the model wrapper) against a bare loop
 *   calling `runBoundAgent` with the same scripted model on the same inputs, in interleaved rounds:
 *   the median of the rounds' ratios of CPU time (and of wall time) and their interquartile range,
 *   with the load average; target ≤ 1.2×;
 * - concurrency: runs/s with concurrency 8 against concurrency 1 on runs dominated by a tool that
 *   waits 20 ms; target ≥ 5×;
 * - memory: what is held while the last run finishes (the heap and the typed arrays' buffers, after
 *   a full collection), after 200 and after 2,000 runs with the runs kept for the report, and after
 *   200, 2,000 and 20,000 with `keepRuns: false` (runs streamed to a file by `onRun`).
 */
import { loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { bindAgent, createTool, parseSpecifications, runBoundAgent, runExperiment, toolLibrary } from '../src/index.js';
import { scriptedModel } from '../src/entries/testing.js';
import { ratio, report } from './harness.js';

const GRAM = `
[echo:Tool {description: "Returns its text"} | (text::String {description: "What to return"})==>(::String)]
[echoer:Agent {description: "Echoes", instruction: "Call echo with the user's text, then answer with its result."} | echo]
`;

const setup = (delayMs: number) => {
  const specs = parseSpecifications(GRAM);
  if (specs._tag === 'Left') throw new Error(JSON.stringify(specs.left));
  const agent = specs.right.agents[0];
  const spec = specs.right.tools[0];
  if (agent === undefined || spec === undefined) throw new Error('no agent');
  const impl = delayMs === 0 ? (a: { text: string }) => a.text : (a: { text: string }) => new Promise<string>((r) => setTimeout(() => r(a.text), delayMs));
  const library = toolLibrary([createTool(spec.name, spec.description, spec.schema, impl, { outputSchema: spec.outputSchema })]);
  return { agent, library };
};

const model = () =>
  scriptedModel((request) => {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return { text: last.content };
    const text = request.messages.find((m) => m.role === 'user')?.content ?? '';
    return { toolCalls: [{ name: 'echo', arguments: { text } }] };
  });

const inputs = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ message: `hello ${i}`, expected: `hello ${i}`, expectedToolCalls: [{ echo: { text: [`hello ${i}`] } }] }));

const time = async (fn: () => Promise<unknown>): Promise<number> => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};

/** Wall and CPU time (the process's, user + system) of a call, in milliseconds. */
const timed = async (fn: () => Promise<unknown>): Promise<{ readonly wall: number; readonly cpu: number }> => {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const c = process.cpuUsage(c0);
  return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
};

/** The `q` quantile (nearest rank) of the values. */
const quantile = (xs: ReadonlyArray<number>, q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
};
const median = (xs: ReadonlyArray<number>): number => quantile(xs, 0.5);
/** `median (interquartile range lo–hi)`. */
const spread = (xs: ReadonlyArray<number>): string => `IQR ${quantile(xs, 0.25).toFixed(2)}–${quantile(xs, 0.75).toFixed(2)}`;

export default async (): Promise<void> => {
  const fast = setup(0);
  const bound = bindAgent(fast.agent, fast.library);
  if (bound._tag === 'Left') throw new Error('does not bind');
  const N = 400;
  const xs = inputs(N);
  const bare = async () => {
    const m = model();
    for (const x of xs) await runBoundAgent(bound.right, x.message, { model: m });
  };
  const experiment = async () => {
    const r = await runExperiment({ agent: fast.agent, variants: { only: fast.library }, inputs: xs, model: model(), concurrency: 1 });
    if (!r.ok) throw new Error(r.error.message);
  };
  // warm up both (the JIT), then rounds alternating the two (the shared machine's load hits both
  // alike): each round's ratio of CPU time (the process's user + system) and of wall time; the
  // median of the rounds is the figure
  for (let i = 0; i < 5; i++) {
    await bare();
    await experiment();
  }
  // rounds are many (one round is ~40 ms: a busy neighbour can take a whole one) and the figure
  // is their median, its interquartile range beside it
  const ROUNDS = 41;
  const cpuRatios: number[] = [];
  const wallRatios: number[] = [];
  const bareCpu: number[] = [];
  const expCpu: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    // each first in every other round (what runs second finds the heap the first left)
    const first = i % 2 === 0 ? await timed(bare) : await timed(experiment);
    const second = i % 2 === 0 ? await timed(experiment) : await timed(bare);
    const [b, e] = i % 2 === 0 ? [first, second] : [second, first];
    cpuRatios.push(e.cpu / b.cpu);
    wallRatios.push(e.wall / b.wall);
    bareCpu.push(b.cpu);
    expCpu.push(e.cpu);
  }
  const load = loadavg()[0] ?? 0;

  const slow = setup(20);
  const few = inputs(48);
  const run = (concurrency: number) => async () => {
    const r = await runExperiment({ agent: slow.agent, variants: { only: slow.library }, inputs: few, model: model(), concurrency });
    if (!r.ok) throw new Error(r.error.message);
  };
  const c1 = await time(run(1));
  const c8 = await time(run(8));

  setFlagsFromString('--expose_gc');
  const gc = runInNewContext('gc') as () => void;
  // the heap and the buffers of typed arrays (an experiment holds its per-run outcomes in those)
  const used = (): number => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const heapHeld = async (n: number, keepRuns: boolean): Promise<number> => {
    const xs = inputs(n);
    gc();
    const before = used();
    let made = 0;
    let held = 0;
    const r = await runExperiment({
      agent: fast.agent,
      variants: { only: fast.library },
      inputs: xs,
      // a model per run: the scripted model logs its requests, which is not the experiment's memory
      model: () => model(),
      concurrency: 4,
      keepRuns,
      onRun: () => {
        if (++made < n) return;
        gc();
        held = used() - before;
      },
    });
    if (!r.ok) throw new Error(r.error.message);
    return held / 1e6;
  };
  await heapHeld(200, false);
  const k200 = await heapHeld(200, true);
  const k2000 = await heapHeld(2000, true);
  const s200 = await heapHeld(200, false);
  const s2000 = await heapHeld(2000, false);
  const s20000 = await heapHeld(20000, false);

  report('experiments', [
    ['load average (1 min) at the overhead rounds', load.toFixed(2)],
    ['bare runBoundAgent loop, per run (CPU, median of rounds)', `${((median(bareCpu) / N) * 1000).toFixed(0)} µs`],
    ['runExperiment, per run (CPU, median of rounds)', `${((median(expCpu) / N) * 1000).toFixed(0)} µs`],
    [
      `overhead, CPU time (median of ${ROUNDS} interleaved rounds; ${spread(cpuRatios)}; min–max ${Math.min(...cpuRatios).toFixed(2)}–${Math.max(...cpuRatios).toFixed(2)})`,
      ratio(median(cpuRatios), { max: 1.2 }),
    ],
    [`overhead, wall time (median; ${spread(wallRatios)})`, ratio(median(wallRatios))],
    ['concurrency 8 vs 1 (tool waits 20 ms)', ratio(c1 / c8, { min: 5 })],
    ['heap + buffers held at 200 / 2,000 runs, runs kept', `${k200.toFixed(2)} MB / ${k2000.toFixed(2)} MB`],
    [
      'heap + buffers held at 200 / 2,000 / 20,000 runs, keepRuns: false',
      `${s200.toFixed(2)} MB / ${s2000.toFixed(2)} MB / ${s20000.toFixed(2)} MB (${(((s20000 - s2000) / 18000) * 1e6).toFixed(0)} bytes a run, 2,000 to 20,000)`,
    ],
  ]);
};
