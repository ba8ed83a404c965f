/**
 * OpenTelemetry spans of a run, with a tiny in-memory SDK registered for these tests only.
 */
import { context as otelContext, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/index.js';
import { scriptedModel } from '../../src/entries/testing.js';
import { AlsContextManager, MemoryTracerProvider as MemoryProvider } from '../support/otel.js';
import { agentNamed, recordingLibrary } from './support.js';

describe('OpenTelemetry spans of a run', () => {
  afterEach(() => {
    trace.disable();
    otelContext.disable();
  });

  it('a run is an invoke_agent span, each model call a chat span, and tool spans nest under the run', async () => {
    const provider = new MemoryProvider();
    otelContext.setGlobalContextManager(new AlsContextManager());
    trace.setGlobalTracerProvider(provider);
    const model = scriptedModel([
      { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 }, id: 'call_x' }], usage: { inputTokens: 10, outputTokens: 3 } },
      { text: '3', usage: { inputTokens: 20, outputTokens: 1 } },
    ]);
    const r = await runAgent(agentNamed('helper'), recordingLibrary().library, 'add', { model });
    expect(r.ok).toBe(true);
    const [run, chat1, tool, chat2] = provider.spans;
    expect(provider.spans.map((s) => s.name)).toEqual(['invoke_agent helper', 'chat scripted', 'execute_tool add', 'chat scripted']);
    expect(run?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'helper',
      'gen_ai.usage.input_tokens': 30,
      'gen_ai.usage.output_tokens': 4,
    });
    expect(chat1?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.response.finish_reasons': ['tool_calls'],
    });
    expect(chat1?.parentSpanId).toBe(run?.spanContext.spanId);
    expect(chat2?.parentSpanId).toBe(run?.spanContext.spanId);
    expect(tool?.parentSpanId).toBe(run?.spanContext.spanId);
    expect(tool?.attributes['gen_ai.tool.call.id']).toBe('call_x');
    expect(provider.spans.every((s) => s.ended)).toBe(true);
  });

  it('marks a failed run with its error code', async () => {
    const provider = new MemoryProvider();
    trace.setGlobalTracerProvider(provider);
    const model = scriptedModel([{ error: { code: 'AGENT_LLM_API_ERROR', message: 'down' } }]);
    const r = await runAgent(agentNamed('helper'), recordingLibrary().library, 'add', { model });
    expect(r.ok).toBe(false);
    expect(provider.spans.map((s) => [s.name, s.attributes['error.type'], s.status?.code])).toEqual([
      ['invoke_agent helper', 'AGENT_LLM_API_ERROR', 2],
      ['chat scripted', 'AGENT_LLM_API_ERROR', 2],
    ]);
  });

  it('records nothing when no SDK is registered', async () => {
    const provider = new MemoryProvider();
    const r = await runAgent(agentNamed('helper'), recordingLibrary().library, 'add', { model: scriptedModel([{ text: 'fine' }]) });
    expect(r.ok).toBe(true);
    expect(provider.spans).toEqual([]);
  });
});
