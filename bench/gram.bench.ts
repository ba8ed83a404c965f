/**
 * The gram front end's speed (issue 2). The input is a document of 70,000 lines like
 * `(n1:Person {name: "x1", age: 1})-[:KNOWS {since: 2001}]->(n2)` (5.2 MB). The baseline is
 * `JSON.parse` of the same records as COMPACT JSON: one array, serialized by `JSON.stringify`
 * without indentation, holding for each line a node and a relationship,
 * `{"id":"n1","labels":["Person"],"properties":{"name":"x1","age":1}}` and
 * `{"start":"n1","type":"KNOWS","properties":{"since":2001},"end":"n2"}` (10.7 MB), not the
 * verbose canonical form `toCanonicalJson` writes (19 MB), which would flatter the ratio.
 *
 * Prints MB/s to AST and to canonical patterns; the ratio of `parseGram` (gram to AST) to that
 * `JSON.parse` in wall-clock and in CPU time (target ≤ 3×); growth for 10× the input (target
 * ≤ 11×: one parse of 70,000 lines against a tenth of ten parses of 7,000); and `gramkit check`
 * start-up against `node -e 0` (target ≤ 3×) on a CLI bundle built into a temporary directory.
 * Every figure is the median of several interleaved rounds in this process, each timed run
 * preceded by an untimed one of its own kind (`medians` in harness.ts): a shared machine spoils
 * some rounds, and a best round would flatter.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseGram, toPatterns, type GramDocument } from '../src/index.js';
import { medians, ratio, report } from './harness.js';

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

export default async (): Promise<void> => {
  const big = gramOf(70_000);
  const small = gramOf(7_000);
  const json = compactJsonOf(70_000);
  const bigLines = parsed(big).patterns.length;

  // warm up every path before timing
  for (let i = 0; i < 3; i++) {
    parsed(small);
    parsed(big);
    JSON.parse(json);
  }

  const rounds = 11;
  const t = await medians(rounds, {
    json: () => JSON.parse(json),
    ast: () => parsed(big),
    // ten parses of the small input per sample: one 7,000-line parse is too short to time alone
    // on a busy machine, and the ten pay for the garbage collection their ASTs cause
    small: () => {
      for (let i = 0; i < 10; i++) parsed(small);
    },
  });
  const tPatterns = (await medians(3, { patterns: () => toPatterns(parsed(big)) })).patterns;

  report(`gram: ${mb(big).toFixed(2)} MB of gram (${bigLines.toLocaleString('en-US')} lines) vs ${mb(json).toFixed(2)} MB of compact JSON of the same records`, [
    ['baseline', 'JSON.parse of one JSON.stringify-ed array of {id,labels,properties} and {start,type,properties,end}'],
    ['JSON.parse of the compact JSON', `${t.json.wall.toFixed(0)} ms, ${t.json.cpu.toFixed(0)} ms CPU (${rate(json, t.json.wall)} of JSON)`],
    ['gram to AST (parseGram)', `${t.ast.wall.toFixed(0)} ms, ${t.ast.cpu.toFixed(0)} ms CPU (${rate(big, t.ast.wall)} of gram)`],
    ['gram to canonical patterns', `${tPatterns.wall.toFixed(0)} ms (${rate(big, tPatterns.wall)} of gram)`],
    [`to AST vs JSON.parse (wall clock, medians of ${rounds})`, ratio(t.ast.wall / t.json.wall, { max: 3 })],
    [`to AST vs JSON.parse (CPU time, medians of ${rounds})`, ratio(t.ast.cpu / t.json.cpu, { max: 3 })],
    ['10× the input (7,000 → 70,000 lines)', ratio(t.ast.wall / (t.small.wall / 10), { max: 11 })],
    ['10× the input, CPU time', ratio(t.ast.cpu / (t.small.cpu / 10), { max: 11 })],
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
