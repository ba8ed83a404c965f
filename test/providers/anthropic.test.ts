/** Anthropic specifics beyond the conformance suite: the Messages request shape and stream details. */
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicModel } from '../../src/entries/providers.js';
import { type Model, type ModelRequest, type ModelResult, type ToolDefinition } from '../../src/index.js';
import { startFakeServer, type FakeServer, type FakeTurn } from '../support/fake-llm-server.js';

const tools: ReadonlyArray<ToolDefinition> = [
  { name: 'files.read', description: 'Reads a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
];

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const model = async (turns: ReadonlyArray<FakeTurn>, options: Parameters<typeof anthropicModel>[1] = {}): Promise<Model> => {
  server = await startFakeServer({ script: turns, apiKey: 'ant-key' });
  const m = anthropicModel('claude-test', { apiKey: 'ant-key', baseUrl: server.anthropicBaseUrl, ...options });
  if (m._tag === 'Left') throw new Error(m.left.message);
  return m.right;
};

const ok = (r: ModelResult) => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
};

describe('anthropic request', () => {
  it('sends model, max_tokens, system, tools, tool_choice and the headers', async () => {
    const m = await model([{ text: 'ok' }], { maxTokens: 321, beta: ['tools-2024'] });
    ok(
      await m.generate({
        system: 'Be brief.',
        messages: [
          { role: 'system', content: 'Also polite.' },
          { role: 'user', content: 'read a.txt' },
        ],
        tools,
        toolChoice: 'required',
        temperature: 0,
      }),
    );
    const r = server?.requests[0];
    expect(r?.body).toEqual({
      model: 'claude-test',
      max_tokens: 321,
      system: 'Be brief.\n\nAlso polite.',
      messages: [{ role: 'user', content: 'read a.txt' }],
      tools: [{ name: 'files_read', description: 'Reads a file', input_schema: tools[0]?.inputSchema }],
      tool_choice: { type: 'any' },
      temperature: 0,
    });
    expect(r?.headers['x-api-key']).toBe('ant-key');
    expect(r?.headers['anthropic-version']).toBe('2023-06-01');
    expect(r?.headers['anthropic-beta']).toBe('tools-2024');
    expect(r?.path).toBe('/v1/messages');
  });
  it('maps tool choices and parallel calls', async () => {
    const m = await model([{ text: '1' }, { text: '2' }, { text: '3' }]);
    ok(await m.generate({ messages: [{ role: 'user', content: 'x' }], tools, toolChoice: { tool: 'files.read' }, parallelToolCalls: false }));
    ok(await m.generate({ messages: [{ role: 'user', content: 'x' }], tools, toolChoice: 'none' }));
    ok(await m.generate({ messages: [{ role: 'user', content: 'x' }], tools, parallelToolCalls: false }));
    expect(server?.requests.map((r) => r.body.tool_choice)).toEqual([
      { type: 'tool', name: 'files_read', disable_parallel_tool_use: true },
      { type: 'none' },
      { type: 'auto', disable_parallel_tool_use: true },
    ]);
  });
  it('puts all results of a turn in one user message, before any text, and merges what follows', async () => {
    const m = await model([{ text: 'done' }]);
    const request: ModelRequest = {
      tools,
      messages: [
        { role: 'user', content: 'read a and b' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'toolu_a', name: 'files.read', arguments: '{"path":"a"}' },
            { id: 'toolu_b', name: 'files.read', arguments: 'not json' },
          ],
        },
        { role: 'tool', toolCallId: 'toolu_a', toolName: 'files.read', content: 'A' },
        { role: 'user', content: 'also, hurry' },
        { role: 'tool', toolCallId: 'toolu_b', toolName: 'files.read', content: 'FILE_NOT_FOUND: b', isError: true },
        { role: 'assistant', content: '' },
      ],
    };
    ok(await m.generate(request));
    expect(server?.requests[0]?.body.messages).toEqual([
      { role: 'user', content: 'read a and b' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_a', name: 'files_read', input: { path: 'a' } },
          { type: 'tool_use', id: 'toolu_b', name: 'files_read', input: { invalid_json: 'not json' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'A' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: 'FILE_NOT_FOUND: b', is_error: true },
          { type: 'text', text: 'also, hurry' },
        ],
      },
    ]);
  });
});

describe('anthropic answers', () => {
  it('reads text and tool_use blocks together, input as an object', async () => {
    const m = await model([{ text: 'Let me read it.', toolCalls: [{ name: 'files.read', arguments: { path: 'README.md' } }] }]);
    const v = ok(await m.generate({ messages: [{ role: 'user', content: 'read the readme' }], tools }));
    expect(v.message.content).toBe('Let me read it.');
    expect(v.message.toolCalls?.map((c) => [c.name, c.arguments])).toEqual([['files.read', '{"path":"README.md"}']]);
    expect(v.message.toolCalls?.[0]?.id).toMatch(/^toolu_/);
    expect(v.id).toMatch(/^msg_/);
  });
  it('streams text then tool_use, with input_json_delta pieces', async () => {
    const m = await model([{ text: 'Reading now.', toolCalls: [{ name: 'files.read', arguments: { path: 'docs/a long name.md' } }], chunkSize: 2 }]);
    const deltas: string[] = [];
    const v = ok(await m.generate({ messages: [{ role: 'user', content: 'read' }], tools, onTextDelta: (d) => deltas.push(d) }));
    expect(deltas.join('')).toBe('Reading now.');
    expect(JSON.parse(v.message.toolCalls?.[0]?.arguments ?? '')).toEqual({ path: 'docs/a long name.md' });
    expect(v.usage.inputTokens).toBeGreaterThan(0);
  });
  it('reports an error event in the stream (overloaded) as a retryable error', async () => {
    const m = await model([{ streamError: { type: 'overloaded_error', message: 'Overloaded' }, afterText: 'Par' }]);
    const r = await m.generate({ messages: [{ role: 'user', content: 'x' }], tools, onTextDelta: () => undefined });
    expect(!r.ok && r.error).toMatchObject({ reason: 'AGENT_LLM_API_ERROR', retryable: true });
    expect(!r.ok && r.error.message).toContain('Overloaded');
  });
  it('retries a 529 overloaded answer', async () => {
    const m = await model([{ status: 529, type: 'overloaded_error', message: 'Overloaded' }, { text: 'fine now' }], { retry: { baseDelayMs: 5 } });
    expect(ok(await m.generate({ messages: [{ role: 'user', content: 'x' }], tools })).message.content).toBe('fine now');
  });
  it('the fake server rejects what the real API rejects: a missing version header, no max_tokens', async () => {
    server = await startFakeServer({ script: [] });
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(`${server?.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then(
        async (r) => ({ status: r.status, body: (await r.json()) as { type: string; error: { type: string; message: string } } }),
      );
    const noVersion = await post({}, { model: 'x', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(noVersion).toEqual({
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' } },
    });
    const noMax = await post({ 'anthropic-version': '2023-06-01' }, { model: 'x', messages: [{ role: 'user', content: 'x' }] });
    expect(noMax.body.error.message).toBe('max_tokens: Field required');
    const unpaired = await post(
      { 'anthropic-version': '2023-06-01' },
      {
        model: 'x',
        max_tokens: 5,
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] },
          { role: 'user', content: 'no result' },
        ],
      },
    );
    expect(unpaired.body.error.message).toContain('`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1');
  });
});
