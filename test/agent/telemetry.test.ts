/**
 * OpenTelemetry spans of a run, with a tiny in-memory SDK registered for these tests only.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type Context,
  type ContextManager,
  context as otelContext,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  type SpanStatus,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgent, scriptedModel } from '../../src/index.js';
import { agentNamed, recordingLibrary } from './support.js';

interface Recorded {
  readonly name: string;
  readonly attributes: Record<string, unknown>;
  status?: SpanStatus;
  ended: boolean;
  readonly parentSpanId: string | undefined;
  readonly spanContext: SpanContext;
}

const memorySpan = (record: Recorded): Span => {
  const span: Span = {
    spanContext: () => record.spanContext,
    setAttribute: (k: string, v: unknown) => {
      record.attributes[k] = v;
      return span;
    },
    setAttributes: (a: Record<string, unknown>) => {
      Object.assign(record.attributes, a);
      return span;
    },
    addEvent: () => span,
    addLink: () => span,
    addLinks: () => span,
    setStatus: (s: SpanStatus) => {
      record.status = s;
      return span;
    },
    updateName: () => span,
    end: () => {
      record.ended = true;
    },
    isRecording: () => !record.ended,
    recordException: () => undefined,
  } as Span;
  return span;
};

class MemoryProvider implements TracerProvider {
  readonly spans: Recorded[] = [];
  private next = 1;
  getTracer(): Tracer {
    const startSpan = (name: string, options: { attributes?: Record<string, unknown> } = {}, ctx?: Context): Span => {
      const parent = trace.getSpan(ctx ?? otelContext.active());
      const record: Recorded = {
        name,
        attributes: { ...(options.attributes ?? {}) },
        ended: false,
        parentSpanId: parent?.spanContext().spanId,
        spanContext: { traceId: `${'0'.repeat(31)}1`, spanId: String(this.next++).padStart(16, '0'), traceFlags: 1 },
      };
      this.spans.push(record);
      return memorySpan(record);
    };
    return { startSpan, startActiveSpan: (() => undefined) as never } as Tracer;
  }
}

class AlsContextManager implements ContextManager {
  private readonly als = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.als.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.als.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    return this;
  }
}

describe('OpenTelemetry spans of a run', () => {
  afterEach(() => {
    trace.disable();
    otelContext.disable();
  });

  it('a run is an invoke_agent span, each model call a chat span, and tool spans nest under the run', async () => {
    const provider = new MemoryProvider();
    otelContext.setGlobalContextManager(new AlsContextManager());
    trace.setGlobalTracerProvider(provider);
    const model = scriptedModel([{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 }, id: 'call_x' }], usage: { inputTokens: 10, outputTokens: 3 } }, { text: '3', usage: { inputTokens: 20, outputTokens: 1 } }]);
    const r = await runAgent(agentNamed('helper'), recordingLibrary().library, 'add', { model });
    expect(r.ok).toBe(true);
    const [run, chat1, tool, chat2] = provider.spans;
    expect(provider.spans.map((s) => s.name)).toEqual(['invoke_agent helper', 'chat scripted', 'execute_tool add', 'chat scripted']);
    expect(run?.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'helper', 'gen_ai.usage.input_tokens': 30, 'gen_ai.usage.output_tokens': 4 });
    expect(chat1?.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 10, 'gen_ai.response.finish_reasons': ['tool_calls'] });
    expect(chat1?.parentSpanId).toBe(run?.spanContext.spanId);
    expect(chat2?.parentSpanId).toBe(run?.spanContext.spanId);
    expect(tool?.parentSpanId).toBe(run?.spanContext.spanId);
    expect(tool?.attributes['gen_ai.tool.call.id']).toBe('call_x');
    expect(provider.spans.every((s) => s.ended)).toBe(true);
  });

  it('marks a failed run with its error code', async () => {
    const provider = new MemoryProvider();
    trace.setGlobalTracerProvider(provider);
    const model = scriptedModel([{ error: { code: 'LLM_API_ERROR', message: 'down' } }]);
    const r = await runAgent(agentNamed('helper'), recordingLibrary().library, 'add', { model });
    expect(r.ok).toBe(false);
    expect(provider.spans.map((s) => [s.name, s.attributes['error.type'], s.status?.code])).toEqual([
      ['invoke_agent helper', 'LLM_API_ERROR', 2],
      ['chat scripted', 'LLM_API_ERROR', 2],
    ]);
  });

  it('records nothing when no SDK is registered', async () => {
    const provider = new MemoryProvider();
    const r = await runAgent(agentNamed('helper'), recordingLibrary().library, 'add', { model: scriptedModel([{ text: 'fine' }]) });
    expect(r.ok).toBe(true);
    expect(provider.spans).toEqual([]);
  });
});
