/**
 * `gramkit ab --out results.jsonl [--resume]`: each run is appended to a JSON-lines file as it
 * finishes (one write per line, so a process killed even with `kill -9` leaves at most one partial
 * last line), after a first line that names the experiment. `--resume` reads the runs back, drops a
 * partial last line, and the experiment makes only the runs the file does not have: none is lost,
 * none counted twice, and the report is the one an uninterrupted experiment makes.
 */
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { type ExperimentRun, slimRun } from '../../agent/experiment.js';
import { isRecord } from '../../core/json.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The first line: what experiment the runs belong to. */
export interface ResultsHeader {
  readonly agent: string;
  readonly variants: ReadonlyArray<string>;
  /** The inputs' ids, in order. */
  readonly inputs: ReadonlyArray<string>;
  readonly runsPerInput: number;
}

export interface ResultsFile {
  /** Runs already in the file (empty unless resuming), reduced to what the experiment reads of them (`slimRun`): the whole runs stay in the file. */
  readonly done: ReadonlyArray<ExperimentRun>;
  /** Appends a run (synchronously: one write of one line). */
  readonly append: (run: ExperimentRun) => void;
  /**
   * Every run the file holds, read back, once each, in the report's order (input, repetition,
   * variant): the experiment does not keep them (`keepRuns: false`), the file does.
   */
  readonly runs: () => ReadonlyArray<ExperimentRun>;
  readonly close: () => void;
}

const KIND = 'gramkit-experiment-results';

// -------------------------------------------------------------------------------------------------
// the file
// -------------------------------------------------------------------------------------------------

const sameExperiment = (a: unknown, b: ResultsHeader): boolean => JSON.stringify(a) === JSON.stringify({ kind: KIND, ...b });

const isRun = (v: unknown): v is ExperimentRun => isRecord(v) && typeof v['variant'] === 'string' && typeof v['input'] === 'number' && typeof v['repetition'] === 'number';

/** The runs of the file's lines (a line cut by a kill is left out: its run is made again). */
const runsOf = (lines: ReadonlyArray<string>): ExperimentRun[] => {
  const out: ExperimentRun[] = [];
  for (const line of lines) {
    if (line === '') continue;
    try {
      const run = JSON.parse(line) as unknown;
      if (isRun(run)) out.push(run);
    } catch {
      // cut by a kill
    }
  }
  return out;
};

/** A run read back twice (never written so, but a file may be edited) counts once. */
const unique = (runs: ReadonlyArray<ExperimentRun>): ExperimentRun[] => [...new Map(runs.map((r) => [JSON.stringify([r.variant, r.input, r.repetition]), r])).values()];

/**
 * Opens the results file. Without `resume`, a file that already holds runs is refused (continuing
 * it needs `--resume`); with it, its runs are read back. Left: what is wrong, for a person.
 */
export const openResults = (path: string, header: ResultsHeader, resume: boolean): { readonly ok: true; readonly value: ResultsFile } | { readonly ok: false; readonly error: string } => {
  const done: ExperimentRun[] = [];
  let keep = 0;
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8');
    const complete = text.slice(0, text.lastIndexOf('\n') + 1);
    const lines = complete.split('\n').filter((l) => l !== '');
    if (lines.length > 0 && !resume) return { ok: false, error: `${path} already holds an experiment's results: give --resume to continue it, or another file` };
    if (resume && lines.length > 0) {
      let first: unknown;
      try {
        first = JSON.parse(lines[0] as string);
      } catch {
        first = undefined;
      }
      if (!sameExperiment(first, header)) return { ok: false, error: `${path} holds the results of another experiment (its agent, variants, inputs or --runs differ): resume with the same arguments, or give another file` };
      done.push(...runsOf(lines.slice(1)).map(slimRun));
      keep = Buffer.byteLength(complete);
    }
  }
  const fd = openSync(path, keep > 0 ? 'r+' : 'w');
  // a partial last line (the process was killed while writing it) goes: its run is made again
  ftruncateSync(fd, keep);
  let position = keep;
  const write = (line: string): void => {
    const bytes = Buffer.from(`${line}\n`, 'utf8');
    position += writeSync(fd, bytes, 0, bytes.length, position);
  };
  if (keep === 0) write(JSON.stringify({ kind: KIND, ...header }));
  const order = new Map(header.variants.map((v, i) => [v, i]));
  const runs = (): ReadonlyArray<ExperimentRun> => {
    const text = readFileSync(path, 'utf8');
    return unique(runsOf(text.split('\n').slice(1))).sort((a, b) => a.input - b.input || a.repetition - b.repetition || (order.get(a.variant) ?? 0) - (order.get(b.variant) ?? 0));
  };
  return { ok: true, value: { done: unique(done), append: (run) => write(JSON.stringify(run)), runs, close: () => closeSync(fd) } };
};
