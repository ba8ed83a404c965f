import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentCodes } from '../../src/index.js';
import { PolicyCodes } from '../../src/entries/policy.js';
import { cli } from '../support/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'gramkit-ab-'));
const AGENT = 'examples/capitalsAgent.gram';
const INPUTS = 'examples/capitals-inputs.jsonl';
const FAST = 'examples/ab/fast-library.ts';
const SLOW = 'examples/ab/slow-library.ts';
const OLD = 'examples/capitals-1950-library.ts';

describe('gramkit ab', () => {
  it('prints a row per library, the differing answers, and writes the JSON report', async () => {
    const out = join(tmp, 'report.json');
    const r = await cli(['ab', AGENT, '--library', FAST, '--library', SLOW, '--library', OLD, '--inputs', INPUTS, '--runs', '2', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^A\/B experiment: agent capitals_agent, model offline, 7 inputs × 2 runs on 3 libraries/);
    expect(lines[2]).toMatch(/^library +runs +success +tool calls +tool errors +errors by code +p50 ms +p95 ms +answers differ$/);
    expect(lines[3]).toMatch(/^fast-library +14 +14\/14 \(100%\) +14 +2 +NOT_FOUND×2 +[\d.]+ +[\d.]+ +baseline$/);
    expect(lines[4]).toMatch(/^slow-library +14 +14\/14 \(100%\) +14 +2 +NOT_FOUND×2 +[\d.]+ +[\d.]+ +0$/);
    expect(lines[5]).toMatch(/^capitals-1950-library +14 +8\/14 \(57\.1%\) +14 +2 +NOT_FOUND×2 +[\d.]+ +[\d.]+ +6$/);
    expect(r.stdout).toContain('answers that differ between libraries: 6 of 14');
    expect(r.stdout).toContain(`report written to ${out}`);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report.variants).toEqual(['fast-library', 'slow-library', 'capitals-1950-library']);
    expect(report.results).toHaveLength(42);
  });

  it('--json prints the report instead of the table', async () => {
    const r = await cli(['ab', AGENT, '-l', FAST, '-l', FAST, '-i', INPUTS, '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.variants).toEqual(['fast-library', 'fast-library#2']);
    expect(report.differences).toEqual([]);
  });

  it('accepts builtin as a library', async () => {
    const agent = join(tmp, 'lister.gram');
    writeFileSync(agent, '[lister:Agent {description: "Lists files", instruction: "List them."} | list_directory]\n');
    const inputs = join(tmp, 'list.jsonl');
    writeFileSync(inputs, '"list the directory"\n');
    const r = await cli(['ab', agent, '-l', 'builtin', '-i', inputs, '-w', tmp, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).summaries[0]).toMatchObject({ name: 'builtin', succeeded: 1, toolCalls: 1, toolErrors: 0 });
  });

  it('does not start when a library does not bind (exit 1, with the differences)', async () => {
    const r = await cli(['ab', AGENT, '-l', FAST, '-l', 'examples/hello-library.ts', '-i', INPUTS]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error[AGENT_CONFIGURATION_ERROR]: the experiment cannot start: variant "hello-library"');
    expect(r.stderr).toContain('error[TOOL_NOT_IN_LIBRARY]: no tool "capital_of" in the library');
  });

  it('reports bad input lines with their numbers (exit 1)', async () => {
    const inputs = join(tmp, 'bad.jsonl');
    writeFileSync(inputs, '"fine"\n{"message": ""}\nnope\n');
    const r = await cli(['ab', AGENT, '-l', FAST, '-i', inputs]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('line 2: no "message"');
    expect(r.stderr).toContain('line 3: not JSON');
  });

  it('usage errors exit 2', async () => {
    expect((await cli(['ab', AGENT, '-l', FAST])).code).toBe(2);
    expect((await cli(['ab', AGENT, '-i', INPUTS])).code).toBe(2);
    expect((await cli(['ab', AGENT, '-l', FAST, '-i', INPUTS, '--runs', '0'])).code).toBe(2);
    expect((await cli(['ab', AGENT, '-l', FAST, '-i', INPUTS, '--yes', '--deny'])).code).toBe(2);
  });
});

describe('gramkit ab offline: scripted tool calls, replay by sequence, what the columns mean', () => {
  const SCRIPTED = 'examples/capitals-scripted.jsonl';

  it('makes the tool calls an input carries on every library, and the model answers from each library’s results', async () => {
    const r = await cli(['ab', AGENT, '-l', FAST, '-l', OLD, '-i', SCRIPTED, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      results: ReadonlyArray<{ variant: string; inputId: string; content?: string; toolCalls: ReadonlyArray<{ name: string }> }>;
      summaries: ReadonlyArray<{ name: string; toolCalls: number; differingAnswers: number }>;
    };
    const run = (variant: string, id: string) => report.results.find((x) => x.variant === variant && x.inputId === id);
    // the message alone would not name France: the script does
    expect(run('fast-library', 'eiffel')?.content).toContain('Paris');
    // two calls in one step, then two steps of one call each
    expect(run('fast-library', 'two')?.toolCalls).toHaveLength(2);
    expect(run('fast-library', 'two')?.content).toContain('Brasília');
    expect(run('capitals-1950-library', 'two')?.content).toContain('Rio de Janeiro');
    expect(run('fast-library', 'steps')?.toolCalls).toHaveLength(2);
    expect(run('fast-library', 'steps')?.content).toContain('Berlin');
    // an input without a script is the model's own
    expect(run('fast-library', 'atlantis')?.toolCalls.length).toBeGreaterThan(0);
    const scripted = ['eiffel', 'two', 'steps'].map((id) => run('capitals-1950-library', id)?.toolCalls.length);
    expect(scripted).toEqual([1, 2, 2]);
    expect(run('capitals-1950-library', 'steps')?.content).toContain('Bonn');
    expect(report.summaries[1]?.differingAnswers).toBe(2);
  });

  it('says what each column means: a legend under the table, and "columns" in the JSON', async () => {
    const text = await cli(['ab', AGENT, '-l', FAST, '-i', SCRIPTED]);
    expect(text.stdout).toMatch(/\ncolumns:\n {2}library: .+\n {2}runs: .+\n {2}success: .+/);
    for (const column of ['tool calls', 'tool errors', 'errors by code', 'p50 ms', 'p95 ms', 'answers differ'])
      expect(text.stdout).toContain(`\n  ${column}: `);
    const json = JSON.parse((await cli(['ab', AGENT, '-l', FAST, '-i', SCRIPTED, '--json'])).stdout) as {
      columns: ReadonlyArray<{ column: string; field: string; meaning: string }>;
      summaries: ReadonlyArray<Record<string, unknown>>;
    };
    expect(json.columns.map((c) => c.column)).toEqual([
      'library',
      'runs',
      'success',
      'tool calls',
      'tool errors',
      'errors by code',
      'p50 ms',
      'p95 ms',
      'answers differ',
    ]);
    // each column names a field of the summaries
    for (const c of json.columns) expect(json.summaries[0], c.field).toHaveProperty(c.field.split('.'));
  });

  it('reports bad toolCalls with their line', async () => {
    const inputs = join(tmp, 'bad-calls.jsonl');
    writeFileSync(
      inputs,
      '{"message": "x", "toolCalls": [{"arguments": {}}]}\n{"message": "y", "toolCalls": {"name": "capital_of"}}\n{"message": "z", "toolCalls": [{"name": "capital_of", "arguments": [1]}]}\n',
    );
    const r = await cli(['ab', AGENT, '-l', FAST, '-i', inputs]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('line 1: "toolCalls" call 1: "name" must be the name of a tool');
    expect(r.stderr).toContain('line 2: "toolCalls" must be a list of calls');
    expect(r.stderr).toContain('line 3: "toolCalls" call 1: "arguments" must be an object');
  });

  it('replays a recording in every run with --replay-match sequence, where exact matching fails on a library that answers otherwise', async () => {
    const recording = join(tmp, 'brazil.json');
    const recorded = await cli(['run', AGENT, 'What is the capital of Brazil', '--record', recording]);
    expect(recorded.code, recorded.stderr).toBe(0);
    const inputs = join(tmp, 'brazil.jsonl');
    writeFileSync(inputs, '"What is the capital of Brazil"\n');
    const exact = JSON.parse((await cli(['ab', AGENT, '-l', FAST, '-l', OLD, '-i', inputs, '-m', `replay:${recording}`, '--json'])).stdout) as {
      results: ReadonlyArray<{ completed: boolean; error?: { code: string; reason: string } }>;
    };
    expect(exact.results.map((x) => x.completed)).toEqual([true, false]);
    expect(exact.results[1]?.error?.reason).toBe(AgentCodes.REPLAY_MISMATCH);
    const sequence = JSON.parse(
      (await cli(['ab', AGENT, '-l', FAST, '-l', OLD, '-i', inputs, '-m', `replay:${recording}`, '--replay-match', 'sequence', '--runs', '2', '--json']))
        .stdout,
    ) as {
      results: ReadonlyArray<{ completed: boolean; toolCalls: ReadonlyArray<unknown> }>;
    };
    expect(sequence.results.map((x) => x.completed)).toEqual([true, true, true, true]);
    expect(sequence.results.map((x) => x.toolCalls.length)).toEqual([1, 1, 1, 1]);
    expect((await cli(['ab', AGENT, '-l', FAST, '-i', inputs, '--replay-match', 'sequence'])).code).toBe(2);
    expect((await cli(['ab', AGENT, '-l', FAST, '-i', inputs, '-m', `replay:${recording}`, '--replay-match', 'fuzzy'])).code).toBe(2);
  });

  it('honours ALLOWED_TOOL_PERMS: a tool needing a permission outside the list is DENIED in every run', async () => {
    const ws = mkdtempSync(join(tmp, 'ws-'));
    writeFileSync(join(ws, 'agent.gram'), '[writer:Agent {description: "Writes files", instruction: "Write what the user asks."} | write_file]\n');
    writeFileSync(join(ws, 'inputs.jsonl'), '{"message": "write", "toolCalls": [{"name": "write_file", "arguments": {"path": "out.txt", "content": "x"}}]}\n');
    const r = await cli(['ab', join(ws, 'agent.gram'), '-l', 'builtin', '-i', join(ws, 'inputs.jsonl'), '-w', ws, '--yes', '--json'], {
      env: { ALLOWED_TOOL_PERMS: 'fs:read' },
    });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { summaries: ReadonlyArray<{ toolErrorsByCode: Record<string, number> }> };
    expect(report.summaries[0]?.toolErrorsByCode).toEqual({ [PolicyCodes.DENIED]: 1 });
  });
});

describe('gramkit ab scoring: expectedToolCalls, answer checks, --scorer, BFCL test files', () => {
  it('scores the calls the model asked for (scripted calls count) and the caller’s scorer, in the JSON report', async () => {
    const inputs = join(tmp, 'scored.jsonl');
    writeFileSync(
      inputs,
      [
        {
          id: 'right',
          message: 'capital of France',
          toolCalls: [{ name: 'capital_of', arguments: { country: 'France' } }],
          expectedToolCalls: [{ capital_of: { country: ['france'] } }],
          pattern: '^Paris$',
        },
        {
          id: 'wrong',
          message: 'capital of Spain',
          toolCalls: [{ name: 'capital_of', arguments: { country: 'Spain', extra: 1 } }],
          expectedToolCalls: [{ capital_of: { country: ['Spain'] } }],
        },
      ]
        .map((x) => JSON.stringify(x))
        .join('\n'),
    );
    const scorer = join(tmp, 'short-answer.mjs');
    writeFileSync(scorer, 'export default (run) => ({ score: (run.content ?? "").length <= 5 ? 1 : 0, reason: "longer than 5" });\n');
    const r = await cli(['ab', AGENT, '-l', FAST, '-i', inputs, '--scorer', scorer, '--json']);
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as { results: Array<Record<string, unknown>> };
    expect(report.results.map((x) => [x['inputId'], x['toolCallsMatch'], x['reason']])).toEqual([
      ['right', true, undefined],
      ['wrong', false, 'Unexpected parameter: "extra".'],
    ]);
    expect(report.results[0]?.['scores']).toEqual({ toolCalls: { score: 1 }, pattern: { score: 1 }, 'short-answer': { score: 1, reason: 'longer than 5' } });
    const bad = await cli(['ab', AGENT, '-l', FAST, '-i', inputs, '--scorer', join(tmp, 'nope.mjs')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--scorer');
  });

  it('reads a BFCL test file as inputs, with the possible answers beside it', async () => {
    const r = await cli(['ab', AGENT, '-l', FAST, '-i', 'test/fixtures/bfcl/BFCL_v4_parallel.json', '--json', '--concurrency', '8']);
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as { results: Array<{ inputId: string; toolCallsMatch?: boolean; reason?: string }> };
    expect(report.results).toHaveLength(200);
    // the capitals agent has none of BFCL's functions: the offline model calls none, and no answer matches
    expect(report.results[0]).toMatchObject({ inputId: 'parallel_0', toolCallsMatch: false, reason: 'Wrong number of functions: 0 calls, 2 expected.' });
  });
});

describe('gramkit ab --cache', () => {
  it('answers a request made before from the cache: the model is not asked again', async () => {
    const recording = join(tmp, 'cache-brazil.json');
    expect((await cli(['run', AGENT, 'What is the capital of Brazil', '--record', recording])).code).toBe(0);
    const inputs = join(tmp, 'cache.jsonl');
    writeFileSync(inputs, '"What is the capital of Brazil"\n');
    const cache = join(tmp, 'cache');
    const args = ['ab', AGENT, '-l', FAST, '-i', inputs, '-m', `replay:${recording}`, '--cache', cache, '--json'];
    const first = JSON.parse((await cli(args)).stdout) as { results: Array<{ completed: boolean; content?: string }> };
    expect(first.results.map((x) => x.content)).toEqual(['Brasília']);
    // two model calls: the tool call, then the answer
    expect(readdirSync(cache).filter((f) => f.endsWith('.json'))).toHaveLength(2);
    // the recording gone, the model could not answer: the cache does
    writeFileSync(recording, JSON.stringify({ ...JSON.parse(readFileSync(recording, 'utf8')), exchanges: [] }));
    const again = JSON.parse((await cli(args)).stdout) as { results: Array<{ completed: boolean; content?: string }> };
    expect(again.results).toMatchObject([{ completed: true, content: 'Brasília' }]);
    const without = JSON.parse((await cli(args.filter((a, i) => a !== '--cache' && args[i - 1] !== '--cache'))).stdout) as {
      results: Array<{ completed: boolean }>;
    };
    expect(without.results[0]?.completed).toBe(false);
  });
});

describe('gramkit ab progress', () => {
  it('draws a progress bar on a terminal only: runs done, failures, time left; none with --json', async () => {
    const r = await cli(['ab', AGENT, '-l', FAST, '-l', OLD, '-i', INPUTS], { isTTY: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('\r[------------------------------] 0/14 runs, 0 failed');
    expect(r.stderr).toMatch(/\r\[##############################\] 14\/14 runs, 3 failed\u001b\[K/);
    expect(r.stderr).toMatch(/ 1\/14 runs, 0 failed, about \d+s left/);
    expect(r.stderr.endsWith('\r\u001b[K')).toBe(true);
    expect((await cli(['ab', AGENT, '-l', FAST, '-i', INPUTS, '--json'], { isTTY: true })).stderr).toBe('');
  });
});

describe('gramkit ab --model, repeated', () => {
  it('each library with each model is a variant, named by the parts that vary; the first is the baseline', async () => {
    const recording = join(tmp, 'models-brazil.json');
    expect((await cli(['run', AGENT, 'What is the capital of Brazil', '--record', recording])).code).toBe(0);
    const inputs = join(tmp, 'models.jsonl');
    writeFileSync(inputs, '{"message": "What is the capital of Brazil", "expected": "Brasília"}\n');
    const both = JSON.parse(
      (await cli(['ab', AGENT, '-l', FAST, '-l', OLD, '-i', inputs, '-m', 'offline', '-m', `replay:${recording}`, '--replay-match', 'sequence', '--json']))
        .stdout,
    ) as {
      variants: string[];
      results: Array<{ variant: string; content?: string }>;
    };
    expect(both.variants).toEqual([
      'fast-library/offline',
      'fast-library/replay:models-brazil',
      'capitals-1950-library/offline',
      'capitals-1950-library/replay:models-brazil',
    ]);
    expect(both.results.map((r) => [r.variant, r.content])).toEqual([
      ['fast-library/offline', 'Brasília'],
      ['fast-library/replay:models-brazil', 'Brasília'],
      ['capitals-1950-library/offline', 'Rio de Janeiro'],
      // the recording answers what it recorded, whatever the library returned
      ['capitals-1950-library/replay:models-brazil', 'Brasília'],
    ]);
    const modelsOnly = JSON.parse((await cli(['ab', AGENT, '-l', FAST, '-i', inputs, '-m', 'offline', '-m', 'offline', '--json'])).stdout) as {
      variants: string[];
    };
    expect(modelsOnly.variants).toEqual(['offline', 'offline#2']);
    // every model is checked before anything runs
    const bad = await cli(['ab', AGENT, '-l', FAST, '-i', inputs, '-m', 'offline', '-m', 'openai/gpt-4o-mini'], { env: {} });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
  });
});
