/**
 * Calls-per-minute limits (`maxCallsPerMinute`): a sliding 60-second window per tool.
 * The window belongs to the tool object, not to one binding, so every binding of a tool (two
 * agents, two runs) shares the tool's budget, as the resource behind it does.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const RATE_WINDOW_MS = 60_000;

/** Start times of the admitted calls of the last 60 s, oldest first, from `head` on. */
interface Window {
  starts: number[];
  head: number;
}

const windows = new WeakMap<object, Window>();

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/**
 * Admits a call of `tool` at time `now` (ms) under `limit` calls per minute: returns 0 and records
 * the call when fewer than `limit` calls were admitted in the 60 s before `now`; otherwise returns
 * how many milliseconds to wait until a call can be admitted (the refused call is not recorded).
 * Memory is bounded by the calls admitted in the last minute.
 */
export const admitCall = (tool: object, limit: number, now: number): number => {
  let w = windows.get(tool);
  if (w === undefined) {
    w = { starts: [], head: 0 };
    windows.set(tool, w);
  }
  const cutoff = now - RATE_WINDOW_MS;
  while (w.head < w.starts.length && (w.starts[w.head] as number) <= cutoff) w.head++;
  if (w.head > 1024 && w.head * 2 > w.starts.length) {
    w.starts = w.starts.slice(w.head);
    w.head = 0;
  }
  const inWindow = w.starts.length - w.head;
  if (inWindow >= limit) {
    // the call that frees a slot is the one `limit` places before the end
    const freeing = w.starts[w.starts.length - limit] as number;
    return Math.max(1, freeing + RATE_WINDOW_MS - now);
  }
  w.starts.push(now);
  return 0;
};
