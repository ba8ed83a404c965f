/**
 * The results file of an experiment (`gramkit ab --out results.jsonl`), as text: a first line that
 * names the experiment (`gramkit-experiment-results`: agent, variants, inputs, runs per input), a
 * line per run as it finishes, and, once every run is in, a last line with the report
 * (`gramkit-experiment-report`: the JSON report without its `results`, which are the lines above).
 * A `--resume` of a finished file appends another report; the last one counts.
 *
 * Read while it is being written (by `gramkit ab`, `gramkit serve --experiments`), a file is read
 * up to its last newline: a line still being written (or cut by a kill) is left out, so a reader
 * sees runs whole, and a report only once all of it is there. Pure: text in, data out.
 */
import { isRecord } from '../core/json.js';
import type { ExperimentReport, ExperimentRun } from './experiment.js';

/** The first line's `kind`. */
export const RESULTS_KIND = 'gramkit-experiment-results';
/** The report line's `kind`. */
export const REPORT_KIND = 'gramkit-experiment-report';

/** The first line: what experiment the runs belong to. */
export interface ResultsHeader {
  readonly agent: string;
  readonly variants: ReadonlyArray<string>;
  /** The inputs' ids, in order. */
  readonly inputs: ReadonlyArray<string>;
  readonly runsPerInput: number;
}

/** What a results file holds, read back. */
export interface ResultsContent {
  /** The first line, when it is a results header. */
  readonly header?: ResultsHeader;
  /** Every run, once each, in the report's order (input, repetition, variant). */
  readonly runs: ReadonlyArray<ExperimentRun>;
  /** The last report line (without `results`), when the experiment finished. */
  readonly report?: Omit<ExperimentReport, 'results'>;
}

export const isRun = (v: unknown): v is ExperimentRun =>
  isRecord(v) && typeof v['variant'] === 'string' && typeof v['input'] === 'number' && typeof v['repetition'] === 'number';

const isHeader = (v: unknown): v is ResultsHeader & { readonly kind: string } =>
  isRecord(v) &&
  v['kind'] === RESULTS_KIND &&
  typeof v['agent'] === 'string' &&
  Array.isArray(v['variants']) &&
  Array.isArray(v['inputs']) &&
  typeof v['runsPerInput'] === 'number';

const isReport = (v: unknown): v is Omit<ExperimentReport, 'results'> & { readonly kind: string } =>
  isRecord(v) && v['kind'] === REPORT_KIND && Array.isArray(v['summaries']) && Array.isArray(v['variants']) && Array.isArray(v['differences']);

/** The complete lines of a file's text: up to its last newline (a line being written, or cut by a kill, is not one). */
export const completeLines = (text: string): ReadonlyArray<string> =>
  text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((l) => l !== '');

const parsed = (line: string): unknown => {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
};

/** The runs of lines (a line that is no run is left out). */
export const runsOf = (lines: ReadonlyArray<string>): ExperimentRun[] => {
  const out: ExperimentRun[] = [];
  for (const line of lines) {
    const run = parsed(line);
    if (isRun(run)) out.push(run);
  }
  return out;
};

/** A run read back twice (never written so, but a file may be edited) counts once. */
export const uniqueRuns = (runs: ReadonlyArray<ExperimentRun>): ExperimentRun[] => [
  ...new Map(runs.map((r) => [JSON.stringify([r.variant, r.input, r.repetition]), r])).values(),
];

/** Runs in the report's order: input, repetition, then the variants' order. */
export const orderRuns = (runs: ReadonlyArray<ExperimentRun>, variants: ReadonlyArray<string>): ExperimentRun[] => {
  const order = new Map(variants.map((v, i) => [v, i]));
  return [...runs].sort((a, b) => a.input - b.input || a.repetition - b.repetition || (order.get(a.variant) ?? 0) - (order.get(b.variant) ?? 0));
};

/** The header line of an experiment. */
export const headerLine = (header: ResultsHeader): string => JSON.stringify({ kind: RESULTS_KIND, ...header });

/** The report line: the report without its runs (they are the file's lines). */
export const reportLine = (report: ExperimentReport): string => {
  const { results: _results, ...rest } = report;
  return JSON.stringify({ kind: REPORT_KIND, ...rest });
};

/** A results file's text, read back (complete lines only). */
export const readResults = (text: string): ResultsContent => {
  const lines = completeLines(text);
  const first = lines.length > 0 ? parsed(lines[0] as string) : undefined;
  const header = isHeader(first) ? { agent: first.agent, variants: first.variants, inputs: first.inputs, runsPerInput: first.runsPerInput } : undefined;
  let report: ResultsContent['report'];
  for (let i = lines.length - 1; i > 0 && report === undefined; i--) {
    const line = lines[i] as string;
    if (!line.includes(REPORT_KIND)) continue;
    const r = parsed(line);
    if (isReport(r)) {
      const { kind: _kind, ...rest } = r;
      report = rest;
    }
  }
  const runs = uniqueRuns(runsOf(lines.slice(1)));
  return {
    ...(header !== undefined ? { header } : {}),
    runs: orderRuns(runs, header?.variants ?? report?.variants ?? []),
    ...(report !== undefined ? { report } : {}),
  };
};
