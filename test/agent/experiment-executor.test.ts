/**
 * `runExperiment`'s executor and `only`: the seam `gramkit ab --queue` uses. An experiment whose
 * runs are each made by another `runExperiment` (as a worker makes them: `only: [key]`) reports
 * what an experiment making them itself reports, its tool metrics counted from the runs' calls.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ExperimentExecutor, type ExperimentRun, type ExperimentRunKey, parseSpecifications, runExperiment } from '../../src/index.js';
import { offlineModel } from '../../src/entries/providers.js';
import fast from '../../examples/ab/fast-library.js';
import old from '../../examples/capitals-1950-library.js';
import { parseInputs } from '../../src/cli/actions/ab.js';
import { stable } from './support.js';

const specs = parseSpecifications(readFileSync(new URL('../../examples/capitalsAgent.gram', import.meta.url), 'utf8'), { filename: 'capitalsAgent.gram' });
if (specs._tag === 'Left') throw new Error(JSON.stringify(specs.left));
const agent = specs.right.agents[0];
if (agent === undefined) throw new Error('no agent');
const { inputs } = parseInputs(readFileSync(new URL('../../examples/capitals-inputs.jsonl', import.meta.url), 'utf8'));
const options = { agent, variants: { fast, old }, inputs, model: offlineModel(), runs: 2 };

describe('runExperiment with an executor', () => {
  it('makes each run through the executor, once, and reports what making them itself reports', async () => {
    const asked: ExperimentRunKey[] = [];
    // a "worker": the same experiment, making only the run it is asked for
    const executor: ExperimentExecutor = async (key) => {
      asked.push(key);
      let made: ExperimentRun | undefined;
      const r = await runExperiment({ ...options, only: [key], keepRuns: false, onRun: (run) => void (made = run) });
      if (!r.ok || made === undefined) throw new Error('the worker could not make the run');
      return made;
    };
    const [local, remote] = await Promise.all([runExperiment(options), runExperiment({ ...options, executor })]);
    if (!local.ok || !remote.ok) throw new Error('the experiment did not run');
    expect(asked).toHaveLength(7 * 2 * 2);
    expect(new Set(asked.map((k) => JSON.stringify(k))).size).toBe(asked.length);
    expect(stable(remote.value)).toEqual(stable(local.value));
    expect(remote.value.summaries[1]?.tools['capital_of']).toMatchObject({ callCount: 14, errorCount: 2, errorsByCode: { NOT_FOUND: 2 } });
  });

  it('only: makes just the runs named, none other', async () => {
    const told: ExperimentRun[] = [];
    const r = await runExperiment({ ...options, only: [{ variant: 'old', input: 1, repetition: 1 }], onRun: (run) => void told.push(run) });
    expect(r.ok).toBe(true);
    expect(told.map((x) => [x.variant, x.inputId, x.repetition, x.content])).toEqual([['old', 'brazil', 1, 'Rio de Janeiro']]);
  });
});
