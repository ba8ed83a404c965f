/**
 * Attack corpus: a cut stream (issue 13, weak items). A streamed answer that ends without its end
 * marker (`[DONE]` or a finish reason for OpenAI chat, `message_stop` for Anthropic, a
 * `finishReason` for Gemini, `response.completed` for the Responses API) may hold half a tool
 * call: it is an error with one code for every provider (`STREAM_INTERRUPTED`, retryable), and no
 * tool runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AgentCodes, createAgentSpecification, createTool, runAgent, toolLibrary, type Model, type ToolSpecification } from '../../src/index.js';
import { anthropicModel, geminiModel, openAIModel, openAIResponsesModel } from '../../src/entries/providers.js';
import { type FakeServer, type FakeTurn, startFakeServer } from '../support/fake-llm-server.js';

const sse = (...events: ReadonlyArray<unknown>): FakeTurn => ({
  raw: events
    .map((e) =>
      typeof e === 'string'
        ? e
        : `${typeof e === 'object' && e !== null && 'event' in e ? `event: ${String((e as { event: string }).event)}\n` : ''}data: ${JSON.stringify(typeof e === 'object' && e !== null && 'data' in e ? (e as { data: unknown }).data : e)}\n\n`,
    )
    .join(''),
  contentType: 'text/event-stream',
});

const CUT: Record<string, FakeTurn> = {
  openai: sse({
    id: 'c1',
    choices: [
      {
        index: 0,
        delta: {
          role: 'assistant',
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'remove', arguments: '{"path": "/srv/data' } }],
        },
      },
    ],
  }),
  anthropic: sse(
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: { id: 'm1', type: 'message', role: 'assistant', content: [], model: 'claude-test', usage: { input_tokens: 1, output_tokens: 0 } },
      },
    },
    {
      event: 'content_block_start',
      data: { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'tu_1', name: 'remove', input: {} } },
    },
    {
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"path": "/srv/data"}' } },
    },
  ),
  gemini: sse({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'remove', args: { path: '/srv/data' } } }] }, index: 0 }] }),
  responses: sse(
    { type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } },
    { type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'remove', arguments: '' } },
    { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: '{"path": "/srv/data"}' },
  ),
};

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const modelFor = async (provider: string): Promise<Model> => {
  server = await startFakeServer({ script: [CUT[provider] as FakeTurn], apiKey: 'k' });
  const retry = { baseDelayMs: 1, maxDelayMs: 2 };
  const m =
    provider === 'openai'
      ? openAIModel('gpt-test', { apiKey: 'k', baseUrl: server.openaiBaseUrl, retry, maxRetries: 0 })
      : provider === 'anthropic'
        ? anthropicModel('claude-test', { apiKey: 'k', baseUrl: server.anthropicBaseUrl, retry, maxRetries: 0 })
        : provider === 'gemini'
          ? geminiModel('gemini-test', { apiKey: 'k', baseUrl: server.geminiBaseUrl, retry, maxRetries: 0 })
          : openAIResponsesModel('gpt-test', { apiKey: 'k', baseUrl: server.openaiBaseUrl, retry, maxRetries: 0 });
  if (m._tag === 'Left') throw new Error(m.left.message);
  return m.right;
};

const spec: ToolSpecification = {
  name: 'remove',
  description: 'removes a path',
  typeSignature: '',
  schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  outputSchema: {},
};

describe('attack: a stream cut before its end marker', () => {
  it.each(Object.keys(CUT))('%s: STREAM_INTERRUPTED, and the tool is not called', async (provider) => {
    const model = await modelFor(provider);
    const calls: unknown[] = [];
    const agent = createAgentSpecification('agent', 'd', 'i', [spec]);
    if (agent._tag === 'Left') throw new Error('agent');
    const r = await runAgent(agent.right, toolLibrary([createTool('remove', 'removes a path', spec.schema, (a) => void calls.push(a))]), 'go', {
      model,
      stream: true,
      onEvent: () => undefined,
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error, JSON.stringify(r.error)).toMatchObject({ reason: AgentCodes.STREAM_INTERRUPTED, retryable: true });
    expect(calls).toEqual([]);
  });
});
