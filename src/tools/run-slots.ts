/**
 * A cap on the programs `run_code`, `shell` and sandboxed command tools run at once, in this
 * process: a call past the cap waits in a queue (first come, first served) until one ends, and a
 * call cancelled while it waits leaves the queue without running. The default is twice the
 * number of CPUs (`availableParallelism() × 2`); `setMaxConcurrentRuns(n)` changes it (`gramkit`
 * reads `GRAMKIT_MAX_CONCURRENT_RUNS`). 100 sandboxes started at once no longer all run at once.
 */
import { availableParallelism } from 'node:os';

let max = Math.max(1, availableParallelism() * 2);
let active = 0;
const waiting: Array<() => void> = [];

/** The cap: at most `n` (≥ 1) programs at once. Returns the previous cap. */
export const setMaxConcurrentRuns = (n: number): number => {
  const before = max;
  max = Math.max(1, Math.floor(n));
  while (active < max && waiting.length > 0) {
    active += 1;
    (waiting.shift() as () => void)();
  }
  return before;
};

/** The cap now, and how many programs run and wait. */
export const concurrentRuns = (): { readonly max: number; readonly active: number; readonly waiting: number } => ({ max, active, waiting: waiting.length });

/**
 * Runs `fn` when a slot is free, and frees it when `fn` settles. Rejects with `signal`'s reason,
 * without running `fn`, when the signal aborts while it waits.
 */
export const withRunSlot = async <A>(signal: AbortSignal | undefined, fn: () => Promise<A>): Promise<A> => {
  if (active < max) active += 1;
  else
    await new Promise<void>((resolve, reject) => {
      const go = (): void => {
        signal?.removeEventListener('abort', abort);
        resolve();
      };
      const abort = (): void => {
        const i = waiting.indexOf(go);
        if (i >= 0) waiting.splice(i, 1);
        reject(signal?.reason ?? new Error('cancelled'));
      };
      if (signal?.aborted === true) return abort();
      signal?.addEventListener('abort', abort, { once: true });
      waiting.push(go);
    });
  try {
    return await fn();
  } finally {
    active -= 1;
    while (active < max && waiting.length > 0) {
      active += 1;
      (waiting.shift() as () => void)();
    }
  }
};
