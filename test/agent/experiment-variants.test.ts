/**
 * Spec variants of an experiment, from code (`runExperiment`'s specs, libraries, models) and from the
 * CLI (`gramkit ab --spec`): the product spec × library × model, named by the parts that vary, the
 * first the baseline; a specification of its own binds where the library accepts what it allows;
 * the model is shown the variant's descriptions; every variant's errors at once.
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentCodes, type ExperimentOptions, type ModelRequest, parseSpecifications, runExperiment } from '../../src/index.js';
import { offlineModel } from '../../src/entries/providers.js';
import { scriptedModel } from '../../src/entries/testing.js';
import fast from '../../examples/ab/fast-library.js';
import old from '../../examples/capitals-1950-library.js';
import { cli } from '../support/cli.js';

const load = (path: string) => {
  const text = readFileSync(new URL(path, import.meta.url), 'utf8');
  const r = parseSpecifications(text, { filename: path });
  if (r._tag === 'Left') throw new Error(JSON.stringify(r.left));
  return r.right;
};
const agent = load('../../examples/capitalsAgent.gram').agents[0];
if (agent === undefined) throw new Error('no agent');
const terse = { ...agent, tools: load('../../examples/ab/capitals-terse.gram').tools };
const tmp = mkdtempSync(join(tmpdir(), 'gramkit-spec-variants-'));

describe('runExperiment: the variants as data (specs, libraries, models)', () => {
  it('are the product spec × library × model, named by the parts that vary, the first the baseline', async () => {
    const m1 = offlineModel();
    const m2 = offlineModel();
    const names = async (parts: Pick<ExperimentOptions, 'specs' | 'libraries' | 'models'>) => {
      const r = await runExperiment({ agent, ...parts, inputs: ['What is the capital of France?'], model: m1 });
      if (!r.ok) throw new Error(r.error.message);
      return r.value.variants;
    };
    expect(await names({ libraries: { fast, old } })).toEqual(['fast', 'old']);
    expect(await names({ specs: { base: agent, terse }, libraries: { fast } })).toEqual(['base', 'terse']);
    expect(
      await names({
        specs: [
          { name: 'base', value: agent },
          { name: 'terse', value: terse },
        ],
        libraries: { fast, old },
      }),
    ).toEqual(['base/fast', 'base/old', 'terse/fast', 'terse/old']);
    expect(await names({ specs: { base: agent, terse }, libraries: { fast, old }, models: { m1, m2 } })).toHaveLength(8);
    expect(await names({ specs: { base: agent, terse }, libraries: { fast }, models: { m1, m2 } })).toEqual(['base/m1', 'base/m2', 'terse/m1', 'terse/m2']);
    expect(await names({ specs: { base: agent }, libraries: { fast }, models: { m1 } })).toEqual(['fast']);
    const both = await runExperiment({ agent, variants: { fast }, libraries: { old }, inputs: ['x'], model: m1 });
    expect(both.ok ? '' : both.error.message).toContain('give the variants, or their parts (specs, libraries, models), not both');
  });
});

describe('runExperiment with spec variants', () => {
  it('binds a specification of its own to the same library, shows the model its descriptions, and validates calls with its schema', async () => {
    const seen = new Map<string, string>();
    const model = (variant: string) =>
      scriptedModel((request: ModelRequest, i: number) => {
        seen.set(variant, request.tools.map((t) => t.description).join(' | '));
        return i === 0 ? { toolCalls: [{ name: 'capital_of', arguments: { country: 'Nigeria' } }] } : { text: 'done' };
      });
    const variants = [
      { name: 'base', library: fast, model: () => model('base') },
      { name: 'terse', library: fast, agent: terse, model: () => model('terse') },
    ];
    const r = await runExperiment({
      agent,
      variants,
      inputs: [{ message: 'Capital of Nigeria?', expectedToolCalls: [{ capital_of: { country: ['Nigeria'] } }] }],
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.variants).toEqual(['base', 'terse']);
    expect(seen.get('base')).toBe('The capital city of a country');
    expect(seen.get('terse')).toBe('Capital of a country in the list');
    const [base, alt] = r.value.summaries;
    expect(base).toMatchObject({ toolErrors: 0 });
    // Nigeria is not in the terse specification's enum: the call is refused before the library sees it
    expect(alt).toMatchObject({ toolErrors: 1, toolErrorsByCode: { TOOL_INVALID_ARGUMENTS: 1 } });
    // what the model asked for is scored alike
    expect(r.value.results.map((x) => x.toolCallsMatch)).toEqual([true, true]);
  });

  it('every variant is checked before anything runs: the errors of every variant at once', async () => {
    const wider = {
      ...agent,
      tools: agent.tools.map((t) => ({ ...t, schema: { ...t.schema, properties: { ...(t.schema['properties'] as object), year: { type: 'integer' } } } })),
    };
    let requests = 0;
    const offline = offlineModel();
    const counting: typeof offline = {
      id: 'counting',
      generate: (request) => {
        requests++;
        return offline.generate(request);
      },
    };
    const r = await runExperiment({
      agent,
      variants: [
        { name: 'wider/fast', library: fast, agent: wider },
        { name: 'base/fast', library: fast, agent },
        { name: 'wider/old', library: old, agent: wider },
        { name: 'no-model', library: fast, model: 'nope' as never },
      ],
      inputs: ['Capital of France?'],
      model: counting,
    });
    expect(requests).toBe(0);
    if (r.ok) throw new Error('it ran');
    expect(r.error.reason).toBe(AgentCodes.CONFIGURATION_ERROR);
    expect(r.error.message).toContain('variant "wider/fast"');
    expect(r.error.message).toContain('variant "wider/old"');
    expect(r.error.message).toContain('variant "no-model": model must be a Model');
    expect(r.error.message).not.toContain('variant "base/fast"');
    const details = r.error.details as { variants: Array<{ variant: string; report: string }> };
    expect(details.variants.map((v) => v.variant)).toEqual(['wider/fast', 'wider/old']);
    expect(details.variants[0]?.report).toContain('/properties/year');
  });
});

describe('gramkit ab --spec', () => {
  const base = [
    'ab',
    'examples/capitalsAgent.gram',
    '-l',
    'examples/ab/fast-library.ts',
    '-l',
    'examples/capitals-1950-library.ts',
    '-i',
    'examples/capitals-scored.jsonl',
  ];

  it('runs every specification with every library, named spec/library, the agent file first', async () => {
    const r = await cli([...base, '--spec', 'examples/ab/capitals-terse.gram', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.variants).toEqual([
      'capitalsAgent/fast-library',
      'capitalsAgent/capitals-1950-library',
      'capitals-terse/fast-library',
      'capitals-terse/capitals-1950-library',
    ]);
    const byName = Object.fromEntries(report.summaries.map((s: { name: string }) => [s.name, s]));
    expect(byName['capitalsAgent/fast-library']).toMatchObject({ succeeded: 6, toolErrors: 0 });
    // Nigeria is outside the terse specification's enum
    expect(byName['capitals-terse/fast-library']).toMatchObject({ succeeded: 5, toolErrorsByCode: { TOOL_INVALID_ARGUMENTS: 1 } });
    expect(byName['capitals-terse/fast-library'].vsBaseline).toMatchObject({ significant: false });
  });

  it('refuses, before anything runs, every variant a library cannot serve, and a file that specifies a tool the agent does not use', async () => {
    const year = join(tmp, 'year.gram');
    writeFileSync(year, '[capital_of:Tool {description: "Capital in a year"} |\n  (country::String) ==>\n  (year::Integer) ==>\n  (::String)\n]\n');
    const r = await cli([...base, '--spec', year, '--spec', 'examples/ab/capitals-terse.gram']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('variant "year/fast-library"');
    expect(r.stderr).toContain('variant "year/capitals-1950-library"');
    expect(r.stderr).not.toContain('capitals-terse/');
    expect(r.stderr).toContain('/properties/year');
    const other = join(tmp, 'other.gram');
    writeFileSync(other, '[population_of:Tool {description: "Population"} | (country::String) ==> (::Integer)]\n');
    const broken = join(tmp, 'broken.gram');
    writeFileSync(broken, '[capital_of:Tool {description: "x"} | (country::String, y) ==> (::String)]\n');
    const u = await cli([...base, '--spec', other, '--spec', broken]);
    expect(u.code).toBe(1);
    expect(u.stderr).toContain(`--spec ${other}: specifies population_of, which agent "capitals_agent" does not use (it uses capital_of)`);
    expect(u.stderr).toContain('broken.gram');
  });
});
