/**
 * `gramkit ab --out results.jsonl --resume`: the CLI is killed with `kill -9` in the middle of an
 * experiment, resumed, and the report is the one an uninterrupted experiment makes; every run is
 * in the file exactly once.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'gramkit-ab-resume-'));
const AGENT = 'examples/capitalsAgent.gram';
const INPUTS = 'examples/capitals-inputs.jsonl';
const SLOW = 'examples/ab/slow-library.ts';
const OLD = 'examples/capitals-1950-library.ts';
const ARGS = (out: string) => ['ab', AGENT, '-l', SLOW, '-l', OLD, '-i', INPUTS, '--runs', '6', '--concurrency', '1', '--out', out];

/** The file's runs: its lines but the first (the experiment) and the reports (one per finished `ab`, the last line). */
const runLines = (file: string): unknown[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l['kind'] === undefined);

const lastLine = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8').trimEnd().split('\n').at(-1) as string);

/** Resolves once `file` holds at least `n` lines (watching it, no sleeps). */
const untilLines = (file: string, n: number): Promise<void> =>
  new Promise((resolve) => {
    const check = (): boolean => {
      let text = '';
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        return false;
      }
      return text.split('\n').length - 1 >= n;
    };
    if (check()) return resolve();
    const watcher = watch(tmp, () => {
      if (check()) {
        watcher.close();
        resolve();
      }
    });
  });

/** The report without what changes from one run to the next (timings). */
const comparable = (report: Record<string, unknown>): unknown =>
  JSON.parse(
    JSON.stringify({ ...report, startedAt: 0, durationMs: 0 }, (key, v) => {
      if (typeof v === 'number' && /(durationMs|p50|p95|mean|min|max|lastCalledAt)$/.test(key)) return 0;
      if (key === 'latencyCI' || key === 'latencyMs' || key === 'tools' || key === 'lastCalledAt') return 0;
      return v;
    }),
  );

describe('gramkit ab --out results.jsonl --resume', () => {
  it('continues after kill -9: no run lost, none twice, the same report as without the kill', async () => {
    const out = join(tmp, 'killed.jsonl');
    const child = spawn(process.execPath, ['dist/cli.js', ...ARGS(out)], { stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_code, signal) => r(signal)));
    // 84 runs in all: kill it after the header and 20 runs
    await untilLines(out, 21);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const before = runLines(out).length;
    expect(before).toBeGreaterThanOrEqual(20);
    expect(before).toBeLessThan(84);

    const resumed = await cli([...ARGS(out), '--resume', '--json']);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const lines = runLines(out) as Array<{ variant: string; input: number; repetition: number }>;
    expect(lines).toHaveLength(84);
    expect(new Set(lines.map((r) => `${r.variant}/${r.input}/${r.repetition}`)).size).toBe(84);

    const fresh = await cli([...ARGS(join(tmp, 'fresh.jsonl')), '--json']);
    expect(comparable(JSON.parse(resumed.stdout))).toEqual(comparable(JSON.parse(fresh.stdout)));
    // and resuming a finished experiment makes no run
    const again = await cli([...ARGS(out), '--resume', '--json']);
    expect(runLines(out)).toHaveLength(84);
    expect(comparable(JSON.parse(again.stdout))).toEqual(comparable(JSON.parse(fresh.stdout)));
  }, 120_000);

  it('a partial last line (cut by a kill) is made again; another experiment’s file is refused', async () => {
    const out = join(tmp, 'partial.jsonl');
    const args = ['ab', AGENT, '-l', SLOW, '-i', INPUTS, '--out', out];
    expect((await cli(args)).code).toBe(0);
    const full = readFileSync(out, 'utf8');
    // the file ends with the report; a kill in the middle of the last run leaves neither
    expect(lastLine(out)).toMatchObject({ kind: 'gramkit-experiment-report', agent: 'capitals_agent', variants: ['slow-library'] });
    const runs = full.slice(0, full.lastIndexOf('{"kind":"gramkit-experiment-report"'));
    const cut = runs.slice(0, runs.length - 30);
    writeFileSync(out, cut);
    const r = await cli([...args, '--resume', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(runLines(out)).toHaveLength(7);
    expect(JSON.parse(r.stdout).results).toHaveLength(7);
    expect(lastLine(out)).toMatchObject({ kind: 'gramkit-experiment-report', summaries: JSON.parse(r.stdout).summaries });
    // without --resume the file is not overwritten
    const refused = await cli(args);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error\[CLI_RESULTS_CONFLICT\]: .* give --resume to continue it/m);
    // other arguments: another experiment
    const other = await cli([...args, '--runs', '2', '--resume']);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/^error\[CLI_RESULTS_CONFLICT\]: .* holds the results of another experiment/m);
    expect((await cli(['ab', AGENT, '-l', SLOW, '-i', INPUTS, '--resume'])).code).toBe(2);
  });
});
