/**
 * `gramkit ab` on a terminal: a progress bar on stderr, redrawn as runs finish: runs done of all,
 * failures so far, and the time left at the pace so far. Not shown with `--json` or when the
 * output is not a terminal.
 */
import type { ExperimentRun } from '../../agent/experiment.js';

const WIDTH = 30;

const duration = (ms: number): string => {
  const s = Math.round(ms / 1000);
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
      : `${s}s`;
};

/** One line of the bar: `[#####-----] 20/84 runs, 2 failed, about 12s left`. */
export const progressLine = (done: number, total: number, failed: number, elapsedMs: number, madeNow: number): string => {
  const filled = total === 0 ? WIDTH : Math.round((done / total) * WIDTH);
  const left = madeNow > 0 && done < total ? `, about ${duration((elapsedMs / madeNow) * (total - done))} left` : '';
  return `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${done}/${total} runs, ${failed} failed${left}`;
};

/** What to call as each run finishes; `end` clears the line. */
export const progressBar = (
  write: (text: string) => void,
  total: number,
  alreadyDone: number,
): { readonly onRun: (run: ExperimentRun) => void; readonly end: () => void } => {
  const started = Date.now();
  let done = alreadyDone;
  let made = 0;
  let failed = 0;
  write(`\r${progressLine(done, total, failed, 0, 0)}`);
  return {
    onRun: (run) => {
      done++;
      made++;
      if (!run.success) failed++;
      write(`\r${progressLine(done, total, failed, Date.now() - started, made)}\u001b[K`);
    },
    end: () => write('\r\u001b[K'),
  };
};
