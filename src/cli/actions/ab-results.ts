/**
 * `gramkit ab --out results.jsonl [--resume]`: each run is appended to a JSON-lines file as it
 * finishes (one write per line, so a process killed even with `kill -9` leaves at most one partial
 * last line), after a first line that names the experiment. `--resume` reads the runs back, drops a
 * partial last line, and the experiment makes only the runs the file does not have: none is lost,
 * none counted twice, and the report is the one an uninterrupted experiment makes. Once every run
 * is in, the report is the last line (`gramkit serve --experiments DIR` shows it). The format is
 * agent/experiment-file.ts.
 */
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { type ExperimentReport, type ExperimentRun, slimRun } from '../../agent/experiment.js';
import { type CodedError, failWith, ok, type Result } from '../../core/result.js';
import { type CliCode, CliCodes } from '../codes.js';
import { completeLines, headerLine, readResults, reportLine, type ResultsHeader, runsOf, uniqueRuns } from '../../agent/experiment-file.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type { ResultsHeader };

export interface ResultsFile {
  /** Runs already in the file (empty unless resuming), reduced to what the experiment reads of them (`slimRun`): the whole runs stay in the file. */
  readonly done: ReadonlyArray<ExperimentRun>;
  /** Appends a run (synchronously: one write of one line). */
  readonly append: (run: ExperimentRun) => void;
  /** Appends the experiment's report, once every run is in (one write of one line: a reader sees it whole or not at all). */
  readonly finish: (report: ExperimentReport) => void;
  /**
   * Every run the file holds, read back, once each, in the report's order (input, repetition,
   * variant): the experiment does not keep them (`keepRuns: false`), the file does.
   */
  readonly runs: () => ReadonlyArray<ExperimentRun>;
  readonly close: () => void;
}

// -------------------------------------------------------------------------------------------------
// the file
// -------------------------------------------------------------------------------------------------

const sameExperiment = (line: string | undefined, b: ResultsHeader): boolean => {
  try {
    return JSON.stringify(JSON.parse(line ?? '')) === headerLine(b);
  } catch {
    return false;
  }
};

/**
 * Opens the results file. Without `resume`, a file that already holds runs is refused (continuing
 * it needs `--resume`); with it, its runs are read back. A failure: `CLI_RESULTS_CONFLICT`.
 */
export const openResults = (path: string, header: ResultsHeader, resume: boolean): Result<ResultsFile, CodedError<CliCode>> => {
  const done: ExperimentRun[] = [];
  let keep = 0;
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8');
    const lines = completeLines(text);
    if (lines.length > 0 && !resume)
      return failWith(CliCodes.RESULTS_CONFLICT, `${path} already holds an experiment's results: give --resume to continue it, or another file`);
    if (resume && lines.length > 0) {
      if (!sameExperiment(lines[0], header)) {
        return failWith(
          CliCodes.RESULTS_CONFLICT,
          `${path} holds the results of another experiment (its agent, variants, inputs or --runs differ): resume with the same arguments, or give another file`,
        );
      }
      done.push(...runsOf(lines.slice(1)).map(slimRun));
      keep = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1));
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
  if (keep === 0) write(headerLine(header));
  const runs = (): ReadonlyArray<ExperimentRun> => readResults(readFileSync(path, 'utf8')).runs;
  const append = (run: ExperimentRun): void => write(JSON.stringify(run));
  return ok({ done: uniqueRuns(done), append, finish: (report) => write(reportLine(report)), runs, close: () => closeSync(fd) });
};
