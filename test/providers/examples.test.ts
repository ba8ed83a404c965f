/** The examples of docs/providers.md, run. */
import { describe, expect, it } from 'vitest';
import { anyModel } from '../../examples/providers/any-model.js';
import { dialects } from '../../examples/providers/dialects.js';
import { offlineHello } from '../../examples/providers/offline-hello.js';
import { recordReplay } from '../../examples/providers/record-replay.js';
import { startFakeServer } from '../support/fake-llm-server.js';

describe('provider examples', () => {
  it('offline-hello: calls sayHello with Alice and answers with the greeting', async () => {
    expect(await offlineHello()).toEqual(['call: sayHello {"personName":"Alice"}', 'answer: Hello, Alice! Nice to meet you.']);
    expect(await offlineHello('my name is Bob')).toEqual(['call: sayHello {"personName":"Bob"}', 'answer: Hello, Bob! Nice to meet you.']);
  });
  it('dialects: strict schema, the reverse name map, and normalized arguments', () => {
    const lines = dialects();
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      function: { name: 'greetings_sayHello', strict: true, parameters: { required: ['personName', 'style'], additionalProperties: false } },
    });
    expect(lines[1]).toBe('names: {"greetings_sayHello":"greetings.sayHello"}');
    expect(lines).toContain('normalized: {"style":"casual"}');
    expect(JSON.parse(lines[lines.length - 1] ?? '')).toMatchObject({ name: 'greetings.sayHello', parameters: { propertyOrdering: ['personName', 'style'] } });
  });
  it('record-replay: the replay gives the recorded answer, and names the difference of a new request', async () => {
    expect(await recordReplay()).toEqual([
      'replayed the same answer: true',
      'AGENT_REPLAY_MISMATCH: request 2 is not in the recording; it differs from recorded exchange 1 at messages[0].content: recorded "Hello, I\'m Alice", got "Hello, I\'m Bob"',
    ]);
  });
  it('any-model: offline, a compatible server, Anthropic, and a missing key', async () => {
    expect(await anyModel('offline', {})).toEqual(['offline: calls sayHello {"personName":"Alice"}', 'streamed 0 text deltas']);
    const server = await startFakeServer({
      script: [{ text: 'Hello Alice, nice to meet you!' }, { toolCalls: [{ name: 'sayHello', arguments: { personName: 'Alice' } }] }],
    });
    try {
      expect(await anyModel('openai/llama3.2', {}, server.openaiBaseUrl)).toEqual([
        'openai/llama3.2: Hello Alice, nice to meet you!',
        'streamed 5 text deltas',
      ]);
      expect(await anyModel('anthropic/claude-test', { anthropic: 'k' }, server.anthropicBaseUrl)).toEqual([
        'anthropic/claude-test: calls sayHello {"personName":"Alice"}',
        'streamed 0 text deltas',
      ]);
    } finally {
      await server.close();
    }
    expect(await anyModel('anthropic/claude-sonnet-4-5', {})).toEqual([
      'AGENT_CONFIGURATION_ERROR: no Anthropic API key: set ANTHROPIC_API_KEY (or pass apiKey)',
    ]);
  });
  it('any-model: the OpenAI Responses API with the OpenAI key', async () => {
    const server = await startFakeServer({ script: [{ toolCalls: [{ name: 'sayHello', arguments: { personName: 'Alice' } }] }], apiKey: 'k' });
    try {
      expect(await anyModel('openai-responses/gpt-test', { openai: 'k' }, server.openaiBaseUrl)).toEqual([
        'openai-responses/gpt-test: calls sayHello {"personName":"Alice"}',
        'streamed 0 text deltas',
      ]);
    } finally {
      await server.close();
    }
    expect(await anyModel('openai-responses/gpt-4.1-mini', {})).toEqual([
      'AGENT_CONFIGURATION_ERROR: no OpenAI API key: set OPENAI_API_KEY (or pass apiKey); for a local compatible server, give its base URL',
    ]);
  });
});
