/**
 * The gram front end's speed (issue 2): a document of 70,000 lines like
 * `(n1:Person {name: "x", age: 42})-[:KNOWS {since: 2020}]->(n2)` (about 5 MB) and the same data
 * as canonical JSON. Prints MB/s to AST and to canonical patterns, the ratio of parse time to
 * `JSON.parse` on the equivalent JSON (target ≤ 3×), growth for 10× the input (target ≤ 11×),
 * and `gramkit check` start-up against `node -e 0` (target ≤ 3×) on a CLI bundle built into a
 * temporary directory.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseGram, toCanonicalJson, toPatterns, type GramDocument } from '../src/index.js';
import { bestOf, ratio, report } from './harness.js';

// -------------------------------------------------------------------------------------------------
// inputs
// -------------------------------------------------------------------------------------------------

const lines = (n: number): string => {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(`(n${i}:Person {name: "x${i}", age: ${i % 90}})-[:KNOWS {since: ${2000 + (i % 25)}}]->(n${i + 1})`);
  }
  return `${out.join('\n')}\n`;
};

const parsed = (text: string): GramDocument => {
  const r = parseGram(text);
  if (r._tag === 'Left') throw new Error(`benchmark input does not parse: ${r.left[0]?.message ?? ''}`);
  return r.right;
};

const mb = (s: string): number => s.length / 1e6;

/** The least CPU time (user + system, ms) of `n` runs of `fn`. */
const bestCpu = (n: number, fn: () => unknown): number => {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const start = process.cpuUsage();
    fn();
    const d = process.cpuUsage(start);
    best = Math.min(best, (d.user + d.system) / 1000);
  }
  return best;
};

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
  const big = lines(70_000);
  const small = lines(7_000);
  const doc = parsed(big);
  const json = toCanonicalJson(toPatterns(doc));

  // warm up both paths before timing
  for (let i = 0; i < 3; i++) {
    parsed(small);
    JSON.parse(json);
  }

  const tJson = await bestOf(7, () => JSON.parse(json));
  const tAst = await bestOf(7, () => parsed(big));
  const tPatterns = await bestOf(5, () => toPatterns(parsed(big)));
  const tSmall = await bestOf(9, () => parsed(small));
  // CPU time of this process: steadier than wall-clock time on a machine shared with other work
  const cJson = bestCpu(7, () => JSON.parse(json));
  const cAst = bestCpu(7, () => parsed(big));

  report(`gram: ${mb(big).toFixed(2)} MB of gram (70,000 lines), ${mb(json).toFixed(2)} MB of equivalent canonical JSON`, [
    ['JSON.parse of the JSON', `${tJson.toFixed(0)} ms (${(mb(json) / (tJson / 1000)).toFixed(1)} MB/s of JSON)`],
    ['gram to AST', `${tAst.toFixed(0)} ms (${(mb(big) / (tAst / 1000)).toFixed(1)} MB/s of gram)`],
    ['gram to canonical patterns', `${tPatterns.toFixed(0)} ms (${(mb(big) / (tPatterns / 1000)).toFixed(1)} MB/s of gram)`],
    ['to AST vs JSON.parse (wall clock)', ratio(tAst / tJson, { max: 3 })],
    ['to AST vs JSON.parse (CPU time)', ratio(cAst / cJson, { max: 3 })],
    ['10× the input (7,000 → 70,000 lines)', ratio(tAst / tSmall, { max: 11 })],
  ]);

  const built = await buildCli();
  if (built === undefined) return;
  try {
    const hello = join('examples', 'hello.gram');
    run([built.cli, 'check', hello]);
    const tNode = await bestOf(7, () => run(['-e', '0']));
    const tCheck = await bestOf(7, () => run([built.cli, 'check', hello]));
    report('gram: CLI start-up (bundled CLI, examples/hello.gram)', [
      ['node -e 0', `${tNode.toFixed(0)} ms`],
      ['gramkit check examples/hello.gram', `${tCheck.toFixed(0)} ms`],
      ['check vs node -e 0', ratio(tCheck / tNode, { max: 3 })],
    ]);
  } finally {
    built.cleanup();
  }
};
