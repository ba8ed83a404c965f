import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
