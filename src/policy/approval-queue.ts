/**
 * A queue of approvals a person gives later: an `Approver` (`queue.ask`) that puts each request
 * on a list of pending approvals and holds the call (its promise) until someone decides
 * (`queue.decide`: approve, approve with changed arguments, deny), the timeout refuses it, the
 * call's signal aborts (the caller went away), or the queue closes. The tool service
 * (`gramkit serve`) shows the list over REST (`/api/v1/approvals`) and on its admin page.
 *
 * Bounded: at most `maxPending` calls wait; one more is refused at once, saying so. A decided,
 * expired or cancelled approval leaves the list at once; the last `rememberDecided` outcomes are
 * kept so that a late decision is told what happened instead of "unknown". Listeners are told
 * each approval requested and decided (events, plain JSON; what a listener throws is dropped).
 * The queue never rejects: a failure is a refusal with a message, as an `Approver` must.
 */
import { onAbort } from '../core/abort.js';
import { callId } from '../core/call-id.js';
import { err, ok, type Result } from '../core/result.js';
import type { ApprovalRequest, ApprovalResponse, Approver } from './approvals.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** Who made the call, as far as the surface knows. */
export interface ApprovalCaller {
  /** The surface the call came through (`rest`, `mcp`). */
  readonly via?: string;
  /** The caller's agent id (`X-Agent-ID`). */
  readonly agentId?: string;
  /** The caller's project id (`X-Project-ID`). */
  readonly projectId?: string;
}

/** A call waiting for a person. */
export interface PendingApproval {
  /** The approval's id (UUIDv7): what `decide` takes. */
  readonly id: string;
  /** The call's id (the gate's step id). */
  readonly stepId: string;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** Why the call needs approval. */
  readonly reason: string;
  readonly caller: ApprovalCaller;
  /** ISO 8601. */
  readonly requestedAt: string;
  /** ISO 8601: when the timeout refuses it. */
  readonly expiresAt: string;
}

/** How an approval ended. */
export type ApprovalOutcome = 'approved' | 'denied' | 'expired' | 'cancelled' | 'closed';

/** A person's decision. */
export interface ApprovalDecision {
  readonly approved: boolean;
  /** Arguments to run the call with instead (the gate validates and judges them again). */
  readonly modifiedArgs?: Readonly<Record<string, unknown>>;
  /** Why it was refused (passed on to the caller), or a note with an approval. */
  readonly message?: string;
}

interface EventBase {
  /** The event's id (UUIDv7). */
  readonly id: string;
  /** ISO 8601. */
  readonly at: string;
  readonly approvalId: string;
  readonly stepId: string;
  readonly tool: string;
  readonly caller: ApprovalCaller;
}

/** A call was put on the queue (its arguments are not in the event: `pending()` has them). */
export interface ApprovalRequestedEvent extends EventBase {
  readonly type: 'approval_requested';
  readonly reason: string;
  readonly expiresAt: string;
}

/** An approval ended: decided by a person, expired, cancelled by its caller, or refused at close. */
export interface ApprovalDecidedEvent extends EventBase {
  readonly type: 'approval_decided';
  readonly outcome: ApprovalOutcome;
  /** Whether a person changed the arguments. */
  readonly argsChanged: boolean;
  readonly message?: string;
}

export type ApprovalEvent = ApprovalRequestedEvent | ApprovalDecidedEvent;

export const APPROVAL_EVENT_TYPES: ReadonlyArray<ApprovalEvent['type']> = ['approval_requested', 'approval_decided'];

/** Why `decide` did nothing: no such approval, or it already ended (`outcome` says how). */
export type DecideError =
  | { readonly kind: 'unknown'; readonly id: string }
  | { readonly kind: 'ended'; readonly id: string; readonly outcome: ApprovalOutcome };

export interface ApprovalQueueOptions {
  /** How long a call waits before it is refused, in ms (default 5 minutes). */
  readonly timeoutMs?: number;
  /** How many calls may wait at once (default 100); one more is refused at once. */
  readonly maxPending?: number;
  /** How many ended approvals are remembered for late decisions (default 1000). */
  readonly rememberDecided?: number;
  /** The clock (default `Date.now`). */
  readonly now?: () => number;
  /** Runs `f` after `ms`; returns what cancels it (default `setTimeout`, not keeping the process alive). */
  readonly schedule?: (f: () => void, ms: number) => () => void;
}

export interface ApprovalQueue {
  /** The approver: queues the request and holds until it is decided. `caller` names who called. */
  readonly ask: (request: ApprovalRequest, options?: { readonly signal?: AbortSignal; readonly caller?: ApprovalCaller }) => Promise<ApprovalResponse>;
  /** The calls waiting, oldest first. */
  readonly pending: () => ReadonlyArray<PendingApproval>;
  /** Decides a waiting call: the approval as it was, or why nothing was decided. */
  readonly decide: (id: string, decision: ApprovalDecision) => Result<PendingApproval, DecideError>;
  /** Adds a listener of requested and decided approvals; the function returned removes it. */
  readonly subscribe: (listener: (event: ApprovalEvent) => void) => () => void;
  readonly timeoutMs: number;
  readonly maxPending: number;
  /** Refuses every waiting call (the server is stopping); later requests are refused at once. */
  readonly close: () => void;
}

export const DEFAULT_APPROVAL_TIMEOUT_MS = 5 * 60 * 1000;
export const DEFAULT_MAX_PENDING_APPROVALS = 100;

// -------------------------------------------------------------------------------------------------
// the queue
// -------------------------------------------------------------------------------------------------

interface Waiting {
  readonly approval: PendingApproval;
  readonly finish: (outcome: ApprovalOutcome, response: ApprovalResponse) => void;
}

export const approvalQueue = (options: ApprovalQueueOptions = {}): ApprovalQueue => {
  const timeoutMs = positive(options.timeoutMs, DEFAULT_APPROVAL_TIMEOUT_MS);
  const maxPending = positive(options.maxPending, DEFAULT_MAX_PENDING_APPROVALS);
  const remember = positive(options.rememberDecided, 1000);
  const now = options.now ?? Date.now;
  const schedule = options.schedule ?? defaultSchedule;
  const waiting = new Map<string, Waiting>();
  const ended = new Map<string, ApprovalOutcome>();
  const listeners = new Set<(event: ApprovalEvent) => void>();
  let closed = false;

  const emit = (event: ApprovalEvent): void => {
    for (const l of [...listeners]) {
      try {
        l(event);
      } catch {
        // a listener cannot break the queue
      }
    }
  };
  const base = (a: PendingApproval) => ({
    id: callId(),
    at: new Date(now()).toISOString(),
    approvalId: a.id,
    stepId: a.stepId,
    tool: a.tool,
    caller: a.caller,
  });
  const forget = (id: string, outcome: ApprovalOutcome): void => {
    ended.set(id, outcome);
    if (ended.size > remember) ended.delete(ended.keys().next().value as string);
  };

  const ask: ApprovalQueue['ask'] = (request, opts = {}) => {
    if (closed) return Promise.resolve(refusal('the server is stopping, so no one can approve the call'));
    if (opts.signal?.aborted === true) return Promise.resolve(refusal('the call was cancelled before anyone could approve it'));
    if (waiting.size >= maxPending) {
      return Promise.resolve(refusal(`${maxPending} calls are already waiting for approval, the most this server holds; try again once some are decided`));
    }
    const t = now();
    const approval: PendingApproval = Object.freeze({
      id: callId(t),
      stepId: request.stepId,
      tool: request.tool,
      args: request.args,
      reason: request.reason,
      caller: Object.freeze({ ...(opts.caller ?? {}) }),
      requestedAt: new Date(t).toISOString(),
      expiresAt: new Date(t + timeoutMs).toISOString(),
    });
    return new Promise<ApprovalResponse>((resolve) => {
      let cancelTimer: () => void = () => undefined;
      let stopListening: () => void = () => undefined;
      const finish = (outcome: ApprovalOutcome, response: ApprovalResponse): void => {
        if (!waiting.delete(approval.id)) return;
        cancelTimer();
        stopListening();
        forget(approval.id, outcome);
        emit({
          ...base(approval),
          type: 'approval_decided',
          outcome,
          argsChanged: response.modifiedArgs !== undefined,
          ...(response.message !== undefined ? { message: response.message } : {}),
        });
        resolve(response);
      };
      waiting.set(approval.id, { approval, finish });
      emit({ ...base(approval), type: 'approval_requested', reason: approval.reason, expiresAt: approval.expiresAt });
      cancelTimer = schedule(() => finish('expired', refusal(`no one approved the call within ${describeMs(timeoutMs)}, so it was refused`)), timeoutMs);
      stopListening = onAbort(opts.signal, () => finish('cancelled', refusal('the call was cancelled while it waited for approval')));
    });
  };

  const decide: ApprovalQueue['decide'] = (id, decision) => {
    const w = waiting.get(id);
    if (w === undefined) {
      const outcome = ended.get(id);
      return err(outcome !== undefined ? { kind: 'ended', id, outcome } : { kind: 'unknown', id });
    }
    const response: ApprovalResponse = decision.approved
      ? {
          approved: true,
          ...(decision.modifiedArgs !== undefined ? { modifiedArgs: decision.modifiedArgs } : {}),
          ...(decision.message !== undefined ? { message: decision.message } : {}),
        }
      : { approved: false, message: decision.message !== undefined && decision.message !== '' ? decision.message : 'a person refused the call' };
    w.finish(decision.approved ? 'approved' : 'denied', response);
    return ok(w.approval);
  };

  return Object.freeze({
    ask,
    pending: () => [...waiting.values()].map((w) => w.approval),
    decide,
    subscribe: (listener: (event: ApprovalEvent) => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    timeoutMs,
    maxPending,
    close: () => {
      closed = true;
      for (const w of [...waiting.values()]) w.finish('closed', refusal('the server stopped before anyone approved the call'));
    },
  });
};

/** The queue's approver for one caller: the call's own signal, else `signal` (read only when a call waits). */
export const queueApprover =
  (queue: ApprovalQueue, caller: ApprovalCaller, signal?: () => AbortSignal | undefined): Approver =>
  (request, options) => {
    const s = options?.signal ?? signal?.();
    return queue.ask(request, { caller, ...(s !== undefined ? { signal: s } : {}) });
  };

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const refusal = (message: string): ApprovalResponse => ({ approved: false, message });

const positive = (n: number | undefined, fallback: number): number => (n !== undefined && Number.isFinite(n) && n > 0 ? n : fallback);

const defaultSchedule = (f: () => void, ms: number): (() => void) => {
  const timer = setTimeout(f, Math.min(ms, 2 ** 31 - 1));
  timer.unref?.();
  return () => clearTimeout(timer);
};

const describeMs = (ms: number): string => {
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  if (ms % 1000 === 0) return `${ms / 1000} second${ms === 1000 ? '' : 's'}`;
  return `${ms} ms`;
};
