/**
 * The gram front end's speed (issues 2 and 12). The input is a document of lines like
 * `(n1:Person {name: "x1", age: 1})-[:KNOWS {since: 2001}]->(n2)` (bench/gram-inputs.ts): 100,000
 * lines (7.5 MB) for the main figures, and 1,000 and 10,000 for growth. The baseline is `JSON.parse`
 * of the same records as COMPACT JSON (15.2 MB at 100,000 lines), not the verbose canonical form,
 * which would flatter the ratio.
 *
 * Each size runs in a process of its own (bench/gram-worker.ts, as JMH forks a JVM per
 * benchmark), where `parseGram` (gram to AST, through the fast path) and `JSON.parse` alternate
 * over interleaved rounds; ratios are medians of the ratio within each round (`medianRatio`), in
 * wall-clock and in CPU time (target <= 3x), and each timed run starts after a full garbage
 * collection, so it pays for the collections its own allocations cause. Small sizes are timed as
 * batches (100 parses of 1,000 lines, 10 of 10,000), so every sample covers 100,000 lines.
 * Growth: the time per line from 10,000 to 100,000 lines (target <= 1.1x: linear), and from 1,000.
 *
 * One more figure shows what a process's history does: 100,000 lines after 300 documents of 1,000
 * lines in the same process. V8 then no longer allocates the AST's nodes in the old generation
 * directly (it decided, on the small documents, that they die young), so a large AST is copied by
 * every young-generation collection it survives. That is why the AST's size (bytes a line, printed
 * against JSON.parse's) is what decides the speed on large documents.
 *
 * Also printed: MB/s to AST and to canonical patterns, the Chevrotain parser alone on the same text
 * (what the fast path saves, and what a document outside the fast path's common shape costs), and
 * the start-up of `gramkit check`, `gramkit run` and `gramkit serve` against `node -e 0` (target <=
 * 3x), wall clock and CPU time, on dist/cli.js (rebuilt first if stale), with the load average.
 * `run` is measured twice: as a user's runs are (V8's code cache of the CLI in the user's cache,
 * src/cli/bin.ts), and without that code cache, as the first run after an install or upgrade.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeGramWithChevrotain } from '../src/gram/parse.js';
import { parseGram, toPatterns, type GramDocument } from '../src/index.js';
import { compactJsonOf, gramOf } from './gram-inputs.js';
import { collectGarbage, interleaved, median, medianRatio, medians, ratio, report, type Timing } from './harness.js';

// -------------------------------------------------------------------------------------------------
// inputs
// -------------------------------------------------------------------------------------------------

const parsed = (text: string): GramDocument => {
  const r = parseGram(text);
  if (r._tag === 'Left') throw new Error(`benchmark input does not parse: ${r.left[0]?.message ?? ''}`);
  return r.right;
};

const mb = (s: string): number => s.length / 1e6;
const rate = (s: string, ms: number): string => `${(mb(s) / (ms / 1000)).toFixed(1)} MB/s`;

// -------------------------------------------------------------------------------------------------
// one size in a process of its own
// -------------------------------------------------------------------------------------------------

interface Sample {
  readonly gram: ReadonlyArray<Timing>;
  readonly json: ReadonlyArray<Timing>;
}

const worker = fileURLToPath(new URL('./gram-worker.ts', import.meta.url));

const fork = (config: { readonly lines: number; readonly batch: number; readonly rounds: number; readonly afterSmall: number }): Promise<Sample> =>
  new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', worker, JSON.stringify(config)], { maxBuffer: 1 << 20 }, (e, stdout) =>
      e !== null ? reject(e) : resolve(JSON.parse(stdout) as Sample),
    );
  });

/** Bytes of live heap a line: the result of `parse` kept while the heap is measured. */
const bytesPerLine = (lines: number, parse: () => unknown): number => {
  parse();
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const kept = parse();
  collectGarbage();
  const after = process.memoryUsage().heapUsed;
  if (kept === undefined) throw new Error('nothing parsed');
  return (after - before) / lines;
};

// -------------------------------------------------------------------------------------------------
// start-up
// -------------------------------------------------------------------------------------------------

/**
 * The CLI as it ships: dist/cli.js, rebuilt first when older than the sources
 * (scripts/build-if-stale.mjs). Not a bundle built elsewhere: the CLI serves a TypeScript library's
 * `import … from 'gramkit'` from its own modules only where it is installed, and the shipped bundle
 * is minified.
 */
const builtCli = (): string | undefined => {
  const r = spawnSync(process.execPath, [join('scripts', 'build-if-stale.mjs')], { stdio: 'ignore' });
  if (r.status !== 0) {
    process.stdout.write('  (start-up not measured: dist/ did not build)\n');
    return undefined;
  }
  return join('dist', 'cli.js');
};

/** The CPU time (user + system, ms) of the waited-for children of this process so far (Linux: /proc/self/stat). */
const childrenCpu = (): number => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  // after the command's name: state is field 3, cutime and cstime fields 16 and 17 (clock ticks, 100 a second)
  return (Number(fields[13]) + Number(fields[14])) * 10;
};

/** Runs `node args…` to its end: wall clock and the CPU time of the process and its own children (esbuild's service). */
const run = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}): Timing => {
  const c0 = childrenCpu();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [...args], { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1', ...env } });
  const wall = performance.now() - t0;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${String(r.status)}`);
  return { wall, cpu: childrenCpu() - c0 };
};

/** The CPU time (ms) a live process has used so far (/proc/<pid>/stat: utime and stime). */
const processCpu = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** Starts `gramkit serve` on a free port with a catalog of its own and times it until it says it listens; then stops it (after `linger` ms). */
const serveStartup = (cli: string, data: string, linger = 0): Promise<Timing> =>
  new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [cli, 'serve', '--no-auth', '--port', '0', '--data', data], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const seen = (chunk: Buffer): void => {
      out += chunk.toString();
      if (!/listening on/.test(out)) return;
      const wall = performance.now() - t0;
      const cpu = child.pid !== undefined ? processCpu(child.pid) : Number.NaN;
      setTimeout(() => child.kill('SIGTERM'), linger);
      child.once('exit', () => resolve({ wall, cpu }));
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('exit', (code) => {
      if (!/listening on/.test(out)) reject(new Error(`gramkit serve exited with ${String(code)} before listening: ${out}`));
    });
  });

// -------------------------------------------------------------------------------------------------
// the benchmark
// -------------------------------------------------------------------------------------------------

const chevrotain = (text: string): void => {
  if (analyzeGramWithChevrotain(text)._tag !== 'Right') throw new Error('benchmark input does not parse');
};

export default async (): Promise<void> => {
  const rounds = 7;
  // one process at a time: two would compete for the machine's cores
  const s1k = await fork({ lines: 1_000, batch: 100, rounds, afterSmall: 0 });
  const s10k = await fork({ lines: 10_000, batch: 10, rounds, afterSmall: 0 });
  const s100k = await fork({ lines: 100_000, batch: 1, rounds, afterSmall: 0 });
  const after = await fork({ lines: 100_000, batch: 1, rounds, afterSmall: 300 });

  const big = gramOf(100_000);
  const bigJson = compactJsonOf(100_000);
  // the same document with one subject pattern at its end: the fast path gives up there
  const outside = `${big}[all | n0, n1]\n`;
  for (let i = 0; i < 3; i++) parsed(big);
  chevrotain(big);
  const c = await interleaved(3, { fast: () => parsed(big), chevrotain: () => chevrotain(big), outside: () => parsed(outside) });
  const tPatterns = (await medians(3, { patterns: () => toPatterns(parsed(big)) })).patterns;
  const astBytes = bytesPerLine(100_000, () => parsed(big));
  const jsonBytes = bytesPerLine(100_000, () => JSON.parse(bigJson) as unknown);

  const m = (ts: ReadonlyArray<Timing>): Timing => ({ wall: median(ts.map((x) => x.wall)), cpu: median(ts.map((x) => x.cpu)) });
  const both = (x: Timing, target?: { readonly max: number }): string => `${ratio(x.wall, target)}; CPU time ${ratio(x.cpu, target)}`;
  // every sample covers 100,000 lines: ms per sample / 100 = µs per line
  const perLine = (ts: ReadonlyArray<Timing>): string => `${(m(ts).wall / 100).toFixed(2)} µs/line (${(m(ts).cpu / 100).toFixed(2)} CPU)`;
  /** Growth of the time per line between two processes: the ratio of their medians. */
  const growth = (a: ReadonlyArray<Timing>, b: ReadonlyArray<Timing>): Timing => ({ wall: m(a).wall / m(b).wall, cpu: m(a).cpu / m(b).cpu });
  const size = (label: string, x: Sample): ReadonlyArray<readonly [string, string]> => [
    [`${label}: gram to AST`, perLine(x.gram)],
    ['  JSON.parse of the compact JSON', perLine(x.json)],
    ['  gram vs JSON.parse', both(medianRatio(x.gram, x.json), { max: 3 })],
  ];
  report(
    `gram: ${mb(big).toFixed(2)} MB of gram (100,000 lines, 200,000 records) vs ${mb(bigJson).toFixed(2)} MB of compact JSON of the same records (each size in a process of its own, medians of ${rounds} interleaved rounds)`,
    [
      ['baseline', 'JSON.parse of one JSON.stringify-ed array of {id,labels,properties} and {start,type,properties,end}'],
      ['gram to AST, 100,000 lines', `${m(s100k.gram).wall.toFixed(0)} ms (${rate(big, m(s100k.gram).wall)} of gram)`],
      ['gram to canonical patterns, 100,000 lines', `${tPatterns.wall.toFixed(0)} ms (${rate(big, tPatterns.wall)} of gram)`],
      ["live heap a line: the AST vs JSON.parse's result", `${astBytes.toFixed(0)} vs ${jsonBytes.toFixed(0)} bytes (${(astBytes / jsonBytes).toFixed(1)}×)`],
      ...size('1,000 lines (batches of 100)', s1k),
      ...size('10,000 lines (batches of 10)', s10k),
      ...size('100,000 lines', s100k),
      ['time per line, 100,000 lines vs 10,000', both(growth(s100k.gram, s10k.gram), { max: 1.1 })],
      ['  the same for JSON.parse', both(growth(s100k.json, s10k.json))],
      ['time per line, 100,000 lines vs 1,000', both(growth(s100k.gram, s1k.gram))],
      ['  the same for JSON.parse', both(growth(s100k.json, s1k.json))],
      ...size('100,000 lines after 300 documents of 1,000 lines in the same process', after),
    ],
  );
  report('gram: the fast path against the Chevrotain parser alone (100,000 lines, medians of 3 rounds)', [
    ['Chevrotain parser alone vs parseGram', both(medianRatio(c.chevrotain, c.fast))],
    ['one subject pattern on the last line (the fast path gives up there) vs the Chevrotain parser alone', both(medianRatio(c.outside, c.chevrotain))],
  ]);

  await startup();
};

/** The CLI's start-up against `node -e 0` (also run alone: `npx tsx -e "import('./bench/gram.bench.ts').then((m) => m.startup())"`). */
export const startup = async (): Promise<void> => {
  const cli = builtCli();
  if (cli === undefined) return;
  const rounds = 9;
  const hello = join('examples', 'hello.gram');
  const agent = [cli, 'run', join('examples', 'helloAgent.gram'), "Hello, I'm Alice"];
  const data = mkdtempSync(join(tmpdir(), 'gramkit-bench-serve-'));
  // a cache folder of its own for the runs without the CLI's code cache: the library's bundle stays in it, the code cache is removed before each run
  const cold = { XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'gramkit-bench-cache-')) };
  const noCodeCache = (): Timing => {
    rmSync(join(cold.XDG_CACHE_HOME, 'gramkit', 'v8'), { recursive: true, force: true });
    mkdirSync(join(cold.XDG_CACHE_HOME, 'gramkit'), { recursive: true, mode: 0o700 });
    return run(agent, cold);
  };
  try {
    // the first run bundles the agent's TypeScript library (and keeps the bundle in the user's cache)
    run(agent);
    run(agent, cold);
    run([cli, 'check', hello]);
    // long enough for the CLI to write its code cache for serve (src/cli/bin.ts), as a server a user starts does
    await serveStartup(cli, data, 3000);
    const load0 = loadavg()[0] ?? Number.NaN;
    const times: Record<'node' | 'check' | 'run' | 'cold' | 'serve', Timing[]> = { node: [], check: [], run: [], cold: [], serve: [] };
    // interleaved rounds: each round runs every command once, so drift on the shared machine hits all of them
    for (let r = 0; r < rounds; r++) {
      times.node.push(run(['-e', '0']));
      times.check.push(run([cli, 'check', hello]));
      times.run.push(run(agent));
      times.cold.push(noCodeCache());
      times.serve.push(await serveStartup(cli, data));
    }
    const load1 = loadavg()[0] ?? Number.NaN;
    const m = (ts: ReadonlyArray<Timing>): string => `${median(ts.map((t) => t.wall)).toFixed(0)} ms (CPU ${median(ts.map((t) => t.cpu)).toFixed(0)} ms)`;
    const vsNode = (ts: ReadonlyArray<Timing>): string => {
      const r = medianRatio(ts, times.node);
      return `${ratio(r.wall, { max: 3 })}; CPU time ${ratio(r.cpu, { max: 3 })}`;
    };
    report(`gram: CLI start-up (dist/cli.js, medians of ${rounds} interleaved rounds; ratios are medians of the ratio within each round)`, [
      ['load average (1 min), before and after', `${load0.toFixed(1)}, ${load1.toFixed(1)}`],
      ['node -e 0', m(times.node)],
      ['gramkit check examples/hello.gram', m(times.check)],
      ['  check vs node -e 0', vsNode(times.check)],
      ['gramkit run examples/helloAgent.gram (its TypeScript library included, its bundle cached)', m(times.run)],
      ['  run vs node -e 0', vsNode(times.run)],
      ["the same run without the CLI's code cache (a first run; it writes the cache at exit)", m(times.cold)],
      ['  vs node -e 0', vsNode(times.cold)],
      ['gramkit serve --no-auth --port 0, until it listens (CPU: the server process)', m(times.serve)],
      ['  serve vs node -e 0', vsNode(times.serve)],
    ]);
  } finally {
    rmSync(data, { recursive: true, force: true });
    rmSync(cold.XDG_CACHE_HOME, { recursive: true, force: true });
  }
};
