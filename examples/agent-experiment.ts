/**
 * An A/B experiment from code (what `gramkit ab` runs): the capitals agent against three
 * libraries that implement the same specification, on the same inputs, with the same model.
 *
 *   npx tsx examples/agent-experiment.ts
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { formatDiagnostics, formatExperimentReport, parseSpecifications, runExperiment } from 'gramkit';
import { offlineModel } from 'gramkit/providers';
import fast from './ab/fast-library.js';
import slow from './ab/slow-library.js';
import atlas1950 from './capitals-1950-library.js';

export const capitalsExperiment = async (): Promise<{ readonly lines: ReadonlyArray<string>; readonly table: string }> => {
  const text = readFileSync(new URL('./capitalsAgent.gram', import.meta.url), 'utf8');
  const specs = parseSpecifications(text, { filename: 'capitalsAgent.gram' });
  if (specs._tag === 'Left') return { lines: [formatDiagnostics(specs.left, text)], table: '' };
  const agent = specs.right.agents[0];
  if (agent === undefined) return { lines: ['no agent'], table: '' };

  const result = await runExperiment({
    agent,
    variants: { fast, slow, atlas1950 },
    inputs: [
      { message: 'What is the capital of France', expected: 'Paris' },
      { message: 'What is the capital of Brazil', expected: 'Brasília' },
      { message: 'What is the capital of Atlantis' },
    ],
    model: offlineModel(),
    runs: 2,
  });
  if (!result.ok) return { lines: [`${result.error.reason}: ${result.error.message}`], table: '' };
  const report = result.value;
  const lines = report.summaries.map(
    (s) => `${s.name}: ${s.succeeded}/${s.runs} succeeded, tool errors ${JSON.stringify(s.toolErrorsByCode)}, ${s.differingAnswers} answers differ`,
  );
  // fast: 6/6 succeeded, tool errors {"NOT_FOUND":2}, 0 answers differ
  // slow: 6/6 succeeded, tool errors {"NOT_FOUND":2}, 0 answers differ
  // atlas1950: 4/6 succeeded, tool errors {"NOT_FOUND":2}, 2 answers differ
  for (const d of report.differences)
    lines.push(
      `${d.message}: ${Object.entries(d.answers)
        .map(([v, a]) => `${v} ${a}`)
        .join(', ')}`,
    );
  // What is the capital of Brazil: fast Brasília, slow Brasília, atlas1950 Rio de Janeiro
  return { lines, table: formatExperimentReport(report) };
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { lines, table } = await capitalsExperiment();
  for (const line of lines) console.log(line);
  console.log(`\n${table}`);
}
