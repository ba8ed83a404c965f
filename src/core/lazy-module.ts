/**
 * A dependency loaded on its first use, synchronously, instead of when the module that needs it
 * loads: for large packages (re2js, 260 KB; jsonpath-plus) that most programs and most CLI
 * commands never call. Every module a process loads costs its parse at start-up, used or not.
 * It is `require`d (Node ≥ 20.19 requires ES modules too), so the first call stays synchronous
 * and the callers keep their plain signatures.
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** `() => require(specifier)`, the package loaded on the first call and kept. */
export const lazyModule = <M>(specifier: string): (() => M) => {
  let loaded: M | undefined;
  return () => {
    loaded ??= load(specifier) as M;
    return loaded;
  };
};
