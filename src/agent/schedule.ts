/**
 * How the calls of one turn run. Calls that only read run concurrently; a call that may change what
 * others see (a tool whose permissions include `fs:write` or `proc:exec`, or whose approval depends
 * on its arguments, i.e. on the state it finds) runs alone: after every call asked before it has
 * finished, and before any call asked after it starts. Each call's policies are judged when it
 * starts (library/serial.ts `runsAlone` classifies the calls; other surfaces serialise with its
 * `serialise` step), so an approval is decided on the files as they are when the call runs, not as they were
 * before the turn (`move_file a→b` then `write_file b` asks before overwriting what the move made).
 *
 * A turn has a bounded number of calls (`maxCallsPerTurn`, default 16; the calls beyond are not
 * run and answer `TOOL_TOO_MANY_CALLS`) and of calls running at once (`concurrency`, default 4).
 */
import { ToolCodes } from '../library/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface ScheduleOptions {
  /** Most calls run from one model turn (default 16). */
  readonly maxCallsPerTurn?: number;
  /** Most calls of a turn running at once (default 4). */
  readonly concurrency?: number;
}

export const DEFAULT_MAX_CALLS_PER_TURN = 16;
export const DEFAULT_TOOL_CONCURRENCY = 4;

/** The code of the calls of a turn beyond `maxCallsPerTurn`. */
export const TOO_MANY_CALLS = ToolCodes.TOO_MANY_CALLS;

// -------------------------------------------------------------------------------------------------
// running
// -------------------------------------------------------------------------------------------------

/**
 * Runs `run` over `items` in their order, results in that order: consecutive items that are not
 * `alone` concurrently (at most `concurrency` at a time), an `alone` item by itself between them.
 */
export const runScheduled = async <I, R>(
  items: ReadonlyArray<I>,
  alone: (item: I) => boolean,
  run: (item: I, index: number) => Promise<R>,
  concurrency: number,
): Promise<ReadonlyArray<R>> => {
  const results: R[] = new Array<R>(items.length);
  let i = 0;
  while (i < items.length) {
    if (alone(items[i] as I)) {
      results[i] = await run(items[i] as I, i);
      i++;
      continue;
    }
    let end = i;
    while (end < items.length && !alone(items[end] as I)) end++;
    await pool(i, end, concurrency, async (k) => {
      results[k] = await run(items[k] as I, k);
    });
    i = end;
  }
  return results;
};

/** Runs `task` for every index in [from, to), at most `width` at a time. */
const pool = async (from: number, to: number, width: number, task: (k: number) => Promise<void>): Promise<void> => {
  let next = from;
  const worker = async (): Promise<void> => {
    while (next < to) {
      const k = next++;
      await task(k);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, to - from)) }, worker));
};
