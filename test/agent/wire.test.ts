/**
 * The loop against real wire formats: the fake LLM server on 127.0.0.1 speaks OpenAI Chat
 * Completions and Anthropic Messages; the providers talk to it over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicModel, openAIModel } from '../../src/entries/providers.js';
import { type Model, runAgent } from '../../src/index.js';
import { type FakeServer, type FakeTurn, lastUserText, type RecordedRequest, startFakeServer, toolResults } from '../support/fake-llm-server.js';
import { agentNamed, recordingLibrary } from './support.js';

const helper = agentNamed('helper');

/** A model that echoes: a user's text → echo(text); echo's result → the answer `echoed: <text>`. */
const echoScript = (r: RecordedRequest): FakeTurn => {
  const results = toolResults(r);
  if (results.length > 0) return { text: `echoed: ${results.map((x) => JSON.parse(x.content) as string).join(' | ')}` };
  const text = lastUserText(r);
  if (text.startsWith('twice '))
    return {
      toolCalls: [
        { name: 'echo', arguments: { text: `${text} (1)` } },
        { name: 'echo', arguments: { text: `${text} (2)` } },
      ],
    };
  return { toolCalls: [{ name: 'echo', arguments: { text } }] };
};

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer({ script: echoScript, apiKey: 'test-key' });
});
afterAll(async () => {
  await server.close();
});

const models = (): Record<string, Model> => {
  const openai = openAIModel('gpt-test', { apiKey: 'test-key', baseUrl: server.openaiBaseUrl, maxRetries: 0 });
  const anthropic = anthropicModel('claude-test', { apiKey: 'test-key', baseUrl: server.anthropicBaseUrl, maxRetries: 0 });
  if (openai._tag === 'Left' || anthropic._tag === 'Left') throw new Error('cannot make the models');
  return { openai: openai.right, anthropic: anthropic.right };
};

describe.each(['openai', 'anthropic'])('the loop over the %s wire format', (provider) => {
  it('calls the tool, sends the result back paired with its call id, and answers', async () => {
    const model = models()[provider] as Model;
    const { library, calls } = recordingLibrary();
    const before = server.requests.length;
    const r = await runAgent(helper, library, 'hello wire', { model });
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    expect(r.value.content).toBe('echoed: hello wire');
    expect(calls).toEqual([{ tool: 'echo', args: { text: 'hello wire' }, context: undefined }]);
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent.every((x) => x.status === 200)).toBe(true);
    // the provider's call id came back with the result
    const callId = r.value.toolsUsed[0]?.id ?? '';
    expect(callId).toMatch(provider === 'openai' ? /^call_/ : /^toolu_/);
    expect(toolResults(sent[1] as RecordedRequest).map((x) => x.id)).toEqual([callId]);
  });

  it('runs parallel calls and streams text deltas', async () => {
    const model = models()[provider] as Model;
    const deltas: string[] = [];
    const r = await runAgent(helper, recordingLibrary().library, 'twice over', {
      model,
      stream: true,
      onEvent: (e) => {
        if (e.type === 'text-delta') deltas.push(e.delta);
      },
    });
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    expect(r.value.content).toBe('echoed: twice over (1) | twice over (2)');
    expect(deltas.join('')).toBe(r.value.content);
    expect(deltas.length).toBeGreaterThan(1);
  });

  it('holds 50 concurrent conversations without errors or crossed answers', async () => {
    const model = models()[provider] as Model;
    const lib = recordingLibrary().library;
    const inputs = Array.from({ length: 50 }, (_, i) => `conversation number ${i}`);
    const results = await Promise.all(inputs.map((text) => runAgent(helper, lib, text, { model })));
    const failures = results.filter((r) => !r.ok);
    expect(failures.map((r) => (r.ok ? '' : `${r.error.code}: ${r.error.message}`))).toEqual([]);
    expect(results.map((r) => (r.ok ? r.value.content : ''))).toEqual(inputs.map((t) => `echoed: ${t}`));
  });
});

describe('model failures over the wire', () => {
  it('a 401 ends the run with AGENT_LLM_API_ERROR and the status', async () => {
    const bad = openAIModel('gpt-test', { apiKey: 'wrong-key', baseUrl: server.openaiBaseUrl, maxRetries: 0 });
    if (bad._tag === 'Left') throw new Error(bad.left.message);
    const r = await runAgent(helper, recordingLibrary().library, 'hello', { model: bad.right });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.reason).toBe('AGENT_LLM_API_ERROR');
      expect(r.error.status).toBe(401);
      expect(r.error.partial?.steps).toBe(1);
    }
  });
});
