/**
 * An experiment's report as text for people (`gramkit ab`): one row per variant, a legend that says
 * what each column means, then the answers that differ between variants. The JSON form is the
 * report itself; `EXPERIMENT_COLUMNS` describes its summaries' fields for readers of the JSON.
 */
import type { ExperimentReport, VariantSummary } from './experiment.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** One column of the table: its heading, the summary field (JSON) it shows, and what it means. */
export interface ExperimentColumn {
  readonly column: string;
  readonly field: string;
  readonly meaning: string;
}

/** The columns of the table, in order, with the fields of `VariantSummary` they show. */
export const EXPERIMENT_COLUMNS: ReadonlyArray<ExperimentColumn> = [
  { column: 'library', field: 'name', meaning: 'the library the agent ran against (the first is the baseline)' },
  { column: 'runs', field: 'runs', meaning: 'runs on this library: inputs × --runs' },
  {
    column: 'success',
    field: 'succeeded',
    meaning:
      'runs that ended with an answer that passes every check of its input: expected (contains), equals, pattern, schema, expectedToolCalls (successRate: the share; successCI: its 95% interval)',
  },
  { column: 'tool calls', field: 'toolCalls', meaning: "calls the model made to the library's tools, in all runs" },
  {
    column: 'tool errors',
    field: 'toolErrors',
    meaning: 'tool calls whose result was an error (invalid arguments, failures, denials); the model sees them and may recover',
  },
  {
    column: 'errors by code',
    field: 'toolErrorsByCode',
    meaning: 'tool errors by code; "run CODE" counts runs that ended without an answer (runErrorsByCode)',
  },
  { column: 'p50 ms', field: 'latencyMs.p50', meaning: 'median wall time of a whole run, model and tools, in milliseconds' },
  { column: 'p95 ms', field: 'latencyMs.p95', meaning: '95th percentile of the same' },
  {
    column: 'answers differ',
    field: 'differingAnswers',
    meaning: "runs whose answer differs from the baseline library's for the same input and run (spacing aside)",
  },
];

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const pct = (v: number): string => `${(v * 100).toFixed(v === 1 || v === 0 ? 0 : 1)}%`;

const fixed = (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

const cut = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

const codes = (s: VariantSummary): string => {
  const parts = [...Object.entries(s.toolErrorsByCode).map(([c, n]) => `${c}×${n}`), ...Object.entries(s.runErrorsByCode).map(([c, n]) => `run ${c}×${n}`)];
  return parts.length === 0 ? '-' : parts.join(', ');
};

const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>, rightAligned: ReadonlySet<number>): string => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: ReadonlyArray<string>): string =>
    cells
      .map((c, i) => (rightAligned.has(i) ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
};

const interval = (i: readonly [number, number]): string => `${pct(i[0])}–${pct(i[1])}`;
const signed = (v: number): string => `${v > 0 ? '+' : v < 0 ? '−' : '±'}${Math.abs(v * 100).toFixed(1)} points`;
const pValue = (p: number): string => (p < 0.0001 ? 'p < 0.0001' : `p = ${p.toPrecision(2)}`);

/** In words: each variant's success with its interval, and which differences from the baseline are real (p < 0.05) and which are noise. */
const comparisonLines = (report: ExperimentReport): string[] => {
  const out = ['success, with 95% intervals (Wilson), and against the baseline (paired by input and run):'];
  for (const s of report.summaries) {
    const head = `  ${s.name}: ${s.succeeded}/${s.runs} succeeded (${pct(s.successRate)}, 95% CI ${interval(s.successCI)}), mean score ${s.meanScore.toFixed(2)} (95% CI ${s.scoreCI[0].toFixed(2)}–${s.scoreCI[1].toFixed(2)})`;
    const v = s.vsBaseline;
    if (v === undefined) {
      out.push(`${head}: the baseline`);
      continue;
    }
    const differ = v.better + v.worse;
    if (differ === 0 && v.score.better + v.score.worse === 0) {
      out.push(`${head}: the same outcome and score as the baseline in all ${s.runs} runs: no difference`);
      continue;
    }
    const verdict = (c: { readonly significant: boolean; readonly difference: number }): string =>
      c.significant ? `a real difference (${c.difference > 0 ? 'better' : 'worse'})` : 'could be noise';
    const outcome = `success differs on ${differ}/${s.runs} (${v.better} better, ${v.worse} worse), ${signed(v.difference)} (95% CI ${signed(v.ci[0])} to ${signed(v.ci[1])}), ${pValue(v.pValue)} (McNemar): ${differ === 0 ? 'no difference' : verdict(v)}`;
    const scores = `mean score ${v.score.difference >= 0 ? '+' : '−'}${Math.abs(v.score.difference).toFixed(2)}, ${pValue(v.score.pValue)} (sign test): ${v.score.better + v.score.worse === 0 ? 'no difference' : verdict(v.score)}`;
    out.push(`${head}:`, `    ${outcome}`, `    ${scores}`);
  }
  return out;
};

/** The report as a table per variant and the differing answers (at most `maxDifferences`, default 10). */
export const formatExperimentReport = (report: ExperimentReport, options: { readonly maxDifferences?: number } = {}): string => {
  const max = options.maxDifferences ?? 10;
  const head = `A/B experiment: agent ${report.agent}, model ${report.model}, ${report.inputs} input${report.inputs === 1 ? '' : 's'} × ${report.runsPerInput} run${report.runsPerInput === 1 ? '' : 's'} on ${report.variants.length} librar${report.variants.length === 1 ? 'y' : 'ies'} (${fixed(report.durationMs)} ms)`;
  const rows = report.summaries.map((s, i) => [
    s.name,
    String(s.runs),
    `${s.succeeded}/${s.runs} (${pct(s.successRate)})`,
    String(s.toolCalls),
    String(s.toolErrors),
    codes(s),
    fixed(s.latencyMs.p50),
    fixed(s.latencyMs.p95),
    i === 0 ? 'baseline' : String(s.differingAnswers),
  ]);
  const out = [
    head,
    '',
    table(
      EXPERIMENT_COLUMNS.map((c) => c.column),
      rows,
      new Set([1, 3, 4, 6, 7, 8]),
    ),
  ];
  out.push('', ...comparisonLines(report));
  // per tool latency, when a variant's tools were called
  const toolRows: string[][] = [];
  for (const s of report.summaries) {
    for (const [tool, u] of Object.entries(s.tools)) {
      toolRows.push([
        s.name,
        tool,
        String(u.callCount),
        String(u.errorCount),
        u.latencyMs === null ? '-' : fixed(u.latencyMs.p50),
        u.latencyMs === null ? '-' : fixed(u.latencyMs.p95),
      ]);
    }
  }
  if (toolRows.length > 0) out.push('', table(['library', 'tool', 'calls', 'errors', 'p50 ms', 'p95 ms'], toolRows, new Set([2, 3, 4, 5])));
  out.push('');
  if (report.differences.length === 0) {
    out.push(report.variants.length > 1 ? 'answers: the same from every library' : 'answers: one library, nothing to compare');
  } else {
    out.push(`answers that differ between libraries: ${report.differences.length} of ${report.inputs * report.runsPerInput}`);
    for (const d of report.differences.slice(0, max)) {
      out.push(`  input ${d.inputId} ${JSON.stringify(cut(d.message, 60))}${report.runsPerInput > 1 ? `, run ${d.repetition + 1}` : ''}:`);
      for (const [variant, answer] of Object.entries(d.answers)) out.push(`    ${variant}: ${cut(answer.replace(/\n/g, ' '), 100)}`);
    }
    if (report.differences.length > max) out.push(`  … and ${report.differences.length - max} more (see the JSON report)`);
  }
  out.push('', 'columns:', ...EXPERIMENT_COLUMNS.map((c) => `  ${c.column}: ${c.meaning}`));
  return `${out.join('\n')}\n`;
};
