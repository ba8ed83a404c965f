import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  bindAll,
  type BoundTool,
  createTool,
  fail,
  type InvocationContext,
  invoke,
  invokeByName,
  invokeJson,
  invokeTask,
  type JsonSchema,
  ok,
  ToolFailure,
  type ToolResult,
  toolLibrary,
} from '../../src/index.js';
import { parseArguments } from '../../src/library/invoke.js';
import { expectGolden } from '../support/golden.js';
import { bfclSimpleCalls, boundFor, greet, greetSpec, spec } from './support.js';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const anyArgs = spec('any', { type: 'object' });
const failure = (r: ToolResult) => (r.ok ? undefined : r.error);

describe('invoke: arguments', () => {
  it('validates the arguments and says what is wrong, with paths', async () => {
    const b = boundFor(greetSpec, greet);
    const r = await invoke(b, { name: 42, times: 0, extra: true });
    const e = failure(r);
    expect(e?.reason).toBe('TOOL_INVALID_ARGUMENTS');
    expect(e?.retryable).toBe(false);
    expect(e?.message).toMatch(/^invalid arguments for "greet": /);
    for (const m of [
      'argument "name" must be a string, got 42',
      'argument "times" must be at least 1, got 0',
      'argument "extra" is not allowed here (unknown property; the arguments are name, times)',
    ]) {
      expect(e?.message).toContain(m);
    }
    const issues = (failure(r)?.details as { issues: Array<{ path: string }> }).issues.map((i) => i.path).sort();
    expect(issues).toEqual(['extra', 'name', 'times']);
  });

  it('applies defaults to a copy and leaves the caller’s arguments alone', async () => {
    let seen: unknown;
    const b = boundFor(greetSpec, (a: unknown) => {
      seen = a;
      return 'ok';
    });
    const args = { name: 'Ada' };
    expect(await invoke(b, args)).toEqual({ ok: true, value: 'ok' });
    expect(seen).toEqual({ name: 'Ada', times: 1 });
    expect(args).toEqual({ name: 'Ada' });
    expect(await invoke(boundFor(greetSpec, greet), { name: 'Ada', times: 2 })).toEqual({ ok: true, value: 'Hello, Ada! Hello, Ada!' });
  });

  it('parses JSON argument text (a model’s tool call), empty text meaning no arguments', async () => {
    const b = boundFor(anyArgs, (a: unknown) => a);
    expect(await invokeJson(b, '{"x":[1,2]}')).toEqual({ ok: true, value: { x: [1, 2] } });
    expect(await invokeJson(b, '  ')).toEqual({ ok: true, value: {} });
    const bad = failure(await invokeJson(b, '{"x":'));
    expect(bad?.reason).toBe('TOOL_INVALID_ARGUMENTS');
    expect(bad?.message).toMatch(/^the arguments are not valid JSON \(.+\); send a JSON object$/);
    expect(parseArguments('[1]')).toEqual({ ok: true, value: [1] });
  });
});

describe('invoke: failures of the implementation', () => {
  it('turns whatever is thrown or rejected into TOOL_EXECUTION_ERROR with a message, never a stack', async () => {
    const thrown: unknown[] = [
      new TypeError('boom'),
      new Error(''),
      'plain string',
      '',
      42,
      null,
      undefined,
      { message: 'an object with a message' },
      { code: 7 },
      Symbol('sym'),
      Object.create(null),
      10n,
      {
        toString() {
          throw new Error('no');
        },
      },
    ];
    for (const x of thrown) {
      for (const how of ['throw', 'reject']) {
        const b = boundFor(anyArgs, () => {
          if (how === 'throw') throw x;
          return Promise.reject(x);
        });
        const e = failure(await invoke(b, {}));
        expect(e?.reason).toBe('TOOL_EXECUTION_ERROR');
        expect(typeof e?.message).toBe('string');
        expect(e?.message).not.toMatch(/\n\s+at /);
        expect(() => JSON.stringify(e)).not.toThrow();
      }
    }
    const e = failure(
      await invoke(
        boundFor(anyArgs, () => JSON.parse('{')),
        {},
      ),
    );
    expect(e).toMatchObject({ reason: 'TOOL_EXECUTION_ERROR', details: { errorName: 'SyntaxError' }, retryable: false });
  });

  it('keeps the code, details and retryability of a ToolFailure (also one from another copy of gramkit)', async () => {
    const b = boundFor(anyArgs, () => {
      throw new ToolFailure('FILE_NOT_FOUND', 'no such file: a.txt', { details: { path: 'a.txt' } });
    });
    expect(await invoke(b, {})).toEqual({
      ok: false,
      error: { code: 'FILE_NOT_FOUND', reason: 'FILE_NOT_FOUND', message: 'no such file: a.txt', details: { path: 'a.txt' }, retryable: false },
    });
    const foreign = Object.assign(new Error('busy'), { name: 'ToolFailure', code: 'UPSTREAM_BUSY', retryable: true, details: { f: () => 1 } });
    const r = failure(
      await invoke(
        boundFor(anyArgs, () => Promise.reject(foreign)),
        {},
      ),
    );
    expect([r?.code, r?.reason]).toEqual(['EXECUTION_ERROR', 'UPSTREAM_BUSY']);
    expect(r?.retryable).toBe(true);
    expect(r?.details).toEqual({ note: 'the error details are not JSON data (f: a function) and were left out' });
  });

  it('checks results: JSON data only, the output schema, undefined as null', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['me'] = cyclic;
    const cases: Array<[unknown, string | undefined]> = [
      [undefined, undefined],
      [{ when: new Date(0) }, 'TOOL_INVALID_OUTPUT'],
      [cyclic, 'TOOL_INVALID_OUTPUT'],
      [() => 1, 'TOOL_INVALID_OUTPUT'],
      [Number.NaN, 'TOOL_INVALID_OUTPUT'],
      [1n, 'TOOL_INVALID_OUTPUT'],
      [{ fine: [1, 'two', null] }, undefined],
    ];
    for (const [value, code] of cases) {
      const r = await invoke(
        boundFor(anyArgs, () => value),
        {},
      );
      expect(r.ok ? undefined : r.error.reason, String(code)).toBe(code);
    }
    expect(
      await invoke(
        boundFor(anyArgs, () => undefined),
        {},
      ),
    ).toEqual({ ok: true, value: null });
    const typed = boundFor(spec('typed', { type: 'object' }, { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }), () => ({
      n: 'one',
    }));
    expect(failure(await invoke(typed, {}))).toEqual({
      code: 'INVALID_OUTPUT',
      reason: 'TOOL_INVALID_OUTPUT',
      message: '"typed" returned an invalid result: result field "n" must be an integer, got "one"',
      details: { issues: [{ path: 'n', code: 'SPEC_ARG_TYPE', message: 'result field "n" must be an integer, got "one"' }] },
      retryable: false,
    });
  });

  it('gives the golden results for a catalogue of misbehaviours', async () => {
    const behaviours: Record<string, () => unknown> = {
      'returns a string': () => 'fine',
      'resolves an object': async () => ({ a: 1 }),
      throws: () => {
        throw new RangeError('index out of range');
      },
      'rejects with a string': () => Promise.reject('nope'),
      'throws a ToolFailure': () => {
        throw new ToolFailure('BUILTIN_PERMISSION_DENIED', 'cannot write /etc/passwd', { details: { path: '/etc/passwd' } });
      },
      'returns a function': () => () => 1,
      'returns a Map': () => new Map([[1, 2]]),
      'returns a BigInt deep inside': () => ({ rows: [{ id: 1n }] }),
      'returns the wrong type': () => 42,
      'hangs (timeout 5 ms)': () => new Promise(() => undefined),
    };
    const out: Record<string, ToolResult> = {};
    for (const [name, f] of Object.entries(behaviours)) {
      const b = boundFor(spec('tool', { type: 'object' }, { anyOf: [{ type: 'string' }, { type: 'object' }] }), f);
      out[name] = await invoke(b, {}, { timeoutMs: 5 });
    }
    expectGolden('library/golden/invoke-results.json', out);
  });
});

describe('invoke: timeouts and cancellation', () => {
  it('gives TOOL_TIMEOUT on time even when the implementation ignores its signal, and aborts that signal', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const b = boundFor(anyArgs, (_a: unknown, ctx: InvocationContext) => {
      signal = ctx.signal;
      return new Promise(() => undefined);
    });
    let settled: ToolResult | undefined;
    void invoke(b, {}, { timeoutMs: 100 }).then((r) => (settled = r));
    await vi.advanceTimersByTimeAsync(99);
    expect(settled).toBeUndefined();
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toEqual({
      ok: false,
      error: { code: 'TIMEOUT', reason: 'TOOL_TIMEOUT', message: '"any" did not finish within 100 ms', details: { timeoutMs: 100 }, retryable: true },
    });
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as Error).name).toBe('TimeoutError');
  });

  it('takes the timeout from the call, else the binding, else the tool', async () => {
    vi.useFakeTimers();
    const hang = () => new Promise(() => undefined);
    const s = spec('slow', { type: 'object' });
    const byTool = boundFor(s, hang, { limits: { timeoutMs: 30 } });
    const byBinding = boundFor(s, hang, { limits: { timeoutMs: 30 }, timeoutMs: 20 });
    const results: Record<string, string> = {};
    void invoke(byTool, {}).then((r) => (results['tool'] = failure(r)?.message ?? ''));
    void invoke(byBinding, {}).then((r) => (results['binding'] = failure(r)?.message ?? ''));
    void invoke(byBinding, {}, { timeoutMs: 10 }).then((r) => (results['call'] = failure(r)?.message ?? ''));
    await vi.advanceTimersByTimeAsync(30);
    expect(results).toEqual({
      tool: '"slow" did not finish within 30 ms',
      binding: '"slow" did not finish within 20 ms',
      call: '"slow" did not finish within 10 ms',
    });
  });

  it('gives TOOL_CANCELLED when the caller aborts, passing the abort on to the implementation', async () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const b = boundFor(anyArgs, (_a: unknown, ctx: InvocationContext) => {
      signal = ctx.signal;
      return new Promise(() => undefined);
    });
    const pending = invoke(b, {}, { signal: controller.signal, timeoutMs: 60_000 });
    controller.abort(new Error('user pressed stop'));
    expect(await pending).toEqual({
      ok: false,
      error: { code: 'CANCELLED', reason: 'TOOL_CANCELLED', message: 'the call of "any" was cancelled by the caller (user pressed stop)', retryable: false },
    });
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as Error).message).toBe('user pressed stop');
  });

  it('does not start a call whose signal is already aborted', async () => {
    const impl = vi.fn(() => 1);
    const r = await invoke(boundFor(anyArgs, impl), {}, { signal: AbortSignal.abort() });
    expect(failure(r)?.reason).toBe('TOOL_CANCELLED');
    expect(impl).not.toHaveBeenCalled();
  });

  it('ignores what the implementation does after its timeout, without unhandled rejections', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const late = boundFor(anyArgs, () => new Promise((_, reject) => setTimeout(() => reject(new Error('too late')), 20)));
      const lateThrowSync = boundFor(anyArgs, async (_a: unknown, ctx: InvocationContext) => {
        await new Promise((r) => setTimeout(r, 20));
        throw new Error(`after abort: ${String(ctx.signal.aborted)}`);
      });
      expect(failure(await invoke(late, {}, { timeoutMs: 1 }))?.reason).toBe('TOOL_TIMEOUT');
      expect(failure(await invoke(lateThrowSync, {}, { timeoutMs: 1 }))?.reason).toBe('TOOL_TIMEOUT');
      await new Promise((r) => setTimeout(r, 60));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('creates no timer and no AbortController when neither a timeout nor a signal applies', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const Original = globalThis.AbortController;
    let made = 0;
    globalThis.AbortController = class extends Original {
      constructor() {
        super();
        made++;
      }
    };
    try {
      const signals: AbortSignal[] = [];
      const b = boundFor(anyArgs, (_a: unknown, ctx: InvocationContext) => {
        signals.push(ctx.signal);
        return 1;
      });
      for (let i = 0; i < 3; i++) await invoke(b, {});
      await invoke(b, {}, { context: 'x' });
      expect(timers).not.toHaveBeenCalled();
      expect(made).toBe(0);
      expect(new Set(signals).size).toBe(1);
      expect(signals[0]?.aborted).toBe(false);
      // with a timeout, a timer only for an implementation that returns a promise (one that answers
      // at once cannot be overtaken); the signal only if the implementation reads it
      await invoke(
        boundFor(anyArgs, () => 1),
        {},
        { timeoutMs: 1000 },
      );
      expect(timers).not.toHaveBeenCalled();
      await invoke(
        boundFor(anyArgs, async () => 1),
        {},
        { timeoutMs: 1000 },
      );
      expect(timers).toHaveBeenCalledTimes(1);
      expect(made).toBe(0);
      await invoke(b, {}, { timeoutMs: 1000 });
      expect(made).toBe(1);
    } finally {
      globalThis.AbortController = Original;
    }
  });

  it('counts the timeout from the start of the call, the synchronous part of an implementation that returns a promise included', async () => {
    // 40 ms of work before the promise, which settles 40 ms later: over a 50 ms timeout in all
    const b = boundFor(anyArgs, () => {
      const end = Date.now() + 40;
      while (Date.now() < end) {
        // busy
      }
      return new Promise((resolve) => setTimeout(() => resolve(1), 40));
    });
    expect(failure(await invoke(b, {}, { timeoutMs: 50 }))?.reason).toBe('TOOL_TIMEOUT');
  });

  it('cancels a call whose signal aborts while its implementation runs, even one that answers at once', async () => {
    const controller = new AbortController();
    const b = boundFor(anyArgs, () => {
      controller.abort(new Error('the client went away'));
      return 1;
    });
    expect(failure(await invoke(b, {}, { signal: controller.signal }))?.reason).toBe('TOOL_CANCELLED');
  });

  it('gives each call its own signal, following the caller’s, so listeners do not pile up on the caller’s signal', async () => {
    const controller = new AbortController();
    const seen: AbortSignal[] = [];
    const b = boundFor(anyArgs, (_a: unknown, ctx: InvocationContext) => {
      seen.push(ctx.signal);
      ctx.signal.addEventListener('abort', () => undefined);
      return 1;
    });
    for (let i = 0; i < 20; i++) expect(await invoke(b, {}, { signal: controller.signal })).toEqual({ ok: true, value: 1 });
    expect(new Set(seen).size).toBe(20);
    expect(seen).not.toContain(controller.signal);
    expect(EventEmitter.getEventListeners(controller.signal, 'abort')).toEqual([]);
    // and it aborts with the caller's
    let inner: AbortSignal | undefined;
    const pending = invoke(
      boundFor(anyArgs, (_a: unknown, ctx: InvocationContext) => {
        inner = ctx.signal;
        return new Promise(() => undefined);
      }),
      {},
      { signal: controller.signal },
    );
    controller.abort('stop');
    expect(failure(await pending)?.reason).toBe('TOOL_CANCELLED');
    expect([inner?.aborted, inner?.reason]).toEqual([true, 'stop']);
  });

  it('rejects unusable options as TOOL_INVALID_OPTIONS', async () => {
    const b = boundFor(anyArgs, () => 1);
    for (const timeoutMs of [0, -5, Number.NaN]) {
      expect(failure(await invoke(b, {}, { timeoutMs }))?.reason).toBe('TOOL_INVALID_OPTIONS');
    }
    expect(await invoke(b, {}, { timeoutMs: Number.POSITIVE_INFINITY })).toEqual({ ok: true, value: 1 });
    expect(failure(await invoke(undefined as unknown as BoundTool, {}))?.reason).toBe('TOOL_INVALID_OPTIONS');
    expect(failure(await invoke({ name: 'fake' } as unknown as BoundTool, {}))?.message).toBe('invoke needs a tool bound with bindTool or bindAll, got object');
  });
});

describe('invoke: limits', () => {
  it('refuses results larger than maxResultBytes', async () => {
    const b = boundFor(anyArgs, (a: { n?: number }) => 'é'.repeat(a.n ?? 0), { limits: { maxResultBytes: 12 } });
    expect(await invoke(b, { n: 5 })).toEqual({ ok: true, value: 'ééééé' }); // "ééééé" is 12 bytes of JSON
    expect(failure(await invoke(b, { n: 6 }))).toEqual({
      code: 'LIMIT_EXCEEDED',
      reason: 'TOOL_RESULT_TOO_LARGE',
      message: '"any" returned 14 bytes of JSON; the limit is 12',
      details: { bytes: 14, maxResultBytes: 12 },
      retryable: false,
    });
  });

  it('allows maxCallsPerMinute calls in any 60 s window, then TOOL_RATE_LIMITED (retryable) until a slot frees', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
    const b = boundFor(anyArgs, () => 'ok', { limits: { maxCallsPerMinute: 2 } });
    expect((await invoke(b, {})).ok).toBe(true);
    vi.setSystemTime(10_000);
    expect((await invoke(b, {})).ok).toBe(true);
    vi.setSystemTime(30_000);
    expect(failure(await invoke(b, {}))).toEqual({
      code: 'RATE_LIMITED',
      reason: 'TOOL_RATE_LIMITED',
      message: '"any" allows 2 calls per minute; try again in 30 s',
      details: { maxCallsPerMinute: 2, retryAfterMs: 30_000 },
      retryable: true,
    });
    // invalid arguments do not use the budget; a refused call does not either
    vi.setSystemTime(60_001);
    expect((await invoke(b, {})).ok).toBe(true);
    expect(failure(await invoke(b, {}))?.reason).toBe('TOOL_RATE_LIMITED');
    vi.setSystemTime(70_001);
    expect((await invoke(b, {})).ok).toBe(true);
  });

  it('shares a tool’s budget between its bindings', async () => {
    const s = spec('shared', { type: 'object' });
    const tool = createTool('shared', s.description, s.schema, () => 1, { limits: { maxCallsPerMinute: 1 } });
    const lib = toolLibrary([tool]);
    const [one, two] = [bindAll([s], lib), bindAll([s], lib)].map((r) => (r._tag === 'Right' ? (r.right.tools[0] as BoundTool) : undefined));
    expect((await invoke(one as BoundTool, {})).ok).toBe(true);
    expect(failure(await invoke(two as BoundTool, {}))?.reason).toBe('TOOL_RATE_LIMITED');
  });
});

describe('invoke: context, lookup by name, TaskEither', () => {
  it('passes the call’s context, else the binding’s, and the tool name', async () => {
    const b = boundFor(anyArgs, (_a: unknown, ctx: InvocationContext) => ({ context: ctx.context ?? null, tool: ctx.toolName }), { context: 'from binding' });
    expect(await invoke(b, {})).toEqual({ ok: true, value: { context: 'from binding', tool: 'any' } });
    expect(await invoke(b, {}, { context: 'from call' })).toEqual({ ok: true, value: { context: 'from call', tool: 'any' } });
    expect(await invoke(b, {}, { context: 'with timeout', timeoutMs: 1000 })).toEqual({ ok: true, value: { context: 'with timeout', tool: 'any' } });
  });

  it('invokes by name among bound tools, TOOL_NOT_BOUND otherwise', async () => {
    const s = spec('echo', { type: 'object' });
    const r = bindAll([s], toolLibrary([createTool('echo', s.description, s.schema, (a: unknown) => a)]));
    if (r._tag === 'Left') throw new Error('bind');
    expect(await invokeByName(r.right, 'echo', { x: 1 })).toEqual({ ok: true, value: { x: 1 } });
    expect(failure(await invokeByName(r.right, 'nope', {}))).toEqual({
      code: 'NOT_FOUND',
      reason: 'TOOL_NOT_BOUND',
      message: 'there is no tool "nope"; the available tools are: echo',
      details: { available: ['echo'] },
      retryable: false,
    });
  });

  it('is available as a TaskEither', async () => {
    const b = boundFor(greetSpec, greet);
    expect(await invokeTask(b, { name: 'Ada' })()).toEqual({ _tag: 'Right', right: 'Hello, Ada!' });
    const left = await invokeTask(b, {})();
    expect(left._tag === 'Left' && left.left.reason).toBe('TOOL_INVALID_ARGUMENTS');
  });

  it('accepts the accepted calls of the BFCL simple category, and catches the data set’s own mistakes', async () => {
    const rejected: string[] = [];
    const calls = bfclSimpleCalls();
    for (const [s, args] of calls) {
      const r = await invoke(
        boundFor(s, (a: unknown) => a),
        args,
      );
      if (r.ok) expect(r.value).toEqual(args);
      else rejected.push(`${s.name}: ${r.error.message}`);
    }
    expect(calls.length).toBeGreaterThan(390);
    // the accepted answers that contradict their own schema in BFCL v4
    expect(rejected).toEqual(KNOWN_BFCL_MISTAKES);
  });
});

const KNOWN_BFCL_MISTAKES: ReadonlyArray<string> = [
  // simple_python_307 accepts `venue: true` for a string parameter
  'game_result.get_winner: invalid arguments for "game_result.get_winner": argument "venue" must be a string, got true',
];

// -------------------------------------------------------------------------------------------------
// the law: invoke never throws or rejects
// -------------------------------------------------------------------------------------------------

/** Everything an implementation may do. */
const behaviourArb: fc.Arbitrary<[string, (a: unknown, ctx: InvocationContext) => unknown]> = fc.oneof(
  fc.anything().map((v) => ['returns anything', () => v] as [string, () => unknown]),
  fc.anything().map((v) => ['resolves anything', () => Promise.resolve(v)] as [string, () => unknown]),
  fc.anything().map(
    (v) =>
      [
        'throws anything',
        () => {
          throw v;
        },
      ] as [string, () => unknown],
  ),
  fc.anything().map((v) => ['rejects anything', () => Promise.reject(v)] as [string, () => unknown]),
  fc.constant(['hangs', () => new Promise(() => undefined)] as [string, () => unknown]),
  fc.constant(['rejects after the timeout', () => new Promise((_, rej) => setTimeout(() => rej(new Error('late')), 8))] as [string, () => unknown]),
  fc.constant([
    'returns a hostile thenable',
    () => ({
      get then() {
        throw new Error('then getter');
      },
    }),
  ] as [string, () => unknown]),
  fc.constant([
    'returns a thenable that throws',
    () => ({
      then() {
        throw new Error('then');
      },
    }),
  ] as [string, () => unknown]),
  fc.constant([
    'returns a hostile object',
    () =>
      Object.defineProperty({}, 'x', {
        enumerable: true,
        get() {
          throw new Error('getter');
        },
      }),
  ] as [string, () => unknown]),
  fc.constant([
    'returns a revoked proxy',
    () => {
      const p = Proxy.revocable({}, {});
      p.revoke();
      return p.proxy;
    },
  ] as [string, () => unknown]),
  fc.constant([
    'returns a cycle',
    () => {
      const a: unknown[] = [];
      a.push(a);
      return a;
    },
  ] as [string, () => unknown]),
  fc.constant([
    'reads its signal and aborts itself',
    (_a: unknown, ctx: InvocationContext) => new Promise((_, rej) => ctx.signal.addEventListener('abort', () => rej(ctx.signal.reason))),
  ] as [string, (a: unknown, ctx: InvocationContext) => unknown]),
  fc.constant([
    'throws an object whose properties throw',
    () => {
      throw new Proxy(
        {},
        {
          get() {
            throw new Error('trap');
          },
        },
      );
    },
  ] as [string, () => unknown]),
);

const optionsArb = fc.record(
  {
    timeoutMs: fc.constantFrom(undefined, 3, 10),
    aborted: fc.boolean(),
    observer: fc.boolean(),
    outputSchema: fc.constantFrom<JsonSchema>({}, { type: 'string' }, { type: 'object' }),
  },
  { requiredKeys: [] },
);

describe('invoke law', () => {
  it('never throws or rejects, for any JSON arguments and any implementation behaviour; the result is JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), behaviourArb, optionsArb, async (args, [name, impl], o) => {
        const s = spec('t', { type: 'object', properties: { a: { type: 'string' } } }, o.outputSchema ?? {});
        const b = boundFor(s, impl, o.observer === true ? { observer: { invoked: () => undefined, failed: () => undefined, result: () => undefined } } : {});
        // without a timeout or an aborted signal, only behaviours that settle by themselves (the plain path)
        const settles = name !== 'hangs' && name !== 'reads its signal and aborts itself';
        const timeoutMs = o.timeoutMs ?? (o.aborted === true || settles ? undefined : 10);
        let r: ToolResult;
        try {
          r = await invoke(b, args, { ...(timeoutMs !== undefined ? { timeoutMs } : {}), ...(o.aborted === true ? { signal: AbortSignal.abort() } : {}) });
        } catch (e) {
          throw new Error(`invoke rejected: ${String(e)}`);
        }
        expect(typeof r.ok).toBe('boolean');
        const text = JSON.stringify(r);
        expect(JSON.parse(text)).toEqual(r.ok ? { ok: true, value: JSON.parse(JSON.stringify(r.value) ?? 'null') } : expect.anything());
        if (!r.ok) {
          expect(r.error.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
          expect(typeof r.error.message).toBe('string');
          expect(typeof r.error.retryable).toBe('boolean');
        }
      }),
      { numRuns: 250 },
    );
  });
});

/** What an implementation may settle with by itself: values, results it builds with `ok` and `fail`, throws. */
const settlingArb: fc.Arbitrary<() => unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((v) => () => v),
  fc.jsonValue({ maxDepth: 2 }).map((v) => () => Promise.resolve(ok(v))),
  fc.jsonValue({ maxDepth: 2 }).map((v) => () => ok(v)),
  fc.tuple(fc.constantFrom('WEATHER_UNKNOWN_CITY', 'TOOL_EXECUTION_ERROR', ''), fc.string({ maxLength: 8 }), fc.boolean()).map(
    ([code, message, retryable]) =>
      () =>
        fail(code, message, { retryable, details: { code } }),
  ),
  fc.string({ maxLength: 8 }).map((m) => () => {
    throw new ToolFailure('UPSTREAM_BUSY', m, { retryable: true });
  }),
  fc.constant(() => undefined),
  fc.constant(() => () => 1),
);

describe('invoke: one meaning for both paths', () => {
  it("gives an implementation's fail(...) back as the failure, never as {ok: true, value: {ok: false}}", async () => {
    const r = await invoke(
      boundFor(anyArgs, () => fail('WEATHER_UNKNOWN_CITY', 'no city "X"', { details: { city: 'X' } })),
      {},
    );
    expect(r).toEqual({
      ok: false,
      error: { code: 'EXECUTION_ERROR', reason: 'WEATHER_UNKNOWN_CITY', message: 'no city "X"', details: { city: 'X' }, retryable: false },
    });
    expect(
      await invoke(
        boundFor(anyArgs, () => ok(3)),
        {},
      ),
    ).toEqual({ ok: true, value: 3 });
  });

  it('gives the same result on the plain path (no options) and the full path (an observer, a timeout)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 2 }), settlingArb, fc.constantFrom<JsonSchema>({}, { type: 'string' }), async (args, impl, outputSchema) => {
        const b = boundFor(spec('t', { type: 'object', properties: { a: { type: 'string' } } }, outputSchema), impl);
        const plain = await invoke(b, args);
        const observed = await invoke(b, args, { observer: { result: () => undefined, failed: () => undefined } });
        const timed = await invoke(b, args, { timeoutMs: 60_000 });
        expect(observed).toEqual(plain);
        expect(timed).toEqual(plain);
      }),
      { numRuns: 200 },
    );
  });
});

describe('invoke: the shared signal', () => {
  it('never aborts and keeps no listeners, however many calls add one', async () => {
    let signal: AbortSignal | undefined;
    const b = boundFor(anyArgs, (_a: unknown, ctx: InvocationContext) => {
      signal = ctx.signal;
      ctx.signal.addEventListener('abort', () => undefined, { once: true });
      ctx.signal.onabort = () => undefined;
      return 1;
    });
    for (let i = 0; i < 100; i++) expect(await invoke(b, {})).toEqual({ ok: true, value: 1 });
    expect(signal?.aborted).toBe(false);
    expect(EventEmitter.getEventListeners(signal as AbortSignal, 'abort')).toEqual([]);
    expect(signal?.onabort).toBeNull();
  });
});

describe('progress', () => {
  const countSpec = spec('count', { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] });
  const bound = (): BoundTool =>
    boundFor(countSpec, async ({ n }: { n: number }, ctx: InvocationContext) => {
      for (let i = 1; i <= n; i++) ctx.progress?.(i, n, `at ${i}`);
      return typeof ctx.progress;
    });

  it('ctx.progress reaches onProgress, with or without a timeout or a signal; without a listener there is none', async () => {
    for (const extra of [{}, { timeoutMs: 10_000 }, { signal: new AbortController().signal }]) {
      const seen: Array<[number, number | undefined, string | undefined]> = [];
      expect(await invoke(bound(), { n: 3 }, { ...extra, onProgress: (d, t, m) => void seen.push([d, t, m]) })).toEqual(ok('function'));
      expect(seen).toEqual([
        [1, 3, 'at 1'],
        [2, 3, 'at 2'],
        [3, 3, 'at 3'],
      ]);
    }
    expect(await invoke(bound(), { n: 3 })).toEqual(ok('undefined'));
  });

  it('a listener that throws, or figures that are not numbers, do not break the call', async () => {
    const odd = boundFor(spec('odd', { type: 'object' }), (_a: unknown, ctx: InvocationContext) => {
      (ctx.progress as (...a: unknown[]) => void)('x', 'y', 3);
      ctx.progress?.(1, Number.NaN, 'half');
      return 'done';
    });
    const seen: unknown[] = [];
    expect(await invoke(odd, {}, { onProgress: (...a) => void seen.push(a) })).toEqual(ok('done'));
    expect(seen).toEqual([[1, undefined, 'half']]);
    expect(
      await invoke(
        bound(),
        { n: 2 },
        {
          onProgress: () => {
            throw new Error('listener');
          },
        },
      ),
    ).toEqual(ok('function'));
  });
});
