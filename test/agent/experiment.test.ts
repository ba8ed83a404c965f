import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTool, formatExperimentReport, parseSpecifications, runExperiment, toolLibrary } from '../../src/index.js';
import { offlineModel } from '../../src/entries/providers.js';
import { scriptedModel } from '../../src/entries/testing.js';
import fast from '../../examples/ab/fast-library.js';
import slow from '../../examples/ab/slow-library.js';
import old from '../../examples/capitals-1950-library.js';
import { parseInputs } from '../../src/cli/actions/ab.js';
import { stable } from './support.js';
import { expectGolden } from '../support/golden.js';

const text = readFileSync(new URL('../../examples/capitalsAgent.gram', import.meta.url), 'utf8');
const specs = parseSpecifications(text, { filename: 'capitalsAgent.gram' });
if (specs._tag === 'Left') throw new Error(JSON.stringify(specs.left));
const agent = specs.right.agents[0];
if (agent === undefined) throw new Error('no agent');
const inputs = parseInputs(readFileSync(new URL('../../examples/capitals-inputs.jsonl', import.meta.url), 'utf8'));

describe('runExperiment', () => {
  it('compares libraries on the same inputs: success, tool errors, differing answers', async () => {
    expect(inputs.problems).toEqual([]);
    const r = await runExperiment({ agent, variants: { fast, slow, old }, inputs: inputs.inputs, model: offlineModel(), runs: 2 });
    if (!r.ok) throw new Error(r.error.message);
    const report = r.value;
    expect(report.variants).toEqual(['fast', 'slow', 'old']);
    expect(report.results).toHaveLength(7 * 2 * 3);
    const [f, s, o] = report.summaries;
    expect(f).toMatchObject({ runs: 14, completed: 14, succeeded: 14, successRate: 1, toolCalls: 14, toolErrors: 2, toolErrorsByCode: { NOT_FOUND: 2 }, differingAnswers: 0 });
    expect(s).toMatchObject({ runs: 14, succeeded: 14, differingAnswers: 0 });
    expect(o).toMatchObject({ runs: 14, succeeded: 8, differingAnswers: 6 });
    expect(o?.successRate).toBeCloseTo(8 / 14);
    expect(report.differences.map((d) => `${d.inputId}/${d.repetition}`)).toEqual(['brazil/0', 'brazil/1', 'nigeria/0', 'nigeria/1', 'germany/0', 'germany/1']);
    expect(report.differences[0]?.answers).toEqual({ fast: 'Brasília', slow: 'Brasília', old: 'Rio de Janeiro' });
    // the slow library's simulated latency shows in its tool metrics
    expect(s?.tools['capital_of']?.latencyMs?.p50).toBeGreaterThan(f?.tools['capital_of']?.latencyMs?.p50 ?? Infinity);
    // pinned in small goldens: the report without its runs, each library's summary, one line per run
    const { results, summaries, ...summary } = stable(report) as typeof report;
    expectGolden('agent/golden/capitals-experiment/summary.json', summary);
    for (const v of summaries) expectGolden(`agent/golden/capitals-experiment/summary-${v.name}.json`, v);
    expectGolden(
      'agent/golden/capitals-experiment/runs.txt',
      `${results.map((x) => [x.variant, x.inputId, x.repetition, x.success ? 'ok' : 'failed', JSON.stringify(x.content ?? x.error?.code ?? null), x.toolCalls.map((c) => `${c.name}→${c.ok ? 'ok' : c.code}`).join(' ')].join(' | ')).join('\n')}\n`,
    );
    const table = formatExperimentReport(report);
    expect(table).toMatch(/^A\/B experiment: agent capitals_agent, model offline, 7 inputs × 2 runs on 3 libraries/);
    expect(table).toMatch(/\nold +14  8\/14 \(57.1%\) +14 +2  NOT_FOUND×2 /);
    expect(table).toContain('answers that differ between libraries: 6 of 14');
    expect(table).toContain('    old: Rio de Janeiro');
  });

  it('counts runs that end without an answer by code, and keeps going', async () => {
    const broken = toolLibrary([createTool('capital_of', agent.tools[0]?.description ?? '', agent.tools[0]?.schema ?? {}, () => 'Paris')]);
    const model = scriptedModel((request) => (request.messages.length > 3 ? { error: { code: 'AGENT_LLM_API_ERROR', message: 'down' } } : request.messages.at(-1)?.role === 'tool' ? { text: 'Paris it is' } : { toolCalls: [{ name: 'capital_of', arguments: { country: 'France' } }] }));
    const r = await runExperiment({ agent, variants: [{ name: 'only', library: broken }], inputs: [{ message: 'France', expected: 'paris' }, { message: 'Spain', expected: 'Madrid' }], model });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.summaries[0]).toMatchObject({ runs: 2, completed: 2, succeeded: 1, runErrorsByCode: {} });
    expect(r.value.results.map((x) => x.success)).toEqual([true, false]);
  });

  it('fails before running anything when a variant does not bind, naming every variant and tool', async () => {
    const wrong = toolLibrary([createTool('capital_of', 'Another description', { type: 'object' }, () => 'x')]);
    const model = scriptedModel([]);
    const r = await runExperiment({ agent, variants: { fast, wrong, empty: toolLibrary([]) }, inputs: ['France'], model });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('AGENT_CONFIGURATION_ERROR');
      expect(r.error.message).toContain('variant "wrong"');
      expect(r.error.message).toContain('variant "empty"');
      expect((r.error.details as { variants: Array<{ variant: string }> }).variants.map((v) => v.variant)).toEqual(['wrong', 'empty']);
    }
    expect(model.requests).toHaveLength(0);
  });

  it('checks its options', async () => {
    const bad = await runExperiment({ agent, variants: { fast, fast2: fast }, inputs: [], model: offlineModel(), runs: 0, concurrency: 0 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.message).toContain('at least one input');
      expect(bad.error.message).toContain('runs must be');
      expect(bad.error.message).toContain('concurrency must be');
    }
  });
});

describe('inputs files', () => {
  it('reads strings and objects, and reports bad lines with their numbers', () => {
    const r = parseInputs('"hello"\n\n{"message": "hi", "id": 7, "expected": "x"}\n{"input": "alt"}\nnot json\n{"id": "no message"}\n[1]\n');
    expect(r.inputs).toEqual([
      { message: 'hello', id: '1' },
      { message: 'hi', id: '7', expected: 'x' },
      { message: 'alt', id: '3' },
    ]);
    expect(r.problems.map((p) => p.split(':')[0])).toEqual(['line 5', 'line 6', 'line 7']);
  });
});
