/**
 * One conformance suite, run against every provider: OpenAI (tools), OpenAI strict, OpenAI legacy
 * functions, OpenAI Responses, Anthropic, Gemini — over HTTP against the fake server —, the replay
 * model (recorded from the fake server, then replayed), the scripted mock model, and the offline
 * model where it applies.
 *
 * Cases: text answer, one tool call, parallel tool calls with ids, results paired back, streaming
 * deltas (text and tool-call arguments), errors and retries, abort, timeout.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  anthropicModel,
  geminiModel,
  loadRecording,
  offlineModel,
  openAIModel,
  openAIResponsesModel,
  recordModel,
  replayModel,
  type ProviderOptions,
} from '../../src/entries/providers.js';
import { scriptedModel, type ScriptedTurn } from '../../src/entries/testing.js';
import { type Message, type Model, type ModelRequest, type ModelResult, type ToolDefinition } from '../../src/index.js';
import { startFakeServer, type FakeTurn, type RecordedRequest } from '../support/fake-llm-server.js';

// -------------------------------------------------------------------------------------------------
// fixtures
// -------------------------------------------------------------------------------------------------

const tools: ReadonlyArray<ToolDefinition> = [
  {
    name: 'weather.get',
    description: 'Current weather for a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', default: 1 } }, required: ['city'] },
  },
  {
    name: 'sayHello',
    description: 'Greets someone by name',
    inputSchema: { type: 'object', properties: { personName: { type: 'string' } }, required: ['personName'] },
  },
];

const user = (content: string): Message => ({ role: 'user', content });
const ask = (content: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({ system: 'You are helpful.', messages: [user(content)], tools, ...extra });

const FAST_RETRY: ProviderOptions = { retry: { baseDelayMs: 5, maxDelayMs: 20 } };

const tmp = mkdtempSync(join(tmpdir(), 'gramkit-conformance-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let recordings = 0;

// -------------------------------------------------------------------------------------------------
// harnesses
// -------------------------------------------------------------------------------------------------

interface Ctx {
  /** Requests the fake server received (HTTP harnesses, and the recording phase of replay). */
  readonly wire: () => ReadonlyArray<RecordedRequest>;
}

type Body = (model: Model, ctx: Ctx) => Promise<void>;

interface Harness {
  readonly name: string;
  readonly kind: 'http' | 'replay' | 'scripted';
  readonly parallel: boolean;
  run(turns: ReadonlyArray<FakeTurn>, body: Body, options?: ProviderOptions): Promise<void>;
}

type Provider = 'openai' | 'openai-strict' | 'openai-legacy' | 'openai-responses' | 'anthropic' | 'gemini';

const httpModel = (p: Provider, server: { openaiBaseUrl: string; anthropicBaseUrl: string; geminiBaseUrl: string }, options: ProviderOptions): Model => {
  const m =
    p === 'anthropic'
      ? anthropicModel('claude-test', { apiKey: 'test-key', baseUrl: server.anthropicBaseUrl, ...options })
      : p === 'gemini'
        ? geminiModel('gemini-test', { apiKey: 'test-key', baseUrl: server.geminiBaseUrl, ...options })
        : p === 'openai-responses'
          ? openAIResponsesModel('gpt-test', { apiKey: 'test-key', baseUrl: server.openaiBaseUrl, ...options })
          : openAIModel('gpt-test', {
              apiKey: 'test-key',
              baseUrl: server.openaiBaseUrl,
              strict: p === 'openai-strict',
              legacyFunctions: p === 'openai-legacy',
              ...options,
            });
  if (m._tag === 'Left') throw new Error(m.left.message);
  return m.right;
};

const httpHarness = (p: Provider): Harness => ({
  name: p,
  kind: 'http',
  parallel: p !== 'openai-legacy',
  run: async (turns, body, options = {}) => {
    const server = await startFakeServer({ script: turns, apiKey: 'test-key' });
    try {
      await body(httpModel(p, server, options), { wire: () => server.requests });
    } finally {
      await server.close();
    }
  },
});

/** Records the exchange against the fake server (assertions run on the live model), then replays it (assertions again). */
const replayHarness: Harness = {
  name: 'replay',
  kind: 'replay',
  parallel: true,
  run: async (turns, body, options = {}) => {
    const server = await startFakeServer({ script: turns, apiKey: 'test-key' });
    const file = join(tmp, `recording-${++recordings}.json`);
    try {
      await body(recordModel(httpModel('openai', server, options), file), { wire: () => server.requests });
    } finally {
      await server.close();
    }
    const recording = loadRecording(file);
    if (recording._tag === 'Left') throw new Error(recording.left.message);
    await body(replayModel(recording.right), { wire: () => server.requests });
  },
};

const toScripted = (t: FakeTurn): ScriptedTurn => {
  if ('text' in t && !('toolCalls' in t)) return { text: t.text };
  if ('toolCalls' in t)
    return { toolCalls: t.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })), ...(t.text !== undefined ? { text: t.text } : {}) };
  if ('status' in t && !('raw' in t))
    return {
      error: {
        code: t.status === 429 ? 'AGENT_RATE_LIMITED' : 'AGENT_LLM_API_ERROR',
        message: t.message ?? `error ${t.status}`,
        status: t.status,
        retryable: t.status >= 500,
      },
    };
  if ('delayMs' in t) return { delayMs: t.delayMs, then: toScripted(t.then) };
  throw new Error(`no scripted form for ${JSON.stringify(t)}`);
};

const scriptedHarness: Harness = {
  name: 'scripted',
  kind: 'scripted',
  parallel: true,
  run: async (turns, body) => body(scriptedModel(turns.map(toScripted)), { wire: () => [] }),
};

const harnesses: ReadonlyArray<Harness> = [
  httpHarness('openai'),
  httpHarness('openai-strict'),
  httpHarness('openai-legacy'),
  httpHarness('openai-responses'),
  httpHarness('anthropic'),
  httpHarness('gemini'),
  replayHarness,
  scriptedHarness,
];

// -------------------------------------------------------------------------------------------------
// the contract every answer obeys
// -------------------------------------------------------------------------------------------------

const expectWellFormed = (r: ModelResult, request: ModelRequest): void => {
  if (!r.ok) {
    expect(typeof r.error.code).toBe('string');
    expect(r.error.message.length).toBeGreaterThan(0);
    expect(typeof r.error.retryable).toBe('boolean');
    return;
  }
  const v = r.value;
  expect(v.message.role).toBe('assistant');
  expect(typeof v.message.content).toBe('string');
  expect(['stop', 'tool_calls', 'length', 'content_filter', 'other']).toContain(v.finishReason);
  expect(Number.isInteger(v.usage.inputTokens) && v.usage.inputTokens >= 0).toBe(true);
  expect(Number.isInteger(v.usage.outputTokens) && v.usage.outputTokens >= 0).toBe(true);
  const calls = v.message.toolCalls ?? [];
  expect(new Set(calls.map((c) => c.id)).size).toBe(calls.length);
  for (const c of calls) {
    expect(c.id.length).toBeGreaterThan(0);
    expect(request.tools.map((t) => t.name)).toContain(c.name);
  }
  if (calls.length > 0) expect(v.finishReason).toBe('tool_calls');
  // plain data: survives JSON
  expect(JSON.parse(JSON.stringify(v))).toEqual(v);
};

const ok = (r: ModelResult) => {
  if (!r.ok) throw new Error(`expected an answer, got ${r.error.code}: ${r.error.message}`);
  return r.value;
};

const failed = (r: ModelResult) => {
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
  return r.error;
};

/** The conversation after an assistant turn and its results. */
const withResults = (request: ModelRequest, answer: ModelResult, results: ReadonlyArray<{ content: string; isError?: boolean }>): ModelRequest => {
  const message = ok(answer).message;
  const calls = message.toolCalls ?? [];
  return {
    ...request,
    messages: [
      ...request.messages,
      message,
      ...calls.map(
        (c, i): Message => ({
          role: 'tool',
          toolCallId: c.id,
          toolName: c.name,
          content: results[i]?.content ?? '"done"',
          ...(results[i]?.isError === true ? { isError: true } : {}),
        }),
      ),
    ],
  };
};

// -------------------------------------------------------------------------------------------------
// the suite
// -------------------------------------------------------------------------------------------------

describe.each(harnesses)('conformance: $name', (h) => {
  it('answers with text', async () => {
    await h.run([{ text: 'Hello there, friend.' }], async (model) => {
      const request = ask('Hi!');
      const r = await model.generate(request);
      expectWellFormed(r, request);
      const v = ok(r);
      expect(v.message).toEqual({ role: 'assistant', content: 'Hello there, friend.' });
      expect(v.finishReason).toBe('stop');
    });
  });

  it('asks for one tool call, under the gramkit name of the tool', async () => {
    await h.run([{ toolCalls: [{ name: 'weather.get', arguments: { city: 'Paris' } }] }], async (model, ctx) => {
      const request = ask('Weather in Paris?');
      const r = await model.generate(request);
      expectWellFormed(r, request);
      const calls = ok(r).message.toolCalls ?? [];
      expect(calls).toHaveLength(1);
      expect(calls[0]?.name).toBe('weather.get');
      expect(JSON.parse(calls[0]?.arguments ?? '')).toEqual({ city: 'Paris' });
      if (h.kind === 'http') {
        // the provider saw a name it accepts (Gemini accepts dots)
        const sent = JSON.stringify(ctx.wire()[0]?.body);
        if (h.name === 'gemini') expect(sent).toContain('"name":"weather.get"');
        else {
          expect(sent).toContain('"weather_get"');
          expect(sent).not.toContain('"weather.get"');
        }
      }
    });
  });

  it('asks for parallel tool calls, each with its own id, in order', async () => {
    if (!h.parallel) return;
    await h.run(
      [
        {
          toolCalls: [
            { name: 'weather.get', arguments: { city: 'Paris' } },
            { name: 'sayHello', arguments: { personName: 'Ana' } },
            { name: 'weather.get', arguments: { city: 'Rome', days: 3 } },
          ],
        },
      ],
      async (model) => {
        const request = ask('Weather in Paris and Rome, and greet Ana');
        const r = await model.generate(request);
        expectWellFormed(r, request);
        const calls = ok(r).message.toolCalls ?? [];
        expect(calls.map((c) => c.name)).toEqual(['weather.get', 'sayHello', 'weather.get']);
        expect(calls.map((c) => JSON.parse(c.arguments))).toEqual([{ city: 'Paris' }, { personName: 'Ana' }, { city: 'Rome', days: 3 }]);
        expect(new Set(calls.map((c) => c.id)).size).toBe(3);
      },
    );
  });

  it('sends the results back paired with their calls, and answers', async () => {
    const calls = h.parallel
      ? [
          { name: 'weather.get', arguments: { city: 'Paris' } },
          { name: 'weather.get', arguments: { city: 'Atlantis' } },
        ]
      : [{ name: 'weather.get', arguments: { city: 'Paris' } }];
    await h.run([{ toolCalls: calls }, { text: 'Sunny in Paris; Atlantis is not a city I know.' }], async (model, ctx) => {
      const first = ask('Weather in Paris and Atlantis?');
      const r1 = await model.generate(first);
      const second = withResults(first, r1, [{ content: '{"sky":"sunny"}' }, { content: 'TOOL_EXECUTION_ERROR: unknown city', isError: true }]);
      const r2 = await model.generate(second);
      expectWellFormed(r2, second);
      expect(ok(r2).message.content).toBe('Sunny in Paris; Atlantis is not a city I know.');
      if (h.kind !== 'http') return;
      // the server enforces the pairing rules (an unpaired id is a 400); check the wire shape too
      const body = ctx.wire()[1]?.body;
      const ids = (ok(r1).message.toolCalls ?? []).map((c) => c.id);
      if (h.name === 'anthropic') {
        const last = body.messages[body.messages.length - 1];
        expect(last.role).toBe('user');
        expect(last.content).toEqual([
          { type: 'tool_result', tool_use_id: ids[0], content: '{"sky":"sunny"}' },
          { type: 'tool_result', tool_use_id: ids[1], content: 'TOOL_EXECUTION_ERROR: unknown city', is_error: true },
        ]);
        expect(body.messages[body.messages.length - 2].content.map((b: { type: string }) => b.type)).toEqual(['tool_use', 'tool_use']);
        expect(body.system).toBe('You are helpful.');
      } else if (h.name === 'gemini') {
        // one user turn of functionResponse parts, in the calls' order, under the calls' names and ids
        const contents = body.contents;
        expect(contents.slice(-2).map((c: { role: string }) => c.role)).toEqual(['model', 'user']);
        expect(contents[contents.length - 2].parts.map((p: { functionCall: { id: string } }) => p.functionCall.id)).toEqual(ids);
        expect(contents[contents.length - 1].parts).toEqual([
          { functionResponse: { id: ids[0], name: 'weather.get', response: { output: { sky: 'sunny' } } } },
          { functionResponse: { id: ids[1], name: 'weather.get', response: { error: 'TOOL_EXECUTION_ERROR: unknown city' } } },
        ]);
        expect(body.systemInstruction).toEqual({ parts: [{ text: 'You are helpful.' }] });
      } else if (h.name === 'openai-responses') {
        expect(body.input.slice(-4)).toEqual([
          { type: 'function_call', call_id: ids[0], name: 'weather_get', arguments: '{"city":"Paris"}' },
          { type: 'function_call', call_id: ids[1], name: 'weather_get', arguments: '{"city":"Atlantis"}' },
          { type: 'function_call_output', call_id: ids[0], output: '{"sky":"sunny"}' },
          { type: 'function_call_output', call_id: ids[1], output: 'TOOL_EXECUTION_ERROR: unknown city' },
        ]);
        expect(body.instructions).toBe('You are helpful.');
      } else if (h.name === 'openai-legacy') {
        expect(body.messages.slice(-2)).toEqual([
          { role: 'assistant', content: null, function_call: { name: 'weather_get', arguments: '{"city":"Paris"}' } },
          { role: 'function', name: 'weather_get', content: '{"sky":"sunny"}' },
        ]);
      } else {
        const tail = body.messages.slice(-3);
        expect(tail[0].tool_calls.map((c: { id: string }) => c.id)).toEqual(ids);
        expect(tail.slice(1)).toEqual([
          { role: 'tool', tool_call_id: ids[0], content: '{"sky":"sunny"}' },
          { role: 'tool', tool_call_id: ids[1], content: 'TOOL_EXECUTION_ERROR: unknown city' },
        ]);
      }
    });
  });

  it('reports a result with no matching call as the provider does (400)', async () => {
    // the legacy functions API has no call ids: nothing to mismatch
    if (h.kind !== 'http' || h.name === 'openai-legacy') return;
    await h.run([{ toolCalls: [{ name: 'sayHello', arguments: { personName: 'Ana' } }] }, { text: 'never sent' }], async (model) => {
      const first = ask('Greet Ana');
      const r1 = await model.generate(first);
      const good = withResults(first, r1, [{ content: '"Hello, Ana!"' }]);
      const broken: ModelRequest = {
        ...good,
        messages: good.messages.map((m) => (m.role === 'tool' ? { ...m, toolCallId: 'call_nonexistent' } : m)),
      };
      const e = failed(await model.generate(broken));
      expect(e.reason).toBe('AGENT_LLM_API_ERROR');
      expect(e.status).toBe(400);
      expect(e.retryable).toBe(false);
      expect(e.message).toMatch(h.name === 'anthropic' ? /tool_use|tool_result/ : /tool_call|function/);
    });
  });

  it('streams text deltas that add up to the answer', async () => {
    const text = 'Streaming works: this sentence arrives in several pieces, as a provider would send it.';
    await h.run([{ text }], async (model) => {
      const deltas: string[] = [];
      const request = ask('Say something long', { onTextDelta: (d) => deltas.push(d) });
      const r = await model.generate(request);
      expectWellFormed(r, request);
      expect(ok(r).message.content).toBe(text);
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe(text);
      if (h.kind === 'http') expect(model.id).toMatch(/^(openai|openai-responses|anthropic|gemini)\//);
    });
  });

  it('streams tool calls, arguments split across deltas', async () => {
    const args = { city: 'São Paulo', days: 7 };
    await h.run([{ toolCalls: [{ name: 'weather.get', arguments: args }], chunkSize: 3 }], async (model, ctx) => {
      const request = ask('Weather in São Paulo for a week', { onTextDelta: () => undefined });
      const r = await model.generate(request);
      expectWellFormed(r, request);
      const calls = ok(r).message.toolCalls ?? [];
      expect(calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([['weather.get', args]]);
      if (h.kind === 'http') expect(ctx.wire()[0]?.stream).toBe(true);
    });
  });

  it('returns a provider error as a result, with its status and message, without retrying a 4xx', async () => {
    await h.run([{ status: 400, message: "Invalid 'messages[0].content': too long." }, { text: 'not reached' }], async (model, ctx) => {
      const e = failed(await model.generate(ask('x')));
      expect(e.reason).toBe('AGENT_LLM_API_ERROR');
      expect(e.status).toBe(400);
      expect(e.message).toContain("Invalid 'messages[0].content': too long.");
      if (h.kind === 'http') expect(ctx.wire()).toHaveLength(1);
    });
  });

  it('retries a 5xx and a 429 (Retry-After) and then answers', async () => {
    if (h.kind === 'scripted') return;
    const retries: number[] = [];
    await h.run(
      [{ status: 500 }, { rateLimited: { retryAfterMs: 30 } }, { text: 'third time lucky' }],
      async (model, ctx) => {
        const r = await model.generate(ask('x'));
        expect(ok(r).message.content).toBe('third time lucky');
        if (h.kind === 'http') {
          expect(ctx.wire().map((q) => q.status)).toEqual([500, 429, 200]);
          expect(retries).toEqual([expect.any(Number), 30]);
        }
      },
      { ...FAST_RETRY, maxRetries: 2, onRetry: (i) => retries.push(i.delayMs) },
    );
  });

  it('gives up with AGENT_RATE_LIMITED once retries are spent', async () => {
    if (h.kind === 'scripted') return;
    const limited = { rateLimited: { retryAfterMs: 5 } } as const;
    await h.run(
      [limited, limited, limited, { text: 'not reached' }],
      async (model, ctx) => {
        const e = failed(await model.generate(ask('x')));
        expect(e.reason).toBe('AGENT_RATE_LIMITED');
        expect(e.status).toBe(429);
        expect(e.message).toContain('after 3 attempts');
        if (h.kind === 'http') expect(ctx.wire()).toHaveLength(3);
      },
      { ...FAST_RETRY, maxRetries: 2 },
    );
  });

  it('reports an answer it cannot read as AGENT_INVALID_RESPONSE', async () => {
    if (h.kind === 'scripted') return;
    await h.run([{ raw: '<html>502 Bad Gateway</html>' }], async (model) => {
      const e = failed(await model.generate(ask('x')));
      expect(e.reason).toBe('AGENT_INVALID_RESPONSE');
    });
  });

  it('is cancelled by an aborted signal, before and during a call', async () => {
    await h.run([{ delayMs: 10_000, then: { text: 'too late' } }], async (model) => {
      const pre = new AbortController();
      pre.abort();
      expect(failed(await model.generate(ask('x', { signal: pre.signal }))).reason).toBe('AGENT_CANCELLED');
      if (h.kind === 'replay') return; // a replay answers at once: nothing to interrupt
      const during = new AbortController();
      setTimeout(() => during.abort(), 50);
      const e = failed(await model.generate(ask('x', { signal: during.signal })));
      expect(e.reason).toBe('AGENT_CANCELLED');
      expect(e.retryable).toBe(false);
    });
  });

  it('times out a call that takes too long', async () => {
    if (h.kind !== 'http') return;
    await h.run(
      [{ delayMs: 10_000, then: { text: 'too late' } }],
      async (model) => {
        const e = failed(await model.generate(ask('x')));
        expect(e.reason).toBe('AGENT_TIMEOUT');
        expect(e.retryable).toBe(true);
      },
      { timeoutMs: 150, maxRetries: 0 },
    );
  });

  it('times out a stream that stalls', async () => {
    if (h.kind !== 'http') return;
    await h.run(
      [{ stallMs: 10_000, then: { text: 'stalled answer' } }],
      async (model) => {
        const e = failed(await model.generate(ask('x', { onTextDelta: () => undefined })));
        expect(e.reason).toBe('AGENT_TIMEOUT');
      },
      { bodyTimeoutMs: 150, maxRetries: 0 },
    );
  });
});

// -------------------------------------------------------------------------------------------------
// offline, where the cases apply (it cannot be scripted: it is a deterministic demo)
// -------------------------------------------------------------------------------------------------

describe('conformance: offline', () => {
  const model = offlineModel();
  it('answers with text when no tool matches (saying it is a demo model)', async () => {
    const request = ask('Tell me a joke');
    const r = await model.generate(request);
    expectWellFormed(r, request);
    expect(ok(r).message.content).toContain('offline demo model');
    expect(ok(r).message.content).toContain('weather.get');
  });
  it('asks for one tool call with arguments from the message', async () => {
    const request = ask("Hello, I'm Alice");
    const r = await model.generate(request);
    expectWellFormed(r, request);
    expect(ok(r).message.toolCalls?.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([['sayHello', { personName: 'Alice' }]]);
  });
  it('answers with the results sent back', async () => {
    const first = ask('What is the weather in Paris?');
    const r1 = await model.generate(first);
    expect(JSON.parse(ok(r1).message.toolCalls?.[0]?.arguments ?? '')).toEqual({ city: 'Paris', days: 1 });
    const second = withResults(first, r1, [{ content: '{"sky":"sunny","temperature":21}' }]);
    const r2 = await model.generate(second);
    expectWellFormed(r2, second);
    expect(ok(r2).message.content).toBe('sky: sunny, temperature: 21');
  });
  it('streams its answer in deltas', async () => {
    const deltas: string[] = [];
    const r = await model.generate(ask('Tell me a joke', { onTextDelta: (d) => deltas.push(d) }));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(ok(r).message.content);
  });
  it('is cancelled by an aborted signal', async () => {
    const c = new AbortController();
    c.abort();
    expect(failed(await model.generate(ask('x', { signal: c.signal }))).reason).toBe('AGENT_CANCELLED');
  });
});
