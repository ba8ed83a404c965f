/**
 * A signal that never aborts, shared by every call that has neither a timeout nor a signal.
 * Listeners added to it are not kept: they could never run, and on a shared signal they would
 * pile up call after call (an implementation that adds an abort listener per call and removes it
 * only on abort is common).
 */
export const NEVER: AbortSignal = (() => {
  const signal = new AbortController().signal;
  const ignore = (): void => undefined;
  Object.defineProperty(signal, 'addEventListener', { value: ignore });
  Object.defineProperty(signal, 'removeEventListener', { value: ignore });
  Object.defineProperty(signal, 'onabort', { get: () => null, set: ignore });
  return Object.freeze(signal);
})();
