/**
 * Running regular expressions where a catastrophic pattern cannot hang the process. JavaScript's
 * regular expressions backtrack (`(a+)+$` on `aaaa…b` takes exponential time) and cannot be
 * interrupted; so matching runs in a worker thread with a deadline, and a worker past its deadline
 * is terminated (and replaced on the next search). One worker is kept, unreferenced (it never keeps
 * the process alive), and searches are queued on it.
 */
import { Worker } from 'node:worker_threads';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface RegexJob {
  readonly pattern: string;
  readonly flags: string;
  readonly files: ReadonlyArray<{ readonly path: string; readonly text: string }>;
  readonly maxMatches: number;
  /** Longest line text returned with a match (longer lines are cut around the match). */
  readonly maxLineChars: number;
}

export interface RegexMatch {
  readonly path: string;
  /** 1-based line and column (UTF-16 code units). */
  readonly line: number;
  readonly column: number;
  readonly match: string;
  readonly lineText: string;
}

export type RegexOutcome =
  | { readonly kind: 'done'; readonly matches: ReadonlyArray<RegexMatch>; readonly truncated: boolean }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'error'; readonly message: string };

// -------------------------------------------------------------------------------------------------
// the worker's code (CommonJS, evaluated: no file to resolve, works from any bundle)
// -------------------------------------------------------------------------------------------------

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const cut = (line, index, length, max) => {
  if (line.length <= max) return line;
  const start = Math.max(0, Math.min(index - Math.floor((max - length) / 2), line.length - max));
  return (start > 0 ? '…' : '') + line.slice(start, start + max) + (start + max < line.length ? '…' : '');
};
parentPort.on('message', (job) => {
  try {
    const re = new RegExp(job.pattern, job.flags);
    const matches = [];
    let truncated = false;
    outer: for (const f of job.files) {
      const lines = f.text.split(/\\r?\\n/);
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i];
        re.lastIndex = 0;
        let m;
        while ((m = re.exec(line)) !== null) {
          if (matches.length >= job.maxMatches) { truncated = true; break outer; }
          matches.push({ path: f.path, line: i + 1, column: m.index + 1, match: m[0], lineText: cut(line, m.index, m[0].length, job.maxLineChars) });
          if (m[0].length === 0) re.lastIndex += 1;
          if (re.lastIndex > line.length) break;
        }
      }
    }
    parentPort.postMessage({ id: job.id, kind: 'done', matches, truncated });
  } catch (e) {
    parentPort.postMessage({ id: job.id, kind: 'error', message: String(e && e.message || e) });
  }
});
`;

// -------------------------------------------------------------------------------------------------
// running
// -------------------------------------------------------------------------------------------------

let worker: Worker | undefined;
let nextId = 1;
let queue: Promise<unknown> = Promise.resolve();

const getWorker = (): Worker => {
  if (worker === undefined) {
    const w = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 512 } });
    w.unref();
    w.on('error', () => {
      if (worker === w) worker = undefined;
    });
    w.on('exit', () => {
      if (worker === w) worker = undefined;
    });
    worker = w;
  }
  return worker;
};

/** Runs `job` in the worker; `timeout` (and the worker replaced) when it takes longer than `timeoutMs`. */
export const runRegex = (job: RegexJob, timeoutMs: number, signal?: AbortSignal): Promise<RegexOutcome> => {
  const run = (): Promise<RegexOutcome> =>
    new Promise<RegexOutcome>((resolve) => {
      if (signal?.aborted === true) return resolve({ kind: 'error', message: 'cancelled' });
      const w = getWorker();
      const id = nextId++;
      let finished = false;
      const finish = (outcome: RegexOutcome, kill: boolean): void => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (kill) {
          if (worker === w) worker = undefined;
          void w.terminate();
        }
        resolve(outcome);
      };
      const onMessage = (m: { id: number } & RegexOutcome): void => {
        if (m.id !== id) return;
        finish(
          m.kind === 'done' ? { kind: 'done', matches: m.matches, truncated: m.truncated } : m.kind === 'error' ? { kind: 'error', message: m.message } : m,
          false,
        );
      };
      const onExit = (): void => finish({ kind: 'error', message: 'the search worker stopped (out of memory?)' }, false);
      const onAbort = (): void => finish({ kind: 'error', message: 'cancelled' }, true);
      const timer = setTimeout(() => finish({ kind: 'timeout' }, true), timeoutMs);
      w.on('message', onMessage);
      w.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      w.postMessage({ ...job, id });
    });
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
};
