/**
 * Invocation: run a bound tool on arguments and get a `ToolResult`. `invoke` never throws and
 * never rejects, whatever the arguments and whatever the implementation does (throws, rejects,
 * hangs, returns garbage, throws non-errors, settles after its timeout):
 *
 * 1. the arguments are validated against the specification's schema (`TOOL_INVALID_ARGUMENTS`, with paths);
 * 2. defaults are applied to a copy;
 * 3. the implementation runs with an `AbortSignal`: a timeout aborts it and gives `TOOL_TIMEOUT`
 *    on time even when the implementation ignores the signal; the caller's abort gives
 *    `TOOL_CANCELLED`;
 * 4. whatever it throws or rejects becomes `TOOL_EXECUTION_ERROR` with the message (never a
 *    stack), or the code of a thrown `ToolFailure`; a returned `fail(...)` (a result with a coded
 *    error) is the call's failure with its code, a returned `ok(value)` is `value`;
 * 5. the result must be JSON data and validate against the output schema (`TOOL_INVALID_OUTPUT`),
 *    and fit the tool's `maxResultBytes` (`TOOL_RESULT_TOO_LARGE`); `maxCallsPerMinute` gives
 *    `TOOL_RATE_LIMITED`;
 * 6. `{ok: true, value}` or `{ok: false, error: {code, message, details?, retryable}}`.
 *
 * The hot path (no observer, no tracing, no timeout, no signal, no limits) allocates no timer, no
 * AbortController and no call id: implementations get a shared signal that never aborts. It
 * gives the same results as the full path (a property test checks it).
 */
import { ToolCodes } from './codes.js';
import { type CanonicalCode, isCanonicalCode } from '../core/codes.js';
import type { TaskEither } from '../core/either.js';
import { isCodedResult, ok, type Result, toTaskEither } from '../core/result.js';
import { formatIssues, type ValidationIssue } from '../schema/validate.js';
import { type BoundTool, type BoundToolImpl, type BoundTools, type CompiledValidators, isBoundToolImpl } from './bind.js';
import { callId } from '../core/call-id.js';
import { NEVER } from './never-signal.js';
import { combineObservers, type InvocationObserver, notify } from './events.js';
import { findNonJson, jsonByteLength } from '../core/json-value.js';
import { deeperThan, jsonTextDepth, MAX_ARGUMENT_DEPTH } from '../core/json.js';
import { messageOf } from '../core/message.js';
import { admitCall } from './rate-limit.js';
import { fail, isToolFailure, type ToolError, type ToolResult } from './result.js';
import type { InvocationContext, ProgressReporter } from './tool.js';
import { endToolSpan, startToolSpan, type ToolSpan, tracingEnabled, withSpanContext } from './tracing.js';
import { isLeft } from '../core/either.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface InvokeOptions {
  /** Aborting it cancels the call (`TOOL_CANCELLED`); the implementation's signal is aborted too. */
  readonly signal?: AbortSignal;
  /**
   * The caller's signal made on first need, for callers whose signal costs to make (an MCP
   * request's): asked only when the call can still be cancelled, i.e. when the implementation
   * returns a promise (or the gate has a person or an approval check to wait for). `signal` wins.
   */
  readonly signalOf?: () => AbortSignal;
  /** Milliseconds before the call gives `TOOL_TIMEOUT` (overrides the binding's and the tool's default). */
  readonly timeoutMs?: number;
  /** Passed to the implementation as `ctx.context` (overrides the binding's). */
  readonly context?: unknown;
  /** Receives this call's events (in addition to the binding's observer). */
  readonly observer?: InvocationObserver;
  /** The call's id in events and spans (e.g. the model's tool-call id); a UUIDv7 by default. */
  readonly callId?: string;
  /** The timeout when neither `timeoutMs`, the binding nor the tool sets one (the agent sets `DEFAULT_TOOL_TIMEOUT_MS`). */
  readonly defaultTimeoutMs?: number;
  /** Told of the implementation's progress reports (`ctx.progress`); without it, the implementation has no `progress`. */
  readonly onProgress?: ProgressReporter;
  /**
   * The rule engine the call was judged by, passed to the implementation as `ctx.rules` (the
   * invoker's gate step sets it), so implementations that check what they really touch (the
   * built-ins' real paths) check it against the call's rules too.
   */
  readonly rules?: unknown;
}

/**
 * `o` with some fields changed, made as one literal of every field. Steps change a call's options
 * with it, not with a spread: an object made by spreading another and adding a key is one V8 reads
 * several times slower, and `invoke` reads a dozen of its fields (measured: 2.5 µs a call). Its type
 * lists every field, so a field added to `InvokeOptions` and not here does not compile.
 */
export const invokeOptionsWith = (o: InvokeOptions, changes: Partial<InvokeOptions>): { readonly [K in keyof Required<InvokeOptions>]: InvokeOptions[K] } => ({
  signal: 'signal' in changes ? changes.signal : o.signal,
  signalOf: 'signalOf' in changes ? changes.signalOf : o.signalOf,
  timeoutMs: 'timeoutMs' in changes ? changes.timeoutMs : o.timeoutMs,
  context: 'context' in changes ? changes.context : o.context,
  observer: 'observer' in changes ? changes.observer : o.observer,
  callId: 'callId' in changes ? changes.callId : o.callId,
  defaultTimeoutMs: 'defaultTimeoutMs' in changes ? changes.defaultTimeoutMs : o.defaultTimeoutMs,
  onProgress: 'onProgress' in changes ? changes.onProgress : o.onProgress,
  rules: 'rules' in changes ? changes.rules : o.rules,
});

/** The timeout of a tool call in an agent run when nothing else sets one: 5 minutes. */
export const DEFAULT_TOOL_TIMEOUT_MS = 300_000;

/** Larger delays overflow Node's timers (they would fire at once); treated as no timeout. */
const MAX_TIMER_MS = 2_147_483_647;

/** Longest message kept from a thrown error (the model reads it). */
const MAX_MESSAGE = 2000;

// -------------------------------------------------------------------------------------------------
// invoke
// -------------------------------------------------------------------------------------------------

/**
 * Runs a bound tool. Never throws, never rejects: every failure is an `{ok: false}` result with a
 * stable code.
 */
export const invoke = (bound: BoundTool, args: unknown, options?: InvokeOptions): Promise<ToolResult> => run(bound, args, options, false);

/**
 * `invoke` of arguments `checkArguments` accepted (the invoker validates once, before its steps):
 * the same call, without validating them again. Internal to the library (not exported by the package).
 */
export const invokeValidated = (bound: BoundTool, args: unknown, options?: InvokeOptions): Promise<ToolResult> => run(bound, args, options, true);

/** Why the arguments cannot be used (`TOOL_INVALID_ARGUMENTS`, `TOOL_INVALID_SCHEMA`…), or `undefined` when they validate. */
export const checkArguments = (bound: BoundTool, args: unknown): ToolResult | undefined => {
  if (!isBoundToolImpl(bound)) return notBound(bound);
  if (!bound.ready) {
    const compiled = bound.validators();
    if (isLeft(compiled)) return fail(ToolCodes.INVALID_SCHEMA, compiled.left.message);
  }
  if (deeperThan(args, MAX_ARGUMENT_DEPTH)) return tooDeep();
  return bound.argsCheck(args) ? undefined : invalidArguments(bound, args);
};

const run = (bound: BoundTool, args: unknown, options: InvokeOptions | undefined, validated: boolean): Promise<ToolResult> => {
  try {
    if (!isBoundToolImpl(bound)) return Promise.resolve(notBound(bound));
    if (
      bound.plain &&
      (options === undefined ||
        (options.signal === undefined &&
          options.signalOf === undefined &&
          options.timeoutMs === undefined &&
          options.observer === undefined &&
          options.defaultTimeoutMs === undefined &&
          options.onProgress === undefined)) &&
      !tracingEnabled()
    ) {
      // the rules the call was judged by need no guard: the plain path hands them on as they are
      return plainCall(bound, args, options?.context, options?.rules, validated);
    }
    return fullCall(bound, args, options ?? {}, undefined, validated);
  } catch (e) {
    return Promise.resolve(internalFailure(e));
  }
};

/**
 * Runs a bound tool on arguments given as JSON text (a model's tool call). Text that is not JSON
 * gives `TOOL_INVALID_ARGUMENTS` (and the usual events); empty text means no arguments (`{}`).
 */
export const invokeJson = (bound: BoundTool, argumentsText: string, options?: InvokeOptions): Promise<ToolResult> => {
  try {
    const parsed = parseArguments(argumentsText);
    if (parsed.ok) return invoke(bound, parsed.value, options);
    if (!isBoundToolImpl(bound)) return Promise.resolve(notBound(bound));
    return fullCall(bound, argumentsText, options ?? {}, parsed, false);
  } catch (e) {
    return Promise.resolve(internalFailure(e));
  }
};

/** Runs the tool of that name among `tools`; `TOOL_NOT_BOUND` (listing the available names) when there is none. */
export const invokeByName = (tools: BoundTools, name: string, args: unknown, options?: InvokeOptions): Promise<ToolResult> => {
  const bound = tools.byName.get(name);
  if (bound !== undefined) return invoke(bound, args, options);
  const available = [...tools.byName.keys()];
  return Promise.resolve(
    fail(ToolCodes.NOT_BOUND, `there is no tool "${name}"; the available tools are: ${available.length > 0 ? available.join(', ') : 'none'}`, {
      details: { available },
    }),
  );
};

/** `invoke` as an fp-ts `TaskEither`, for composing calls at the API edge. */
export const invokeTask = (bound: BoundTool, args: unknown, options?: InvokeOptions): TaskEither<ToolError, unknown> =>
  toTaskEither(() => invoke(bound, args, options));

/** Parses a tool call's JSON arguments; `TOOL_INVALID_ARGUMENTS` when the text is not JSON. */
export const parseArguments = (text: string): ToolResult<unknown> => {
  if (typeof text !== 'string') return fail(ToolCodes.INVALID_ARGUMENTS, `the arguments must be JSON text, got ${typeof text}`);
  if (text.trim() === '') return ok({});
  if (jsonTextDepth(text, MAX_ARGUMENT_DEPTH) > MAX_ARGUMENT_DEPTH) return tooDeep();
  try {
    return ok(JSON.parse(text) as unknown);
  } catch (e) {
    return fail(ToolCodes.INVALID_ARGUMENTS, `the arguments are not valid JSON (${e instanceof Error ? e.message : 'parse error'}); send a JSON object`, {
      details: { text: text.length > 200 ? `${text.slice(0, 200)}…` : text },
    });
  }
};

// -------------------------------------------------------------------------------------------------
// the plain path: validate, run, check
// -------------------------------------------------------------------------------------------------

const plainCall = async (b: BoundToolImpl, args: unknown, context: unknown, rules: unknown, validated: boolean): Promise<ToolResult> => {
  try {
    if (!validated) {
      if (!b.ready) {
        const compiled = b.validators();
        if (isLeft(compiled)) return fail(ToolCodes.INVALID_SCHEMA, compiled.left.message);
      }
      if (deeperThan(args, MAX_ARGUMENT_DEPTH)) return tooDeep();
      if (!b.argsCheck(args)) return invalidArguments(b, args);
    }
    let r: unknown;
    try {
      const ctx: InvocationContext =
        rules !== undefined
          ? { signal: NEVER, toolName: b.name, context: context === undefined ? b.plainContext.context : context, rules }
          : context === undefined
            ? b.plainContext
            : { signal: NEVER, toolName: b.name, context };
      r = b.tool.invoke(b.hasDefaults ? withDefaults(b, args) : args, ctx);
      if (isThenable(r)) r = await r;
    } catch (e) {
      return executionFailure(e);
    }
    // the common results (a finite number, a string) need no JSON walk
    if ((typeof r === 'string' || (typeof r === 'number' && Number.isFinite(r))) && (b.outputCheck === undefined || b.outputCheck(r))) return ok(r);
    return settle(b, r);
  } catch (e) {
    return internalFailure(e);
  }
};

// -------------------------------------------------------------------------------------------------
// the full path: events, spans, limits, timeouts, signals
// -------------------------------------------------------------------------------------------------

type Outcome = Result<unknown, ToolError>;

/** A call ready to run: validated arguments with defaults, and how to guard it. */
interface Prepared {
  readonly a: unknown;
  readonly context: unknown;
  readonly timeoutMs: number | undefined;
  readonly signal: AbortSignal | undefined;
  /** The caller's signal when it is made on first need (`signalOf`; `signal` is then undefined). */
  readonly signalOf: (() => AbortSignal) | undefined;
  readonly progress: ProgressReporter | undefined;
  readonly rules: unknown;
}

const fullCall = async (b: BoundToolImpl, args: unknown, o: InvokeOptions, early: ToolResult | undefined, validated: boolean): Promise<ToolResult> => {
  let observer: InvocationObserver | undefined;
  let span: ToolSpan | undefined;
  let id = '';
  let t0 = 0;
  let startedAt = 0;
  try {
    observer = o.observer === undefined ? b.options.observer : b.options.observer === undefined ? o.observer : combineObservers(b.options.observer, o.observer);
    const tracing = tracingEnabled();
    // compile the validators (once per bound tool) before the clock starts: durations measure calls
    if (!b.ready) b.validators();
    if (observer !== undefined || tracing) {
      t0 = performance.now();
      startedAt = Date.now();
      id = typeof o.callId === 'string' && o.callId !== '' ? o.callId : callId(startedAt);
    }
    if (tracing) span = startToolSpan(b.name, id, b.spec.description);
    if (observer?.invoked !== undefined) notify(observer, { type: 'invoked', callId: id, toolName: b.name, args, startedAt });
  } catch {
    // observers and tracing are best-effort; the call goes on
  }

  let result: ToolResult;
  try {
    const prepared = early ?? prepare(b, args, o, validated);
    if ('ok' in prepared) {
      result = prepared;
    } else {
      let outcome: Outcome;
      if (prepared.timeoutMs === undefined && prepared.signal === undefined && prepared.signalOf === undefined) {
        try {
          const ctx: InvocationContext = {
            signal: NEVER,
            toolName: b.name,
            context: prepared.context,
            ...(prepared.progress !== undefined ? { progress: prepared.progress } : {}),
            ...(prepared.rules !== undefined ? { rules: prepared.rules } : {}),
          };
          let r = span !== undefined ? withSpanContext(span, () => b.tool.invoke(prepared.a, ctx)) : b.tool.invoke(prepared.a, ctx);
          if (isThenable(r)) r = await r;
          outcome = ok(r);
        } catch (e) {
          outcome = executionFailure(e);
        }
      } else {
        const g = guarded(b, prepared, span);
        outcome = g instanceof Promise ? await g : g;
      }
      result = outcome.ok ? settle(b, outcome.value) : outcome;
    }
  } catch (e) {
    result = internalFailure(e);
  }

  try {
    if (span !== undefined) endToolSpan(span, result.ok ? undefined : result.error);
    if (observer !== undefined) {
      const durationMs = performance.now() - t0;
      if (result.ok) {
        if (observer.result !== undefined) notify(observer, { type: 'result', callId: id, toolName: b.name, args, startedAt, value: result.value, durationMs });
      } else if (observer.failed !== undefined) {
        notify(observer, { type: 'failed', callId: id, toolName: b.name, args, startedAt, error: result.error, durationMs });
      }
    }
  } catch {
    // as above
  }
  return result;
};

/** Steps 1–2 and the limits: a failure, or the call ready to run. */
const prepare = (b: BoundToolImpl, args: unknown, o: InvokeOptions, validated: boolean): ToolResult | Prepared => {
  const signal = o.signal;
  if (signal !== undefined && signal.aborted) return cancelled(b.name, signal.reason);
  if (!validated) {
    const invalid = checkArguments(b, args);
    if (invalid !== undefined) return invalid;
  }
  const a = b.hasDefaults ? withDefaults(b, args) : args;

  const limits = b.tool.limits;
  const timeout = o.timeoutMs ?? b.options.timeoutMs ?? limits?.timeoutMs ?? o.defaultTimeoutMs;
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0)) {
    return fail(ToolCodes.INVALID_OPTIONS, `timeoutMs must be a positive number of milliseconds, got ${String(timeout)}`);
  }
  const perMinute = limits?.maxCallsPerMinute;
  if (perMinute !== undefined) {
    const wait = admitCall(b.tool, perMinute, Date.now());
    if (wait > 0) {
      const retryAfterMs = Math.ceil(wait);
      return fail(
        ToolCodes.RATE_LIMITED,
        `"${b.name}" allows ${perMinute} call${perMinute === 1 ? '' : 's'} per minute; try again in ${Math.ceil(retryAfterMs / 1000)} s`,
        {
          retryable: true,
          details: { maxCallsPerMinute: perMinute, retryAfterMs },
        },
      );
    }
  }
  return {
    a,
    context: o.context !== undefined ? o.context : b.options.context,
    timeoutMs: timeout !== undefined && timeout <= MAX_TIMER_MS ? timeout : undefined,
    signal,
    signalOf: signal === undefined ? o.signalOf : undefined,
    progress: o.onProgress === undefined ? undefined : safeProgress(o.onProgress),
    rules: o.rules,
  };
};

/**
 * Runs the implementation against a timeout and/or the caller's signal, and settles on the first
 * of: its result, the timeout (`TOOL_TIMEOUT`), the caller's abort (`TOOL_CANCELLED`). The implementation's
 * signal is its own (listeners it adds die with the call, even when the caller passes one signal
 * to many calls), made only if it reads `ctx.signal` (creating an AbortSignal costs
 * microseconds). No closure is made per call. An implementation that answers at once (no promise)
 * is guarded by nothing: no listener on the caller's signal, no timer (neither could fire while it
 * runs); the guards are set when it returns a promise, the timer for what remains of the timeout.
 */
const guarded = (b: BoundToolImpl, p: Prepared, span: ToolSpan | undefined): Outcome | Promise<Outcome> => {
  const call = new GuardedCall(b.name, p);
  const started = p.timeoutMs !== undefined ? performance.now() : 0;
  let r: unknown;
  try {
    r = span !== undefined ? withSpanContext(span, () => b.tool.invoke(p.a, call.ctx)) : b.tool.invoke(p.a, call.ctx);
  } catch (e) {
    return p.signal?.aborted === true ? (cancelled(b.name, p.signal.reason) as Outcome) : executionFailure(e);
  }
  if (!isThenable(r)) return p.signal?.aborted === true ? (cancelled(b.name, p.signal.reason) as Outcome) : ok(r);
  const pending = r;
  return new Promise<Outcome>((resolve) => {
    call.arm(resolve, started);
    // a rejection after the timeout is still handled here (and ignored): no unhandled rejection
    Promise.resolve(pending).then(
      (value) => call.finish(ok(value)),
      (e: unknown) => call.finish(executionFailure(e)),
    );
  });
};

/** One guarded call: its timer, its listener on the caller's signal (itself), its abort state. */
class GuardedCall {
  readonly ctx: GuardedContext;
  private done = false;
  private resolve: ((o: Outcome) => void) | undefined = undefined;
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;
  /** The caller's signal, once armed (`signalOf` is asked then). */
  private signal: AbortSignal | undefined = undefined;
  controller: AbortController | undefined = undefined;
  aborted = false;
  abortReason: unknown = undefined;

  constructor(
    readonly toolName: string,
    readonly p: Prepared,
  ) {
    this.ctx = new GuardedContext(this);
  }

  /** The implementation returned a promise: guard it (the caller's signal may have aborted meanwhile; the timeout counts from `started`). */
  arm(resolve: (o: Outcome) => void, started: number): void {
    this.resolve = resolve;
    const timeoutMs = this.p.timeoutMs;
    const signal = this.p.signal ?? this.p.signalOf?.();
    this.signal = signal;
    if (signal !== undefined) {
      if (signal.aborted) {
        this.handleEvent();
        return;
      }
      signal.addEventListener('abort', this, { once: true });
    }
    if (timeoutMs !== undefined) this.timer = setTimeout(timeUp, Math.max(0, timeoutMs - (performance.now() - started)), this);
  }

  finish(outcome: Outcome): void {
    if (this.done) return;
    this.done = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this);
    this.resolve?.(outcome);
  }

  abort(reason: unknown): void {
    this.aborted = true;
    this.abortReason = reason;
    this.controller?.abort(reason);
  }

  /** The caller's signal aborted (EventTarget calls `handleEvent` on listener objects). */
  handleEvent(): void {
    const reason: unknown = this.signal?.reason;
    this.abort(reason);
    this.finish(cancelled(this.toolName, reason));
  }
}

function timeUp(call: GuardedCall): void {
  const message = `"${call.toolName}" did not finish within ${String(call.p.timeoutMs)} ms`;
  call.abort(new DOMException(message, 'TimeoutError'));
  call.finish(fail(ToolCodes.TIMEOUT, message, { retryable: true, details: { timeoutMs: call.p.timeoutMs } }) as Outcome);
}

/** What the implementation gets: its signal is made on first read. */
class GuardedContext implements InvocationContext {
  readonly #call: GuardedCall;
  constructor(call: GuardedCall) {
    this.#call = call;
  }
  get toolName(): string {
    return this.#call.toolName;
  }
  get context(): unknown {
    return this.#call.p.context;
  }
  get progress(): ProgressReporter | undefined {
    return this.#call.p.progress;
  }
  get rules(): unknown {
    return this.#call.p.rules;
  }
  get signal(): AbortSignal {
    const c = this.#call;
    if (c.controller === undefined) {
      c.controller = new AbortController();
      if (c.aborted) c.controller.abort(c.abortReason);
    }
    return c.controller.signal;
  }
}

/** The caller's progress listener, made safe: it cannot break the call, and bad figures are dropped. */
const safeProgress =
  (listener: ProgressReporter): ProgressReporter =>
  (done, total, message) => {
    if (typeof done !== 'number' || !Number.isFinite(done)) return;
    try {
      listener(done, typeof total === 'number' && Number.isFinite(total) ? total : undefined, typeof message === 'string' ? message : undefined);
    } catch {
      // a listener's failure is not the call's
    }
  };

// -------------------------------------------------------------------------------------------------
// results
// -------------------------------------------------------------------------------------------------

const isThenable = (r: unknown): r is PromiseLike<unknown> =>
  r !== null && (typeof r === 'object' || typeof r === 'function') && typeof (r as { then?: unknown }).then === 'function';

/** The validators of a bound tool whose `ready` is true. */
const validatorsOf = (b: BoundToolImpl): CompiledValidators => (b.compiled as { readonly right: CompiledValidators }).right;

const withDefaults = (b: BoundToolImpl, args: unknown): unknown => validatorsOf(b).args.applyDefaults(args);

const tooDeep = (): ToolResult =>
  fail(ToolCodes.INVALID_ARGUMENTS, `the arguments nest arrays and objects more than ${MAX_ARGUMENT_DEPTH} levels deep; send flatter arguments`, {
    details: { maxDepth: MAX_ARGUMENT_DEPTH },
  });

const invalidArguments = (b: BoundToolImpl, args: unknown): ToolResult => {
  const issues = validatorsOf(b).args.issues(args);
  return fail(ToolCodes.INVALID_ARGUMENTS, `invalid arguments for "${b.name}": ${formatIssues(issues)}`, { details: { issues } });
};

/** Validation messages speak of arguments; for a result they speak of the result. */
const asResultIssue = (i: ValidationIssue): ValidationIssue => ({
  ...i,
  message: i.message.replace(/^the arguments\b/, 'the result').replace(/^argument "/, 'result field "'),
});

/**
 * What the implementation returned, as the call's result: a returned result (`ok(v)`, `fail(...)`)
 * is read as one, anything else is the value; the value is then checked.
 */
const settle = (b: BoundToolImpl, r: unknown): ToolResult => {
  if (r === null || typeof r !== 'object' || !isCodedResult(r)) return checkOutput(b, r);
  return r.ok ? checkOutput(b, r.value) : returnedFailure(r.error);
};

/**
 * The precise code of a failure an implementation gave: its `reason` (gramkit's `fail` and
 * `ToolFailure` set it), else its `code` (a hand-written `{code, message}`); `TOOL_EXECUTION_ERROR` when empty.
 */
const reasonOf = (e: { readonly code: unknown; readonly reason?: unknown }): string =>
  typeof e.reason === 'string' && e.reason !== '' ? e.reason : typeof e.code === 'string' && e.code !== '' ? e.code : ToolCodes.EXECUTION_ERROR;

/** The canonical code an implementation gave with a reason no registry knows (kept then, when it is canonical). */
const givenCode = (e: { readonly code: unknown }): { code?: CanonicalCode } => (typeof e.code === 'string' && isCanonicalCode(e.code) ? { code: e.code } : {});

/** A failure the implementation returned (`fail(...)`): its codes, message, details and retryable, made safe. */
const returnedFailure = (e: {
  readonly code: string;
  readonly reason?: unknown;
  readonly message: string;
  readonly details?: unknown;
  readonly retryable?: unknown;
}): ToolResult => {
  const details = safeDetails(e.details);
  return fail(reasonOf(e), clip(e.message !== '' ? e.message : 'the tool failed without a message'), {
    ...givenCode(e),
    ...(details !== undefined ? { details } : {}),
    retryable: e.retryable === true,
  });
};

const checkOutput = (b: BoundToolImpl, r: unknown): ToolResult => {
  // a tool that returns nothing returns null
  const value = r === undefined ? null : r;
  const t = typeof value;
  if (t === 'object' ? value !== null : t !== 'string' && t !== 'boolean' && !(t === 'number' && Number.isFinite(value))) {
    const bad = findNonJson(value);
    if (bad !== undefined) {
      const where = bad.path === '' ? 'it is' : `${bad.path} is`;
      return fail(ToolCodes.INVALID_OUTPUT, `"${b.name}" returned a result that is not JSON data: ${where} ${bad.found}`, { details: { path: bad.path } });
    }
  }
  const maxBytes = b.tool.limits?.maxResultBytes;
  if (maxBytes !== undefined) {
    const size = jsonByteLength(value);
    if (size > maxBytes) {
      return fail(ToolCodes.RESULT_TOO_LARGE, `"${b.name}" returned ${size} bytes of JSON; the limit is ${maxBytes}`, {
        details: { bytes: size, maxResultBytes: maxBytes },
      });
    }
  }
  const output = validatorsOf(b).output;
  if (output !== undefined && !output.check(value)) {
    const issues = output.issues(value).map(asResultIssue);
    return fail(ToolCodes.INVALID_OUTPUT, `"${b.name}" returned an invalid result: ${formatIssues(issues)}`, { details: { issues } });
  }
  return ok(value);
};

const clip = (s: string): string => (s.length > MAX_MESSAGE ? `${s.slice(0, MAX_MESSAGE)}…` : s);

const executionFailure = (e: unknown): Outcome => {
  if (isToolFailure(e)) {
    const details = safeDetails(e.details);
    return fail(reasonOf(e), clip(messageOf(e)), {
      ...givenCode(e),
      ...(details !== undefined ? { details } : {}),
      retryable: e.retryable === true,
    }) as Outcome;
  }
  let name: string | undefined;
  try {
    name = e instanceof Error && e.name !== 'Error' && typeof e.name === 'string' ? e.name : undefined;
  } catch {
    name = undefined;
  }
  return fail(ToolCodes.EXECUTION_ERROR, clip(messageOf(e)), name !== undefined ? { details: { errorName: name } } : {}) as Outcome;
};

const safeDetails = (details: unknown): unknown => {
  if (details === undefined) return undefined;
  const bad = findNonJson(details);
  return bad === undefined
    ? details
    : { note: `the error details are not JSON data (${bad.path === '' ? '' : `${bad.path}: `}${bad.found}) and were left out` };
};

const cancelled = (name: string, reason: unknown): ToolResult => {
  const why = reason === undefined ? '' : ` (${messageOf(reason)})`;
  return fail(ToolCodes.CANCELLED, `the call of "${name}" was cancelled by the caller${why}`);
};

const notBound = (v: unknown): ToolResult =>
  fail(ToolCodes.INVALID_OPTIONS, `invoke needs a tool bound with bindTool or bindAll, got ${v === null ? 'null' : typeof v}`);

const internalFailure = (e: unknown): ToolResult => fail(ToolCodes.EXECUTION_ERROR, `gramkit failed while invoking the tool: ${clip(messageOf(e))}`);
