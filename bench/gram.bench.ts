/**
 * The gram front end's speed (issues 2 and 12). The input is a document of lines like
 * `(n1:Person {name: "x1", age: 1})-[:KNOWS {since: 2001}]->(n2)`: 100,000 lines (7.7 MB) for
 * the main figures, and 1,000 and 10,000 for growth. The baseline is `JSON.parse` of the same
 * records as COMPACT JSON: one array, serialized by `JSON.stringify` without indentation, holding
 * for each line a node and a relationship (two records per line),
 * `{"id":"n1","labels":["Person"],"properties":{"name":"x1","age":1}}` and
 * `{"start":"n1","type":"KNOWS","properties":{"since":2001},"end":"n2"}` (15.6 MB at 100,000
 * lines), not the verbose canonical form `toCanonicalJson` writes (about twice as large), which
 * would flatter the ratio.
 *
 * Prints MB/s to AST and to canonical patterns; at each size, the time per line and the ratio of
 * `parseGram` (gram to AST, through the fast path) to that `JSON.parse`, in wall-clock and in CPU
 * time (target ≤ 3×); the growth of the time per line from 10,000 to 100,000 lines (target ≤ 1.1×:
 * linear) and from 1,000 (a small document's AST dies young, so its garbage costs little: compare
 * with JSON.parse's own growth); the Chevrotain parser alone on the same text (what the fast path
 * saves, and what a document outside the fast path's common shape costs); and `gramkit check`
 * start-up against `node -e 0` (target ≤ 3×) on a CLI bundle built into a temporary directory.
 *
 * Ratios are medians over interleaved rounds of the ratio within each round (`interleaved` and
 * `medianRatio` in harness.ts): a shared machine spoils some rounds, and a best round would
 * flatter. Each timed run starts after a full garbage collection: it pays for the collections its
 * own allocations cause (most of the time at 100,000 lines), not for the garbage of the run before. Small sizes are timed as batches (100 parses of 1,000 lines, 10 of 10,000), so every
 * sample covers 100,000 lines.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeGramWithChevrotain } from '../src/gram/parse.js';
import { parseGram, toPatterns, type GramDocument } from '../src/index.js';
import { interleaved, median, medianRatio, medians, ratio, report, type Timing } from './harness.js';

// -------------------------------------------------------------------------------------------------
// inputs
// -------------------------------------------------------------------------------------------------

/** The records of line `i`: a node with a label and two properties, a relationship to the next node. */
const recordsOf = (i: number) =>
  [
    { id: `n${i}`, labels: ['Person'], properties: { name: `x${i}`, age: i % 90 } },
    { start: `n${i}`, type: 'KNOWS', properties: { since: 2000 + (i % 25) }, end: `n${i + 1}` },
  ] as const;

/** The records as gram, one path per line. */
const gramOf = (n: number): string => {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const [a, r] = recordsOf(i);
    out.push(
      `(${a.id}:${a.labels[0]} {name: "${a.properties.name}", age: ${a.properties.age}})-[:${r.type} {since: ${r.properties.since}}]->(${r.end})`,
    );
  }
  return `${out.join('\n')}\n`;
};

/** The same records as compact JSON: one array, no indentation. */
const compactJsonOf = (n: number): string => {
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) out.push(...recordsOf(i));
  return JSON.stringify(out);
};

const parsed = (text: string): GramDocument => {
  const r = parseGram(text);
  if (r._tag === 'Left') throw new Error(`benchmark input does not parse: ${r.left[0]?.message ?? ''}`);
  return r.right;
};

const mb = (s: string): number => s.length / 1e6;
const rate = (s: string, ms: number): string => `${(mb(s) / (ms / 1000)).toFixed(1)} MB/s`;

// -------------------------------------------------------------------------------------------------
// start-up
// -------------------------------------------------------------------------------------------------

/** Builds the CLI bundle as `tsup.config.ts` does, into a temporary directory of its own. */
const buildCli = async (): Promise<{ readonly cli: string; readonly cleanup: () => void } | undefined> => {
  const dir = mkdtempSync(join(tmpdir(), 'gramkit-bench-cli-'));
  try {
    const { build } = await import('tsup');
    await build({
      entry: { cli: 'src/cli/main.ts' },
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
      noExternal: [/^(?!tsx(\/|$)).*/],
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

/** `times` runs of `fn` (one sample of a batch). */
const batch = (times: number, fn: () => unknown) => (): void => {
  for (let i = 0; i < times; i++) fn();
};

const chevrotain = (text: string): void => {
  if (analyzeGramWithChevrotain(text)._tag !== 'Right') throw new Error('benchmark input does not parse');
};

export default async (): Promise<void> => {
  const sizes = [1_000, 10_000, 100_000] as const;
  const gram = sizes.map(gramOf);
  const json = sizes.map(compactJsonOf);
  const big = gram[2] as string;
  const bigJson = json[2] as string;
  // the same document with one subject pattern at its end: the fast path gives up there
  const outside = `${big}[all | n0, n1]\n`;

  // warm up every path before timing
  for (let i = 0; i < 3; i++) {
    for (let k = 0; k < sizes.length; k++) {
      parsed(gram[k] as string);
      JSON.parse(json[k] as string);
    }
  }
  chevrotain(big);

  const rounds = 7;
  const t = await interleaved(rounds, {
    json1k: batch(100, () => JSON.parse(json[0] as string)),
    gram1k: batch(100, () => parsed(gram[0] as string)),
    json10k: batch(10, () => JSON.parse(json[1] as string)),
    gram10k: batch(10, () => parsed(gram[1] as string)),
    json100k: () => JSON.parse(bigJson),
    gram100k: () => parsed(big),
  });
  const m = (ts: ReadonlyArray<Timing>): Timing => ({ wall: median(ts.map((x) => x.wall)), cpu: median(ts.map((x) => x.cpu)) });
  const c = await interleaved(3, { fast: () => parsed(big), chevrotain: () => chevrotain(big), outside: () => parsed(outside) });
  const tPatterns = (await medians(3, { patterns: () => toPatterns(parsed(big)) })).patterns;

  const both = (x: Timing, target?: { readonly max: number }): string => `${ratio(x.wall, target)}; CPU time ${ratio(x.cpu, target)}`;
  // every sample covers 100,000 lines: ms per sample / 100 = µs per line
  const perLine = (ts: ReadonlyArray<Timing>): string => `${(m(ts).wall / 100).toFixed(2)} µs/line (${(m(ts).cpu / 100).toFixed(2)} CPU)`;
  const size = (label: string, g: ReadonlyArray<Timing>, j: ReadonlyArray<Timing>): ReadonlyArray<readonly [string, string]> => [
    [`${label}: gram to AST`, perLine(g)],
    ['  JSON.parse of the compact JSON', perLine(j)],
    ['  gram vs JSON.parse', both(medianRatio(g, j), { max: 3 })],
  ];
  report(`gram: ${mb(big).toFixed(2)} MB of gram (100,000 lines, 200,000 records) vs ${mb(bigJson).toFixed(2)} MB of compact JSON of the same records (medians of ${rounds} interleaved rounds)`, [
    ['baseline', 'JSON.parse of one JSON.stringify-ed array of {id,labels,properties} and {start,type,properties,end}'],
    ['gram to AST, 100,000 lines', `${m(t.gram100k).wall.toFixed(0)} ms (${rate(big, m(t.gram100k).wall)} of gram)`],
    ['gram to canonical patterns, 100,000 lines', `${tPatterns.wall.toFixed(0)} ms (${rate(big, tPatterns.wall)} of gram)`],
    ...size('1,000 lines (batches of 100)', t.gram1k, t.json1k),
    ...size('10,000 lines (batches of 10)', t.gram10k, t.json10k),
    ...size('100,000 lines', t.gram100k, t.json100k),
    ['time per line, 100,000 lines vs 10,000', both(medianRatio(t.gram100k, t.gram10k), { max: 1.1 })],
    ['  the same for JSON.parse', both(medianRatio(t.json100k, t.json10k))],
    ['time per line, 100,000 lines vs 1,000', both(medianRatio(t.gram100k, t.gram1k))],
    ['  the same for JSON.parse', both(medianRatio(t.json100k, t.json1k))],
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
    const s = await medians(7, { node: () => run(['-e', '0']), check: () => run([built.cli, 'check', hello]) });
    report('gram: CLI start-up (bundled CLI, examples/hello.gram, medians of 7)', [
      ['node -e 0', `${s.node.wall.toFixed(0)} ms`],
      ['gramkit check examples/hello.gram', `${s.check.wall.toFixed(0)} ms`],
      ['check vs node -e 0', ratio(s.check.wall / s.node.wall, { max: 3 })],
    ]);
  } finally {
    built.cleanup();
  }
};
