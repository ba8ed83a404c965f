/** OpenAI specifics beyond the conformance suite: request shape, strict mode, legacy functions, transport details. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openAIModel } from '../../src/entries/providers.js';
import { type Model, type ModelRequest, type ModelResult, type ToolDefinition } from '../../src/index.js';
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
const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({ messages: [{ role: 'user', content: 'search cats' }], tools, ...extra });

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const model = async (turns: ReadonlyArray<FakeTurn>, options: Parameters<typeof openAIModel>[1] = {}): Promise<Model> => {
  server = await startFakeServer({ script: turns, apiKey: 'k' });
  const m = openAIModel('gpt-test', { apiKey: 'k', baseUrl: server.openaiBaseUrl, retry: { baseDelayMs: 5, maxDelayMs: 10 }, ...options });
  if (m._tag === 'Left') throw new Error(m.left.message);
  return m.right;
};

const ok = (r: ModelResult) => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
};

describe('openai request', () => {
  it('sends model, messages, tools, tool_choice, parallel_tool_calls, max_tokens and temperature as the API names them', async () => {
    const m = await model([{ text: 'ok' }], { organization: 'org_1', project: 'proj_1', headers: { 'x-extra': 'yes' } });
    ok(await m.generate(request({ system: 'Be brief.', toolChoice: { tool: 'search.web' }, parallelToolCalls: false, maxTokens: 50, temperature: 0.2 })));
    const r = server?.requests[0];
    expect(r?.body).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'search cats' },
      ],
      tools: [{ type: 'function', function: { name: 'search_web', description: 'Searches the web', parameters: tools[0]?.inputSchema } }],
      tool_choice: { type: 'function', function: { name: 'search_web' } },
      parallel_tool_calls: false,
      max_tokens: 50,
      temperature: 0.2,
    });
    expect(r?.headers['authorization']).toBe('Bearer k');
    expect(r?.headers['openai-organization']).toBe('org_1');
    expect(r?.headers['openai-project']).toBe('proj_1');
    expect(r?.headers['x-extra']).toBe('yes');
  });
  it('omits tools and tool_choice when there are no tools', async () => {
    const m = await model([{ text: 'ok' }]);
    ok(await m.generate({ messages: [{ role: 'user', content: 'hi' }], tools: [], toolChoice: 'auto' }));
    expect(Object.keys(server?.requests[0]?.body ?? {})).toEqual(['model', 'messages']);
  });
  it('uses max_completion_tokens on api.openai.com', async () => {
    const m = await model([{ text: 'ok' }], { maxTokensField: 'max_completion_tokens' });
    ok(await m.generate(request({ maxTokens: 9 })));
    expect(server?.requests[0]?.body.max_completion_tokens).toBe(9);
  });
  it('asks for usage in streams and reads it from the last chunk', async () => {
    const m = await model([{ text: 'a streamed answer' }]);
    const v = ok(await m.generate(request({ onTextDelta: () => undefined })));
    expect(server?.requests[0]?.body.stream_options).toEqual({ include_usage: true });
    expect(v.usage.inputTokens).toBeGreaterThan(0);
    expect(v.usage.outputTokens).toBeGreaterThan(0);
    expect(v.id).toMatch(/^chatcmpl-/);
  });
});

describe('openai strict mode', () => {
  it('sends strict schemas the server accepts, and normalizes the nulls strict models send', async () => {
    const m = await model([{ toolCalls: [{ name: 'search.web', arguments: { query: 'cats', limit: null, lang: null } }] }], { strict: true });
    const v = ok(await m.generate(request()));
    expect(JSON.parse(v.message.toolCalls?.[0]?.arguments ?? '')).toEqual({ query: 'cats' });
    const fn = server?.requests[0]?.body.tools[0].function;
    expect(fn.strict).toBe(true);
    expect(fn.parameters.required).toEqual(['query', 'limit', 'lang']);
    expect(fn.parameters.properties.lang).toEqual({ type: ['string', 'null'], enum: ['en', 'fr', null] });
  });
  it('the fake server rejects a non-strict schema marked strict, as OpenAI does', async () => {
    server = await startFakeServer({ script: [{ text: 'x' }] });
    const m = openAIModel('gpt-test', { baseUrl: server.openaiBaseUrl });
    if (m._tag === 'Left') throw new Error();
    // a hand-made request: the adapter would never send this
    const res = await fetch(`${server.openaiBaseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'x',
        messages: [{ role: 'user', content: 'x' }],
        tools: [{ type: 'function', function: { name: 'f', strict: true, parameters: { type: 'object', properties: { a: { type: 'string' } } } } }],
      }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; code: string; param: string } };
    expect(body.error.code).toBe('invalid_function_parameters');
    expect(body.error.param).toBe('tools[0].function.parameters');
    expect(body.error.message).toContain("Invalid schema for function 'f'");
  });
});

describe('openai legacy functions', () => {
  it('sends functions and function_call, and reads function_call answers', async () => {
    const m = await model([{ toolCalls: [{ name: 'search.web', arguments: { query: 'cats' } }] }], { legacyFunctions: true });
    const v = ok(await m.generate(request({ toolChoice: 'required' })));
    expect(v.message.toolCalls?.map((c) => [c.name, c.arguments])).toEqual([['search.web', '{"query":"cats"}']]);
    const body = server?.requests[0]?.body;
    expect(body.functions).toEqual([{ name: 'search_web', description: 'Searches the web', parameters: tools[0]?.inputSchema }]);
    expect(body.function_call).toEqual({ name: 'search_web' });
    expect(body.tools).toBeUndefined();
  });
  it('turns one assistant turn with several calls into one function_call per result', async () => {
    const m = await model([{ text: 'done' }], { legacyFunctions: true });
    ok(
      await m.generate({
        tools,
        messages: [
          { role: 'user', content: 'two searches' },
          {
            role: 'assistant',
            content: 'Searching twice.',
            toolCalls: [
              { id: 'a', name: 'search.web', arguments: '{"query":"x"}' },
              { id: 'b', name: 'search.web', arguments: '{"query":"y"}' },
            ],
          },
          { role: 'tool', toolCallId: 'a', toolName: 'search.web', content: '"X"' },
          { role: 'tool', toolCallId: 'b', toolName: 'search.web', content: '"Y"' },
        ],
      }),
    );
    expect(server?.requests[0]?.body.messages.slice(1)).toEqual([
      { role: 'assistant', content: 'Searching twice.', function_call: { name: 'search_web', arguments: '{"query":"x"}' } },
      { role: 'function', name: 'search_web', content: '"X"' },
      { role: 'assistant', content: null, function_call: { name: 'search_web', arguments: '{"query":"y"}' } },
      { role: 'function', name: 'search_web', content: '"Y"' },
    ]);
  });
  it('cannot force "some tool" among several: a clear configuration error', async () => {
    const m = await model([{ text: 'x' }], { legacyFunctions: true });
    const r = await m.generate({
      ...request({ toolChoice: 'required' }),
      tools: [...tools, { name: 'other', description: 'x', inputSchema: { type: 'object', properties: {} } }],
    });
    expect(!r.ok && r.error.reason).toBe('AGENT_CONFIGURATION_ERROR');
    expect(server?.requests).toHaveLength(0);
  });
});

describe('openai answers', () => {
  it('reads broken argument JSON as it was sent (the loop reports it to the model)', async () => {
    const m = await model([{ toolCalls: [{ name: 'search.web', arguments: '{"query": "cats"' }] }]);
    expect(ok(await m.generate(request())).message.toolCalls?.[0]?.arguments).toBe('{"query": "cats"');
  });
  it('reads a streamed answer a server sent as plain JSON (stream ignored) and still gives the text as one delta', async () => {
    const plain = await new Promise<{ url: string; close: () => void }>((resolve) => {
      const s = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'x', choices: [{ index: 0, message: { role: 'assistant', content: 'plain' }, finish_reason: 'stop' }] }));
      });
      s.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, close: () => s.close() }));
    });
    try {
      const m = openAIModel('x', { baseUrl: plain.url });
      if (m._tag === 'Left') throw new Error();
      const deltas: string[] = [];
      const v = ok(await m.right.generate(request({ onTextDelta: (d) => deltas.push(d) })));
      expect(v.message.content).toBe('plain');
      expect(deltas).toEqual(['plain']);
      expect(v.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    } finally {
      plain.close();
    }
  });
  it('reports an error event inside a stream', async () => {
    const m = await model([{ streamError: { type: 'server_error', message: 'The model crashed' }, afterText: 'Half' }]);
    const deltas: string[] = [];
    const r = await m.generate(request({ onTextDelta: (d) => deltas.push(d) }));
    expect(!r.ok && r.error.message).toContain('The model crashed');
    expect(deltas).toEqual(['Half']);
  });
  it('turns a throwing onTextDelta into an error instead of a crash', async () => {
    const m = await model([{ text: 'some streamed text' }]);
    const r = await m.generate(
      request({
        onTextDelta: () => {
          throw new Error('boom');
        },
      }),
    );
    expect(!r.ok && r.error).toMatchObject({ reason: 'AGENT_CONFIGURATION_ERROR', message: 'the onTextDelta callback threw: boom' });
  });
  it('reports a 401 with the hint to check the key', async () => {
    server = await startFakeServer({ script: [{ text: 'x' }], apiKey: 'right' });
    const m = openAIModel('gpt-test', { apiKey: 'wrong', baseUrl: server.openaiBaseUrl });
    if (m._tag === 'Left') throw new Error();
    const r = await m.right.generate(request());
    expect(!r.ok && r.error).toMatchObject({ reason: 'AGENT_LLM_API_ERROR', status: 401, retryable: false });
    expect(!r.ok && r.error.message).toContain('check the API key');
  });
});

describe('openai transport', () => {
  it('honours Retry-After in seconds', async () => {
    const delays: number[] = [];
    const m = await model([{ rateLimited: { retryAfter: '1' } }, { text: 'after a second' }], { onRetry: (i) => delays.push(i.delayMs) });
    expect(ok(await m.generate(request())).message.content).toBe('after a second');
    expect(delays).toEqual([1000]);
  });
  it('gives up at once when the server asks to wait longer than allowed', async () => {
    const m = await model([{ rateLimited: { retryAfter: '3600' } }, { text: 'not reached' }], { retry: { maxRetryAfterMs: 60_000 } });
    const r = await m.generate(request());
    expect(!r.ok && r.error.reason).toBe('AGENT_RATE_LIMITED');
    expect(!r.ok && r.error.message).toContain('retry after 3600 s');
    expect(server?.requests).toHaveLength(1);
  });
  it('retries a dropped connection', async () => {
    const m = await model([{ dropConnection: true }, { text: 'reconnected' }]);
    expect(ok(await m.generate(request())).message.content).toBe('reconnected');
  });
  it('reports a server that is not there, after retrying', async () => {
    const closed = await startFakeServer({ script: [] });
    const url = closed.openaiBaseUrl;
    await closed.close();
    const retries: string[] = [];
    const m = openAIModel('x', { baseUrl: url, maxRetries: 1, retry: { baseDelayMs: 5 }, onRetry: (i) => retries.push(i.reason) });
    if (m._tag === 'Left') throw new Error();
    const r = await m.right.generate(request());
    expect(!r.ok && r.error).toMatchObject({ reason: 'AGENT_LLM_API_ERROR', retryable: true });
    expect(!r.ok && r.error.message).toContain('cannot reach');
    expect(retries).toHaveLength(1);
  });
  it('does not retry a 4xx', async () => {
    const m = await model([{ status: 422, message: 'Unprocessable' }, { text: 'not reached' }]);
    const r = await m.generate(request());
    expect(!r.ok && r.error.status).toBe(422);
    expect(server?.requests).toHaveLength(1);
  });
});
