/**
 * The slow implementation of `capital_of`: the same answers, from a linear scan behind a
 * simulated remote lookup (a few milliseconds per call). It honours its abort signal, so a
 * timeout or a cancelled call stops it.
 */
import { type InvocationContext, ToolFailure, toolLibrary } from 'gramkit';
import { capitalOf } from './capital-tool.js';
import { CAPITALS } from './countries.js';

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

export const REMOTE_LATENCY_MS = 5;

export default toolLibrary([
  capitalOf(async ({ country }, ctx: InvocationContext) => {
    await sleep(REMOTE_LATENCY_MS, ctx.signal);
    const wanted = country.trim().toLowerCase();
    for (const [name, capital] of CAPITALS) if (name.toLowerCase() === wanted) return capital;
    throw new ToolFailure('NOT_FOUND', `no country named "${country}" in the atlas`);
  }),
]);
