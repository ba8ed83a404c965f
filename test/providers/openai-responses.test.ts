/** OpenAI Responses specifics beyond the conformance suite: input items, flat tools with explicit strict, stream events, response states. */
import { afterEach, describe, expect, it } from 'vitest';
import { openAIResponsesModel } from '../../src/entries/providers.js';
import { type Message, type Model, type ModelRequest, type ModelResult, type ToolDefinition } from '../../src/index.js';
import { startFakeServer, type FakeServer, type FakeTurn } from '../support/fake-llm-server.js';

const tools: ReadonlyArray<ToolDefinition> = [
  {
    name: 'search.web',
    description: 'Searches the web',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string' }, limit: { type: 'integer', default: 5 }, lang: { type: 'string', enum: ['en', 'fr'] } },
      required: ['query'],
    },
  },
];
const user = (content: string): Message => ({ role: 'user', content });
const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({ messages: [user('search cats')], tools, ...extra });

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const model = async (turns: ReadonlyArray<FakeTurn>, options: Parameters<typeof openAIResponsesModel>[1] = {}): Promise<Model> => {
  server = await startFakeServer({ script: turns, apiKey: 'k' });
  const m = openAIResponsesModel('gpt-test', { apiKey: 'k', baseUrl: server.openaiBaseUrl, retry: { baseDelayMs: 5, maxDelayMs: 10 }, ...options });
  if (m._tag === 'Left') throw new Error(m.left.message);
  return m.right;
};

const ok = (r: ModelResult) => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
};

const failed = (r: ModelResult) => {
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
  return r.error;
};

const raw = (body: unknown): FakeTurn => ({ raw: JSON.stringify(body) });
const sse = (...events: ReadonlyArray<Record<string, unknown>>): FakeTurn => ({
  raw: events.map((e, i) => `event: ${String(e['type'])}\ndata: ${JSON.stringify({ sequence_number: i, ...e })}\n\n`).join(''),
  contentType: 'text/event-stream',
});

describe('openai responses request', () => {
  it('sends instructions, input items, flat tools with strict said, and the options as the API names them', async () => {
    const m = await model([{ text: 'ok' }], { organization: 'org_1', project: 'proj_1', store: false });
    ok(
      await m.generate(
        request({
          system: 'Be brief.',
          messages: [
            { role: 'system', content: 'Also polite.' },
            user('search cats'),
            { role: 'assistant', content: 'Searching.', toolCalls: [{ id: 'call_1', name: 'search.web', arguments: '{"query":"cats"}' }] },
            { role: 'tool', toolCallId: 'call_1', toolName: 'search.web', content: '["a cat"]' },
            { role: 'assistant', content: '' },
          ],
          toolChoice: { tool: 'search.web' },
          parallelToolCalls: false,
          maxTokens: 50,
          temperature: 0.2,
        }),
      ),
    );
    const r = server?.requests[0];
    expect(r?.path).toBe('/v1/responses');
    expect(r?.body).toEqual({
      model: 'gpt-test',
      instructions: 'Be brief.',
      input: [
        { type: 'message', role: 'system', content: 'Also polite.' },
        { type: 'message', role: 'user', content: 'search cats' },
        { type: 'message', role: 'assistant', content: 'Searching.' },
        { type: 'function_call', call_id: 'call_1', name: 'search_web', arguments: '{"query":"cats"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '["a cat"]' },
      ],
      // strict: false said explicitly (omitted, the Responses API would make the schema strict)
      tools: [{ type: 'function', name: 'search_web', description: 'Searches the web', parameters: tools[0]?.inputSchema, strict: false }],
      tool_choice: { type: 'function', name: 'search_web' },
      parallel_tool_calls: false,
      max_output_tokens: 50,
      temperature: 0.2,
      store: false,
    });
    expect(r?.headers['authorization']).toBe('Bearer k');
    expect(r?.headers['openai-organization']).toBe('org_1');
    expect(r?.headers['openai-project']).toBe('proj_1');
  });
  it('omits tools and tool_choice when there are no tools, and store unless asked', async () => {
    const m = await model([{ text: 'ok' }]);
    ok(await m.generate({ messages: [user('hi')], tools: [], toolChoice: 'required' }));
    expect(Object.keys(server?.requests[0]?.body ?? {})).toEqual(['model', 'input']);
  });
  it('strict mode: strict schemas the server accepts, and the nulls strict models send normalized away', async () => {
    const m = await model([{ toolCalls: [{ name: 'search.web', arguments: { query: 'cats', limit: null, lang: null } }] }], { strict: true });
    const v = ok(await m.generate(request()));
    expect(JSON.parse(v.message.toolCalls?.[0]?.arguments ?? '')).toEqual({ query: 'cats' });
    const tool = server?.requests[0]?.body.tools[0];
    expect(tool.strict).toBe(true);
    expect(tool.parameters.required).toEqual(['query', 'limit', 'lang']);
    expect(tool.parameters.additionalProperties).toBe(false);
  });
  it('the fake server treats a tool without strict as strict, as the Responses API does', async () => {
    server = await startFakeServer({ script: [] });
    const post = (tool: Record<string, unknown>) =>
      fetch(`${server?.openaiBaseUrl}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'x',
          input: 'x',
          tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: { a: { type: 'string' } } }, ...tool }],
        }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error: { message: string; code: string; param: string } } }));
    const omitted = await post({});
    expect(omitted.status).toBe(400);
    expect(omitted.body.error).toMatchObject({
      code: 'invalid_function_parameters',
      param: 'tools[0].parameters',
      message: expect.stringContaining('"strict" was not given'),
    });
    expect((await post({ strict: false })).status).not.toBe(400);
  });
  it('the fake server refuses a call without its output, and an output without its call', async () => {
    server = await startFakeServer({ script: [] });
    const post = (input: unknown[]) =>
      fetch(`${server?.openaiBaseUrl}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'x', input }),
      }).then(async (r) => ((await r.json()) as { error: { message: string } }).error.message);
    const call = { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' };
    expect(await post([{ role: 'user', content: 'x' }, call])).toBe('No tool output found for function call call_1.');
    expect(await post([{ role: 'user', content: 'x' }, call, { type: 'function_call_output', call_id: 'call_2', output: 'r' }])).toBe(
      'No tool call found for function call output with call_id call_2.',
    );
  });
});

describe('openai responses answers', () => {
  it('reads text and function calls, ids and usage', async () => {
    const m = await model([{ text: 'Searching now.', toolCalls: [{ name: 'search.web', arguments: { query: 'cats' } }] }]);
    const v = ok(await m.generate(request()));
    expect(v.message.content).toBe('Searching now.');
    expect(v.message.toolCalls?.map((c) => [c.name, c.arguments])).toEqual([['search.web', '{"query":"cats"}']]);
    expect(v.message.toolCalls?.[0]?.id).toMatch(/^call_/);
    expect(v.id).toMatch(/^resp_/);
    expect(v.model).toBe('gpt-test');
    expect(v.usage.inputTokens).toBeGreaterThan(0);
  });
  it('reads broken argument JSON as it was sent', async () => {
    const m = await model([{ toolCalls: [{ name: 'search.web', arguments: '{"query": "cats"' }] }]);
    expect(ok(await m.generate(request())).message.toolCalls?.[0]?.arguments).toBe('{"query": "cats"');
  });
  const response = (extra: Record<string, unknown>, output: unknown[] = []) => ({
    id: 'resp_1',
    object: 'response',
    status: 'completed',
    model: 'gpt-x',
    output,
    usage: { input_tokens: 3, output_tokens: 4 },
    error: null,
    ...extra,
  });
  it('maps response states: incomplete (length, content filter), a refusal, failed, cancelled', async () => {
    const m = await model([
      raw(
        response({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }, [
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'cut sh' }] },
        ]),
      ),
      raw(response({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } })),
      raw(
        response({}, [
          { type: 'reasoning', summary: [] },
          { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: "I can't help with that." }] },
        ]),
      ),
      raw(response({ status: 'failed', error: { code: 'server_error', message: 'The model failed.' } })),
      raw(response({ status: 'cancelled' })),
    ]);
    const cut = ok(await m.generate(request()));
    expect([cut.message.content, cut.finishReason, cut.usage]).toEqual(['cut sh', 'length', { inputTokens: 3, outputTokens: 4 }]);
    expect(ok(await m.generate(request())).finishReason).toBe('content_filter');
    const refused = ok(await m.generate(request()));
    expect([refused.message.content, refused.finishReason]).toEqual(["I can't help with that.", 'content_filter']);
    expect(failed(await m.generate(request()))).toMatchObject({
      reason: 'AGENT_LLM_API_ERROR',
      retryable: true,
      message: 'OpenAI API error in the response (server_error): The model failed.',
    });
    expect(failed(await m.generate(request())).message).toContain('cancelled');
  });
  it('reports a body without output as INVALID_RESPONSE', async () => {
    const m = await model([raw({ id: 'x', object: 'response', status: 'completed' })]);
    expect(failed(await m.generate(request()))).toMatchObject({ reason: 'AGENT_INVALID_RESPONSE', message: 'the response has no output array' });
  });
});

describe('openai responses streams', () => {
  it('passes text deltas and joins call arguments split across deltas', async () => {
    const m = await model([{ text: 'Let me search.', toolCalls: [{ name: 'search.web', arguments: { query: 'long cat names', limit: 3 } }], chunkSize: 2 }]);
    const deltas: string[] = [];
    const v = ok(await m.generate(request({ onTextDelta: (d) => deltas.push(d) })));
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Let me search.');
    expect(v.message.toolCalls?.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([['search.web', { query: 'long cat names', limit: 3 }]]);
    expect(v.usage.outputTokens).toBeGreaterThan(0);
    expect(server?.requests[0]?.body.stream).toBe(true);
  });
  const added = {
    type: 'response.output_item.added',
    output_index: 0,
    item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'search_web', arguments: '' },
  };
  const delta = { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: '{"query":"cats"}' };
  it('runs no call from a stream that ends without response.completed: a transport error', async () => {
    const m = await model([sse({ type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } }, added, delta)]);
    const e = failed(await m.generate(request({ onTextDelta: () => undefined })));
    expect(e).toMatchObject({ reason: 'AGENT_STREAM_INTERRUPTED', retryable: true });
    expect(e.message).toContain('ended before response.completed');
  });
  it('takes the final arguments of .done and of the finished item', async () => {
    const m = await model([
      sse(
        added,
        delta,
        { type: 'response.function_call_arguments.done', item_id: 'fc_1', output_index: 0, arguments: '{"query":"dogs"}' },
        {
          type: 'response.completed',
          response: { id: 'resp_1', status: 'completed', model: 'gpt-x', output: [], usage: { input_tokens: 1, output_tokens: 2 } },
        },
      ),
    ]);
    const v = ok(await m.generate(request({ onTextDelta: () => undefined })));
    expect(v.message.toolCalls).toEqual([{ id: 'call_1', name: 'search.web', arguments: '{"query":"dogs"}' }]);
    expect([v.finishReason, v.id, v.model, v.usage]).toEqual(['tool_calls', 'resp_1', 'gpt-x', { inputTokens: 1, outputTokens: 2 }]);
  });
  it('reads the output of response.completed from a server that sent no deltas', async () => {
    const m = await model([
      sse({
        type: 'response.completed',
        response: {
          id: 'resp_2',
          status: 'completed',
          output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'all at once' }] }],
        },
      }),
    ]);
    const deltas: string[] = [];
    expect(ok(await m.generate(request({ onTextDelta: (d) => deltas.push(d) }))).message.content).toBe('all at once');
    expect(deltas).toEqual(['all at once']);
  });
  it('reports an error event, and response.failed', async () => {
    const m = await model([
      { streamError: { type: 'server_error', message: 'The model crashed' }, afterText: 'Half' },
      sse({ type: 'response.failed', response: { id: 'resp_3', status: 'failed', error: { code: 'rate_limit_exceeded', message: 'Slow down.' } } }),
    ]);
    const deltas: string[] = [];
    const e = failed(await m.generate(request({ onTextDelta: (d) => deltas.push(d) })));
    expect(e).toMatchObject({ reason: 'AGENT_LLM_API_ERROR', retryable: true, message: 'OpenAI API error in the stream (server_error): The model crashed' });
    expect(deltas).toEqual(['Half']);
    expect(failed(await m.generate(request({ onTextDelta: () => undefined })))).toMatchObject({ reason: 'AGENT_RATE_LIMITED', retryable: true });
  });
});

describe('openai responses errors and retries', () => {
  it('needs a key for api.openai.com, not for a compatible server', () => {
    const m = openAIResponsesModel('gpt-4.1-mini');
    expect(m._tag === 'Left' && m.left).toMatchObject({ reason: 'AGENT_CONFIGURATION_ERROR', message: expect.stringContaining('OPENAI_API_KEY') });
    expect(openAIResponsesModel('llama3.2', { baseUrl: 'http://127.0.0.1:11434/v1' })._tag).toBe('Right');
  });
  it('reports a 401 with the hint to check the key, without retrying', async () => {
    server = await startFakeServer({ script: [{ text: 'x' }], apiKey: 'right' });
    const m = openAIResponsesModel('gpt-test', { apiKey: 'wrong', baseUrl: server.openaiBaseUrl });
    if (m._tag === 'Left') throw new Error();
    const e = failed(await m.right.generate(request()));
    expect(e).toMatchObject({ reason: 'AGENT_LLM_API_ERROR', status: 401, retryable: false });
    expect(e.message).toContain('check the API key');
    expect(server.requests).toHaveLength(1);
  });
  it('honours Retry-After', async () => {
    const delays: number[] = [];
    const m = await model([{ rateLimited: { retryAfterMs: 40 } }, { status: 502 }, { text: 'third' }], { onRetry: (i) => delays.push(i.delayMs) });
    expect(ok(await m.generate(request())).message.content).toBe('third');
    expect(delays[0]).toBe(40);
    expect(server?.requests.map((r) => r.status)).toEqual([429, 502, 200]);
  });
});
