/** The fake server itself: what other suites (the agent loop, benchmarks) rely on. */
import { afterEach, describe, expect, it } from 'vitest';
import { lastUserText, startFakeServer, toolResults, type FakeServer } from '../support/fake-llm-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const r = await fetch(`${server?.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: r.status, headers: r.headers, text: await r.text() };
};

describe('fake LLM server', () => {
  it('answers turns in order, records requests, and says when the script runs out', async () => {
    server = await startFakeServer({ script: [{ text: 'one' }] });
    const a = await post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(JSON.parse(a.text).choices[0].message).toEqual({ role: 'assistant', content: 'one', refusal: null });
    const b = await post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'again' }] });
    expect(b.status).toBe(500);
    expect(b.text).toContain('the script has 1 turns');
    expect(server.requests.map((r) => [r.provider, r.status, lastUserText(r)])).toEqual([
      ['openai', 200, 'hi'],
      ['openai', 500, 'again'],
    ]);
    expect(server.remaining()).toBe(0);
  });
  it('takes a function script (for concurrent conversations) with helpers to read the request', async () => {
    server = await startFakeServer({
      script: (r) => {
        const results = toolResults(r);
        return results.length > 0
          ? { text: `got ${results.map((x) => x.content).join(',')}` }
          : { toolCalls: [{ name: 'f', arguments: { q: lastUserText(r) } }] };
      },
    });
    const first = JSON.parse(
      (
        await post('/v1/chat/completions', {
          model: 'm',
          messages: [{ role: 'user', content: 'q1' }],
          tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
        })
      ).text,
    );
    const call = first.choices[0].message.tool_calls[0];
    expect(call.function).toEqual({ name: 'f', arguments: '{"q":"q1"}' });
    expect(call.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    const second = JSON.parse(
      (
        await post('/v1/chat/completions', {
          model: 'm',
          messages: [{ role: 'user', content: 'q1' }, first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: 'R' }],
          tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
        })
      ).text,
    );
    expect(second.choices[0].message.content).toBe('got R');
    expect(second.choices[0].finish_reason).toBe('stop');
  });
  it('enforces OpenAI pairing rules with OpenAI error bodies', async () => {
    server = await startFakeServer({ script: [{ text: 'x' }] });
    const assistant = {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } },
        { id: 'call_2', type: 'function', function: { name: 'f', arguments: '{}' } },
      ],
    };
    const missing = await post('/v1/chat/completions', {
      model: 'm',
      messages: [{ role: 'user', content: 'x' }, assistant, { role: 'tool', tool_call_id: 'call_1', content: 'r' }, { role: 'user', content: 'next' }],
    });
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.text).error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringContaining('did not have response messages: call_2'),
    });
    const stray = await post('/v1/chat/completions', {
      model: 'm',
      messages: [
        { role: 'user', content: 'x' },
        { role: 'tool', tool_call_id: 'call_9', content: 'r' },
      ],
    });
    expect(JSON.parse(stray.text).error.message).toContain("messages with role 'tool' must be a response to a preceeding message with 'tool_calls'");
    const badName = await post('/v1/chat/completions', {
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'function', function: { name: 'a.b', parameters: { type: 'object' } } }],
    });
    expect(JSON.parse(badName.text).error.param).toBe('tools[0].function.name');
    expect(server.remaining()).toBe(1);
  });
  it('streams SSE chunks with tool-call arguments split across deltas', async () => {
    server = await startFakeServer({ script: [{ toolCalls: [{ name: 'f', arguments: { city: 'Paris' } }], chunkSize: 4 }] });
    const r = await post('/v1/chat/completions', {
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
    });
    expect(r.headers.get('content-type')).toContain('text/event-stream');
    const events = r.text
      .split('\n\n')
      .filter((e) => e.startsWith('data: '))
      .map((e) => e.slice(6));
    expect(events[events.length - 1]).toBe('[DONE]');
    const pieces = events
      .slice(0, -1)
      .map((e) => JSON.parse(e).choices[0]?.delta?.tool_calls?.[0]?.function?.arguments)
      .filter((x): x is string => typeof x === 'string' && x.length > 0);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.join('')).toBe('{"city":"Paris"}');
  });
  it('reads the last user text and the trailing tool results of every wire format', async () => {
    server = await startFakeServer({ script: [{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }], geminiThoughtSignatures: false });
    await post('/v1/responses', { model: 'm', input: [{ role: 'user', content: 'hello responses' }] });
    await post('/v1/responses', {
      model: 'm',
      input: [
        { role: 'user', content: 'x' },
        { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'R1' },
      ],
    });
    await post('/v1beta/models/g:generateContent', { contents: [{ role: 'user', parts: [{ text: 'hello ' }, { text: 'gemini' }] }] });
    await post('/v1beta/models/g:generateContent', {
      contents: [
        { role: 'user', parts: [{ text: 'x' }] },
        { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }, { functionCall: { id: 'c2', name: 'g', args: {} } }] },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'f', response: { output: { ok: 1 } } } },
            { functionResponse: { id: 'c2', name: 'g', response: { error: 'boom' } } },
          ],
        },
      ],
    });
    const [r0, r1, r2, r3] = server.requests;
    expect(server.requests.map((r) => [r.provider, r.status])).toEqual([
      ['openai-responses', 200],
      ['openai-responses', 200],
      ['gemini', 200],
      ['gemini', 200],
    ]);
    expect([r0, r2].map((r) => (r === undefined ? '' : lastUserText(r)))).toEqual(['hello responses', 'hello gemini']);
    expect(r1 === undefined ? [] : toolResults(r1)).toEqual([{ id: 'call_1', content: 'R1', isError: false }]);
    expect(r3 === undefined ? [] : toolResults(r3)).toEqual([
      { id: 'f', content: '{"ok":1}', isError: false },
      { id: 'c2', content: '"boom"', isError: true },
    ]);
    expect(r3?.model).toBe('g');
  });
  it('streams Gemini chunks (alt=sse) and Responses events, with Gemini ids and thought signatures', async () => {
    server = await startFakeServer({
      script: [
        { text: 'Hi', toolCalls: [{ name: 'f.g', arguments: { a: 1 } }] },
        { toolCalls: [{ name: 'f', arguments: { city: 'Paris' } }], chunkSize: 4 },
      ],
    });
    const g = await post('/v1beta/models/g:streamGenerateContent?alt=sse', {
      contents: [{ role: 'user', parts: [{ text: 'x' }] }],
      tools: [{ functionDeclarations: [{ name: 'f.g' }] }],
    });
    expect(g.headers.get('content-type')).toContain('text/event-stream');
    const chunks = g.text
      .split('\r\n\r\n')
      .filter((e) => e.startsWith('data: '))
      .map((e) => JSON.parse(e.slice(6)));
    const last = chunks[chunks.length - 1];
    expect(last.candidates[0].finishReason).toBe('STOP');
    expect(last.candidates[0].content.parts).toEqual([
      { functionCall: { id: expect.stringMatching(/^[a-z0-9]{8}$/), name: 'f.g', args: { a: 1 } }, thoughtSignature: expect.any(String) },
    ]);
    expect(last.usageMetadata.totalTokenCount).toBeGreaterThan(0);
    const r = await post('/v1/responses', {
      model: 'm',
      stream: true,
      input: 'x',
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' }, strict: false }],
    });
    const events = r.text
      .split('\n\n')
      .filter((e) => e.startsWith('event: '))
      .map((e) => JSON.parse(e.split('\ndata: ')[1] ?? ''));
    expect(events[events.length - 1].type).toBe('response.completed');
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const pieces = events.filter((e) => e.type === 'response.function_call_arguments.delta').map((e) => e.delta);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.join('')).toBe('{"city":"Paris"}');
  });
  it('sends Gemini 429s with RetryInfo in the body and Google error bodies', async () => {
    server = await startFakeServer({ script: [{ rateLimited: { retryAfterMs: 1500 } }, { status: 500 }] });
    const limited = await post('/v1beta/models/g:generateContent', { contents: [{ role: 'user', parts: [{ text: 'x' }] }] });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeNull();
    expect(JSON.parse(limited.text).error).toMatchObject({
      code: 429,
      status: 'RESOURCE_EXHAUSTED',
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.5s' }],
    });
    const failedCall = await post('/v1beta/models/g:generateContent', { contents: [{ role: 'user', parts: [{ text: 'x' }] }] });
    expect(JSON.parse(failedCall.text).error).toMatchObject({ code: 500, status: 'INTERNAL' });
  });
  it('sends 429 with Retry-After and 404 for unknown paths', async () => {
    server = await startFakeServer({ script: [{ rateLimited: { retryAfter: '7', retryAfterMs: 7000 } }] });
    const r = await post('/v1/messages', { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] }, { 'anthropic-version': '2023-06-01' });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('7');
    expect(JSON.parse(r.text)).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: expect.any(String) } });
    expect((await post('/v1/embeddings', {})).status).toBe(404);
  });
});
