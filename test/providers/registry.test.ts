import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createModel, parseModelId } from '../../src/entries/providers.js';
import { type ModelError } from '../../src/index.js';

const left = (r: ReturnType<typeof createModel>): ModelError => {
  if (r._tag === 'Right') throw new Error(`expected an error, got model ${r.right.id}`);
  return r.left;
};

const dir = mkdtempSync(join(tmpdir(), 'gramkit-registry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createModel', () => {
  it('makes the offline model without a key or network', () => {
    for (const id of ['offline', 'offline/demo']) {
      const r = createModel(id);
      expect(r._tag).toBe('Right');
      if (r._tag === 'Right') expect(r.right.id).toBe(id);
    }
  });
  it('never falls back to offline: a real provider without a key is a AGENT_CONFIGURATION_ERROR', () => {
    const e = left(createModel('openai/gpt-4o-mini'));
    expect(e.reason).toBe('AGENT_CONFIGURATION_ERROR');
    expect(e.message).toContain('OPENAI_API_KEY');
    expect(left(createModel('anthropic/claude-sonnet-4-5', { apiKey: '  ' })).message).toContain('ANTHROPIC_API_KEY');
    expect(left(createModel('gemini/gemini-2.5-flash')).message).toContain('GEMINI_API_KEY');
    expect(left(createModel('gemini/gemini-2.5-flash', { baseUrl: 'http://127.0.0.1:1' })).message).toContain('GEMINI_API_KEY');
    expect(left(createModel('openai-responses/gpt-4.1-mini')).message).toContain('OPENAI_API_KEY');
  });
  it('makes real providers with a key', () => {
    const o = createModel('openai/gpt-4o-mini', { apiKey: 'sk-test' });
    const a = createModel('anthropic/claude-sonnet-4-5', { apiKey: 'sk-ant-test' });
    const g = createModel('gemini/gemini-2.5-flash', { apiKey: 'g-test' });
    const r = createModel('openai-responses/gpt-4.1-mini', { apiKey: 'sk-test' });
    expect(o._tag === 'Right' && o.right.id).toBe('openai/gpt-4o-mini');
    expect(a._tag === 'Right' && a.right.id).toBe('anthropic/claude-sonnet-4-5');
    expect(g._tag === 'Right' && g.right.id).toBe('gemini/gemini-2.5-flash');
    expect(r._tag === 'Right' && r.right.id).toBe('openai-responses/gpt-4.1-mini');
  });
  it('takes a compatible local server without a key (Ollama, llama.cpp)', () => {
    const r = createModel('openai/llama3.2', { baseUrl: 'http://127.0.0.1:11434/v1' });
    expect(r._tag).toBe('Right');
  });
  it('rejects bad model names, bad URLs and bad options, naming them', () => {
    expect(left(createModel('openai/', { apiKey: 'k' })).message).toContain('no model name');
    expect(left(createModel('openai/gpt 4', { apiKey: 'k' })).message).toContain('spaces');
    expect(left(createModel('openai/x', { apiKey: 'k', baseUrl: 'ftp://x' })).message).toContain('http or https');
    expect(left(createModel('openai/x', { apiKey: 'k', baseUrl: 'not a url' })).message).toContain('not a URL');
    expect(left(createModel('openai/x', { apiKey: 'k', timeoutMs: -1 })).message).toContain('timeoutMs');
    expect(left(createModel('openai/x', { apiKey: 'k', maxRetries: 1.5 })).message).toContain('maxRetries');
    expect(left(createModel('openai/x', { apiKey: 'k', strict: true, legacyFunctions: true })).message).toContain('legacyFunctions');
    expect(left(createModel('anthropic/x', { apiKey: 'k', maxTokens: 0 })).message).toContain('maxTokens');
    expect(left(createModel('gemini/', { apiKey: 'k' })).message).toBe('no model name: write gemini/<model>, e.g. gemini/gemini-2.5-flash');
    expect(left(createModel('gemini/x', { apiKey: 'k', baseUrl: 'ftp://x' })).message).toContain('http or https');
    expect(left(createModel('openai-responses/x', { apiKey: 'k', retry: { maxDelayMs: 0 } })).message).toContain('retry.maxDelayMs');
  });
  it('says which forms exist for an unknown id, with a guess', () => {
    const e = left(createModel('gpt-4o'));
    expect(e.reason).toBe('AGENT_CONFIGURATION_ERROR');
    expect(e.message).toContain('did you mean openai/gpt-4o?');
    expect(e.message).toContain('replay:<file>');
    expect(left(createModel('claude-3-haiku')).message).toContain('anthropic/claude-3-haiku');
    expect(left(createModel('gemini-2.5-pro')).message).toContain('did you mean gemini/gemini-2.5-pro?');
    expect(e.message).toContain('openai-responses/<model>');
    expect(e.message).toContain('gemini/<model>');
    expect(left(createModel('mistral/large')).message).toContain('unknown model "mistral/large"');
  });
  it('loads replay files relative to cwd, and reports missing or malformed ones', () => {
    writeFileSync(join(dir, 'ok.json'), JSON.stringify({ format: 'gramkit-replay', version: 1, exchanges: [] }));
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({
        format: 'gramkit-replay',
        version: 1,
        exchanges: [{ request: { messages: [{ role: 'robot', content: 'x' }], tools: [] }, response: { ok: true } }],
      }),
    );
    const r = createModel('replay:ok.json', { cwd: dir });
    expect(r._tag === 'Right' && r.right.id).toBe('replay:ok.json');
    expect(left(createModel('replay:nope.json', { cwd: dir })).message).toBe('replay file nope.json does not exist');
    expect(left(createModel('replay:bad.json', { cwd: dir })).message).toMatch(/replay file bad.json is not a gramkit replay file \(at exchanges\[0\]/);
    expect(left(createModel('replay:')).message).toContain('needs a file');
  });
  it('parses ids', () => {
    expect(parseModelId('openai/gpt-4o-mini')).toEqual({ _tag: 'Right', right: { provider: 'openai', model: 'gpt-4o-mini' } });
    expect(parseModelId('openai/org/model:tag')).toEqual({ _tag: 'Right', right: { provider: 'openai', model: 'org/model:tag' } });
    expect(parseModelId('replay:a/b.json')).toEqual({ _tag: 'Right', right: { provider: 'replay', file: 'a/b.json' } });
    expect(parseModelId('gemini/gemini-2.5-flash')).toEqual({ _tag: 'Right', right: { provider: 'gemini', model: 'gemini-2.5-flash' } });
    expect(parseModelId('openai-responses/gpt-4.1')).toEqual({ _tag: 'Right', right: { provider: 'openai-responses', model: 'gpt-4.1' } });
  });
});
