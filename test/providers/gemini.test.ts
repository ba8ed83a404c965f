/** Gemini specifics beyond the conformance suite: the generateContent request shape, pairing, thought signatures, stream and error details. */
import { afterEach, describe, expect, it } from 'vitest';
import { geminiModel } from '../../src/entries/providers.js';
import { type Message, type Model, type ModelRequest, type ModelResult, type ToolDefinition } from '../../src/index.js';
import { startFakeServer, type FakeServer, type FakeServerOptions, type FakeTurn } from '../support/fake-llm-server.js';

const tools: ReadonlyArray<ToolDefinition> = [
  {
    name: 'files.read',
    description: 'Reads a file',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, lines: { type: 'integer', enum: [10, 100] }, encoding: { type: ['string', 'null'] } },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: '3d/render',
    description: 'Renders a scene',
    inputSchema: { type: 'object', properties: { scene: { type: 'string' }, quality: { type: 'integer' } }, required: ['scene'] },
  },
];
const user = (content: string): Message => ({ role: 'user', content });

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const model = async (
  turns: ReadonlyArray<FakeTurn>,
  options: Parameters<typeof geminiModel>[1] = {},
  serverOptions: Partial<FakeServerOptions> = {},
): Promise<Model> => {
  server = await startFakeServer({ script: turns, apiKey: 'g-key', ...serverOptions });
  const m = geminiModel('gemini-test', { apiKey: 'g-key', baseUrl: server.geminiBaseUrl, retry: { baseDelayMs: 5, maxDelayMs: 10 }, ...options });
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

/** A conversation continued with results for every call of `answer`, in order. */
const continued = (request: ModelRequest, answer: ModelResult, results: ReadonlyArray<string>): ModelRequest => {
  const message = ok(answer).message;
  return {
    ...request,
    messages: [
      ...request.messages,
      message,
      ...(message.toolCalls ?? []).map((c, i): Message => ({ role: 'tool', toolCallId: c.id, toolName: c.name, content: results[i] ?? '"done"' })),
    ],
  };
};

describe('gemini request', () => {
  it('sends systemInstruction, contents, functionDeclarations in the gemini dialect, toolConfig and generationConfig', async () => {
    const m = await model([{ text: 'ok' }], { headers: { 'x-extra': 'yes' } });
    ok(
      await m.generate({
        system: 'Be brief.',
        messages: [{ role: 'system', content: 'Also polite.' }, user('read a.txt')],
        tools,
        toolChoice: 'required',
        parallelToolCalls: false,
        maxTokens: 50,
        temperature: 0.2,
      }),
    );
    const r = server?.requests[0];
    expect(r?.path).toBe('/v1beta/models/gemini-test:generateContent');
    expect(r?.headers['x-goog-api-key']).toBe('g-key');
    expect(r?.headers['x-extra']).toBe('yes');
    expect(r?.body).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.\n\nAlso polite.' }] },
      contents: [{ role: 'user', parts: [{ text: 'read a.txt' }] }],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'files.read',
              description: 'Reads a file',
              // Gemini's Schema: nullable instead of type arrays, string enums, no additionalProperties
              parameters: {
                type: 'object',
                properties: {
                  path: { type: 'string' },
                  lines: { type: 'string', format: 'enum', enum: ['10', '100'] },
                  encoding: { type: 'string', nullable: true },
                },
                required: ['path'],
                propertyOrdering: ['path', 'lines', 'encoding'],
              },
            },
            {
              name: '_3d_render',
              description: 'Renders a scene',
              parameters: {
                type: 'object',
                properties: { scene: { type: 'string' }, quality: { type: 'integer' } },
                required: ['scene'],
                propertyOrdering: ['scene', 'quality'],
              },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
      generationConfig: { maxOutputTokens: 50, temperature: 0.2 },
    });
  });
  it('maps tool choices to functionCallingConfig', async () => {
    const m = await model([{ text: '1' }, { text: '2' }, { text: '3' }, { text: '4' }]);
    for (const toolChoice of ['auto', 'none', { tool: '3d/render' }] as const) ok(await m.generate({ messages: [user('x')], tools, toolChoice }));
    ok(await m.generate({ messages: [user('x')], tools: [], toolChoice: 'required' }));
    expect(server?.requests.map((r) => r.body.toolConfig)).toEqual([
      { functionCallingConfig: { mode: 'AUTO' } },
      { functionCallingConfig: { mode: 'NONE' } },
      { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['_3d_render'] } },
      undefined,
    ]);
    expect(Object.keys(server?.requests[3]?.body ?? {})).toEqual(['contents']);
  });
  it('streams from :streamGenerateContent?alt=sse', async () => {
    const m = await model([{ text: 'streamed' }]);
    ok(await m.generate({ messages: [user('x')], tools, onTextDelta: () => undefined }));
    expect(server?.requests[0]?.path).toBe('/v1beta/models/gemini-test:streamGenerateContent');
    expect(server?.requests[0]?.query).toBe('alt=sse');
    expect(server?.requests[0]?.stream).toBe(true);
  });
  it('sends results as functionResponse objects: output, or error for a failed call', async () => {
    const m = await model([{ text: 'done' }], {}, { geminiThoughtSignatures: false });
    const calls = [
      { id: 'c1', name: 'files.read', arguments: '{"path":"a"}' },
      { id: 'c2', name: 'files.read', arguments: '{"path":"b"}' },
      { id: 'c3', name: 'files.read', arguments: 'not json' },
    ];
    ok(
      await m.generate({
        tools,
        messages: [
          user('read three'),
          { role: 'assistant', content: '', toolCalls: calls },
          { role: 'tool', toolCallId: 'c1', toolName: 'files.read', content: 'plain text' },
          { role: 'tool', toolCallId: 'c2', toolName: 'files.read', content: '{"size":3}' },
          { role: 'tool', toolCallId: 'c3', toolName: 'files.read', content: 'INVALID_ARGUMENTS: not JSON', isError: true },
        ],
      }),
    );
    expect(server?.requests[0]?.body.contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          // a call gramkit has no signature for is sent with the documented skip value
          { functionCall: { id: 'c1', name: 'files.read', args: { path: 'a' } }, thoughtSignature: 'skip_thought_signature_validator' },
          { functionCall: { id: 'c2', name: 'files.read', args: { path: 'b' } } },
          { functionCall: { id: 'c3', name: 'files.read', args: { invalid_json: 'not json' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'c1', name: 'files.read', response: { output: 'plain text' } } },
          { functionResponse: { id: 'c2', name: 'files.read', response: { output: { size: 3 } } } },
          { functionResponse: { id: 'c3', name: 'files.read', response: { error: 'INVALID_ARGUMENTS: not JSON' } } },
        ],
      },
    ]);
  });
});

describe('gemini calls without ids (older versions)', () => {
  it('invents stable ids, sends none, and pairs the results by name and order whatever order they come in', async () => {
    const m = await model(
      [
        {
          toolCalls: [
            { name: 'files.read', arguments: { path: 'a' } },
            { name: '3d/render', arguments: { scene: 'cube' } },
          ],
        },
        { text: 'both done' },
      ],
      {},
      { geminiCallIds: false, geminiThoughtSignatures: false },
    );
    const first: ModelRequest = { messages: [user('read a and render a cube')], tools };
    const r1 = ok(await m.generate(first));
    const calls = r1.message.toolCalls ?? [];
    expect(calls.map((c) => [c.id, c.name])).toEqual([
      ['call_gk1_0', 'files.read'],
      ['call_gk1_1', '3d/render'],
    ]);
    // results out of order, a user message between them
    const second: ModelRequest = {
      ...first,
      messages: [
        ...first.messages,
        r1.message,
        { role: 'tool', toolCallId: 'call_gk1_1', toolName: '3d/render', content: '"rendered"' },
        user('and hurry'),
        { role: 'tool', toolCallId: 'call_gk1_0', toolName: 'files.read', content: '"A"' },
      ],
    };
    expect(ok(await m.generate(second)).message.content).toBe('both done');
    const contents = server?.requests[1]?.body.contents;
    expect(contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'files.read', args: { path: 'a' } }, thoughtSignature: 'skip_thought_signature_validator' },
          { functionCall: { name: '_3d_render', args: { scene: 'cube' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'files.read', response: { output: 'A' } } },
          { functionResponse: { name: '_3d_render', response: { output: 'rendered' } } },
        ],
      },
      { role: 'user', parts: [{ text: 'and hurry' }] },
    ]);
  });
  it('the fake server refuses what Gemini refuses: fewer responses than calls, names out of order', async () => {
    server = await startFakeServer({ script: [], geminiThoughtSignatures: false });
    const post = async (contents: unknown) => {
      const r = await fetch(`${server?.url}/v1beta/models/g:generateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ contents }),
      });
      return { status: r.status, body: (await r.json()) as { error: { code: number; status: string; message: string } } };
    };
    const callTurn = { role: 'model', parts: [{ functionCall: { name: 'a', args: {} } }, { functionCall: { name: 'b', args: {} } }] };
    const fewer = await post([
      { role: 'user', parts: [{ text: 'x' }] },
      callTurn,
      { role: 'user', parts: [{ functionResponse: { name: 'a', response: {} } }] },
    ]);
    expect(fewer).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 400,
          status: 'INVALID_ARGUMENT',
          message: expect.stringContaining('number of function response parts is equal to the number of function call parts'),
        },
      },
    });
    const swapped = await post([
      { role: 'user', parts: [{ text: 'x' }] },
      callTurn,
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'b', response: {} } }, { functionResponse: { name: 'a', response: {} } }],
      },
    ]);
    expect(swapped.body.error.message).toContain('does not match its function call');
    const orphan = await post([
      { role: 'user', parts: [{ text: 'x' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'a', response: {} } }] },
    ]);
    expect(orphan.body.error.message).toContain('function response turn comes immediately after a function call turn');
  });
});

describe('gemini thought signatures', () => {
  it('sends back the signature Gemini gave with a call, and the documented skip value for a call it has none for', async () => {
    const m = await model([
      {
        toolCalls: [
          { name: 'files.read', arguments: { path: 'a' } },
          { name: 'files.read', arguments: { path: 'b' } },
        ],
      },
      { text: 'live' },
      { text: 'rebuilt' },
    ]);
    const first: ModelRequest = { messages: [user('read a and b')], tools };
    const r1 = await m.generate(first);
    const second = continued(first, r1, ['"A"', '"B"']);
    expect(ok(await m.generate(second)).message.content).toBe('live');
    const parts = (i: number) => server?.requests[i]?.body.contents[1].parts;
    const signature = parts(1)[0].thoughtSignature;
    expect(signature).toMatch(/^Cr/);
    expect(parts(1)[1].thoughtSignature).toBeUndefined(); // only the first call of a step is signed
    // the same conversation saved and loaded: the calls are new objects, their signature unknown
    const rebuilt = JSON.parse(JSON.stringify(second)) as ModelRequest;
    expect(ok(await m.generate({ ...rebuilt, tools })).message.content).toBe('rebuilt');
    expect(parts(2)[0].thoughtSignature).toBe('skip_thought_signature_validator');
  });
  it('the fake server refuses a call of the current turn without its signature, as Gemini 3 does', async () => {
    server = await startFakeServer({ script: [] });
    const r = await fetch(`${server.url}/v1beta/models/g:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        contents: [
          { role: 'user', parts: [{ text: 'x' }] },
          { role: 'model', parts: [{ functionCall: { name: 'a', args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'a', response: {} } }] },
        ],
      }),
    });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { message: string } }).error.message).toContain('missing a thought_signature');
  });
});

describe('gemini answers', () => {
  it('reads text and function calls together, names mapped back, arguments normalized (nulls of optional parameters, enum strings)', async () => {
    const m = await model([
      {
        text: 'Reading.',
        toolCalls: [
          { name: 'files.read', arguments: { path: 'a.txt', lines: '100', encoding: null } },
          { name: '_3d_render', arguments: { scene: 'cube', quality: null } },
        ],
      },
    ]);
    const v = ok(await m.generate({ messages: [user('read a.txt, render a cube')], tools }));
    expect(v.message.content).toBe('Reading.');
    expect(v.message.toolCalls?.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ['files.read', { path: 'a.txt', lines: 100, encoding: null }], // encoding may be null: kept
      ['3d/render', { scene: 'cube' }], // quality may not: null means "not given"
    ]);
    expect(v.finishReason).toBe('tool_calls');
    expect(v.usage.inputTokens).toBeGreaterThan(0);
    expect(v.model).toBe('gemini-test');
    expect(v.id).toMatch(/^[A-Za-z0-9]{22}$/);
  });
  const raw = (body: unknown): FakeTurn => ({ raw: JSON.stringify(body) });
  const candidate = (parts: unknown[], finishReason?: string) => ({
    candidates: [{ content: { role: 'model', parts }, ...(finishReason !== undefined ? { finishReason } : {}), index: 0 }],
  });
  it('maps finish reasons, skips thought summaries, counts thinking as output', async () => {
    const m = await model([
      raw({
        ...candidate([{ text: 'thinking...', thought: true }, { text: 'cut' }], 'MAX_TOKENS'),
        usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 5, thoughtsTokenCount: 11 },
      }),
      raw(candidate([], 'SAFETY')),
      raw({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } }),
      raw(candidate([{ text: '' }], 'MALFORMED_FUNCTION_CALL')),
    ]);
    const first = ok(await m.generate({ messages: [user('x')], tools }));
    expect([first.message.content, first.finishReason, first.usage]).toEqual(['cut', 'length', { inputTokens: 7, outputTokens: 16 }]);
    expect(ok(await m.generate({ messages: [user('x')], tools })).finishReason).toBe('content_filter');
    expect(ok(await m.generate({ messages: [user('x')], tools })).finishReason).toBe('content_filter');
    expect(ok(await m.generate({ messages: [user('x')], tools })).finishReason).toBe('other');
  });
  it('reads a stream answered as a JSON array of chunks (a proxy that dropped alt=sse)', async () => {
    const m = await model([raw([candidate([{ text: 'Hel' }]), candidate([{ text: 'lo' }], 'STOP')])]);
    const deltas: string[] = [];
    expect(ok(await m.generate({ messages: [user('x')], tools, onTextDelta: (d) => deltas.push(d) })).message.content).toBe('Hello');
    expect(deltas).toEqual(['Hello']);
  });
  it('reports a body that is not a Gemini answer as INVALID_RESPONSE', async () => {
    const m = await model([raw({ choices: [] })]);
    expect(failed(await m.generate({ messages: [user('x')], tools }))).toMatchObject({
      reason: 'AGENT_INVALID_RESPONSE',
      message: expect.stringContaining('neither candidates nor promptFeedback'),
    });
  });
});

describe('gemini streams', () => {
  const sse = (...chunks: unknown[]): FakeTurn => ({ raw: chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join(''), contentType: 'text/event-stream' });
  it('passes text deltas as they come and reads the call of the last chunk', async () => {
    const m = await model([{ text: 'Let me read it.', toolCalls: [{ name: 'files.read', arguments: { path: 'README.md' } }], chunkSize: 3 }]);
    const deltas: string[] = [];
    const v = ok(await m.generate({ messages: [user('read the readme')], tools, onTextDelta: (d) => deltas.push(d) }));
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Let me read it.');
    expect(v.message.toolCalls?.map((c) => [c.name, c.arguments])).toEqual([['files.read', '{"path":"README.md"}']]);
  });
  it('runs no call from a stream that ends without a finishReason: a transport error', async () => {
    const m = await model([
      sse({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'files.read', args: { path: '/etc/passwd' } } }] }, index: 0 }] }),
    ]);
    const e = failed(await m.generate({ messages: [user('x')], tools, onTextDelta: () => undefined }));
    expect(e).toMatchObject({ reason: 'AGENT_STREAM_INTERRUPTED', retryable: true });
    expect(e.message).toContain('ended before its last chunk');
  });
  it('reports an error chunk in the stream with its status', async () => {
    const m = await model([{ streamError: { type: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' }, afterText: 'Par' }]);
    const deltas: string[] = [];
    const e = failed(await m.generate({ messages: [user('x')], tools, onTextDelta: (d) => deltas.push(d) }));
    expect(e).toMatchObject({ reason: 'AGENT_LLM_API_ERROR', status: 503, retryable: true });
    expect(e.message).toBe('Gemini API error 503 (UNAVAILABLE): The model is overloaded. Please try again later.');
    expect(deltas).toEqual(['Par']);
    const limited = await model([sse({ error: { code: 429, message: 'Resource exhausted', status: 'RESOURCE_EXHAUSTED' } })]);
    expect(failed(await limited.generate({ messages: [user('x')], tools, onTextDelta: () => undefined }))).toMatchObject({
      reason: 'AGENT_RATE_LIMITED',
      status: 429,
      retryable: true,
    });
  });
});

describe('gemini errors and retries', () => {
  it('needs a key: a missing one is a configuration error naming GEMINI_API_KEY', () => {
    const m = geminiModel('gemini-2.5-flash');
    expect(m._tag === 'Left' && m.left).toMatchObject({ reason: 'AGENT_CONFIGURATION_ERROR', message: expect.stringContaining('GEMINI_API_KEY') });
    expect(geminiModel('models/gemini-2.5-flash', { apiKey: 'k' })._tag === 'Right' && 'ok').toBe('ok');
    const bad = geminiModel('a/b', { apiKey: 'k' });
    expect(bad._tag === 'Left' && bad.left.reason).toBe('AGENT_CONFIGURATION_ERROR');
  });
  it('reports a wrong key (Gemini answers 400, not 401) with the hint to check it, without retrying', async () => {
    server = await startFakeServer({ script: [{ text: 'x' }], apiKey: 'right' });
    const m = geminiModel('gemini-test', { apiKey: 'wrong', baseUrl: `${server.geminiBaseUrl}/v1beta` });
    if (m._tag === 'Left') throw new Error(m.left.message);
    const e = failed(await m.right.generate({ messages: [user('x')], tools }));
    expect(e).toMatchObject({ reason: 'AGENT_LLM_API_ERROR', status: 400, retryable: false });
    expect(e.message).toBe('Gemini API error 400 (INVALID_ARGUMENT): API key not valid. Please pass a valid API key. (check the API key)');
    expect(server.requests).toHaveLength(1);
  });
  it('reads a bad key from the ErrorInfo reason Google sends, not from the words of the message', async () => {
    const googleError = (message: string, reason?: string): FakeTurn => ({
      status: 400,
      raw: JSON.stringify({
        error: {
          code: 400,
          message,
          status: 'INVALID_ARGUMENT',
          ...(reason !== undefined ? { details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' }] } : {}),
        },
      }),
    });
    const m = await model([
      googleError('Expired credentials. Renew them.', 'API_KEY_EXPIRED'),
      googleError('* GenerateContentRequest.contents[0]: the API key field is not a part'),
    ]);
    const expired = failed(await m.generate({ messages: [user('x')], tools }));
    expect(expired).toMatchObject({ reason: 'AGENT_LLM_API_ERROR', status: 400, retryable: false, details: { reason: 'API_KEY_EXPIRED' } });
    expect(expired.message).toBe('Gemini API error 400 (INVALID_ARGUMENT): Expired credentials. Renew them. (check the API key)');
    const other = failed(await m.generate({ messages: [user('x')], tools }));
    expect(other.message).not.toContain('check the API key');
  });
  it('honours the RetryInfo delay of a 429 body', async () => {
    const delays: number[] = [];
    const m = await model([{ rateLimited: { retryAfter: '1' } }, { text: 'after a second' }], { onRetry: (i) => delays.push(i.delayMs) });
    expect(ok(await m.generate({ messages: [user('x')], tools })).message.content).toBe('after a second');
    expect(delays).toEqual([1000]);
  });
  it('gives up at once when Gemini asks to wait longer than allowed', async () => {
    const m = await model([{ rateLimited: { retryAfter: '3600' } }, { text: 'not reached' }], { retry: { maxRetryAfterMs: 60_000 } });
    const e = failed(await m.generate({ messages: [user('x')], tools }));
    expect(e).toMatchObject({ reason: 'AGENT_RATE_LIMITED', status: 429 });
    expect(e.message).toContain('Gemini API error 429 (RESOURCE_EXHAUSTED)');
    expect(e.message).toContain('retry after 3600 s');
    expect(server?.requests).toHaveLength(1);
  });
  it('retries 503 UNAVAILABLE, not 403 PERMISSION_DENIED', async () => {
    const m = await model([
      { status: 503, message: 'The model is overloaded.' },
      { text: 'fine now' },
      { status: 403, message: 'Permission denied' },
      { text: 'not reached' },
    ]);
    expect(ok(await m.generate({ messages: [user('x')], tools })).message.content).toBe('fine now');
    const e = failed(await m.generate({ messages: [user('x')], tools }));
    expect(e).toMatchObject({ reason: 'AGENT_LLM_API_ERROR', status: 403, retryable: false });
    expect(e.message).toContain('check the API key');
    expect(server?.requests).toHaveLength(3);
  });
  it("the fake server refuses a schema outside Gemini's subset, as the API does", async () => {
    server = await startFakeServer({ script: [] });
    const r = await fetch(`${server.url}/v1beta/models/g:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'x' }] }],
        tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'object', properties: {}, additionalProperties: false } }] }],
      }),
    });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { message: string } }).error.message).toContain('Unknown name "additionalProperties"');
  });
});
