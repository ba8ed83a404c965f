import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/entries/testing.js';

describe('scripted model', () => {
  it('plays its turns in order, records requests, and reports when it runs out', async () => {
    const m = scriptedModel([
      { text: 'one' },
      {
        toolCalls: [
          { name: 't', arguments: { a: 1 } },
          { name: 't', arguments: '{"broken"' },
        ],
      },
    ]);
    const r1 = await m.generate({ messages: [{ role: 'user', content: 'a' }], tools: [] });
    const r2 = await m.generate({ messages: [{ role: 'user', content: 'b' }], tools: [] });
    const r3 = await m.generate({ messages: [{ role: 'user', content: 'c' }], tools: [] });
    expect(r1.ok && r1.value.message).toEqual({ role: 'assistant', content: 'one' });
    expect(r2.ok && r2.value.message.toolCalls).toEqual([
      { id: 'call_s1_0', name: 't', arguments: '{"a":1}' },
      { id: 'call_s1_1', name: 't', arguments: '{"broken"' },
    ]);
    expect(r2.ok && r2.value.finishReason).toBe('tool_calls');
    expect(!r3.ok && r3.error).toMatchObject({
      reason: 'AGENT_CONFIGURATION_ERROR',
      message: 'the scripted model has no turn left: 2 scripted, this is request 3',
    });
    expect(m.requests.map((r) => r.messages[0]?.content)).toEqual(['a', 'b', 'c']);
    expect(m.remaining()).toBe(0);
  });
  it('takes a function of the request', async () => {
    const m = scriptedModel((req, i) => ({ text: `${i}:${req.messages.length}` }), { id: 'mock/echo' });
    const r = await m.generate({
      messages: [
        { role: 'user', content: 'x' },
        { role: 'user', content: 'y' },
      ],
      tools: [],
    });
    expect(r.ok && r.value.message.content).toBe('0:2');
    expect(m.id).toBe('mock/echo');
  });
  it('reports a throwing script as an error, not a rejection', async () => {
    const m = scriptedModel(() => {
      throw new Error('bad script');
    });
    const r = await m.generate({ messages: [], tools: [] });
    expect(!r.ok && r.error.message).toBe('the script function threw: bad script');
  });
  it('waits in delay turns, abortably', async () => {
    const m = scriptedModel([{ delayMs: 10_000, then: { text: 'late' } }]);
    const c = new AbortController();
    setTimeout(() => c.abort(), 20);
    const r = await m.generate({ messages: [], tools: [], signal: c.signal });
    expect(!r.ok && r.error.reason).toBe('AGENT_CANCELLED');
  });
});
