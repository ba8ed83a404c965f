/**
 * Abort signals: listening to one without warnings, and waiting abortably.
 *
 * Listening to a caller's abort signal without warnings: one signal is often shared by many
 * concurrent calls (the library gives every call without timeout the same never-aborting signal),
 * and Node warns ("possible EventTarget memory leak") past 10 listeners. Every listener added here
 * is removed when its call ends, so the limit is lifted for the signals listened to.
 */
import { setMaxListeners } from 'node:events';

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const lifted = new WeakSet<AbortSignal>();

/** Calls `f` once when `signal` aborts; returns the function that stops listening. */
export const onAbort = (signal: AbortSignal | undefined, f: () => void): (() => void) => {
  if (signal === undefined) return () => undefined;
  if (!lifted.has(signal)) {
    setMaxListeners(0, signal);
    lifted.add(signal);
  }
  signal.addEventListener('abort', f, { once: true });
  return () => signal.removeEventListener('abort', f);
};

/** Waits `ms`, or less when `signal` aborts; resolves to whether it waited the whole time. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<boolean> =>
  new Promise((resolve) => {
    if (signal?.aborted === true) return resolve(false);
    const stop = onAbort(signal, () => {
      clearTimeout(timer);
      resolve(false);
    });
    const timer = setTimeout(
      () => {
        stop();
        resolve(true);
      },
      Math.max(0, ms),
    );
  });
