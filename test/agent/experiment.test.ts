import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AgentCodes,
  createAgentSpecification,
  createTool,
  formatExperimentReport,
  importTools,
  parseSpecifications,
  runExperiment,
  toolLibrary,
} from '../../src/index.js';
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
    expect(f).toMatchObject({
      runs: 14,
      completed: 14,
      succeeded: 14,
      successRate: 1,
      toolCalls: 14,
      toolErrors: 2,
      toolErrorsByCode: { NOT_FOUND: 2 },
      differingAnswers: 0,
    });
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

  it('keepRuns: false holds no run for the report, and the summaries and differences are the same (the runs went to onRun)', async () => {
    const opts = { agent, variants: { fast, slow, old }, inputs: inputs.inputs, model: offlineModel(), runs: 2, concurrency: 3 };
    const kept = await runExperiment(opts);
    const told: unknown[] = [];
    const streamed = await runExperiment({ ...opts, keepRuns: false, onRun: (run) => told.push(run) });
    if (!kept.ok || !streamed.ok) throw new Error('the experiment did not run');
    expect(streamed.value.results).toEqual([]);
    expect(told).toHaveLength(kept.value.results.length);
    const { results: _r, ...rest } = stable(streamed.value) as typeof streamed.value;
    const { results: _k, ...restKept } = stable(kept.value) as typeof kept.value;
    expect(rest).toEqual(restKept);
  });

  it('counts runs that end without an answer by code, and keeps going', async () => {
    const broken = toolLibrary([createTool('capital_of', agent.tools[0]?.description ?? '', agent.tools[0]?.schema ?? {}, () => 'Paris')]);
    const model = scriptedModel((request) =>
      request.messages.length > 3
        ? { error: { code: 'AGENT_LLM_API_ERROR', message: 'down' } }
        : request.messages.at(-1)?.role === 'tool'
          ? { text: 'Paris it is' }
          : { toolCalls: [{ name: 'capital_of', arguments: { country: 'France' } }] },
    );
    const r = await runExperiment({
      agent,
      variants: [{ name: 'only', library: broken }],
      inputs: [
        { message: 'France', expected: 'paris' },
        { message: 'Spain', expected: 'Madrid' },
      ],
      model,
    });
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
      expect(r.error.reason).toBe('AGENT_CONFIGURATION_ERROR');
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

describe('runExperiment on a BFCL category (test/fixtures/bfcl, simple_python)', () => {
  const dir = new URL('../fixtures/bfcl/', import.meta.url);
  // BFCL gives a few functions of one name different parameters in different questions: one agent holds one of each
  const seen = new Set<string>();
  const lines = readFileSync(new URL('BFCL_v4_simple_python.json', dir), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .filter((l) => {
      const names = (JSON.parse(l) as { function: Array<{ name: string }> }).function.map((f) => f.name);
      if (names.some((n) => seen.has(n))) return false;
      for (const n of names) seen.add(n);
      return true;
    })
    .slice(0, 40);
  const answers = new Map(
    readFileSync(new URL('possible_answer/BFCL_v4_simple_python.json', dir), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { id: string; ground_truth: unknown })
      .map((a) => [a.id, a.ground_truth] as const),
  );
  const functions = lines.flatMap((l) => (JSON.parse(l) as { function: unknown[] }).function);
  const imported = importTools(JSON.stringify(functions), { from: 'bfcl' });
  const specsOf = imported.tools.flatMap((t) => (t.spec !== undefined ? [t.spec] : []));
  const bfclAgent = createAgentSpecification('bfcl', 'Answers BFCL questions', 'Call the function the question needs.', specsOf);
  if (bfclAgent._tag === 'Left') throw new Error(JSON.stringify(bfclAgent.left));
  const library = toolLibrary(specsOf.map((s) => createTool(s.name, s.description, s.schema, () => 'done')));
  const parsed = parseInputs(lines.join('\n'), answers);

  /** A model that calls what the possible answer says (its first allowed values), `change` applied, then answers. */
  const modelOf = (change: (args: Record<string, unknown>, params: Record<string, unknown[]>) => Record<string, unknown>) =>
    scriptedModel((request) => {
      if (request.messages.at(-1)?.role === 'tool') return { text: 'done' };
      const message = request.messages.find((m) => m.role === 'user')?.content;
      const input = parsed.inputs.find((x) => x.message === message);
      const calls = (input?.expectedToolCalls ?? []).map((c) => {
        const [name, params] = Object.entries(c)[0] as [string, Record<string, unknown[]>];
        const args: Record<string, unknown> = {};
        for (const [p, values] of Object.entries(params)) {
          const v = values.find((x) => x !== '');
          if (v !== undefined)
            args[p] =
              typeof v === 'object' && v !== null && !Array.isArray(v)
                ? Object.fromEntries(
                    Object.entries(v).flatMap(([k, vs]) =>
                      (vs as unknown[]).find((x) => x !== '') !== undefined ? [[k, (vs as unknown[]).find((x) => x !== '')]] : [],
                    ),
                  )
                : v;
        }
        return { name, arguments: change(args, params) };
      });
      return { toolCalls: calls };
    });

  it('reads the test file with its possible answers; each input shows the model only its own function', async () => {
    expect(parsed.problems).toEqual([]);
    expect(parsed.inputs).toHaveLength(40);
    expect(parsed.inputs[0]).toMatchObject({
      id: 'simple_python_0',
      tools: ['calculate_triangle_area'],
      expectedToolCalls: [{ calculate_triangle_area: expect.anything() }],
    });
    const model = modelOf((a) => a);
    const r = await runExperiment({ agent: bfclAgent.right, variants: { bfcl: library }, inputs: parsed.inputs, model });
    if (!r.ok) throw new Error(r.error.message);
    expect(model.requests.every((q) => q.tools.length === 1)).toBe(true);
    // a model that calls exactly the possible answers: BFCL's accuracy, 100%
    expect(r.value.results.map((x) => [x.inputId, x.toolCallsMatch, x.reason])).toEqual(parsed.inputs.map((x) => [x.id, true, undefined]));
    expect(r.value.summaries[0]).toMatchObject({ succeeded: 40, successRate: 1, meanScore: 1 });
  });

  it('a model that leaves out an argument the answer needs fails, and the report says why', async () => {
    const drop = (a: Record<string, unknown>, params: Record<string, unknown[]>) => {
      const needed = Object.keys(a).find((p) => !(params[p] ?? []).includes(''));
      return Object.fromEntries(Object.entries(a).filter(([k]) => k !== needed));
    };
    const r = await runExperiment({
      agent: bfclAgent.right,
      variants: [
        { name: 'right', library },
        { name: 'wrong', library },
      ],
      inputs: parsed.inputs,
      model: (key) => modelOf(key.variant === 'wrong' ? drop : (a) => a),
    });
    if (!r.ok) throw new Error(r.error.message);
    const wrong = r.value.results.filter((x) => x.variant === 'wrong');
    expect(wrong.every((x) => x.toolCallsMatch === false)).toBe(true);
    expect(wrong[0]?.reason).toBe('Missing required parameter: "base".');
    expect(wrong[0]?.scores['toolCalls']).toEqual({ score: 0, reason: 'Missing required parameter: "base".' });
    expect(r.value.summaries[1]?.vsBaseline).toMatchObject({ difference: -1, worse: 40, significant: true });
    expect(r.value.summaries[1]?.vsBaseline?.pValue).toBeLessThan(1e-9);
  });
});

describe('answer checks and scorers', () => {
  const model = () =>
    scriptedModel((request) =>
      request.messages.at(-1)?.role === 'tool' ? { text: '{"capital": "Paris"}' } : { toolCalls: [{ name: 'capital_of', arguments: { country: 'France' } }] },
    );
  it('scores equals, pattern, schema and the caller’s scorers, each in [0, 1], with reasons', async () => {
    const r = await runExperiment({
      agent,
      variants: { fast },
      inputs: [
        { message: 'a', id: 'eq', equals: ' {"capital": "Paris"} ' },
        { message: 'b', id: 'eq-no', equals: 'Paris' },
        { message: 'c', id: 're', pattern: '"capital": "P[a-z]+"' },
        { message: 'd', id: 'schema', schema: { type: 'object', required: ['capital'], properties: { capital: { enum: ['Paris'] } } } },
        { message: 'e', id: 'schema-no', schema: { type: 'object', required: ['country'] } },
        { message: 'f', id: 'calls', expectedToolCalls: [{ capital_of: { country: ['france'] } }] },
        { message: 'g', id: 'calls-no', expectedToolCalls: [{ capital_of: { country: ['Spain'] } }] },
      ],
      model: () => model(),
      scorers: { short: (run) => ({ score: (run.content ?? '').length < 10 ? 1 : 0.25, reason: 'long' }), broken: () => 7 },
    });
    if (!r.ok) throw new Error(r.error.message);
    const by = (id: string) => r.value.results.find((x) => x.inputId === id);
    expect(['eq', 'eq-no', 're', 'schema', 'schema-no', 'calls', 'calls-no'].map((id) => by(id)?.success)).toEqual([
      true,
      false,
      true,
      true,
      false,
      true,
      false,
    ]);
    expect(by('eq-no')?.scores['equals']).toEqual({ score: 0, reason: 'the answer is not "Paris"' });
    expect(by('schema-no')?.scores['schema']?.reason).toMatch(/^the answer does not satisfy the schema: /);
    expect(by('calls')?.toolCallsMatch).toBe(true);
    expect(by('calls-no')).toMatchObject({
      toolCallsMatch: false,
      reason: 'Invalid value for parameter "country": "France". Expected one of ["Spain"]. Case insensitive.',
    });
    expect(by('eq')?.scores['short']).toEqual({ score: 0.25, reason: 'long' });
    expect(by('eq')?.scores['broken']).toEqual({ score: 0, reason: 'the scorer returned 7, not a score from 0 to 1' });
    for (const run of r.value.results) for (const s of Object.values(run.scores)) expect(s.score >= 0 && s.score <= 1).toBe(true);
    expect(r.value.summaries[0]?.scores['short']).toMatchObject({ score: 0.25 });
  });

  it('refuses bad checks before running', async () => {
    const r = await runExperiment({
      agent,
      variants: { fast },
      inputs: [
        { message: 'a', pattern: '(' },
        { message: 'b', expectedToolCalls: [{ a: 1 }] as never },
      ],
      model: offlineModel(),
    });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toContain('input 1: "pattern" is not a regular expression');
      expect(r.error.message).toContain('input 2: "expectedToolCalls" must be a list of calls');
    }
  });
});

describe('rate limits', () => {
  it('a 429 with retry-after slows the experiment down instead of failing runs', async () => {
    let limitedLeft = 3;
    let refused = 0;
    const inner = scriptedModel((request) =>
      request.messages.at(-1)?.role === 'tool' ? { text: 'Paris' } : { toolCalls: [{ name: 'capital_of', arguments: { country: 'France' } }] },
    );
    // the provider's error after its own retries: AGENT_RATE_LIMITED with the server's retry-after
    const model = {
      id: 'limited',
      generate: async (request: Parameters<typeof inner.generate>[0]) => {
        if (limitedLeft > 0) {
          limitedLeft--;
          refused++;
          return {
            ok: false as const,
            error: { code: 'RATE_LIMITED' as const, reason: AgentCodes.RATE_LIMITED, message: 'slow down', retryable: true, details: { retryAfterMs: 5 } },
          };
        }
        return inner.generate(request);
      },
    };
    const r = await runExperiment({
      agent,
      variants: { fast },
      inputs: [
        { message: 'France', expected: 'Paris' },
        { message: 'France again', expected: 'Paris' },
      ],
      model,
      concurrency: 2,
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.results.map((x) => x.success)).toEqual([true, true]);
    expect(r.value.summaries[0]?.runErrorsByCode).toEqual({});
    // 3 refused, then 2 model calls per run
    expect(refused).toBe(3);
    expect(inner.requests).toHaveLength(4);
  });
});
