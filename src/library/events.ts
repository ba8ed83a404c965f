/**
 * Invocation events (`tool.invoked`, `tool.result`, `tool.failed`) and the observer
 * that receives them, so a user can log, trace, count or forward every call.
 *
 * Events are plain data (JSON-serializable when the arguments are). An observer is called
 * synchronously, after the fact, and cannot change or break a call: whatever it throws is caught
 * and handed to its `observerError` hook when it has one.
 */
import type { ToolError } from './result.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

interface EventBase {
  /** The call's id: the caller's (`callId` option, e.g. the model's tool-call id) or a fresh UUIDv7. */
  readonly callId: string;
  readonly toolName: string;
  /** The arguments as the caller gave them (before defaults). */
  readonly args: unknown;
  /** When the call started, in milliseconds since the epoch. */
  readonly startedAt: number;
}

/** A call started (before its arguments are validated). */
export interface InvokedEvent extends EventBase {
  readonly type: 'invoked';
}

/** A call succeeded. */
export interface ResultEvent extends EventBase {
  readonly type: 'result';
  readonly value: unknown;
  /** Wall time of the call, in milliseconds (fractional); the one-time compilation of the validators is not counted. */
  readonly durationMs: number;
}

/** A call failed (any code: invalid arguments, timeout, a thrown error, ...). */
export interface FailedEvent extends EventBase {
  readonly type: 'failed';
  readonly error: ToolError;
  readonly durationMs: number;
}

export type InvocationEvent = InvokedEvent | ResultEvent | FailedEvent;

/** Receives invocation events. Every hook is optional. */
export interface InvocationObserver {
  readonly invoked?: (event: InvokedEvent) => void;
  readonly result?: (event: ResultEvent) => void;
  readonly failed?: (event: FailedEvent) => void;
  /** Receives what one of this observer's hooks threw (otherwise it is dropped: a call never fails because of its observer). */
  readonly observerError?: (error: unknown, event: InvocationEvent) => void;
}

// -------------------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------------------

/** One observer that forwards every event to each of `observers` in order (each isolated from the others). */
export const combineObservers = (...observers: ReadonlyArray<InvocationObserver | undefined>): InvocationObserver | undefined => {
  const list = observers.filter((o): o is InvocationObserver => o !== undefined);
  if (list.length <= 1) return list[0];
  return {
    invoked: (e) => {
      for (const o of list) notify(o, e);
    },
    result: (e) => {
      for (const o of list) notify(o, e);
    },
    failed: (e) => {
      for (const o of list) notify(o, e);
    },
  };
};

/** An observer that calls `f` with every event (for logging or forwarding: `onEvent(e => log(JSON.stringify(e)))`). */
export const onEvent = (f: (event: InvocationEvent) => void): InvocationObserver => ({ invoked: f, result: f, failed: f });

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Delivers an event to an observer; never throws. */
export const notify = (observer: InvocationObserver, event: InvocationEvent): void => {
  try {
    switch (event.type) {
      case 'invoked':
        observer.invoked?.(event);
        break;
      case 'result':
        observer.result?.(event);
        break;
      case 'failed':
        observer.failed?.(event);
        break;
    }
  } catch (e) {
    try {
      observer.observerError?.(e, event);
    } catch {
      // the error hook itself failed: nothing is left to tell
    }
  }
};
