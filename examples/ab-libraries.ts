/**
 * A/B: one specification, two libraries. `capital_of` (examples/ab/capitals.gram) is implemented
 * twice, by a fast library (an index) and a slow one (a linear scan behind a simulated remote
 * call). Both are bound against the same specification with `bindVariants`, asked the same
 * questions, and compared: the same answers, different metrics.
 *
 *   npx tsx examples/ab-libraries.ts
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { bindVariants, formatBindError, formatDiagnostics, invokeByName, type MetricsSnapshot, parseSpecifications, type ToolResult } from 'gramkit';
import { variantMetrics } from '../src/library/variants.js';
import fast from './ab/fast-library.js';
import slow from './ab/slow-library.js';

export interface AbReport {
  /** Per question, each variant's result. */
  readonly answers: ReadonlyArray<{ readonly country: string; readonly results: Readonly<Record<string, ToolResult>> }>;
  /** Whether every variant gave the same result to every question. */
  readonly agree: boolean;
  /** Each variant's usage metrics. */
  readonly metrics: Readonly<Record<string, MetricsSnapshot>>;
}

export const QUESTIONS: ReadonlyArray<string> = ['France', 'Japan', 'brazil', ' Kenya ', 'New Zealand', 'Atlantis', 'Peru', 'Norway'];

export const runAbExperiment = async (questions: ReadonlyArray<string> = QUESTIONS): Promise<AbReport | string> => {
  const file = new URL('./ab/capitals.gram', import.meta.url);
  const text = readFileSync(file, 'utf8');
  const specs = parseSpecifications(text, { filename: 'examples/ab/capitals.gram' });
  if (specs._tag === 'Left') return formatDiagnostics(specs.left, text);

  // the same specifications, bound to each library; each variant records its own metrics
  const variants = bindVariants(specs.right.tools, { fast, slow });
  if (variants._tag === 'Left') return variants.left.map(formatBindError).join('\n\n');

  const answers: Array<{ country: string; results: Record<string, ToolResult> }> = [];
  for (const country of questions) {
    const results: Record<string, ToolResult> = {};
    for (const v of variants.right) results[v.name] = await invokeByName(v.tools, 'capital_of', { country }, { timeoutMs: 1000 });
    answers.push({ country, results });
  }
  const agree = answers.every(({ results }) => new Set(Object.values(results).map((r) => JSON.stringify(r))).size === 1);
  return { answers, agree, metrics: variantMetrics(variants.right) };
};

const main = async (): Promise<void> => {
  const report = await runAbExperiment();
  if (typeof report === 'string') {
    process.stderr.write(`${report}\n`);
    process.exitCode = 1;
    return;
  }
  for (const { country, results } of report.answers) {
    const r = results['fast'] as ToolResult;
    process.stdout.write(`${JSON.stringify(country).padEnd(16)} ${r.ok ? String(r.value) : `${r.error.reason}: ${r.error.message}`}\n`);
  }
  process.stdout.write(`\nsame answers from both libraries: ${report.agree ? 'yes' : 'NO'}\n\n`);
  process.stdout.write('variant  calls  errors  p50 ms    p95 ms\n');
  for (const [name, snapshot] of Object.entries(report.metrics)) {
    const u = snapshot.tools['capital_of'];
    const l = u?.latencyMs;
    process.stdout.write(
      `${name.padEnd(8)} ${String(u?.callCount ?? 0).padStart(5)}  ${String(u?.errorCount ?? 0).padStart(6)}  ${(l?.p50 ?? 0).toFixed(3).padStart(8)}  ${(l?.p95 ?? 0).toFixed(3).padStart(8)}\n`,
    );
  }
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
