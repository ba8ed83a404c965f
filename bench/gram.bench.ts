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
 * `gramkit check` start-up against `node -e 0` (target <= 3x) on a CLI bundle built into a
 * temporary directory.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeGramWithChevrotain } from '../src/gram/parse.js';
import { parseGram, toPatterns, type GramDocument } from '../src/index.js';
import { CLI_NO_EXTERNAL } from '../tsup.config.js';
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

/** Builds the CLI bundle as `tsup.config.ts` does, into a temporary directory of its own. */
const buildCli = async (): Promise<{ readonly cli: string; readonly cleanup: () => void } | undefined> => {
  // inside the repository: the bundle loads some dependencies from node_modules, as an install does
  mkdirSync(join('node_modules', '.cache'), { recursive: true });
  const dir = mkdtempSync(join('node_modules', '.cache', 'gramkit-bench-cli-'));
  try {
    const { build } = await import('tsup');
    await build({
      entry: { cli: 'src/cli/main.ts', 'gramkit-api': 'src/index.ts' },
      outDir: dir,
      format: ['esm'],
      target: 'node20',
      platform: 'node',
      splitting: true,
      dts: false,
      sourcemap: false,
      clean: false,
      silent: true,
      config: false,
      noExternal: [CLI_NO_EXTERNAL],
      banner: {
        js: "#!/usr/bin/env node\nimport { createRequire as __gramkitCreateRequire } from 'node:module';\nconst require = __gramkitCreateRequire(import.meta.url);",
      },
    });
    return { cli: join(dir, 'cli.js'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    process.stdout.write(`  (start-up not measured: the CLI bundle did not build: ${e instanceof Error ? e.message : String(e)})\n`);
    return undefined;
  }
};

const run = (args: ReadonlyArray<string>): void => {
  const r = spawnSync(process.execPath, [...args], { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${String(r.status)}`);
};

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
  report(`gram: ${mb(big).toFixed(2)} MB of gram (100,000 lines, 200,000 records) vs ${mb(bigJson).toFixed(2)} MB of compact JSON of the same records (each size in a process of its own, medians of ${rounds} interleaved rounds)`, [
    ['baseline', 'JSON.parse of one JSON.stringify-ed array of {id,labels,properties} and {start,type,properties,end}'],
    ['gram to AST, 100,000 lines', `${m(s100k.gram).wall.toFixed(0)} ms (${rate(big, m(s100k.gram).wall)} of gram)`],
    ['gram to canonical patterns, 100,000 lines', `${tPatterns.wall.toFixed(0)} ms (${rate(big, tPatterns.wall)} of gram)`],
    ['live heap a line: the AST vs JSON.parse\'s result', `${astBytes.toFixed(0)} vs ${jsonBytes.toFixed(0)} bytes (${(astBytes / jsonBytes).toFixed(1)}×)`],
    ...size('1,000 lines (batches of 100)', s1k),
    ...size('10,000 lines (batches of 10)', s10k),
    ...size('100,000 lines', s100k),
    ['time per line, 100,000 lines vs 10,000', both(growth(s100k.gram, s10k.gram), { max: 1.1 })],
    ['  the same for JSON.parse', both(growth(s100k.json, s10k.json))],
    ['time per line, 100,000 lines vs 1,000', both(growth(s100k.gram, s1k.gram))],
    ['  the same for JSON.parse', both(growth(s100k.json, s1k.json))],
    ...size('100,000 lines after 300 documents of 1,000 lines in the same process', after),
  ]);
  report('gram: the fast path against the Chevrotain parser alone (100,000 lines, medians of 3 rounds)', [
    ['Chevrotain parser alone vs parseGram', both(medianRatio(c.chevrotain, c.fast))],
    ['one subject pattern on the last line (the fast path gives up there) vs the Chevrotain parser alone', both(medianRatio(c.outside, c.chevrotain))],
  ]);

  const built = await buildCli();
  if (built === undefined) return;
  try {
    const hello = join('examples', 'hello.gram');
    run([built.cli, 'check', hello]);
    const agent = [built.cli, 'run', join('examples', 'helloAgent.gram'), "Hello, I'm Alice"];
    run(agent);
    const s = await medians(7, { node: () => run(['-e', '0']), check: () => run([built.cli, 'check', hello]), run: () => run(agent) });
    report('gram: CLI start-up (bundled CLI, medians of 7)', [
      ['node -e 0', `${s.node.wall.toFixed(0)} ms`],
      ['gramkit check examples/hello.gram', `${s.check.wall.toFixed(0)} ms`],
      ['check vs node -e 0', ratio(s.check.wall / s.node.wall, { max: 3 })],
      ['gramkit run examples/helloAgent.gram (its TypeScript library included)', `${s.run.wall.toFixed(0)} ms`],
      ['run vs node -e 0', ratio(s.run.wall / s.node.wall, { max: 3 })],
    ]);
  } finally {
    built.cleanup();
  }
};
