import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRecording, parseRecording, recordModel, replayModel, serializeRecording, type Recording } from '../../src/entries/providers.js';
import { scriptedModel } from '../../src/entries/testing.js';
import { type ModelRequest } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'gramkit-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tools = [{ name: 'sayHello', description: 'Greets', inputSchema: { type: 'object', properties: { personName: { type: 'string' } } } }] as const;
const first: ModelRequest = { system: 'Be kind.', messages: [{ role: 'user', content: "Hello, I'm Alice" }], tools };

const recorded = async (file: string) => {
  const inner = scriptedModel([{ toolCalls: [{ name: 'sayHello', arguments: { personName: 'Alice' }, id: 'call_1' }] }, { text: 'Hello, Alice!' }]);
  const m = recordModel(inner, file, { cwd: dir });
  const r1 = await m.generate(first);
  if (!r1.ok) throw new Error(r1.error.message);
  const second: ModelRequest = {
    ...first,
    messages: [...first.messages, r1.value.message, { role: 'tool', toolCallId: 'call_1', toolName: 'sayHello', content: '"Hello, Alice!"' }],
  };
  const deltas: string[] = [];
  await m.generate({ ...second, onTextDelta: (d) => deltas.push(d) });
  return { second, deltas };
};

describe('record and replay', () => {
  it('records every exchange to a file that replays them', async () => {
    const { second, deltas } = await recorded('hello.json');
    const recording = loadRecording('hello.json', dir);
    if (recording._tag === 'Left') throw new Error(recording.left.message);
    expect(recording.right.model).toBe('scripted');
    expect(recording.right.exchanges).toHaveLength(2);
    expect(recording.right.exchanges[1]?.textDeltas).toEqual(deltas);
    const replay = replayModel(recording.right);
    const r1 = await replay.generate(first);
    expect(r1.ok && r1.value.message.toolCalls?.[0]?.name).toBe('sayHello');
    const replayed: string[] = [];
    const r2 = await replay.generate({ ...second, onTextDelta: (d) => replayed.push(d) });
    expect(r2.ok && r2.value.message.content).toBe('Hello, Alice!');
    expect(replayed).toEqual(deltas);
  });
  it('the file is indented JSON that round-trips', async () => {
    await recorded('round.json');
    const text = readFileSync(join(dir, 'round.json'), 'utf8');
    const parsed = parseRecording(text);
    if (parsed._tag === 'Left') throw new Error(parsed.left.message);
    expect(serializeRecording(parsed.right)).toBe(text);
    expect(text.split('\n')[1]).toBe('  "format": "gramkit-replay",');
  });
  it('a request the recording does not have is a AGENT_REPLAY_MISMATCH that says where it differs', async () => {
    await recorded('mismatch.json');
    const recording = loadRecording('mismatch.json', dir);
    if (recording._tag === 'Left') throw new Error();
    const r = await replayModel(recording.right).generate({ ...first, messages: [{ role: 'user', content: "Hello, I'm Bob" }] });
    expect(!r.ok && r.error.reason).toBe('AGENT_REPLAY_MISMATCH');
    expect(!r.ok && r.error.message).toBe(
      'request 1 is not in the recording; it differs from recorded exchange 1 at messages[0].content: recorded "Hello, I\'m Alice", got "Hello, I\'m Bob"',
    );
  });
  it('replays in any order (concurrent conversations), and says when the recording is used up', async () => {
    const rec: Recording = {
      format: 'gramkit-replay',
      version: 1,
      exchanges: ['a', 'b'].map((x) => ({
        request: { messages: [{ role: 'user', content: x }], tools: [] },
        response: {
          ok: true,
          value: { message: { role: 'assistant', content: x.toUpperCase() }, finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } },
        },
      })),
    };
    const m = replayModel(rec);
    const [b, a] = await Promise.all([
      m.generate({ messages: [{ role: 'user', content: 'b' }], tools: [] }),
      m.generate({ messages: [{ role: 'user', content: 'a' }], tools: [] }),
    ]);
    expect([b.ok && b.value.message.content, a.ok && a.value.message.content]).toEqual(['B', 'A']);
    const r = await m.generate({ messages: [{ role: 'user', content: 'a' }], tools: [] });
    expect(!r.ok && r.error.message).toBe('request 3 is not in the recording any more: it is recorded exchange 1, which was already replayed');
    const other = await m.generate({ messages: [{ role: 'user', content: 'c' }], tools: [] });
    expect(!other.ok && other.error.message).toBe(
      'request 4 is not in the recording; it differs from recorded exchange 2 at messages[0].content: recorded "b", got "c"',
    );
    const seq = replayModel(rec, { match: 'sequence' });
    const s = await seq.generate({ messages: [{ role: 'user', content: 'anything' }], tools: [] });
    expect(s.ok && s.value.message.content).toBe('A');
  });
  it('replays recorded errors too', async () => {
    const m = recordModel(scriptedModel([{ error: { code: 'AGENT_LLM_API_ERROR', message: 'boom', status: 500, retryable: true } }]), 'errors.json', {
      cwd: dir,
    });
    await m.generate(first);
    const rec = loadRecording('errors.json', dir);
    if (rec._tag === 'Left') throw new Error();
    const r = await replayModel(rec.right).generate(first);
    expect(!r.ok && r.error).toEqual({ code: 'UNAVAILABLE', reason: 'AGENT_LLM_API_ERROR', message: 'boom', status: 500, retryable: true });
  });
  it('fails a call loudly when the recording cannot be written', async () => {
    const ro = join(dir, 'read-only');
    mkdirSync(ro);
    chmodSync(ro, 0o500);
    const m = recordModel(scriptedModel([{ text: 'x' }]), join(ro, 'sub', 'r.json'));
    const r = await m.generate(first);
    chmodSync(ro, 0o700);
    // root may write anywhere: then the recording exists instead
    if (r.ok) expect(loadRecording(join(ro, 'sub', 'r.json'))._tag).toBe('Right');
    else expect(r.error.message).toContain('cannot write the recording');
  });
  it('rejects malformed files with the place of the problem', () => {
    const bad = parseRecording(
      JSON.stringify({
        format: 'gramkit-replay',
        version: 1,
        exchanges: [{ request: { messages: [], tools: [] }, response: { ok: true, value: { message: { role: 'assistant', content: 1 } } } }],
      }),
    );
    expect(bad._tag === 'Left' && bad.left.message).toMatch(/^the recording is not a gramkit replay file \(at exchanges\[0\]\.response/);
    const notJson = parseRecording('{', 'x.json');
    expect(notJson._tag === 'Left' && notJson.left.message).toContain('x.json is not JSON');
    const wrongFormat = parseRecording(JSON.stringify({ format: 'other', version: 1, exchanges: [] }));
    expect(wrongFormat._tag).toBe('Left');
  });
});
