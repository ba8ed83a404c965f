/**
 * The summaries an experiment computes from what it holds of each run (typed-array columns,
 * experiment-outcomes.ts) are the ones its runs give: counted again from the report's `results`,
 * for inputs whose checks differ (so runs carry different score names, in different orders), runs
 * that fail with different codes, and two variants; with `keepRuns: false` the same.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTool, type ExperimentRun, type ExperimentReport, parseSpecifications, runExperiment, toolLibrary } from '../../src/index.js';
import { type ScriptedTurn, scriptedModel } from '../../src/entries/testing.js';
import { stable } from './support.js';

const GRAM = `
[echo:Tool {description: "Returns its text"} | (text::String {description: "What to return"})==>(::String)]
[echoer:Agent {description: "Echoes", instruction: "Call echo with the user's text, then answer with its result."} | echo]
`;
const specs = parseSpecifications(GRAM);
if (specs._tag === 'Left') throw new Error('the specification does not parse');
const agent = specs.right.agents[0];
const spec = specs.right.tools[0];
if (agent === undefined || spec === undefined) throw new Error('no agent');
const library = (answer: (text: string) => string) =>
  toolLibrary([createTool(spec.name, spec.description, spec.schema, (a: { text: string }) => answer(a.text), { outputSchema: spec.outputSchema })]);
const plain = library((t) => t);
const loud = library((t) => t.toUpperCase());

/** What the model does for a message: `fail:CODE` fails with that code, `skip` answers without the tool. */
const model = () =>
  scriptedModel((request): ScriptedTurn => {
    const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
    if (user.startsWith('fail:')) return { error: { code: user.slice(5) as 'AGENT_LLM_API_ERROR', message: 'down' } };
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return { text: last.content };
    if (user === 'skip') return { text: 'no tool' };
    return { toolCalls: [{ name: 'echo', arguments: { text: user } }] };
  });

const input = fc.record(
  {
    message: fc.constantFrom('hello', 'skip', 'fail:AGENT_LLM_API_ERROR', 'fail:AGENT_INVALID_RESPONSE', 'Hello World'),
    expected: fc.constantFrom('hello', 'HELLO', 'tool'),
    equals: fc.constantFrom('hello', 'HELLO WORLD'),
    pattern: fc.constantFrom('^h', 'O$'),
    expectedToolCalls: fc.constant([{ echo: { text: ['hello'] } }]),
  },
  { requiredKeys: ['message'] },
);

/** Per variant, what its runs say, counted the plain way (the runs in the order of `results`). */
const recount = (report: ExperimentReport) =>
  report.variants.map((name) => {
    const mine = report.results.filter((r: ExperimentRun) => r.variant === name);
    const names = [...new Set(mine.flatMap((r) => Object.keys(r.scores)))];
    const errors: Record<string, number> = {};
    for (const r of mine) if (r.error !== undefined) errors[r.error.reason] = (errors[r.error.reason] ?? 0) + 1;
    return {
      runs: mine.length,
      completed: mine.filter((r) => r.completed).length,
      succeeded: mine.filter((r) => r.success).length,
      scoreNames: names,
      runErrors: Object.entries(errors),
    };
  });

describe('experiment outcomes', () => {
  it('the summaries are what the runs give, score names in the order the runs first name them; keepRuns: false the same', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(input, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 2 }), async (inputs, runs) => {
        const options = {
          agent,
          variants: { plain, loud },
          inputs,
          model: () => model(),
          runs,
          concurrency: 3,
          scorers: { length: (r: { content?: string }) => Math.min(1, (r.content ?? '').length / 10) },
        };
        const kept = await runExperiment(options);
        const streamed = await runExperiment({ ...options, keepRuns: false });
        if (!kept.ok || !streamed.ok) throw new Error('the experiment did not run');
        const summaries = kept.value.summaries.map((s) => ({
          runs: s.runs,
          completed: s.completed,
          succeeded: s.succeeded,
          scoreNames: Object.keys(s.scores),
          runErrors: Object.entries(s.runErrorsByCode),
        }));
        expect(summaries).toEqual(recount(kept.value));
        // the run latencies differ between the two experiments; the rest does not
        const without = (r: ExperimentReport) => {
          const { results: _r, durationMs: _d, startedAt: _s, ...rest } = stable(r) as ExperimentReport;
          return { ...rest, summaries: rest.summaries.map(({ latencyMs: _l, latencyCI: _c, ...s }) => s) };
        };
        expect(without(streamed.value)).toEqual(without(kept.value));
      }),
      { numRuns: 30 },
    );
  });
});
