/** The CLI's model wiring for the providers: keys from the environment, `--base-url`, no fallback. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { type FakeServer, lastUserText, startFakeServer, toolResults } from '../support/fake-llm-server.js';

const HELLO = 'examples/helloAgent.gram';

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer({
    apiKey: 'k-test',
    script: (r) => {
      const results = toolResults(r);
      if (results.length > 0) return { text: JSON.parse(results[0]?.content ?? '""') as string };
      const name = /I'm (\w+)/.exec(lastUserText(r))?.[1] ?? 'you';
      return { toolCalls: [{ name: 'sayHello', arguments: { personName: name } }] };
    },
  });
});
afterAll(async () => {
  await server.close();
});

describe('gramkit run with the Gemini and OpenAI Responses providers', () => {
  it('runs the agent on Gemini with GEMINI_API_KEY', async () => {
    const r = await cli(['run', HELLO, "Hello, I'm Erin", '--model', 'gemini/gemini-test', '--base-url', server.geminiBaseUrl], {
      env: { GEMINI_API_KEY: 'k-test' },
    });
    expect(r).toMatchObject({ code: 0, stdout: 'Hello, Erin! Nice to meet you.\n' });
    const last = server.requests[server.requests.length - 1];
    expect([last?.provider, last?.model, last?.headers['x-goog-api-key']]).toEqual(['gemini', 'gemini-test', 'k-test']);
  });
  it('runs the agent on the Responses API with OPENAI_API_KEY', async () => {
    const r = await cli(['run', HELLO, "Hello, I'm Femi", '--model', 'openai-responses/gpt-test', '--base-url', server.openaiBaseUrl], {
      env: { OPENAI_API_KEY: 'k-test' },
    });
    expect(r).toMatchObject({ code: 0, stdout: 'Hello, Femi! Nice to meet you.\n' });
    const last = server.requests[server.requests.length - 1];
    expect([last?.provider, last?.headers['authorization']]).toEqual(['openai-responses', 'Bearer k-test']);
  });
  it('never falls back to the offline model: no GEMINI_API_KEY is an error with a hint', async () => {
    const r = await cli(['run', HELLO, "Hello, I'm Alice", '--model', 'gemini/gemini-2.5-flash'], { env: { OPENAI_API_KEY: 'not-this-one' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error[AGENT_CONFIGURATION_ERROR]: no Gemini API key');
    expect(r.stderr).toContain('hint: set GEMINI_API_KEY in the environment, or run the offline demo model with --model offline');
    const unknown = await cli(['run', HELLO, 'hi', '--model', 'gemini-2.5-flash']);
    expect(unknown.stderr).toContain('did you mean gemini/gemini-2.5-flash?');
  });
});
