/**
 * `gramkit ab --out results.jsonl [--resume]`: each run is appended to a JSON-lines file as it
 * finishes (one write per line, so a process killed even with `kill -9` leaves at most one partial
 * last line), after a first line that names the experiment. `--resume` reads the runs back, drops a
 * partial last line, and the experiment makes only the runs the file does not have: none is lost,
 * none counted twice, and the report is the one an uninterrupted experiment makes.
 */
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { ExperimentRun } from '../../agent/experiment.js';
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
  /** Runs already in the file (empty unless resuming). */
  readonly done: ReadonlyArray<ExperimentRun>;
  /** Appends a run (synchronously: one write of one line). */
  readonly append: (run: ExperimentRun) => void;
  readonly close: () => void;
}

const KIND = 'gramkit-experiment-results';

// -------------------------------------------------------------------------------------------------
// the file
// -------------------------------------------------------------------------------------------------

const sameExperiment = (a: unknown, b: ResultsHeader): boolean => JSON.stringify(a) === JSON.stringify({ kind: KIND, ...b });

const isRun = (v: unknown): v is ExperimentRun => isRecord(v) && typeof v['variant'] === 'string' && typeof v['input'] === 'number' && typeof v['repetition'] === 'number';

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
      for (const line of lines.slice(1)) {
        try {
          const run = JSON.parse(line) as unknown;
          if (isRun(run)) done.push(run);
        } catch {
          // a line cut by a kill is made again
        }
      }
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
  // a run read back twice (never written so, but a file may be edited) counts once
  const unique = [...new Map(done.map((r) => [JSON.stringify([r.variant, r.input, r.repetition]), r])).values()];
  return { ok: true, value: { done: unique, append: (run) => write(JSON.stringify(run)), close: () => closeSync(fd) } };
};
