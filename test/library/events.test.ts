import { context as otelContext, trace } from '@opentelemetry/api';
import fc from 'fast-check';
import { validate as isUuid, version as uuidVersion } from 'uuid';
import { afterEach, describe, expect, it } from 'vitest';
import { combineObservers } from '../../src/library/events.js';
import { type InvocationContext, type InvocationEvent, invoke, invokeJson, onEvent, ToolFailure } from '../../src/index.js';
import { callId } from '../../src/core/call-id.js';
import { AlsContextManager, MemoryTracerProvider as MemoryProvider, type RecordedSpan as Recorded } from '../support/otel.js';
import { boundFor, spec } from './support.js';

const s = spec('echo', { type: 'object', properties: { x: { type: 'integer' } } });
const echo = (a: unknown) => a;

describe('events', () => {
  it('tells an observer invoked, then result or failed, with one call id, the tool, the arguments and the duration', async () => {
    const events: InvocationEvent[] = [];
    const b = boundFor(s, echo, { observer: onEvent((e) => events.push(e)) });
    await invoke(b, { x: 1 });
    await invoke(b, { x: 'one' });
    expect(events.map((e) => e.type)).toEqual(['invoked', 'result', 'invoked', 'failed']);
    const [inv, res, , failed] = events as [InvocationEvent, InvocationEvent, InvocationEvent, InvocationEvent];
    expect(inv).toMatchObject({ toolName: 'echo', args: { x: 1 } });
    expect(res.callId).toBe(inv.callId);
    expect(failed.callId).not.toBe(inv.callId);
    expect(isUuid(inv.callId) && uuidVersion(inv.callId)).toBe(7);
    expect(res.type === 'result' && res.value).toEqual({ x: 1 });
    expect(res.type === 'result' && res.durationMs).toBeGreaterThanOrEqual(0);
    expect(failed.type === 'failed' && failed.error.reason).toBe('TOOL_INVALID_ARGUMENTS');
    expect(Math.abs(inv.startedAt - Date.now())).toBeLessThan(60_000);
    // events are data
    expect(JSON.parse(JSON.stringify(res))).toEqual({ ...res });
  });

  it('uses the caller’s call id, and combines the binding’s observer with the call’s', async () => {
    const seen: string[] = [];
    const b = boundFor(s, echo, { observer: onEvent((e) => seen.push(`binding ${e.type} ${e.callId}`)) });
    await invoke(b, {}, { callId: 'call_abc', observer: onEvent((e) => seen.push(`call ${e.type} ${e.callId}`)) });
    expect(seen).toEqual(['binding invoked call_abc', 'call invoked call_abc', 'binding result call_abc', 'call result call_abc']);
  });

  it('reports JSON argument text that does not parse as a failed call', async () => {
    const events: InvocationEvent[] = [];
    const b = boundFor(s, echo, { observer: onEvent((e) => events.push(e)) });
    await invokeJson(b, '{oops');
    expect(events.map((e) => [e.type, e.args])).toEqual([
      ['invoked', '{oops'],
      ['failed', '{oops'],
    ]);
  });

  it('isolates observers: one that throws changes nothing for the call or for the others', async () => {
    const errors: unknown[] = [];
    const later: string[] = [];
    const thrower = {
      invoked: () => {
        throw new Error('observer bug');
      },
      result: () => {
        throw new Error('observer bug 2');
      },
      observerError: (e: unknown, ev: InvocationEvent) => errors.push(`${(e as Error).message} on ${ev.type}`),
    };
    const b = boundFor(s, echo, {
      observer: combineObservers(
        thrower,
        onEvent((e) => later.push(e.type)),
      ),
    });
    expect(await invoke(b, { x: 2 })).toEqual({ ok: true, value: { x: 2 } });
    expect(errors).toEqual(['observer bug on invoked', 'observer bug 2 on result']);
    expect(later).toEqual(['invoked', 'result']);
    // an error hook that throws as well is the end of it
    const worse = boundFor(s, echo, {
      observer: {
        failed: () => {
          throw new Error('x');
        },
        observerError: () => {
          throw new Error('y');
        },
      },
    });
    expect((await invoke(worse, { x: 'bad' })).ok).toBe(false);
  });
});

describe('call ids', () => {
  it('are UUIDv7, unique and increasing, stamped with the time given', () => {
    const ids = Array.from({ length: 20_000 }, () => callId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids.slice(0, 100)) expect(isUuid(id) && uuidVersion(id)).toBe(7);
    fc.assert(
      fc.property(fc.integer({ min: Date.now(), max: 2 ** 47 }), (ms) => {
        const id = callId(ms);
        expect(isUuid(id)).toBe(true);
        expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBeGreaterThanOrEqual(ms);
      }),
    );
  });
});

describe('OpenTelemetry spans', () => {
  afterEach(() => {
    trace.disable();
    otelContext.disable();
  });

  it('records one span per call, named and attributed by the GenAI conventions, with the error code on failure', async () => {
    const provider = new MemoryProvider();
    expect(trace.setGlobalTracerProvider(provider)).toBe(true);
    const b = boundFor(s, (a: { x?: number }) => {
      if (a.x === 13) throw new ToolFailure('UNLUCKY', 'thirteen');
      return a;
    });
    await invoke(b, { x: 1 }, { callId: 'call_1' });
    await invoke(b, { x: 13 }, { callId: 'call_2' });
    expect(provider.spans).toEqual([
      {
        name: 'execute_tool echo',
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'echo',
          'gen_ai.tool.call.id': 'call_1',
          'gen_ai.tool.type': 'function',
          'gen_ai.tool.description': 'The echo tool',
        },
        status: { code: 1 },
        ended: true,
        parentSpanId: undefined,
        spanContext: expect.anything(),
      },
      expect.objectContaining({
        attributes: expect.objectContaining({ 'gen_ai.tool.call.id': 'call_2', 'error.type': 'UNLUCKY' }),
        status: { code: 2, message: 'thirteen' },
        ended: true,
      }),
    ]);
  });

  it('makes spans started by the implementation children of the tool’s span', async () => {
    const provider = new MemoryProvider();
    otelContext.setGlobalContextManager(new AlsContextManager());
    trace.setGlobalTracerProvider(provider);
    const b = boundFor(s, async (_a: unknown, ctx: InvocationContext) => {
      await new Promise((r) => setTimeout(r, 1));
      trace.getTracer('inner').startSpan('inner work').end();
      return ctx.toolName;
    });
    expect(await invoke(b, {}, { timeoutMs: 1000 })).toEqual({ ok: true, value: 'echo' });
    const [outer, inner] = provider.spans as [Recorded, Recorded];
    expect(inner.name).toBe('inner work');
    expect(inner.parentSpanId).toBe(outer.spanContext.spanId);
  });

  it('records nothing when no SDK is registered', async () => {
    const provider = new MemoryProvider();
    const b = boundFor(s, echo);
    expect(await invoke(b, { x: 1 })).toEqual({ ok: true, value: { x: 1 } });
    expect(provider.spans).toEqual([]);
  });
});
