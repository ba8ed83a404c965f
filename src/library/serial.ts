/**
 * Calls that change what other calls see run alone, on every surface (issue 18, item 5). A call of
 * a tool that may change state (permissions `fs:write` or `proc:exec`, or an approval that depends
 * on its arguments, i.e. on the state it finds) waits for every call started before it, and every
 * call started after it waits for it; other calls run together. The steps after this one (the
 * policy gate) run inside: a call is judged when it starts, on the state as it is then, so
 * `move_file keep→new` and `write_file new` sent at once cannot both be judged on a `new` that does
 * not exist yet.
 *
 * A call that waits for a person's approval gives its place up while it waits (`Call.pause`, which
 * the gate uses) and takes it again before it runs: with a queue of approvals (`gramkit serve`),
 * a call waiting minutes for a person does not hold up the others.
 *
 * One `CallLock` per set of tools sharing a state (a server, a catalog), first come first served.
 * The agent loop orders the calls of a turn the same way (agent/schedule.ts, with `runsAlone`).
 */
import { type Call, callWith, type Next, type Step } from './invoker.js';
import type { ToolResult } from './result.js';
import type { ToolAnnotations } from './tool.js';

// -------------------------------------------------------------------------------------------------
// classification
// -------------------------------------------------------------------------------------------------

/** Whether a call of a tool with these annotations may change what the other calls see or are judged on. */
export const runsAlone = (annotations: ToolAnnotations | undefined): boolean => {
  if (annotations === undefined) return false;
  const perms = annotations.permissions ?? [];
  return perms.includes('fs:write') || perms.includes('proc:exec') || typeof annotations.approval === 'function';
};

// -------------------------------------------------------------------------------------------------
// the lock
// -------------------------------------------------------------------------------------------------

interface Waiter {
  readonly alone: boolean;
  readonly start: () => void;
}

/** A first-come-first-served lock: calls that run alone exclude every other call; the others share it. */
export class CallLock {
  private running = 0;
  private alone = false;
  private readonly queue: Waiter[] = [];

  /** Resolves when the call may start; the caller must `release(alone)` when it ends. */
  acquire(alone: boolean): Promise<void> {
    if (this.tryAcquire(alone)) return Promise.resolve();
    return new Promise<void>((resolve) => this.queue.push({ alone, start: resolve }));
  }

  /** Takes a place at once when nothing is ahead (then `release(alone)` when it ends); false when the call must wait (`acquire`). */
  tryAcquire(alone: boolean): boolean {
    if (this.queue.length !== 0 || !this.admits(alone)) return false;
    this.enter(alone);
    return true;
  }

  release(alone: boolean): void {
    this.running--;
    if (alone) this.alone = false;
    while (this.queue.length > 0 && this.admits((this.queue[0] as Waiter).alone)) {
      const w = this.queue.shift() as Waiter;
      this.enter(w.alone);
      w.start();
    }
  }

  private admits(alone: boolean): boolean {
    return alone ? this.running === 0 : !this.alone;
  }

  private enter(alone: boolean): void {
    this.running++;
    if (alone) this.alone = true;
  }
}

/**
 * While the gate waits for a person, the call gives up its place and takes it again after: it is
 * judged at start as before, and a pending approval holds up no other call.
 */
const pauser =
  (lock: CallLock, alone: boolean) =>
  async <T>(wait: () => Promise<T>): Promise<T> => {
    lock.release(alone);
    try {
      return await wait();
    } finally {
      await lock.acquire(alone);
    }
  };

/** The step: calls that change state run alone on `lock`; the rest of the pipeline (the gate first) runs inside. */
export const serialise = (lock: CallLock): Step => {
  // made once per lock, not per call (a call only pauses when it waits for a person)
  const pauseShared = pauser(lock, false);
  const pauseAlone = pauser(lock, true);
  return (call, next) => {
    const alone = runsAlone(call.tool.tool.annotations);
    const inside = callWith(call, { pause: alone ? pauseAlone : pauseShared });
    // no wait when the place is free (most calls): one turn of the event loop less per call
    if (lock.tryAcquire(alone)) return runInside(lock, next, inside, alone);
    return lock.acquire(alone).then(() => runInside(lock, next, inside, alone));
  };
};

/** The rest of the pipeline, holding the place; the place is given back however it ends. */
const runInside = (lock: CallLock, next: Next, call: Call, alone: boolean): Promise<ToolResult> => {
  let running: Promise<ToolResult>;
  try {
    running = next(call);
  } catch (e) {
    lock.release(alone);
    throw e;
  }
  return running.then(
    (r) => {
      lock.release(alone);
      return r;
    },
    (e: unknown) => {
      lock.release(alone);
      throw e;
    },
  );
};
